/* p2p.c — point-to-point benchmark, one source for every MPI: ping-pong latency and
 * bandwidth from 0 B to 4 MiB, windowed bandwidth as the OSU micro-benchmarks' osu_bw defines
 * it, and the rate of small messages. Prints "NAME SIZE VALUE". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Both ranks leave together (point-to-point only, so it measures the same on every MPI). */
static void sync2(int me)
{
    int x = 0;
    MPI_Sendrecv_replace(&x, 1, MPI_INT, 1 - me, 9, 1 - me, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

static double pingpong(int me, char *buf, int n, int iters)
{
    sync2(me);
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
    return (MPI_Wtime() - t0) / iters / 2; /* one way */
}

int main(int argc, char **argv)
{
    int me;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    int max = 4 << 20;
    char *buf = malloc((size_t)max);
    memset(buf, 1, (size_t)max);
    for (int n = 0; n <= max; n = n ? n * 4 : 1) {
        int iters = n < 65536 ? 2000 : n < (1 << 20) ? 300 : 60;
        pingpong(me, buf, n, iters / 10); /* warm up */
        double best = 1e9;
        for (int rep = 0; rep < 3; rep++) {
            double t = pingpong(me, buf, n, iters);
            if (t < best)
                best = t;
        }
        if (me == 0) {
            printf("latency_us %d %.3f\n", n, best * 1e6);
            if (n >= 1024)
                printf("bandwidth_MBps %d %.1f\n", n, n / best / 1e6);
        }
    }
    /* windowed bandwidth (osu_bw): 64 sends in flight from rank 0, 64 receives posted at rank
     * 1, then a 4-byte acknowledgement; best of 3 */
    enum { BW_WINDOW = 64 };
    MPI_Request wr[BW_WINDOW];
    for (int n = 1024; n <= max; n *= 4) {
        int iters = n <= 65536 ? 100 : n <= (1 << 20) ? 20 : 5;
        double best = 1e9;
        for (int rep = 0; rep < 4; rep++) { /* the first one warms up */
            sync2(me);
            double t0 = MPI_Wtime();
            for (int i = 0; i < iters; i++) {
                int ack = 0;
                for (int w = 0; w < BW_WINDOW; w++) {
                    if (me == 0)
                        MPI_Isend(buf, n, MPI_BYTE, 1, 100, MPI_COMM_WORLD, &wr[w]);
                    else
                        MPI_Irecv(buf, n, MPI_BYTE, 0, 100, MPI_COMM_WORLD, &wr[w]);
                }
                MPI_Waitall(BW_WINDOW, wr, MPI_STATUSES_IGNORE);
                if (me == 0)
                    MPI_Recv(&ack, 1, MPI_INT, 1, 101, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                else
                    MPI_Send(&ack, 1, MPI_INT, 0, 101, MPI_COMM_WORLD);
            }
            double t = MPI_Wtime() - t0;
            if (rep > 0 && t < best)
                best = t;
        }
        if (me == 0)
            printf("window_bw_MBps %d %.1f\n", n, (double)n * BW_WINDOW * iters / best / 1e6);
    }
    /* message rate: windows of 64 nonblocking 8-byte sends */
    enum { WINDOW = 64, ROUNDS = 2000 };
    MPI_Request rq[WINDOW];
    char small[WINDOW][8];
    for (int rep = 0; rep < 2; rep++) {
        sync2(me);
        double t0 = MPI_Wtime();
        for (int r = 0; r < ROUNDS; r++) {
            for (int w = 0; w < WINDOW; w++) {
                if (me == 0)
                    MPI_Isend(small[w], 8, MPI_BYTE, 1, w, MPI_COMM_WORLD, &rq[w]);
                else
                    MPI_Irecv(small[w], 8, MPI_BYTE, 0, w, MPI_COMM_WORLD, &rq[w]);
            }
            MPI_Waitall(WINDOW, rq, MPI_STATUSES_IGNORE);
        }
        sync2(me);
        double t = MPI_Wtime() - t0;
        if (me == 0 && rep == 1)
            printf("msgrate_Mps 8 %.3f\n", (double)WINDOW * ROUNDS / t / 1e6);
    }
    free(buf);
    MPI_Finalize();
    return 0;
}
