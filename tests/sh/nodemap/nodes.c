/* nodes.c — an MPI job that needs the node map: the processes MPI_Comm_split_type puts on
 * one node, and an allreduce through the transports; rank 0 prints "nodes ok: N ranks". */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size, local, sum = 0;
    MPI_Comm node;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    MPI_Comm_size(node, &local);
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (local != size || sum != size * (size - 1) / 2) {
        printf("rank %d: %d ranks on my node, sum %d\n", rank, local, sum);
        return 1;
    }
    MPI_Comm_free(&node);
    MPI_Finalize();
    if (rank == 0)
        printf("nodes ok: %d ranks\n", size);
    return 0;
}
