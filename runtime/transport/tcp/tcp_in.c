/* tcp_in.c — the reading side: frames from an accepted connection, read with nonblocking
 * reads (partial reads resume), checked (the first one must be an authenticated HELLO), and
 * handed to the engine or to the large transfers. */
#define _GNU_SOURCE
#include "tcp.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/crypto.h>

#include "rt_consts.h"

/* Reads up to want - *got bytes of c's stream into dst + *got: first what the read-ahead
 * holds, then from src, through the read-ahead when less than TCP_RBUF is wanted (a frame's
 * header and a small payload come in one read), straight into dst otherwise. 1 when complete,
 * 0 when the source has no more now (after a short read, without asking it: the poller says
 * when more arrives), -1 when the connection ended or failed. */
static int fill(struct tcp_conn *c, tcp_source src, void *ctx, void *dst, size_t want, size_t *got)
{
    while (*got < want) {
        size_t need = want - *got;
        ssize_t r;

        if (c->rb_off < c->rb_len) {
            size_t k = c->rb_len - c->rb_off < need ? c->rb_len - c->rb_off : need;
            memcpy((unsigned char *)dst + *got, c->rb + c->rb_off, k);
            c->rb_off += k;
            *got += k;
            continue;
        }
        if (c->rb_dry) {
            c->rb_dry = 0;
            return 0;
        }
        if (need < TCP_RBUF && !c->rb && !(c->rb = malloc(TCP_RBUF)))
            return -1;
        r = need < TCP_RBUF ? src(ctx, c->rb, TCP_RBUF) : src(ctx, (unsigned char *)dst + *got, need);
        if (r > 0) {
            c->rb_dry = (size_t)r < (need < TCP_RBUF ? (size_t)TCP_RBUF : need);
            if (need < TCP_RBUF)
                c->rb_off = 0, c->rb_len = (size_t)r;
            else
                *got += (size_t)r;
        } else if (r == 0) {
            return -1;
        } else if (errno != EINTR) {
            return errno == EAGAIN || errno == EWOULDBLOCK ? 0 : -1;
        }
    }
    return 1;
}

/* The receive a DATA frame is for, or NULL (stale, or not this peer's). */
static struct tcp_recv *data_target(const struct tcp_conn *c)
{
    struct tcp_recv *m = tp_pool_find(&tcp_g.recvs, c->f.a);

    if (!m || !m->active || m->src != c->peer || c->f.b > m->n || c->f.c > m->n - c->f.b)
        return NULL;
    return m;
}

/* Payload bytes that follow the header of c's frame; -1 if the frame is malformed. */
static int64_t payload_of(const struct tcp_conn *c)
{
    switch (c->f.type) {
    case TCP_HELLO: /* once, from another rank of the job, with a MAC */
        return c->peer < 0 && c->f.a == TCP_MAGIC && c->f.c == TCP_MAC &&
                       c->f.b < (uint64_t)tcp_g.env->world_size &&
                       c->f.b != (uint64_t)tcp_g.env->world_rank ? TCP_MAC : -1;
    case TCP_EAGER:
        return c->peer >= 0 && c->f.a <= TCP_EAGER_MAX && (int64_t)c->f.a == c->f.h.len ? (int64_t)c->f.a : -1;
    case TCP_DATA:
        return c->peer >= 0 && c->f.c <= TCP_CHUNK && data_target(c) ? (int64_t)c->f.c : -1;
    case TCP_RTS:
        return c->peer >= 0 && c->f.h.len > 0 ? 0 : -1;
    case TCP_CTS:
    case TCP_FIN:
        return c->peer >= 0 ? 0 : -1;
    default:
        return -1;
    }
}

/* CTS: the receiver wants c bytes of our large send a. */
static void on_cts(int from, const struct tcp_frame *f)
{
    struct tcp_send *s = tp_pool_find(&tcp_g.sends, f->a);
    uint64_t want, off, n;
    struct tcp_frame d = { .type = TCP_DATA, .a = f->b };

    if (!s || s->dst != from || f->c == 0)
        return;
    want = f->c < s->len ? f->c : s->len;
    const unsigned char *src = s->buf;
    if (!src) { /* non-contiguous: packed once, freed with the send */
        s->packed = malloc(want);
        if (!s->packed) {
            tcp_fail_peer(from);
            return;
        }
        tcp_g.env->pack(s->sreq, 0, want, s->packed);
        src = s->packed;
    }
    for (off = 0; off < want; off += n) {
        n = want - off < TCP_CHUNK ? want - off : TCP_CHUNK;
        d.b = off;
        d.c = n;
        if (tcp_queue(from, &d, src + off, n, NULL, off + n == want ? s : NULL) != 0)
            return; /* the peer is gone: progress() fails the send */
    }
}

/* FIN: the receiver took none of our large send a (or failed to). */
static void on_fin(int from, const struct tcp_frame *f)
{
    struct tcp_send *s = tp_pool_find(&tcp_g.sends, f->a);
    void *sreq;

    if (!s || s->dst != from)
        return;
    sreq = s->sreq;
    free(s->packed);
    tp_pool_put(&tcp_g.sends, s);
    tcp_g.env->send_done(sreq, (int)f->b);
}

