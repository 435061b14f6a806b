/* types.c — datatype benchmark, one source for every MPI: MPI_Pack/MPI_Unpack throughput of
 * a strided vector (1 of every 2 doubles), and a ping-pong of that vector between 2 ranks. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static void sync2(int me)
{
    int x = 0;
    MPI_Sendrecv_replace(&x, 1, MPI_INT, 1 - me, 9, 1 - me, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

int main(int argc, char **argv)
{
    int me;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    int maxn = 1 << 19; /* doubles of data: 4 MiB */
    double *src = malloc(sizeof(double) * 2 * (size_t)maxn), *dst = malloc(sizeof(double) * 2 * (size_t)maxn);
    char *packed = malloc(sizeof(double) * (size_t)maxn);
    for (int i = 0; i < 2 * maxn; i++)
        src[i] = i;
    for (int n = 128; n <= maxn; n *= 4) {
        MPI_Datatype vec;
        MPI_Type_vector(n, 1, 2, MPI_DOUBLE, &vec);
        MPI_Type_commit(&vec);
        int bytes = n * (int)sizeof(double), iters = n < 65536 ? 2000 : 100;
        if (me == 0) {
            double best_p = 1e9, best_u = 1e9;
            for (int rep = 0; rep < 3; rep++) {
                double t0 = MPI_Wtime();
                for (int i = 0; i < iters; i++) {
                    int pos = 0;
                    MPI_Pack(src, 1, vec, packed, bytes, &pos, MPI_COMM_WORLD);
                }
                double t1 = MPI_Wtime();
                for (int i = 0; i < iters; i++) {
                    int pos = 0;
                    MPI_Unpack(packed, bytes, &pos, dst, 1, vec, MPI_COMM_WORLD);
                }
                double t2 = MPI_Wtime();
                if ((t1 - t0) / iters < best_p)
                    best_p = (t1 - t0) / iters;
                if ((t2 - t1) / iters < best_u)
                    best_u = (t2 - t1) / iters;
            }
            printf("pack_MBps %d %.1f\nunpack_MBps %d %.1f\n", bytes, bytes / best_p / 1e6, bytes, bytes / best_u / 1e6);
        }
        int pp = n < 65536 ? 1000 : 50;
        double best = 1e9;
        for (int rep = 0; rep < 3; rep++) {
            sync2(me);
            double t0 = MPI_Wtime();
            for (int i = 0; i < pp; i++) {
                if (me == 0) {
                    MPI_Send(src, 1, vec, 1, 0, MPI_COMM_WORLD);
                    MPI_Recv(dst, 1, vec, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                } else {
                    MPI_Recv(dst, 1, vec, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                    MPI_Send(dst, 1, vec, 0, 0, MPI_COMM_WORLD);
                }
            }
            double t = (MPI_Wtime() - t0) / pp / 2;
            if (t < best)
                best = t;
        }
        if (me == 0)
            printf("vector_latency_us %d %.3f\nvector_bandwidth_MBps %d %.1f\n", bytes, best * 1e6, bytes, bytes / best / 1e6);
        MPI_Type_free(&vec);
    }
    free(src);
    free(dst);
    free(packed);
    MPI_Finalize();
    return 0;
}
