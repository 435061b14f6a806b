/* t_bell.c — test that the doorbell never misses a wake-up: ranks in pairs wait for arrivals
 * and for room with wait(-1); one lasting the transport's longest sleep fails the test. */

/* usage: t_bell [-i iterations]. The partner sends (or drains a full ring) after a random
 * 0..300 us delay, so most waits end through the futex. */
#define _GNU_SOURCE
#include "tenv.h"
#include "shm.h" /* white box: SHM_WAIT_MAX_NS */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define CTX 3

static long got[4];             /* messages received, by tag: 0 ping-pong, 1 filler, 2 end of
                                 * a round, 3 its answer */
static int missed, waits;
static uint64_t rs;

static void on_incoming(int src, const rt_msg_hdr *h, const void *data, uint64_t token)
{
    (void)src;
    (void)h;
    (void)data;
    TCHECK(token == 0 && h->tag >= 0 && h->tag < 4, "unexpected message");
    got[h->tag]++;
}

static void on_done(void *req, int err)
{
    (void)req;
    tfail("no large messages here (err %d)", err);
}

static void on_peer_failed(int rank)
{
    tfail("peer_failed(%d)", rank);
}

/* One wait without a timeout of ours; counts it when it lasted the longest sleep. */
static void wait_once(void)
{
    long long t = tenv_now_ns();

    rt_tp_shm.wait(-1);
    waits++;
    if (tenv_now_ns() - t >= SHM_WAIT_MAX_NS)
        missed++;
}

/* Spins, sleeps or yields for a random 0..300 us, so the partner is often asleep by then. */
static void delay(void)
{
    uint64_t r = tenv_rand(&rs);
    long ns = (long)(r % 300000);
    long long t0 = tenv_now_ns();

    if (r >> 60 < 8) {
        struct timespec ts = { 0, ns };
        nanosleep(&ts, NULL);
    } else {
        while (tenv_now_ns() - t0 < ns)
            ;
    }
}

static void await(int tag, long n)
{
    while (got[tag] < n)
        if (rt_tp_shm.progress() == 0)
            wait_once();
}

static void send8(int dst, int tag)
{
    rt_msg_hdr h = { CTX, T.rank, tag, 0, 0, 8 };
    char v[8] = { 0 };
    int rc;

    while ((rc = rt_tp_shm.send(dst, &h, v, 8, NULL)) == RT_TP_AGAIN)
        if (rt_tp_shm.progress() == 0)
            wait_once();
    TCHECK(rc == 0, "send: %d", rc);
}

int main(int argc, char **argv)
{
    int iters = 300, c, i, rc, partner;
    static char blob[1024];
    rt_msg_hdr h = { CTX, 0, 1, 0, 0, sizeof blob };

    while ((c = getopt(argc, argv, "i:")) != -1)
        if (c == 'i')
            iters = atoi(optarg);
    tenv_init(1, on_incoming, on_done, on_done, on_peer_failed);
    rs = (uint64_t)T.rank * 7919 + 1;
    partner = T.rank ^ 1;
    h.src = T.rank;
    if (partner < T.size) {
        /* arrivals: ping-pong with a random delay before each send */
        for (i = 1; i <= iters; i++) {
            if (T.rank % 2 == 0) {
                delay();
                send8(partner, 0);
                await(0, i);
            } else {
                await(0, i);
                delay();
                send8(partner, 0);
            }
        }
        /* room: the even rank fills the ring and waits for room; the odd one drains late */
        for (i = 1; i <= iters / 10; i++) {
            if (T.rank % 2 == 0) {
                while ((rc = rt_tp_shm.send(partner, &h, blob, sizeof blob, NULL)) == 0)
                    ;
                TCHECK(rc == RT_TP_AGAIN, "flood: %d", rc);
                while ((rc = rt_tp_shm.send(partner, &h, blob, sizeof blob, NULL)) == RT_TP_AGAIN)
                    if (rt_tp_shm.progress() == 0)
                        wait_once();
                TCHECK(rc == 0, "send: %d", rc);
                send8(partner, 2);
                await(3, i);
            } else {
                delay();
                await(2, i);
                send8(partner, 3);
            }
        }
    }
    TCHECK(missed == 0, "%d of %d waits slept the longest sleep: a wake-up was missed", missed,
           waits);
    printf("[%d] doorbell ok: %d waits, none missed\n", T.rank, waits);
    tenv_finalize();
    return 0;
}
