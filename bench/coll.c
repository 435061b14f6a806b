/* coll.c — collective benchmark, one source for every MPI: the latencies the OSU micro-benchmarks
 * define (barrier, bcast, reduce, allreduce, allgather, alltoall, reduce_scatter, and iallreduce
 * started and waited for at once), 4 B to 1 MiB. Prints "NAME_npN SIZE MICROSECONDS". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { BARRIER, BCAST, REDUCE, ALLREDUCE, ALLGATHER, ALLTOALL, REDUCE_SCATTER, IALLREDUCE, NCOLL };
static const char *const names[] = {"barrier",  "bcast",    "reduce",         "allreduce",
                                    "allgather", "alltoall", "reduce_scatter", "iallreduce"};

enum { MAX = 1 << 20 };
static char *sbuf, *rbuf;
static int *counts;

/* One call of collective `which` of `bytes`, as OSU sizes them: the whole message of bcast and
 * the reductions (floats), each process's block of allgather and alltoall; reduce_scatter
 * gives each process an equal share of `bytes`. */
static void once(int which, int bytes, int np)
{
    MPI_Request req;
    switch (which) {
    case BARRIER: MPI_Barrier(MPI_COMM_WORLD); break;
    case BCAST: MPI_Bcast(sbuf, bytes, MPI_BYTE, 0, MPI_COMM_WORLD); break;
    case REDUCE: MPI_Reduce(sbuf, rbuf, bytes / 4, MPI_FLOAT, MPI_SUM, 0, MPI_COMM_WORLD); break;
    case ALLREDUCE: MPI_Allreduce(sbuf, rbuf, bytes / 4, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD); break;
    case ALLGATHER: MPI_Allgather(sbuf, bytes, MPI_BYTE, rbuf, bytes, MPI_BYTE, MPI_COMM_WORLD); break;
    case ALLTOALL: MPI_Alltoall(sbuf, bytes, MPI_BYTE, rbuf, bytes, MPI_BYTE, MPI_COMM_WORLD); break;
    case REDUCE_SCATTER:
        for (int r = 0; r < np; r++)
            counts[r] = bytes / 4 / np;
        MPI_Reduce_scatter(sbuf, rbuf, counts, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
        break;
    default:
        MPI_Iallreduce(sbuf, rbuf, bytes / 4, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        break;
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
    int me, np;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    /* allgather and alltoall: a block of up to MAX bytes per process */
    size_t room = (size_t)MAX * (size_t)np;
    sbuf = malloc(room);
    rbuf = malloc(room);
    counts = malloc(sizeof *counts * (size_t)np);
    memset(sbuf, 0, room);
    memset(rbuf, 0, room);
    for (int which = BARRIER; which < NCOLL; which++)
        for (int bytes = 4; bytes <= MAX; bytes *= 4) {
            if (which == BARRIER && bytes > 4)
                break;
            if (which == REDUCE_SCATTER && bytes / 4 / np == 0)
                continue; /* less than one float per process */
            int iters = bytes <= 4096 ? 1000 : bytes <= 65536 ? 200 : 30;
            if ((which == ALLGATHER || which == ALLTOALL) && bytes > 65536)
                iters = 10; /* np blocks of it per process */
            double t = measure(which, bytes, np, iters);
            if (me == 0)
                printf("%s_np%d %d %.3f\n", names[which], np, which == BARRIER ? 0 : bytes, t * 1e6);
        }
    free(sbuf);
    free(rbuf);
    free(counts);
    MPI_Finalize();
    return 0;
}
