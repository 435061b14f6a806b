/* shim.c — the standard-ABI shim's cost, one source for every MPI: ns per MPI_Comm_rank and
 * per MPI_Type_size (best of 7 rounds) and one-way ping-pong latency for 0, 8 and 64 B in us
 * (best of 7). Prints "NAME SIZE VALUE". Built once with mpicc_abi and run on each backend, and
 * built natively against the backend, so that the difference is the shim. */
#include <mpi.h>
#include <stdio.h>

#define ROUNDS 7

static double call_ns(int which, int iters)
{
    double best = 1e30;
    int r = 0, sz = 0;
    for (int k = 0; k < ROUNDS; k++) {
        double t0 = MPI_Wtime();
        for (int i = 0; i < iters; i++) {
            if (which)
                MPI_Type_size(MPI_DOUBLE, &sz);
            else
                MPI_Comm_rank(MPI_COMM_WORLD, &r);
            __asm__ volatile("" ::: "memory"); /* the call is made every time */
        }
        double t = (MPI_Wtime() - t0) / iters * 1e9;
        best = t < best ? t : best;
    }
    return best + (r + sz) * 0.0;
}

static double pingpong_us(int me, int n, int iters)
{
    static char buf[64];
    double best = 1e30;
    for (int k = 0; k < ROUNDS; k++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        for (int i = 0; i < iters; i++) {
            if (me == 0) {
                MPI_Send(buf, n, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
                MPI_Recv(buf, n, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else {
                MPI_Recv(buf, n, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Send(buf, n, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
            }
        }
        double t = (MPI_Wtime() - t0) / iters / 2 * 1e6;
        best = t < best ? t : best;
    }
    return best;
}

int main(int argc, char **argv)
{
    int me, np;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    double rank_ns = call_ns(0, 2000000), size_ns = call_ns(1, 2000000);
    if (me == 0) {
        printf("comm_rank_ns 0 %.3f\n", rank_ns);
        printf("type_size_ns 0 %.3f\n", size_ns);
    }
    for (int n = 0; np == 2 && n <= 64; n = n ? n * 8 : 8) {
        double us = pingpong_us(me, n, 20000);
        if (me == 0)
            printf("latency_us %d %.3f\n", n, us);
    }
    MPI_Finalize();
    return 0;
}
