/* mbw_mr.c — multi-pair message rate as the OSU micro-benchmarks' osu_mbw_mr defines it,
 * windowed bandwidth (64 KiB to 4 MiB), multi-pair ping-pong latency (0 to 256 B) and a halo
 * exchange on a ring (8 B), one source for every MPI, any even number of ranks: rank i pairs
 * with rank i + np/2. Prints "NAME SIZE VALUE". */
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

/* What a round repeats: iters iterations of one pattern, on this rank's part. */
struct pattern {
    int me, np, pairs, n; /* rank i < pairs pairs with rank i + pairs; n bytes per message */
    char *buf;
    void (*run)(const struct pattern *p, int iters);
};

/* Runs p in one warm-up round of iters iterations, then ROUNDS timed rounds of as many as
 * fill ROUND_S; returns the time of one iteration, all timed rounds' time (round_time) over
 * all their iterations, in seconds. */
static double per_iteration(const struct pattern *p, int iters)
{
    double total = 0;
    for (int r = 0; r <= ROUNDS; r++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        p->run(p, iters);
        double t = round_time(t0);
        if (r == 0)
            iters = round_iters(iters, t);
        else
            total += t;
    }
    return total / ROUNDS / iters;
}

/* A window: the sender posts WINDOW MPI_Isend of n bytes, the receiver WINDOW MPI_Irecv, both
 * wait for all, then the receiver sends a 4-byte reply. */
static void windows(const struct pattern *p, int iters)
{
    MPI_Request rq[WINDOW];
    int sender = p->me < p->pairs, peer = sender ? p->me + p->pairs : p->me - p->pairs;
    int n = p->n, parts = BUF_BYTES / n < WINDOW ? (int)(BUF_BYTES / n) : WINDOW;
    for (int i = 0; i < iters; i++) {
        int reply = 0;
        for (int w = 0; w < WINDOW; w++) {
            char *b = p->buf + (size_t)(w % parts) * n;
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
}

/* A round trip: rank i < pairs sends n bytes to its partner, which sends them back. */
static void round_trips(const struct pattern *p, int iters)
{
    int first = p->me < p->pairs, peer = first ? p->me + p->pairs : p->me - p->pairs;
    for (int i = 0; i < iters; i++) {
        if (first) {
            MPI_Send(p->buf, p->n, MPI_BYTE, peer, 102, MPI_COMM_WORLD);
            MPI_Recv(p->buf, p->n, MPI_BYTE, peer, 102, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(p->buf, p->n, MPI_BYTE, peer, 102, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(p->buf, p->n, MPI_BYTE, peer, 102, MPI_COMM_WORLD);
        }
    }
}

/* A halo exchange on a ring of all ranks: each sends n bytes to its right neighbour while it
 * receives from its left one (MPI_Sendrecv), then the other way round. */
static void halo_steps(const struct pattern *p, int iters)
{
    int left = (p->me + p->np - 1) % p->np, right = (p->me + 1) % p->np, n = p->n;
    for (int i = 0; i < iters; i++) {
        MPI_Sendrecv(p->buf, n, MPI_BYTE, right, 103, p->buf + n, n, MPI_BYTE, left, 103, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        MPI_Sendrecv(p->buf, n, MPI_BYTE, left, 104, p->buf + 2 * n, n, MPI_BYTE, right, 104, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
    }
}

int main(int argc, char **argv)
{
    int me, np;
    MPI_Init(&argc, &argv);
    setvbuf(stdout, NULL, _IOLBF, 0); /* each figure out at once: a job stopped at bench/run.sh's
                                         time limit keeps those it printed */
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
    struct pattern p = {me, np, pairs, 0, buf, windows};
    /* the aggregate rate: the messages of all pairs over the time of the rounds */
    snprintf(metric, sizeof metric, "mr_%dpair%s_Mps", pairs, pairs > 1 ? "s" : "");
    for (p.n = 8; p.n <= 4096; p.n *= 8) {
        double rate = pairs * WINDOW / per_iteration(&p, 40);
        if (me == 0)
            printf("%s %d %.4f\n", metric, p.n, rate / 1e6);
    }
    /* windowed bandwidth, as osu_bw (and osu_mbw_mr's bytes) define it: the same windows of
     * large messages, in MB/s of all pairs together; one warm-up window sizes the rounds */
    snprintf(metric, sizeof metric, "bw_%dpair%s_MBps", pairs, pairs > 1 ? "s" : "");
    for (p.n = 64 << 10; p.n <= 4 << 20; p.n *= 4) {
        double rate = pairs * WINDOW / per_iteration(&p, 1);
        if (me == 0)
            printf("%s %d %.1f\n", metric, p.n, rate * p.n / 1e6);
    }
    /* one-way latency: half a round trip */
    p.run = round_trips;
    snprintf(metric, sizeof metric, "lat_%dpair%s_us", pairs, pairs > 1 ? "s" : "");
    static const int lat_sizes[] = {0, 8, 64, 256};
    for (int k = 0; k < 4; k++) {
        p.n = lat_sizes[k];
        double s = per_iteration(&p, 200) / 2;
        if (me == 0)
            printf("%s %d %.3f\n", metric, p.n, s * 1e6);
    }
    /* the time of one halo step (both exchanges) */
    p.run = halo_steps;
    p.n = 8;
    snprintf(metric, sizeof metric, "halo_%dranks_us", np);
    double s = per_iteration(&p, 200);
    if (me == 0)
        printf("%s %d %.3f\n", metric, p.n, s * 1e6);
    free(buf);
    MPI_Finalize();
    return 0;
}
