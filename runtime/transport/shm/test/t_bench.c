/* t_bench.c — for information: one-way latency, message rate and streaming bandwidth between
 * ranks 0 and 1 through the shm transport, the receiver copying out like the engine would. */

/* usage: t_bench [-i latency iterations] [-t seconds per bandwidth size] [-c: buffers cycle
 * through 256 MiB on each side, so that the bandwidth is not the cache's] */
#define _GNU_SOURCE
#include "tenv.h"
#include "shm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CTX 5
#define WINDOW 8

#define POOL (256u << 20)       /* -c: buffers cycle through this much memory (cache-cold) */

static unsigned char *rbuf;     /* where the receiver puts the next message */
static unsigned char *rpool;    /* receive memory */
static size_t rpool_bytes, rpool_off;
static size_t cur_len;          /* bandwidth: message length (advances rbuf) */
static long arrived;            /* messages fully received */
static int done_sends;
static int stopped;             /* the "stop" message (tag 1) arrived */

/* The next receive buffer: the same one, or (-c) the next piece of the pool. */
static void next_rbuf(void)
{
    if (rpool_bytes > (4u << 20) && cur_len) {
        rpool_off += cur_len;
        if (rpool_off + cur_len > rpool_bytes)
            rpool_off = 0;
        rbuf = rpool + rpool_off;
    }
}

static void on_incoming(int src, const rt_msg_hdr *h, const void *data, uint64_t token)
{
    int rc;

    if (data) {
        if (h->len)
            memcpy(rbuf, data, (size_t)h->len); /* the engine's copy into the user buffer */
        next_rbuf();
        if (h->tag == 1)
            stopped = 1;
        else
            arrived++;
        return;
    }
    rc = rt_tp_shm.recv_large(src, h->ctx, token, rbuf, (size_t)h->len, NULL);
    next_rbuf();
    TCHECK(rc == 0 || rc == RT_TP_PENDING, "recv_large: %d", rc);
    if (rc == 0)
        arrived++;
}

static void on_send_done(void *sreq, int err)
{
    (void)sreq;
    TCHECK(err == 0, "send_done: %d", err);
    done_sends++;
}

static void on_recv_done(void *rreq, int err)
{
    (void)rreq;
    TCHECK(err == 0, "recv_done: %d", err);
    arrived++;
}

static void on_peer_failed(int rank)
{
    tfail("peer_failed(%d)", rank);
}

static void await(long n)
{
    while (arrived < n)
        tenv_step();
}

static int cmp_ll(const void *a, const void *b)
{
    long long x = *(const long long *)a, y = *(const long long *)b;

    return (x > y) - (x < y);
}

/* Ping-pong of len bytes: one-way latency in ns (half the round trip): median, 99th
 * percentile and mean over the iterations. */
static void latency(size_t len, int iters, const unsigned char *sbuf, double *median, double *p99,
                    double *mean)
{
    int me = T.rank, other = 1 - me, i;
    rt_msg_hdr h = { CTX, me, 0, 0, 0, (int64_t)len };
    long long *rtt = malloc((size_t)iters * sizeof *rtt), t0 = 0, t;

    TCHECK(rtt != NULL, "malloc");
    for (i = -iters / 10; i < iters; i++) {
        t = tenv_now_ns();
        if (i == 0)
            t0 = t;
        arrived = 0;
        if (me == 0) {
            tenv_send(other, &h, sbuf, len, NULL);
            await(1);
        } else {
            await(1);
            tenv_send(other, &h, sbuf, len, NULL);
        }
        if (i >= 0)
            rtt[i] = tenv_now_ns() - t;
    }
    *mean = (double)(tenv_now_ns() - t0) / iters / 2;
    qsort(rtt, (size_t)iters, sizeof *rtt, cmp_ll);
    *median = (double)rtt[iters / 2] / 2;
    *p99 = (double)rtt[iters - iters / 100 - 1] / 2;
    free(rtt);
}

