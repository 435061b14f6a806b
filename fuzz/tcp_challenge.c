/* tcp_challenge.c — libFuzzer target for the connector's side of the TCP handshake
 * (tcp_answer_from in tcp_conn.c): the acceptor's challenge as arbitrary bytes in arbitrary reads.
 *
 * Input: byte 0 = flags (bit 0: the stream ends, else EAGAIN for ever after it; bit 1: it ends
 * with a read error, ECONNRESET, else with EOF; bit 2: computing the MAC fails; bits 3-4: the
 * peer, rank 1 + bits % 3), byte 1 = largest read (0: any), byte 2 = seed of the read sizes and
 * of the EAGAINs and EINTRs in the middle; the rest is what the acceptor wrote. The rank is 0 of
 * 4, connected to the peer with HELLO and a frame queued (as tcp_connect leaves it), a large
 * send and a receive pending with the peer and a send with another rank. The outcome is
 * known from the input alone: the first 40 bytes whole with the right magic (and a MAC)
 * answer with the MAC of exactly those bytes; a wrong magic, no MAC, or a stream ending
 * before 40 bytes fail the peer once (its sends and receive aborted, its queue freed, its
 * socket closed); a stream that stops before 40 bytes waits. Aborts otherwise, when the
 * MAC is computed from anything but a whole challenge with the right magic, a byte past the
 * challenge is asked for, or the loop makes no progress; ASan and LeakSanitizer watch memory. */
#include "tcp.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rt_consts.h"

struct tcp_state tcp_g;

#define CHAL ((size_t)sizeof(struct tcp_challenge))
#define WORLD 4

static struct tcp_peer peers[WORLD];
static int marks[3];                 /* sreq of the send to dst, of the send to another rank, rreq */
static int dst;
static int mac_fails;
static const unsigned char *stream; /* what the acceptor wrote */
static size_t stream_n;
static unsigned mac_calls, failed, aborted[3];

static void need(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "tcp_challenge: %s\n", what);
        abort();
    }
}

static uint64_t magic_of(const unsigned char *b)
{
    uint64_t m;

    memcpy(&m, b, sizeof m);
    return m;
}

/* The harness's MAC: any function of nonce and ranks that the check can recompute. */
static void fake_mac(const unsigned char *nonce, int from, int to, unsigned char *out)
{
    for (int i = 0; i < TCP_MAC; i++)
        out[i] = (unsigned char)(nonce[i] ^ 0x5c ^ (from * 7 + to * 13 + i));
}

/* ---- stubs of tcp_auth.c ---- */
int tcp_mac(const unsigned char *nonce, int from, int to, unsigned char *out)
{
    const struct tcp_peer *p = &peers[dst];

    need(from == 0 && to == dst, "MAC for other ranks");
    need(p->chal_got == CHAL && stream_n >= CHAL, "MAC computed from an incomplete challenge");
    need(p->chal.magic == TCP_CHAL_MAGIC && magic_of(stream) == TCP_CHAL_MAGIC,
         "MAC computed from a challenge with a wrong magic");
    need(nonce == p->chal.nonce && memcmp(nonce, stream + sizeof(uint64_t), TCP_NONCE) == 0,
         "MAC computed from other bytes than the challenge's nonce");
    mac_calls++;
    fake_mac(nonce, from, to, out);
    if (mac_fails) {
        memset(out, 0xee, TCP_MAC); /* what a failed HMAC may leave */
        return -1;
    }
    return 0;
}

int tcp_random(void *buf, size_t n)
{
    (void)buf;
    (void)n;
    need(0, "tcp_random called");
    return -1;
}

long long tcp_now_ns(void)
{
    return 0;
}

/* ---- the engine's callbacks ---- */
static void send_done(void *sreq, int err)
{
    need(sreq == &marks[0] && err == RT_ERR_PROC_ABORTED, "send_done for a send not to the failed peer");
    aborted[0]++;
}

