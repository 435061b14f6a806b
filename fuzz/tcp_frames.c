/* tcp_frames.c — libFuzzer target for the TCP transport's frame parser (tcp_read_from in
 * tcp_in.c): arbitrary bytes, cut into arbitrary reads, from a stranger or after a real HELLO.
 *
 * Input: byte 0 = flags (bit 0: a valid HELLO from rank 1 goes first; bit 1: the stream ends
 * with EOF, else with EAGAIN), byte 1 = largest read (0: any), byte 2 = seed of the read sizes
 * and of the EAGAINs in the middle; the rest is the stream. The rest of the transport is
 * stubbed: sends to rank 1 wait under tokens 1 (contiguous, 3000 bytes) and 2 (packed, 5000
 * bytes); every RTS is answered as tcp_recv_large would (alternately into a buffer of
 * exactly min(len, 4096) bytes, or unpacked). Aborts when a callback sees bytes out of
 * bounds or is called before the HELLO is authentic, or a stranger ends authenticated. */
#include "tcp.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct tcp_state tcp_g;

static struct tcp_conn conn;
static unsigned char sbuf[3000];
static volatile unsigned sink;       /* bytes the callbacks read, so that ASan sees them */
static unsigned rts_count;

/* What the harness's receive answering an RTS holds (rreq). */
struct h_recv {
    unsigned char *buf;         /* exactly n bytes, or NULL: unpacked into scratch */
    uint64_t n;
};

static void need(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "tcp_frames: %s\n", what);
        abort();
    }
}

static void touch(const void *p, size_t n)
{
    const unsigned char *b = p;
    unsigned s = 0;

    for (size_t i = 0; i < n; i++)
        s += b[i];
    sink += s;
}

/* ---- stubs of tcp_out.c and tcp_conn.c ---- */
int tcp_queue(int dst, const struct tcp_frame *f, const void *data, size_t len, void *owned,
              struct tcp_send *done)
{
    need(conn.peer >= 0 && dst == conn.peer, "tcp_queue before authentication or to another rank");
    touch(data, len);
    free(owned);
    (void)f;
    if (done) { /* written at once: what tcp_progress does for a finished send */
        free(done->packed);
        tp_pool_put(&tcp_g.sends, done);
    }
    return 0;
}

void tcp_fail_peer(int r)
{
    need(conn.peer >= 0 && r == conn.peer, "tcp_fail_peer for a rank not authenticated");
}

/* ---- the engine's callbacks ---- */
static void incoming(int src, const rt_msg_hdr *h, const void *data, uint64_t token)
{
    need(conn.peer >= 0 && src == conn.peer, "incoming before authentication");
    if (data) {
        need(h->len >= 0 && h->len <= (int64_t)TCP_EAGER_MAX, "eager length out of range");
        touch(data, (size_t)h->len);
        return;
    }
    struct tcp_recv *m = tp_pool_find(&tcp_g.recvs, token);
    struct h_recv *r = malloc(sizeof *r);

    need(m && !m->active && m->src == src && m->len == (uint64_t)h->len, "RTS token");
    need(r != NULL, "out of memory");
    r->n = m->len < 4096 ? m->len : 4096;
    r->buf = rts_count++ % 2 ? NULL : malloc(r->n);
    m->active = 1;
    m->buf = r->buf;
    m->n = r->n;
    m->rreq = r;
}

static void unpack(void *rreq, uint64_t off, size_t n, const void *src)
{
    const struct h_recv *r = rreq;

    need(conn.peer >= 0, "unpack before authentication");
    need(r->buf == NULL && off <= r->n && n <= r->n - off, "unpack out of bounds");
    touch(src, n);
}

static void pack(void *sreq, uint64_t off, size_t n, void *dst)
{
    need(sreq == (void *)&sbuf[1] && off + n <= 5000, "pack out of bounds");
    memset(dst, 0x5a, n);
}

static void recv_done(void *rreq, int err)
{
    struct h_recv *r = rreq;

    need(conn.peer >= 0 && err == 0, "recv_done before authentication");
    if (r->buf)
        touch(r->buf, r->n);
    free(r->buf);
    free(r);
}

static void send_done(void *sreq, int err)
{
    (void)err;
    need(conn.peer >= 0 && (sreq == (void *)&sbuf[0] || sreq == (void *)&sbuf[1]),
         "send_done before authentication or for an unknown send");
}

static rt_tp_env env = {
    .world_rank = 0, .world_size = 4, .incoming = incoming, .send_done = send_done,
    .recv_done = recv_done, .pack = pack, .unpack = unpack,
};

/* ---- the byte source: the stream cut into reads of fuzzed sizes ---- */
struct src {
    const unsigned char *p;
    size_t n, off;
    size_t maxread;
    uint32_t rng;
    int eof, stalled;
};

