/* fatal_default: under the default MPI_ERRORS_ARE_FATAL, MPI_Comm_size on
 * MPI_COMM_NULL ends the program with exit 1 and names MPI_Comm_size. */
#include "check.h"

int main(void)
{
    int size = -1;

    CHECK_SUCCESS(MPI_Init(NULL, NULL));
    MPI_Comm_size(MPI_COMM_NULL, &size);
    fprintf(stderr, "fatal_default: MPI_Comm_size returned (size %d)\n", size);
    return 2;
}