static void recv_done(void *rreq, int err)
{
    need(rreq == &marks[2] && err == RT_ERR_PROC_ABORTED, "recv_done for a receive not from the failed peer");
    aborted[2]++;
}

static void peer_failed(int r)
{
    need(r == dst && aborted[0] == 1 && aborted[2] == 1,
         "peer_failed for another rank, or before its operations were aborted");
    failed++;
}

static rt_tp_env env = {
    .world_rank = 0, .world_size = WORLD, .send_done = send_done, .recv_done = recv_done,
    .peer_failed = peer_failed,
};

/* ---- the byte source: the stream cut into reads of fuzzed sizes ---- */
struct src {
    size_t off, maxread;
    uint32_t rng;
    int ends, err, stalled;
    int dry;                    /* the last call said EAGAIN because the stream stopped */
    int again;                  /* the last call said EAGAIN */
    unsigned calls;
};

static ssize_t source(void *ctx, void *buf, size_t want)
{
    struct src *s = ctx;
    size_t k;

    need(want > 0 && s->off + want <= CHAL, "read past the challenge");
    s->calls++;
    s->rng = s->rng * 1103515245u + 12345u;
    s->dry = s->again = 0;
    if (s->off < stream_n && !s->stalled && (s->rng >> 16) % 8 < 2) {
        s->stalled = 1; /* in the middle of the stream: nothing now, or a signal */
        errno = (s->rng >> 16) % 8 ? EINTR : EAGAIN;
        s->again = errno == EAGAIN;
        return -1;
    }
    s->stalled = 0;
    if (s->off == stream_n) {
        if (s->ends && s->err) {
            errno = ECONNRESET;
            return -1;
        }
        if (s->ends)
            return 0;
        s->dry = s->again = 1;
        errno = EAGAIN;
        return -1;
    }
    k = stream_n - s->off;
    if (k > want)
        k = want;
    if (s->maxread && k > s->maxread)
        k = 1 + (s->rng >> 16) % s->maxread;
    memcpy(buf, stream + s->off, k);
    s->off += k;
    return (ssize_t)k;
}

