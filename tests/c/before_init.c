/* before_init: MPI_Comm_rank called before MPI_Init must end the program
 * with exit 1 and a message naming MPI_Comm_rank and MPI_Init (Switchyard). */
#include "check.h"

int main(void)
{
    int rank = -1;

    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    fprintf(stderr, "before_init: MPI_Comm_rank returned (rank %d)\n", rank);
    return 2;
}