/* Rank 0 streams messages of len bytes for about `secs`; rank 1 receives. MB/s. */
static double bandwidth(size_t len, double secs, const unsigned char *spool, size_t spool_bytes)
{
    size_t soff = 0;
    const unsigned char *sbuf = spool;
    rt_msg_hdr h = { CTX, T.rank, 0, 0, 0, (int64_t)len };
    rt_msg_hdr stop = { CTX, T.rank, 1, 0, 0, 0 };
    long long t0, t1;
    long n = 0, posted = 0;

    arrived = 0;
    done_sends = 0;
    stopped = 0;
    cur_len = len;
    rpool_off = 0;
    rbuf = rpool;
    t0 = tenv_now_ns();
    if (T.rank == 0) {
        do {
            int rc;

            while (posted - done_sends >= WINDOW)
                tenv_step();
            rc = tenv_send(1, &h, sbuf, len, NULL);
            posted += rc == RT_TP_PENDING;
            if (spool_bytes > (4u << 20)) { /* -c: the next piece of the pool */
                soff = soff + 2 * len > spool_bytes ? 0 : soff + len;
                sbuf = spool + soff;
            }
            n++;
            t1 = tenv_now_ns();
        } while ((double)(t1 - t0) < secs * 1e9 || n < 4);
        while (done_sends < posted)
            tenv_step();
        tenv_send(1, &stop, NULL, 0, NULL);
        while (!stopped) /* rank 1's answer: everything is in place */
            tenv_step();
        t1 = tenv_now_ns();
        return (double)n * (double)len / ((double)(t1 - t0) / 1e9) / 1e6;
    }
    while (!stopped)
        tenv_step();
    tenv_send(0, &stop, NULL, 0, NULL);
    return 0;
}

int main(int argc, char **argv)
{
    static const size_t lat_sizes[] = { 0, 8, 64, 1024, 8192, 16384, 32768, 65536, 1 << 20, 4 << 20 };
    static const size_t bw_sizes[] = { 4096, 16384, 32768, 65536, 262144, 1 << 20, 4 << 20 };
    int iters = 20000, c, cold = 0;
    size_t pool;
    double secs = 0.5;
    unsigned char *sbuf;
    size_t i;

    while ((c = getopt(argc, argv, "ci:t:")) != -1) {
        if (c == 'c')
            cold = 1;
        else if (c == 'i')
            iters = atoi(optarg);
        else if (c == 't')
            secs = atof(optarg);
        else
            return 2;
    }
    tenv_init(1, on_incoming, on_send_done, on_recv_done, on_peer_failed);
    pool = cold ? POOL : 4u << 20;
    sbuf = malloc(pool);
    rbuf = rpool = malloc(pool);
    rpool_bytes = pool;
    TCHECK(sbuf && rbuf, "malloc");
    memset(sbuf, 1, pool);
    memset(rbuf, 2, pool);
    if (T.rank < 2 && T.size >= 2) {
        const char *mode = shm_g.cma ? "CMA" : "no CMA";

        for (i = 0; i < sizeof lat_sizes / sizeof *lat_sizes; i++) {
            double med, p99, mean;

            latency(lat_sizes[i], iters, sbuf, &med, &p99, &mean);
            if (T.rank == 0)
                printf("latency %7zu B: one-way %6.2f us median, %6.2f us p99, %6.2f us mean\n",
                       lat_sizes[i], med / 1e3, p99 / 1e3, mean / 1e3);
        }
        for (i = 0; i < 3; i++) {
            double mbs = bandwidth(8, secs, sbuf, pool);

            if (T.rank == 0)
                printf("message rate   8 B: %8.2f M messages/s\n", mbs / 8);
        }
        for (i = 0; i < sizeof bw_sizes / sizeof *bw_sizes; i++) {
            double mbs = bandwidth(bw_sizes[i], secs, sbuf, pool);

            if (T.rank == 0)
                printf("bandwidth %7zu B: %8.0f MB/s (%s, %s buffers)\n", bw_sizes[i], mbs,
                       bw_sizes[i] <= rt_tp_shm.eager_max ? "eager" : mode,
                       cold ? "cold 256 MiB" : "hot, reused");
        }
        fflush(stdout);
    }
    free(sbuf);
    free(rpool);
    tenv_finalize();
    return 0;
}
