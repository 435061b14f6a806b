/* percall.c — the cost of the cheapest calls, one source for every MPI and face: ns per
 * MPI_Comm_rank, MPI_Comm_size, MPI_Type_size and MPI_Wtime called in a loop (best of 7
 * rounds, as bench/shim.c, after a pass of them all unmeasured). One rank. Prints
 * "NAME 0 VALUE" (bench/percall.f90 is the same). */
#include <mpi.h>
#include <stdio.h>

#define ROUNDS 7
#define ITERS 1000000

/* Best of ROUNDS rounds of ITERS calls of call number which: ns per call. */
static double call_ns(int which)
{
    double best = 1e30, acc = 0;
    int v = 0;
    for (int k = 0; k < ROUNDS; k++) {
        double t0 = MPI_Wtime();
        for (int i = 0; i < ITERS; i++) {
            switch (which) {
            case 0: MPI_Comm_rank(MPI_COMM_WORLD, &v); break;
            case 1: MPI_Comm_size(MPI_COMM_WORLD, &v); break;
            case 2: MPI_Type_size(MPI_DOUBLE, &v); break;
            default: acc += MPI_Wtime(); break;
            }
            __asm__ volatile("" ::: "memory"); /* the call is made every time */
        }
        double t = (MPI_Wtime() - t0) / ITERS * 1e9;
        best = t < best ? t : best;
    }
    return best + (v + acc) * 0.0;
}

int main(int argc, char **argv)
{
    static const char *names[] = {"comm_rank_ns", "comm_size_ns", "type_size_ns", "wtime_ns"};
    MPI_Init(&argc, &argv);
    /* A first pass unmeasured: whichever call is timed first runs about one cycle per call
     * slower, on every MPI (the same calls in another order showed it). */
    for (int pass = 0; pass < 2; pass++)
        for (int which = 0; which < 4; which++) {
            double ns = call_ns(which);
            if (pass)
                printf("%s 0 %.3f\n", names[which], ns);
        }
    MPI_Finalize();
    return 0;
}
