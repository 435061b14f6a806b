/* mbw_mr.c — multi-pair message rate as the OSU micro-benchmarks' osu_mbw_mr defines it,
 * windowed bandwidth (64 KiB to 4 MiB) and multi-pair ping-pong latency (0 to 256 B), one
 * source for every MPI, any even number of ranks: rank i pairs with rank i + np/2. Prints
 * "NAME SIZE VALUE". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WINDOW 64
#define BUF_BYTES (16u << 20) /* a rank's buffer: a window's messages take their own part of
                               * it while they fit, then share parts (as osu_bw shares one) */
#define ROUNDS 5      /* timed rounds per figure, after one warm-up round; a figure is their mean
                       * (all their messages over all their time, as OSU's) */
#define ROUND_S 0.02  /* a timed round lasts about this long (seconds), at least one time
                       * slice of the scheduler, whatever the MPI's speed */

/* The iterations of a timed round: the warm-up round's (iters in t seconds, the same t on
 * every rank) scaled to ROUND_S. */
static int round_iters(int iters, double t)
{
    int n = t > 0 ? (int)(iters * ROUND_S / t) : iters;
    return n < 1 ? 1 : n;
}

/* Ends a round that every rank began at t0 (its exit from a barrier): the time from the
 * earliest start to the end of the slowest pair, the same on every rank. Every pair's work
 * counts in it, so a pair that starts late (its ranks were asleep while others ran, as when
 * ranks outnumber cores) makes the round longer, not shorter. */
static double round_time(double t0)
{
    double t, longest;
    MPI_Barrier(MPI_COMM_WORLD);
    t = MPI_Wtime() - t0;
    MPI_Allreduce(&t, &longest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return longest;
}

/* Ranks 0..P-1 send, rank i + P receives from rank i (P = pairs). A round is iters windows
 * (the warm-up round's; then as many as fill ROUND_S):
 * the sender posts WINDOW MPI_Isend of n bytes, the receiver WINDOW MPI_Irecv, both wait for
 * all, then the receiver sends a 4-byte reply. Returns the aggregate rate: the messages of all
 * pairs in the timed rounds over their time (round_time). */
static double msgrate(int me, int pairs, char *buf, int n, int iters)
{
    MPI_Request rq[WINDOW];
    int sender = me < pairs, peer = sender ? me + pairs : me - pairs;
    int parts = BUF_BYTES / n < WINDOW ? (int)(BUF_BYTES / n) : WINDOW;
    double total = 0;
    for (int r = 0; r <= ROUNDS; r++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        for (int i = 0; i < iters; i++) {
            int reply = 0;
            for (int w = 0; w < WINDOW; w++) {
                char *b = buf + (size_t)(w % parts) * n;
                if (sender)
                    MPI_Isend(b, n, MPI_BYTE, peer, 100, MPI_COMM_WORLD, &rq[w]);
                else
                    MPI_Irecv(b, n, MPI_BYTE, peer, 100, MPI_COMM_WORLD, &rq[w]);
            }
            MPI_Waitall(WINDOW, rq, MPI_STATUSES_IGNORE);
            if (sender)
                MPI_Recv(&reply, 1, MPI_INT, peer, 101, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            else
                MPI_Send(&reply, 1, MPI_INT, peer, 101, MPI_COMM_WORLD);
        }
        double t = round_time(t0);
        if (r == 0)
            iters = round_iters(iters, t);
        else
            total += t;
    }
    return (double)pairs * WINDOW * iters * ROUNDS / total;
}

/* Every pair ping-pongs n bytes iters times at once (the warm-up round; then as many times as
 * fill ROUND_S); returns the one-way latency (half a round trip) that the timed rounds' time
 * (round_time) gives each pair, in seconds. */
static double latency(int me, int pairs, char *buf, int n, int iters)
{
    int first = me < pairs, peer = first ? me + pairs : me - pairs;
    double total = 0;
    for (int r = 0; r <= ROUNDS; r++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        for (int i = 0; i < iters; i++) {
            if (first) {
                MPI_Send(buf, n, MPI_BYTE, peer, 102, MPI_COMM_WORLD);
                MPI_Recv(buf, n, MPI_BYTE, peer, 102, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else {
                MPI_Recv(buf, n, MPI_BYTE, peer, 102, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Send(buf, n, MPI_BYTE, peer, 102, MPI_COMM_WORLD);
            }
        }
        double t = round_time(t0);
        if (r == 0)
            iters = round_iters(iters, t);
        else
            total += t;
    }
    return total / ROUNDS / iters / 2;
}

int main(int argc, char **argv)
{
    int me, np;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    int pairs = np / 2;
    if (np % 2) {
        if (me == 0)
            fprintf(stderr, "mbw_mr: needs an even number of ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    char *buf = malloc(BUF_BYTES);
    memset(buf, 1, BUF_BYTES);
    char metric[64];
    snprintf(metric, sizeof metric, "mr_%dpair%s_Mps", pairs, pairs > 1 ? "s" : "");
    for (int n = 8; n <= 4096; n *= 8) {
        double rate = msgrate(me, pairs, buf, n, 40);
        if (me == 0)
            printf("%s %d %.4f\n", metric, n, rate / 1e6);
    }
    /* windowed bandwidth, as osu_bw (and osu_mbw_mr's bytes) define it: the same windows of
     * large messages, in MB/s of all pairs together; one warm-up window sizes the rounds */
    snprintf(metric, sizeof metric, "bw_%dpair%s_MBps", pairs, pairs > 1 ? "s" : "");
    for (int n = 64 << 10; n <= 4 << 20; n *= 4) {
        double rate = msgrate(me, pairs, buf, n, 1);
        if (me == 0)
            printf("%s %d %.1f\n", metric, n, rate * n / 1e6);
    }
    snprintf(metric, sizeof metric, "lat_%dpair%s_us", pairs, pairs > 1 ? "s" : "");
    static const int lat_sizes[] = {0, 8, 64, 256};
    for (int k = 0; k < 4; k++) {
        double s = latency(me, pairs, buf, lat_sizes[k], 200);
        if (me == 0)
            printf("%s %d %.3f\n", metric, lat_sizes[k], s * 1e6);
    }
    free(buf);
    MPI_Finalize();
    return 0;
}
