/* p2p_stress.c — at least 100,000 messages of random sizes (0 B to 4 MiB, mostly small)
 * and tags from every rank to every other, received with MPI_ANY_SOURCE and MPI_ANY_TAG;
 * every byte is checked against a pattern derived from sender, sequence and position. */
#include <mpi.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

#define TOTAL 100000
#define WINDOW 64

static uint32_t rng(uint64_t *s)
{
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return (uint32_t)(*s >> 33);
}

/* Size of message k of `sender`: mostly small, some large, a few of 4 MiB. */
static int size_of(int sender, int k)
{
    uint64_t s = ((uint64_t)sender << 32) ^ (uint64_t)k ^ 0x9e3779b97f4a7c15ULL;
    uint32_t r = rng(&s), kind = r % 1000;
    if (kind < 2)
        return 4 << 20;
    if (kind < 40)
        return (int)(rng(&s) % (1 << 20));
    return (int)(rng(&s) % 2048);
}

static unsigned char pattern(int sender, int k, int i)
{
    return (unsigned char)(sender * 31 + k * 7 + i * 13);
}

int main(int argc, char **argv)
{
    int me, np;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    int per_rank = TOTAL / np + 1;            /* messages each rank sends */
    /* sender s sends its k-th message to (s + 1 + k % (np - 1)) % np, tag k % 1000 */
    int incoming = 0;
    for (int s = 0; s < np; s++)
        if (s != me)
            for (int k = 0; k < per_rank; k++)
                if ((s + 1 + k % (np - 1)) % np == me)
                    incoming++;
    int *next_k = calloc((size_t)np, sizeof(int)); /* per sender: the k we expect next */
    unsigned char *sbuf[WINDOW], *rbuf = malloc(4 << 20);
    MPI_Request sreq[WINDOW];
    for (int w = 0; w < WINDOW; w++) {
        sbuf[w] = malloc(4 << 20);
        sreq[w] = MPI_REQUEST_NULL;
    }
    int sent = 0, received = 0;
    while (sent < per_rank || received < incoming) {
        /* a send slot is reused once its send completed; never MPI_Wait on it: a large send
         * completes only when its receiver posts the receive, and the receiver may be waiting
         * likewise on one of its own (both would wait forever, as MPI allows) */
        int slot_free = 0;
        if (sent < per_rank)
            MPI_Test(&sreq[sent % WINDOW], &slot_free, MPI_STATUS_IGNORE);
        if (slot_free) {
            int w = sent % WINDOW;
            int n = size_of(me, sent), dest = (me + 1 + sent % (np - 1)) % np;
            for (int i = 0; i < n; i++)
                sbuf[w][i] = pattern(me, sent, i);
            MPI_Isend(sbuf[w], n, MPI_BYTE, dest, sent % 1000, MPI_COMM_WORLD, &sreq[w]);
            sent++;
        }
        int flag = 1;
        while (received < incoming && flag) {
            MPI_Status st;
            MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
            if (!flag && sent == per_rank) { /* nothing more to send: block */
                MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
                flag = 1;
            }
            if (!flag)
                break;
            int src = st.MPI_SOURCE, n;
            MPI_Get_count(&st, MPI_BYTE, &n);
            MPI_Recv(rbuf, 4 << 20, MPI_BYTE, src, st.MPI_TAG, MPI_COMM_WORLD, &st);
            /* messages from src to us come in order: find which k this is */
            int k = next_k[src];
            while ((src + 1 + k % (np - 1)) % np != me)
                k++;
            next_k[src] = k + 1;
            CHECK_EQ_INT(st.MPI_TAG, k % 1000);
            CHECK_EQ_INT(n, size_of(src, k));
            for (int i = 0; i < n; i++)
                if (rbuf[i] != pattern(src, k, i))
                    CHECK(0, "message %d from %d: byte %d is %d, expected %d", k, src, i, rbuf[i], pattern(src, k, i));
            received++;
        }
    }
    MPI_Waitall(WINDOW, sreq, MPI_STATUSES_IGNORE);
    /* per_rank * np >= TOTAL messages went through, each checked above by its receiver */
    CHECK_EQ_INT(received, incoming);
    for (int w = 0; w < WINDOW; w++)
        free(sbuf[w]);
    free(rbuf);
    free(next_k);
    MPI_Finalize();
    return 0;
}
