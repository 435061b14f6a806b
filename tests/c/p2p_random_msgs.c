/* p2p_random_msgs.c — 100,000 messages between random pairs of ranks (random sizes, mostly small,
 * some up to 256 KiB through rendezvous; random tags), nonblocking in a bounded window, every byte
 * checked against a pattern of (source, sequence number): nothing may be lost, split or reordered. */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"

#define DEFAULT_TOTAL 100000  /* P2P_RANDOM_MSGS=N overrides it */
#define WINDOW 64             /* outstanding requests per rank */
#define MAXLEN (256 << 10)

/* splitmix64: message k's draws, alike on every rank (the seed is fixed). */
static uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

struct msg {
    int src, dst, tag, len;
};

/* Message k of the job: a random pair, tag and size (90% up to 256 B, 9% up to 16 KiB, 1% up
 * to 256 KiB). */
static struct msg msg_of(uint64_t k, int np)
{
    uint64_t a = mix(k * 4 + 0x5eed), b = mix(k * 4 + 1), c = mix(k * 4 + 2);
    struct msg m;
    m.src = (int)(a % (uint64_t)np);
    m.dst = (int)((uint64_t)m.src + 1 + (a >> 32) % (uint64_t)(np - 1)) % np;
    m.tag = (int)(b % 32768);
    unsigned kind = (unsigned)((b >> 32) % 100);
    m.len = kind < 90 ? (int)(c % 257) : kind < 99 ? (int)(c % (16 << 10) + 1) : (int)(c % MAXLEN + 1);
    return m;
}

/* Byte i of message k from src. */
static unsigned char pattern(int src, uint64_t k, int i)
{
    uint64_t h = mix((uint64_t)src << 40 ^ k);
    return (unsigned char)(h >> (8 * (i & 7)) ^ (uint64_t)i * 131 ^ (uint64_t)i >> 8);
}

struct slot {
    MPI_Request req;
    int is_recv;
    uint64_t k;
    struct msg m;
    unsigned char *buf;
};

/* Completes slot s; a receive is checked byte by byte. Returns the bytes checked. */
static long long finish(struct slot *s)
{
    MPI_Status st;
    int n;
    CHECK_SUCCESS(MPI_Wait(&s->req, &st));
    if (!s->is_recv)
        return 0;
    MPI_Get_count(&st, MPI_BYTE, &n);
    CHECK(st.MPI_SOURCE == s->m.src && st.MPI_TAG == s->m.tag && n == s->m.len,
          "message %llu: from %d tag %d, %d bytes; expected from %d tag %d, %d bytes",
          (unsigned long long)s->k, st.MPI_SOURCE, st.MPI_TAG, n, s->m.src, s->m.tag, s->m.len);
    for (int i = 0; i < n; i++)
        if (s->buf[i] != pattern(s->m.src, s->k, i))
            CHECK(0, "message %llu from %d (%d bytes, tag %d): byte %d is %d, expected %d",
                  (unsigned long long)s->k, s->m.src, n, s->m.tag, i, s->buf[i], pattern(s->m.src, s->k, i));
    return n;
}

int main(int argc, char **argv)
{
    int me, np;
    const char *env = getenv("P2P_RANDOM_MSGS");
    uint64_t total = env ? strtoull(env, NULL, 10) : DEFAULT_TOTAL;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    CHECK(np >= 2, "needs 2 ranks or more, got %d", np);
    struct slot slot[WINDOW];
    for (int w = 0; w < WINDOW; w++) {
        slot[w].req = MPI_REQUEST_NULL;
        CHECK((slot[w].buf = malloc(MAXLEN)) != NULL, "out of memory");
    }
    /* every rank walks the same sequence, posting its part in order (receives name the source
     * and the tag, so the non-overtaking rule makes message k match receive k); with the window
     * full it waits for its oldest request, which no later message can hold up */
    long long counts[4] = {0, 0, 0, 0}; /* sent, received, bytes checked, messages of the job */
    int head = 0, used = 0;
    for (uint64_t k = 0; k < total; k++) {
        struct msg m = msg_of(k, np);
        counts[3]++;
        if (m.src != me && m.dst != me)
            continue;
        if (used == WINDOW) {
            counts[2] += finish(&slot[head]);
            head = (head + 1) % WINDOW;
            used--;
        }
        struct slot *s = &slot[(head + used++) % WINDOW];
        s->k = k;
        s->m = m;
        s->is_recv = m.dst == me;
        if (s->is_recv) {
            for (int i = 0; i < m.len + 1 && i < MAXLEN; i++)
                s->buf[i] = (unsigned char)~pattern(m.src, k, i); /* stale bytes cannot pass */
            CHECK_SUCCESS(MPI_Irecv(s->buf, MAXLEN, MPI_BYTE, m.src, m.tag, MPI_COMM_WORLD, &s->req));
            counts[1]++;
        } else {
            for (int i = 0; i < m.len; i++)
                s->buf[i] = pattern(me, k, i);
            CHECK_SUCCESS(MPI_Isend(s->buf, m.len, MPI_BYTE, m.dst, m.tag, MPI_COMM_WORLD, &s->req));
            counts[0]++;
        }
    }
    for (; used; used--, head = (head + 1) % WINDOW)
        counts[2] += finish(&slot[head]);
    long long sum[4];
    MPI_Allreduce(counts, sum, 4, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    CHECK(sum[0] == (long long)total && sum[1] == (long long)total,
          "%lld sent and %lld received, expected %llu each", sum[0], sum[1], (unsigned long long)total);
    if (me == 0)
        printf("p2p_random_msgs: %lld messages between random pairs of %d ranks, %lld bytes checked\n",
               sum[1], np, sum[2]);
    for (int w = 0; w < WINDOW; w++)
        free(slot[w].buf);
    MPI_Finalize();
    return 0;
}
