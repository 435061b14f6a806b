/* t_traffic.c — all-pairs traffic through the shm transport: random sizes 0 B .. max (eager
 * and large), every byte checked, order, truncated/dropped/deferred receives, sync acks. */

/* usage: t_traffic [-m msgs per pair] [-M max bytes] [-N simulated nodes] [-s seed] [-w window]
 *        [-D: odd ranks make themselves non-dumpable, so that (without CAP_SYS_PTRACE)
 *         process_vm_readv from them fails with EPERM and receivers fall back to the pipeline] */
#define _GNU_SOURCE
#include "tenv.h"
#include "shm.h" /* white box: which large-message path ran (shm_g.cma) */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#define GUARD 64
#define CTX 77

struct msgp {                   /* what message k from src to dst looks like */
    size_t len;
    int sync;
    int rmode;                  /* large: 0-3 exact, 4 truncated, 5 n = 0, 6 through env->unpack, 7 bigger */
    int defer;                  /* large: recv_large later, not from incoming */
    uint64_t seed;
};

struct sendrec {                /* a large send in flight */
    int dst, k, done;
    unsigned char *buf;
    size_t len;
};

struct recvrec {                /* a large receive */
    int src, k, done, rmode;
    uint64_t token, seed;
    size_t len, nreq;           /* message length, bytes asked for */
    unsigned char *buf;
    struct recvrec *next;       /* deferred list */
};

struct ackrec {
    int dst;
    uint64_t sreq;
};

static int nmsg = 120, nodes = 1;
static size_t maxlen = 4u << 20, window = 24u << 20;
static uint64_t seed0 = 1;
static int undumpable;

static int *sent_k, *recv_k, *acks_want, *acks_got;   /* per world rank */
static unsigned char **acked;                          /* [peer][k] */
static struct sendrec **staged;                        /* per peer: large send not yet taken */
static size_t inflight_bytes;
static int inflight_sends, active_recvs, ndeferred;
static struct recvrec *deferred;
static struct ackrec *ackq;
static int nackq, capackq;
static unsigned char *scratch;
static long long bytes_in, msgs_in;

static struct msgp params(int src, int dst, int k)
{
    struct msgp m;
    uint64_t st = seed0 * 0x100000001b3ull ^ (uint64_t)src << 40 ^ (uint64_t)dst << 20 ^ (uint64_t)k;
    uint64_t r = tenv_rand(&st);
    size_t e = rt_tp_shm.eager_max;
    size_t specials[] = { 0, e, e + 1, maxlen, 1, (1u << 20) + 3, e - 1, 63, 64, 65, 31, 32, 33, 0 };

    if ((size_t)k < sizeof specials / sizeof *specials)
        m.len = specials[k];
    else if (r % 100 < 40)
        m.len = tenv_rand(&st) % 257;
    else if (r % 100 < 65)
        m.len = tenv_rand(&st) % (2 * e);
    else if (r % 100 < 85)
        m.len = tenv_rand(&st) % (256u << 10);
    else
        m.len = tenv_rand(&st) % (maxlen + 1);
    if (m.len > maxlen)
        m.len = maxlen;
    r = tenv_rand(&st);
    m.sync = r % 7 == 0;
    m.rmode = (int)(r >> 8) % 8;
    m.defer = (r >> 16) % 3 == 0;
    m.seed = tenv_rand(&st);
    return m;
}

static uint64_t sreq_id(int src, int dst, int k)
{
    return (uint64_t)src << 40 | (uint64_t)dst << 20 | (uint64_t)k;
}

/* The sender token of message k: none (0) for odd non-synchronous ones, as the engine sends
 * without a request, so that small ones take the one-line SHORT record. */
static uint64_t msg_sreq(int src, int dst, int k, struct msgp p)
{
    return p.sync || k % 2 == 0 ? sreq_id(src, dst, k) : 0;
}

static int local_peer(int r)
{
    return r != T.rank && T.node_of[r] == T.node_of[T.rank];
}

