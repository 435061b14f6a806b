/* init_finalize: MPI_Initialized/MPI_Finalized around MPI_Init(NULL, NULL)
 * and MPI_Finalize; size and rank of MPI_COMM_WORLD and MPI_COMM_SELF. */
#include "check.h"

int main(void)
{
    int flag, size, rank;

    CHECK_SUCCESS(MPI_Initialized(&flag));
    CHECK_EQ_INT(flag, 0);
    CHECK_SUCCESS(MPI_Finalized(&flag));
    CHECK_EQ_INT(flag, 0);

    CHECK_SUCCESS(MPI_Init(NULL, NULL));
    CHECK_SUCCESS(MPI_Initialized(&flag));
    CHECK_EQ_INT(flag, 1);
    CHECK_SUCCESS(MPI_Finalized(&flag));
    CHECK_EQ_INT(flag, 0);

    CHECK_SUCCESS(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK_EQ_INT(size, 1);
    CHECK_SUCCESS(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_EQ_INT(rank, 0);
    CHECK_SUCCESS(MPI_Comm_size(MPI_COMM_SELF, &size));
    CHECK_EQ_INT(size, 1);
    CHECK_SUCCESS(MPI_Comm_rank(MPI_COMM_SELF, &rank));
    CHECK_EQ_INT(rank, 0);

    CHECK_SUCCESS(MPI_Finalize());
    CHECK_SUCCESS(MPI_Initialized(&flag));
    CHECK_EQ_INT(flag, 1); /* stays true after MPI_Finalize */
    CHECK_SUCCESS(MPI_Finalized(&flag));
    CHECK_EQ_INT(flag, 1);
    return 0;
}
