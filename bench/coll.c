/* coll.c — collective benchmark, one source for every MPI: latency of MPI_Barrier, Bcast,
 * Allreduce (sum of doubles) and Alltoall from 8 B to 1 MiB. Prints "NAME_npN SIZE MICROSECONDS". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { BARRIER, BCAST, ALLREDUCE, ALLTOALL };
static const char *const names[] = {"barrier", "bcast", "allreduce", "alltoall"};

static char *sbuf, *rbuf;

static void once(int which, int bytes, int np)
{
    switch (which) {
    case BARRIER: MPI_Barrier(MPI_COMM_WORLD); break;
    case BCAST: MPI_Bcast(sbuf, bytes, MPI_BYTE, 0, MPI_COMM_WORLD); break;
    case ALLREDUCE: MPI_Allreduce(sbuf, rbuf, bytes / 8, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); break;
    default: MPI_Alltoall(sbuf, bytes / np, MPI_BYTE, rbuf, bytes / np, MPI_BYTE, MPI_COMM_WORLD); break;
    }
}

/* The slowest rank's mean time per call, best of three runs of iters calls. */
static double measure(int which, int bytes, int np, int iters)
{
    double best = 1e30;
    for (int i = 0; i < iters / 10 + 1; i++) /* warm up */
        once(which, bytes, np);
    for (int rep = 0; rep < 3; rep++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        for (int i = 0; i < iters; i++)
            once(which, bytes, np);
        double t = (MPI_Wtime() - t0) / iters, worst;
        MPI_Allreduce(&t, &worst, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        if (worst < best)
            best = worst;
    }
    return best;
}

int main(int argc, char **argv)
{
    int me, np, max = 1 << 20;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    sbuf = malloc((size_t)max * 2);
    rbuf = malloc((size_t)max * 2);
    memset(sbuf, 0, (size_t)max * 2);
    for (int which = BARRIER; which <= ALLTOALL; which++)
        for (int bytes = 8; bytes <= max; bytes = bytes < max && bytes * 8 > max ? max : bytes * 8) {
            if (which == BARRIER && bytes > 8)
                break;
            /* alltoall: `bytes` is what each rank sends in all; at least one byte per peer */
            int b = which == ALLTOALL && bytes < np ? np : bytes;
            int iters = b <= 4096 ? 2000 : b <= 65536 ? 300 : 40;
            double t = measure(which, b, np, iters);
            if (me == 0)
                printf("%s_np%d %d %.3f\n", names[which], np, which == BARRIER ? 0 : b, t * 1e6);
        }
    free(sbuf);
    free(rbuf);
    MPI_Finalize();
    return 0;
}