static void check_recv(struct recvrec *m)
{
    size_t got = m->buf ? (m->nreq < m->len ? m->nreq : m->len) : 0;
    long bad;
    size_t i;

    if (m->buf) {
        bad = tenv_check(m->buf, got, m->seed);
        TCHECK(bad < 0, "large %d->%d #%d (len %zu, asked %zu): byte %ld wrong", m->src, T.rank,
               m->k, m->len, m->nreq, bad);
        for (i = got; i < m->nreq + GUARD; i++)
            TCHECK(m->buf[i] == 0xA5, "large %d->%d #%d: wrote past %zu (at %zu)", m->src,
                   T.rank, m->k, got, i);
    }
    bytes_in += (long long)got;
    free(m->buf);
    free(m);
}

static void start_recv(struct recvrec *m)
{
    int rc = rt_tp_shm.recv_large(m->src, CTX, m->token, m->rmode == 6 ? NULL : m->buf, m->nreq, m);

    if (rc == 0) {
        check_recv(m);
    } else {
        TCHECK(rc == RT_TP_PENDING, "recv_large from %d #%d: %d", m->src, m->k, rc);
        active_recvs++;
    }
}

static void queue_ack(int dst, uint64_t sreq)
{
    if (nackq == capackq) {
        capackq = capackq ? 2 * capackq : 64;
        ackq = realloc(ackq, (size_t)capackq * sizeof *ackq);
        TCHECK(ackq != NULL, "malloc");
    }
    ackq[nackq].dst = dst;
    ackq[nackq++].sreq = sreq;
}

static int send_ack(int dst, uint64_t sreq)
{
    rt_msg_hdr h = { CTX, T.rank, -1, RT_MSG_ACK, sreq, 0 };

    return rt_tp_shm.send(dst, &h, NULL, 0, NULL);
}

static void on_incoming(int src, const rt_msg_hdr *h, const void *data, uint64_t token)
{
    struct msgp p;
    struct recvrec *m;
    int k;

    TCHECK(local_peer(src), "message from %d, not a node peer", src);
    TCHECK(h->ctx == CTX && h->src == src, "envelope from %d: ctx %d src %d", src, h->ctx, h->src);
    if (h->flags & RT_MSG_ACK) {
        k = (int)(h->sreq & 0xfffff);
        TCHECK(h->len == 0 && data && token == 0 && h->sreq == sreq_id(T.rank, src, k) &&
               k < nmsg && !acked[src][k] && params(T.rank, src, k).sync,
               "bad ack from %d (sreq %llx)", src, (unsigned long long)h->sreq);
        acked[src][k] = 1;
        acks_got[src]++;
        return;
    }
    k = recv_k[src]++;
    TCHECK(h->tag == k, "order: from %d got #%d, expected #%d", src, h->tag, k);
    p = params(src, T.rank, k);
    TCHECK(h->len == (int64_t)p.len && h->sreq == msg_sreq(src, T.rank, k, p) &&
           h->flags == (p.sync ? RT_MSG_SYNC : 0u),
           "envelope %d->%d #%d: len %lld (want %zu) flags %u", src, T.rank, k,
           (long long)h->len, p.len, h->flags);
    msgs_in++;
    if (p.sync && send_ack(src, h->sreq) != 0) /* a send from inside incoming */
        queue_ack(src, h->sreq);
    if (p.len <= rt_tp_shm.eager_max) {
        long bad = tenv_check(data, p.len, p.seed);

        TCHECK(data != NULL && token == 0, "eager %d->%d #%d: data %p token %llu", src, T.rank,
               k, data, (unsigned long long)token);
        TCHECK(bad < 0, "eager %d->%d #%d (len %zu): byte %ld wrong", src, T.rank, k, p.len, bad);
        bytes_in += (long long)p.len;
        return;
    }
    TCHECK(data == NULL && token != 0, "large %d->%d #%d: data %p token 0", src, T.rank, k, data);
    m = calloc(1, sizeof *m);
    TCHECK(m != NULL, "malloc");
    m->src = src;
    m->k = k;
    m->token = token;
    m->seed = p.seed;
    m->len = p.len;
    switch (p.rmode) {
    case 4: m->nreq = p.len / 3 + 1; break;
    case 5: m->nreq = 0; break;
    case 7: m->nreq = p.len + 100; break;
    default: m->nreq = p.len;
    }
    m->rmode = p.rmode;
    m->buf = malloc(m->nreq + GUARD);
    TCHECK(m->buf != NULL, "malloc");
    memset(m->buf, 0xA5, m->nreq + GUARD);
    if (p.defer) {
        m->next = deferred;
        deferred = m;
        ndeferred++;
    } else {
        start_recv(m);
    }
}

