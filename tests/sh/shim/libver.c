/* libver.c — for the shim tests (abi_backend_*.sh): an allreduce, a message with wildcards and
 * its status, and rank 0 prints the first line of MPI_Get_library_version as 'library: ...'. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
int main(int argc, char **argv)
{
    char v[MPI_MAX_LIBRARY_VERSION_STRING];
    int len, rank, size, sum, got = -1, count = -1;
    MPI_Status st;
    MPI_Init(&argc, &argv);
    MPI_Get_library_version(v, &len);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        MPI_Send(&sum, 1, MPI_INT, size - 1, 7, MPI_COMM_WORLD);
    if (rank == size - 1) {
        MPI_Recv(&got, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
        MPI_Get_count(&st, MPI_INT, &count);
        if (got != size * (size - 1) / 2 || st.MPI_SOURCE != 0 || st.MPI_TAG != 7 || count != 1)
            return printf("bad receive: %d from %d tag %d count %d\n", got, st.MPI_SOURCE, st.MPI_TAG, count), 1;
    }
    if (rank == 0)
        printf("library: %.*s\n", (int)strcspn(v, "\n"), v);
    MPI_Finalize();
    return 0;
}