/* HELLO: whether its MAC proves the sender holds the job's secret and answers our challenge
 * (compared in constant time). The challenge is then spent. */
static int authentic(struct tcp_conn *c)
{
    unsigned char want[TCP_MAC];
    int ok = tcp_mac(c->nonce, (int)c->f.b, tcp_g.env->world_rank, want) == 0 &&
             CRYPTO_memcmp(want, c->buf, TCP_MAC) == 0;

    explicit_bzero(want, sizeof want);
    explicit_bzero(c->nonce, sizeof c->nonce);
    return ok;
}

/* Handles c's complete frame (its payload in c->buf, or already in place for DATA); -1 if a
 * HELLO is not authentic. */
static int handle(struct tcp_conn *c)
{
    const struct tcp_frame *f = &c->f;
    struct tcp_recv *m;
    uint64_t token;
    void *rreq;

    switch (f->type) {
    case TCP_HELLO:
        if (!authentic(c))
            return -1;
        c->peer = (int)f->b;
        break;
    case TCP_EAGER:
        tcp_g.env->incoming(c->peer, &f->h, c->buf ? c->buf : (const void *)"", 0);
        break;
    case TCP_RTS:
        m = tp_pool_get(&tcp_g.recvs, &token);
        if (!m)
            return 0; /* out of memory: the message is lost, as the engine is told nothing */
        m->src = c->peer;
        m->stoken = f->a;
        m->len = (uint64_t)f->h.len;
        tcp_g.env->incoming(c->peer, &f->h, NULL, token);
        break;
    case TCP_CTS:
        on_cts(c->peer, f);
        break;
    case TCP_FIN:
        on_fin(c->peer, f);
        break;
    case TCP_DATA:
        m = data_target(c);
        if (!m)
            return 0;
        if (!m->buf)
            tcp_g.env->unpack(m->rreq, f->b, f->c, c->buf);
        m->got += f->c;
        if (m->got < m->n)
            return 0;
        rreq = m->rreq;
        tp_pool_put(&tcp_g.recvs, m);
        tcp_g.env->recv_done(rreq, 0);
        break;
    }
    return 0;
}

/* Before authentication: whether the bytes of the first frame read so far can still begin a
 * HELLO (an HTTP request or noise is refused at its first bytes, not after a whole header). */
static int may_be_hello(const struct tcp_conn *c, size_t got)
{
    return (got < sizeof c->f.type || c->f.type == TCP_HELLO) &&
           (got < offsetof(struct tcp_frame, b) || c->f.a == TCP_MAGIC);
}

int tcp_read(struct tcp_conn *c)
{
    return tcp_read_from(c, tcp_fd_source, &c->fd);
}

int tcp_read_from(struct tcp_conn *c, tcp_source src, void *ctx)
{
    int frames = 0, rc;

    for (;;) {
        size_t hgot = c->got < sizeof c->f ? c->got : sizeof c->f;
        int64_t pay;

        if (c->got < sizeof c->f) {
            rc = fill(c, src, ctx, &c->f, sizeof c->f, &hgot);
            c->got = hgot;
            if (c->peer < 0 && !may_be_hello(c, hgot)) {
                c->offence = TCP_DROP_BAD;
                return -1;
            }
            if (rc <= 0) {
                c->offence = c->peer < 0 ? TCP_DROP_EOF : TCP_CLOSED;
                return rc < 0 ? -1 : frames;
            }
        }
        pay = payload_of(c);
        if (pay < 0) { /* malformed: the connection is closed, never trusted again */
            c->offence = c->peer < 0 ? TCP_DROP_BAD : TCP_DROP_MALFORMED;
            return -1;
        }
        if (pay > 0) {
            size_t pgot = c->got - sizeof c->f;
            unsigned char *dst;
            struct tcp_recv *m = c->f.type == TCP_DATA ? data_target(c) : NULL;

            if (m && m->buf) {
                dst = m->buf + c->f.b; /* straight into the receive buffer */
            } else {
                if (c->cap < (size_t)pay) {
                    unsigned char *nb = realloc(c->buf, (size_t)pay);
                    if (!nb) {
                        c->offence = TCP_DROP_NOMEM;
                        return -1;
                    }
                    c->buf = nb;
                    c->cap = (size_t)pay;
                }
                dst = c->buf;
            }
            rc = fill(c, src, ctx, dst, (size_t)pay, &pgot);
            c->got = sizeof c->f + pgot;
            if (rc <= 0) {
                c->offence = c->peer < 0 ? TCP_DROP_EOF : TCP_CLOSED;
                return rc < 0 ? -1 : frames;
            }
        }
        c->got = 0;
        if (handle(c) < 0) {
            c->offence = TCP_DROP_AUTH;
            return -1;
        }
        frames++;
        if (c->f.type == TCP_HELLO)
            return frames; /* authenticated: the gate hands c to the engine */
        if (frames >= 64 && c->rb_off == c->rb_len)
            return frames; /* bounded: others get their turn (nothing is left read ahead, which
                            * the poller would not announce) */
    }
}