static void on_send_done(void *sreq, int err)
{
    struct sendrec *s = sreq;

    TCHECK(err == 0 && !s->done, "send_done %d->%d #%d: err %d, done %d", T.rank, s->dst, s->k,
           err, s->done);
    s->done = 1;
    inflight_bytes -= s->len;
    inflight_sends--;
    free(s->buf);
    free(s);
}

/* env->unpack: rmode 6 receives through it, as the engine does for a non-contiguous layout. */
static void on_unpack(void *rreq, uint64_t offset, size_t n, const void *src)
{
    struct recvrec *m = rreq;

    TCHECK(m->rmode == 6 && offset <= m->nreq && n <= m->nreq - offset,
           "unpack %d #%d: mode %d, [%llu, +%zu) of %zu", m->src, m->k, m->rmode,
           (unsigned long long)offset, n, m->nreq);
    memcpy(m->buf + offset, src, n);
}

static void on_recv_done(void *rreq, int err)
{
    struct recvrec *m = rreq;

    TCHECK(err == 0, "recv_done from %d #%d: err %d", m->src, m->k, err);
    active_recvs--;
    check_recv(m);
}

static void on_peer_failed(int rank)
{
    tfail("peer_failed(%d)", rank);
}

/* Tries to hand message sent_k[dst] to the transport; 1 if it was taken. */
static int try_send(int dst)
{
    int k = sent_k[dst], rc;
    struct msgp p = params(T.rank, dst, k);
    rt_msg_hdr h = { CTX, T.rank, k, p.sync ? RT_MSG_SYNC : 0u, msg_sreq(T.rank, dst, k, p),
                     (int64_t)p.len };
    struct sendrec *s;

    if (p.len <= rt_tp_shm.eager_max) {
        tenv_fill(scratch, p.len, p.seed);
        rc = rt_tp_shm.send(dst, &h, scratch, p.len, NULL);
        if (rc == RT_TP_AGAIN)
            return 0;
        TCHECK(rc == 0, "eager send %d->%d #%d: %d", T.rank, dst, k, rc);
    } else {
        if (!staged[dst]) {
            if (inflight_sends > 0 && inflight_bytes + p.len > window)
                return 0;
            s = calloc(1, sizeof *s);
            TCHECK(s != NULL, "malloc");
            s->dst = dst;
            s->k = k;
            s->len = p.len;
            s->buf = malloc(p.len);
            TCHECK(s->buf != NULL, "malloc");
            tenv_fill(s->buf, p.len, p.seed);
            staged[dst] = s;
        }
        s = staged[dst];
        rc = rt_tp_shm.send(dst, &h, s->buf, p.len, s);
        if (rc == RT_TP_AGAIN)
            return 0;
        TCHECK(rc == RT_TP_PENDING, "large send %d->%d #%d: %d", T.rank, dst, k, rc);
        staged[dst] = NULL;
        inflight_bytes += p.len;
        inflight_sends++;
    }
    if (p.sync)
        acks_want[dst]++;
    sent_k[dst]++;
    return 1;
}

static int finished(void)
{
    int r;

    if (inflight_sends || active_recvs || ndeferred || nackq)
        return 0;
    for (r = 0; r < T.size; r++)
        if (local_peer(r) && (sent_k[r] < nmsg || recv_k[r] < nmsg || acks_got[r] < acks_want[r]))
            return 0;
    return 1;
}

