/* region_size.c — prints, on rank 0, the bytes of the node's shared-memory region as this
 * process maps it (/proc/self/maps entries of /dev/shm/switchyard-*), after a message ring. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    int rank, size, token = 0;
    unsigned long lo, hi, total = 0;
    char line[512];
    FILE *f;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size > 1) { /* a token around the ring: every rank has sent and received */
        if (rank == 0)
            MPI_Send(&token, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
        MPI_Recv(&token, 1, MPI_INT, (rank + size - 1) % size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (rank != 0)
            MPI_Send(&token, 1, MPI_INT, (rank + 1) % size, 0, MPI_COMM_WORLD);
    }
    if (rank == 0) {
        f = fopen("/proc/self/maps", "r");
        if (!f)
            MPI_Abort(MPI_COMM_WORLD, 2);
        while (fgets(line, sizeof line, f))
            if (strstr(line, "/switchyard-") && sscanf(line, "%lx-%lx", &lo, &hi) == 2)
                total += hi - lo;
        fclose(f);
        printf("%d %lu\n", size, total);
    }
    MPI_Finalize();
    return 0;
}