static ssize_t source(void *ctx, void *dst, size_t want)
{
    struct src *s = ctx;
    size_t k;

    s->rng = s->rng * 1103515245u + 12345u;
    if (s->off < s->n && !s->stalled && (s->rng >> 16) % 8 == 0) {
        s->stalled = 1; /* nothing more now, in the middle of the stream */
        errno = EAGAIN;
        return -1;
    }
    s->stalled = 0;
    if (s->off == s->n) {
        if (s->eof)
            return 0;
        errno = EAGAIN;
        return -1;
    }
    k = s->n - s->off;
    if (k > want)
        k = want;
    if (s->maxread && k > s->maxread)
        k = 1 + (s->rng >> 16) % s->maxread;
    memcpy(dst, s->p + s->off, k);
    s->off += k;
    return (ssize_t)k;
}

static const char secret[] = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    unsigned char *stream = NULL;
    struct src s = { 0 };
    uint64_t token;
    int authed, rc = 0;
    struct tcp_send *snd;

    if (size < 3)
        return 0;
    memset(&tcp_g, 0, sizeof tcp_g);
    tcp_g.env = &env;
    tcp_g.secret_len = sizeof secret - 1;
    memcpy(tcp_g.secret, secret, tcp_g.secret_len);
    tp_pool_init(&tcp_g.sends, sizeof(struct tcp_send));
    tp_pool_init(&tcp_g.recvs, sizeof(struct tcp_recv));
    snd = tp_pool_get(&tcp_g.sends, &token); /* token 1 */
    need(snd && token == 1, "send token 1");
    *snd = (struct tcp_send){ .ent = snd->ent, .dst = 1, .sreq = &sbuf[0], .buf = sbuf, .len = sizeof sbuf };
    snd = tp_pool_get(&tcp_g.sends, &token); /* token 2 */
    need(snd && token == 2, "send token 2");
    *snd = (struct tcp_send){ .ent = snd->ent, .dst = 1, .sreq = &sbuf[1], .buf = NULL, .len = 5000 };
    memset(&conn, 0, sizeof conn);
    conn.fd = -1;
    conn.peer = -1;
    memset(conn.nonce, 0xa5, sizeof conn.nonce);
    rts_count = 0;

    authed = data[0] & 1;
    s.eof = (data[0] >> 1) & 1;
    s.maxread = data[1];
    s.rng = data[2];
    data += 3;
    size -= 3;
    if (authed) { /* the HELLO rank 1 would send for our challenge, then the fuzzed bytes */
        struct tcp_frame f = { .type = TCP_HELLO, .a = TCP_MAGIC, .b = 1, .c = TCP_MAC };
        stream = malloc(sizeof f + TCP_MAC + size);
        need(stream != NULL, "out of memory");
        memcpy(stream, &f, sizeof f);
        need(tcp_mac(conn.nonce, 1, 0, stream + sizeof f) == 0, "tcp_mac");
        memcpy(stream + sizeof f + TCP_MAC, data, size);
        s.p = stream;
        s.n = sizeof f + TCP_MAC + size;
    } else {
        s.p = data;
        s.n = size;
    }

    for (size_t round = 0; round < 2 * s.n + 16; round++) {
        rc = tcp_read_from(&conn, source, &s);
        if (rc < 0 || (s.off == s.n && conn.rb_off == conn.rb_len && rc < 64 && !s.stalled))
            break; /* (a call returns after the HELLO, with what followed it read ahead) */
    }
    if (rc < 0)
        need(conn.offence >= TCP_CLOSED && conn.offence <= TCP_DROP_NOMEM, "offence out of range");
    need(authed || conn.peer < 0, "a stranger got authenticated");
    need(!authed || conn.peer == 1, "the genuine HELLO was refused");

    /* nothing left behind: receives still pending, the connection's buffer, the pools */
    for (uint32_t i = 0; i < tp_pool_capacity(&tcp_g.recvs); i++) {
        struct tcp_recv *m = tp_pool_at(&tcp_g.recvs, i);
        if (m->ent.used && m->active) {
            struct h_recv *r = m->rreq;
            free(r->buf);
            free(r);
        }
    }
    for (uint32_t i = 0; i < tp_pool_capacity(&tcp_g.sends); i++) {
        struct tcp_send *q = tp_pool_at(&tcp_g.sends, i);
        if (q->ent.used)
            free(q->packed);
    }
    tp_pool_destroy(&tcp_g.sends);
    tp_pool_destroy(&tcp_g.recvs);
    free(conn.buf);
    free(conn.rb);
    free(stream);
    return 0;
}