static int devnull = -1;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct src s = { 0 };
    struct tcp_peer *p;
    struct tcp_out *hello, *eager;
    struct tcp_send *snd;
    struct tcp_recv *rcv;
    uint64_t token;
    int expect, rc = 0, fd;

    if (size < 3)
        return 0;
    if (devnull < 0)
        devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
    need(devnull >= 0, "open /dev/null");
    s.ends = data[0] & 1;
    s.err = (data[0] >> 1) & 1;
    mac_fails = (data[0] >> 2) & 1;
    dst = 1 + (data[0] >> 3 & 3) % 3;
    s.maxread = data[1];
    s.rng = data[2];
    stream = data + 3;
    stream_n = size - 3;
    mac_calls = failed = 0;
    memset(aborted, 0, sizeof aborted);
    if (stream_n >= CHAL)
        expect = magic_of(stream) == TCP_CHAL_MAGIC && !mac_fails ? 1 : -1;
    else
        expect = s.ends ? -1 : 0;

    /* rank 0 connected to dst as tcp_connect and tcp_answer leave it, waiting for the challenge */
    memset(&tcp_g, 0, sizeof tcp_g);
    memset(peers, 0, sizeof peers);
    tcp_g.env = &env;
    tcp_g.epfd = -1; /* epoll_ctl fails harmlessly */
    tcp_g.listen_fd = -1;
    tcp_g.peer = peers;
    for (int r = 0; r < WORLD; r++)
        peers[r].out_fd = -1;
    tp_pool_init(&tcp_g.sends, sizeof(struct tcp_send));
    tp_pool_init(&tcp_g.recvs, sizeof(struct tcp_recv));
    snd = tp_pool_get(&tcp_g.sends, &token);
    need(snd != NULL, "out of memory");
    snd->dst = dst;
    snd->sreq = &marks[0];
    snd = tp_pool_get(&tcp_g.sends, &token);
    need(snd != NULL, "out of memory");
    snd->dst = dst % 3 + 1; /* another rank */
    snd->sreq = &marks[1];
    rcv = tp_pool_get(&tcp_g.recvs, &token);
    need(rcv != NULL, "out of memory");
    rcv->src = dst;
    rcv->active = 1;
    rcv->rreq = &marks[2];
    p = &peers[dst];
    fd = p->out_fd = dup(devnull);
    need(fd >= 0, "dup");
    p->authing = 1;
    p->polling_out = 0;
    hello = calloc(1, sizeof *hello);
    eager = calloc(1, sizeof *eager);
    p->mac = calloc(1, TCP_MAC);
    need(hello && eager && p->mac, "out of memory");
    hello->f = (struct tcp_frame){ .type = TCP_HELLO, .a = TCP_MAGIC, .b = 0, .c = TCP_MAC };
    hello->data = hello->owned = p->mac;
    hello->len = TCP_MAC;
    hello->next = eager;
    eager->f = (struct tcp_frame){ .type = TCP_EAGER, .a = 16 };
    eager->data = eager->owned = calloc(1, 16);
    need(eager->owned != NULL, "out of memory");
    eager->len = 16;
    p->q = hello;
    p->q_last = eager;

    for (int round = 0; round < 4 * (int)CHAL + 16; round++) {
        rc = tcp_answer_from(dst, source, &s);
        need(rc >= -1 && rc <= 1, "result out of range");
        if (rc != 0 || s.dry)
            break;
    }
    need(rc == expect, rc == 0 ? "no progress: waiting with bytes or the end unread"
                               : "the outcome is not the one the input calls for");
    if (rc == 0) { /* waiting: nothing decided, nothing answered */
        need(s.again && !p->dead && p->authing && failed == 0 && mac_calls == 0,
             "waiting after something other than EAGAIN, or with the peer decided");
        need(p->chal_got == s.off && s.off == stream_n, "bytes read and bytes of the challenge differ");
        for (int i = 0; i < TCP_MAC; i++)
            need(p->mac[i] == 0, "the HELLO's MAC written before the challenge is whole");
    } else if (rc == 1) { /* answered: with the MAC of exactly the first 40 bytes */
        unsigned char want[TCP_MAC];

        fake_mac(stream + sizeof(uint64_t), 0, dst, want);
        need(s.off == CHAL && p->chal_got == CHAL, "answered without reading exactly the challenge");
        need(mac_calls == 1 && memcmp(p->mac, want, TCP_MAC) == 0, "the HELLO's MAC is not the challenge's");
        need(!p->dead && !p->authing && p->polling_out == -1 && failed == 0 && aborted[0] == 0,
             "answered but the peer is failed or still authenticating");
        need(p->q == hello && hello->owned == p->mac && p->out_fd == fd, "the queue or socket changed");
    } else { /* failed once, all that was pending with it aborted */
        need(failed == 1 && p->dead && aborted[0] == 1 && aborted[2] == 1, "the peer is not failed once");
        need(!p->authing && !p->q && !p->mac && p->out_fd == -1, "the failed peer's state is left behind");
        need(fcntl(fd, F_GETFD) < 0 && errno == EBADF, "the failed peer's socket is still open");
        need(mac_calls == (stream_n >= CHAL && magic_of(stream) == TCP_CHAL_MAGIC),
             "MAC computed when the challenge was already refused");
    }
    /* called again: nothing more is read, decided or answered */
    unsigned calls = s.calls, macs = mac_calls;
    if (rc != 0) {
        need(tcp_answer_from(dst, source, &s) == 0 && s.calls == calls && mac_calls == macs && failed == (rc < 0),
             "a decided peer is read, answered or failed again");
    }

    if (!p->dead) { /* tcp_fail_peer did not free them */
        struct tcp_out *o, *next;

        for (o = p->q; o; o = next) {
            next = o->next;
            free(o->owned);
            free(o);
        }
        close(p->out_fd);
    }
    tp_pool_destroy(&tcp_g.sends);
    tp_pool_destroy(&tcp_g.recvs);
    return 0;
}