static void run(void)
{
    uint64_t rs = seed0 ^ (uint64_t)T.rank << 32;
    int r, i, made;

    while (!finished()) {
        made = 0;
        for (i = 0; i < T.size; i++) {
            r = (T.rank + 1 + i) % T.size;
            while (local_peer(r) && sent_k[r] < nmsg && try_send(r))
                made++;
        }
        while (nackq && send_ack(ackq[0].dst, ackq[0].sreq) == 0) {
            memmove(ackq, ackq + 1, (size_t)--nackq * sizeof *ackq);
            made++;
        }
        if (ndeferred && (tenv_rand(&rs) % 4 == 0 || ndeferred > 8)) {
            struct recvrec **pp = &deferred, *m;
            int pick = (int)(tenv_rand(&rs) % (uint64_t)ndeferred);

            while (pick--)
                pp = &(*pp)->next;
            m = *pp;
            *pp = m->next;
            ndeferred--;
            start_recv(m); /* out of arrival order on purpose */
            made++;
        }
        made += rt_tp_shm.progress();
        if (!made)
            rt_tp_shm.wait(1000000L);
    }
    for (r = 0; r < T.size; r++)
        TCHECK(!local_peer(r) || acks_got[r] == acks_want[r], "acks from %d: %d of %d", r,
               acks_got[r], acks_want[r]);
}

int main(int argc, char **argv)
{
    long long t0, t1;
    int c, r;

    while ((c = getopt(argc, argv, "m:M:N:s:w:D")) != -1) {
        switch (c) {
        case 'D': undumpable = 1; break;
        case 'm': nmsg = atoi(optarg); break;
        case 'M': maxlen = strtoul(optarg, NULL, 0); break;
        case 'N': nodes = atoi(optarg); break;
        case 's': seed0 = strtoull(optarg, NULL, 0); break;
        case 'w': window = strtoul(optarg, NULL, 0); break;
        default: fprintf(stderr, "usage: t_traffic [-m n] [-M bytes] [-N nodes] [-s seed] [-w bytes]\n"); return 2;
        }
    }
    if (nmsg > (1 << 20) - 1)
        nmsg = (1 << 20) - 1;
    T.env.unpack = on_unpack; /* tenv_init keeps the other fields */
    tenv_init(nodes, on_incoming, on_send_done, on_recv_done, on_peer_failed);
    if (undumpable && T.rank % 2)
        TCHECK(prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) == 0, "PR_SET_DUMPABLE");
    sent_k = calloc((size_t)T.size, sizeof *sent_k);
    recv_k = calloc((size_t)T.size, sizeof *recv_k);
    acks_want = calloc((size_t)T.size, sizeof *acks_want);
    acks_got = calloc((size_t)T.size, sizeof *acks_got);
    staged = calloc((size_t)T.size, sizeof *staged);
    acked = calloc((size_t)T.size, sizeof *acked);
    scratch = malloc(rt_tp_shm.eager_max + 1);
    TCHECK(sent_k && recv_k && acks_want && acks_got && staged && acked && scratch, "malloc");
    for (r = 0; r < T.size; r++) {
        acked[r] = calloc((size_t)nmsg + 1, 1);
        TCHECK(acked[r] != NULL, "malloc");
    }
    t0 = tenv_now_ns();
    run();
    t1 = tenv_now_ns();
    printf("[%d] traffic ok: %lld messages, %.1f MB received in %.2f s (%s), %llu pieces written%s\n",
           T.rank, msgs_in, (double)bytes_in / 1e6, (double)(t1 - t0) / 1e9,
           shm_g.cma ? "process_vm_readv" : "pipelined through the ring",
           (unsigned long long)shm_pieces_written(), shm_g.cma_write ? "" : " (writing refused)");
    tenv_finalize();
    for (r = 0; r < T.size; r++)
        free(acked[r]);
    free(acked);
    free(sent_k);
    free(recv_k);
    free(acks_want);
    free(acks_got);
    free(staged);
    free(scratch);
    free(ackq);
    return 0;
}
