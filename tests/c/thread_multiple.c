/* thread_multiple: MPI_THREAD_MULTIPLE under stress. THREADS threads per rank (default 4) run
 * rounds for STRESS_SECONDS (default 10) of, at once: checksummed exchanges on each thread's own
 * communicator, wildcard receives on one shared communicator (each message seen exactly once,
 * in order per sending thread), MPI_Mprobe + MPI_Mrecv and MPI_Improbe + MPI_Imrecv, blocking
 * and nonblocking collectives, requests completed by another thread, and creation/free churn of
 * communicators, datatypes, keyvals and attributes. Nothing may be lost, duplicated, damaged or deadlocked. */
#include "check.h"

#include <pthread.h>
#include <stdint.h>
#include <time.h>

#define MAXT 16
#define K 4            /* wildcard and probed messages per thread per round */
#define MAXROUNDS 100000

static int nthreads, rank, size, next, prev;
static MPI_Comm own[MAXT], shared, probed;
static pthread_barrier_t bar;
static int go;                        /* this round runs (set by thread 0) */
static double deadline;
static MPI_Request handoff[MAXT];     /* a receive started by thread t, completed by t + 1 */
static unsigned char *handoff_buf[MAXT];
static unsigned short (*seen)[MAXROUNDS * K / 8 + 1]; /* [thread][seq/8]: bit per message */
static pthread_mutex_t seen_mx = PTHREAD_MUTEX_INITIALIZER;

/* The size of message `seq` of thread t of sender s: 0 B to 96 KiB (eager and rendezvous). */
static int msg_len(int s, int t, int seq)
{
    static const int lens[] = {0, 1, 8, 100, 4096, 17000, 65536, 98304};
    return lens[(unsigned)(s * 7 + t * 3 + seq) % 8];
}

static unsigned char byte_of(int s, int t, int seq, int i)
{
    return (unsigned char)(s * 131 + t * 31 + seq * 7 + i * 13 + (i >> 8));
}

/* Fills buf with message (s, t, seq): a header of 3 ints, then the pattern. */
static int fill(unsigned char *buf, int s, int t, int seq)
{
    int n = msg_len(s, t, seq), h[3] = {s, t, seq};
    memcpy(buf, h, sizeof h);
    for (int i = 0; i < n; i++)
        buf[sizeof h + (size_t)i] = byte_of(s, t, seq, i);
    return (int)sizeof h + n;
}

/* Checks a received message of len bytes; returns its (t, seq) through *t and *seq. */
static void verify(const unsigned char *buf, int len, int from, int *t, int *seq)
{
    int h[3];
    CHECK(len >= (int)sizeof h, "rank %d: a message of %d bytes has no header", rank, len);
    memcpy(h, buf, sizeof h);
    CHECK(h[0] == from, "rank %d: message from rank %d says it is from %d", rank, from, h[0]);
    CHECK(h[1] >= 0 && h[1] < nthreads && h[2] >= 0 && h[2] < MAXROUNDS * K, "rank %d: bad header %d %d",
          rank, h[1], h[2]);
    int n = msg_len(h[0], h[1], h[2]);
    CHECK(len == (int)sizeof h + n, "rank %d: message (%d,%d,%d) has %d bytes, not %d", rank, h[0], h[1], h[2],
          len, (int)sizeof h + n);
    for (int i = 0; i < n; i++)
        CHECK(buf[sizeof h + (size_t)i] == byte_of(h[0], h[1], h[2], i),
              "rank %d: message (%d,%d,%d) damaged at byte %d", rank, h[0], h[1], h[2], i);
    *t = h[1];
    *seq = h[2];
}

static void mark_seen(int t, int seq)
{
    pthread_mutex_lock(&seen_mx);
    unsigned short bit = (unsigned short)(1u << (seq % 8));
    CHECK(!(seen[t][seq / 8] & bit), "rank %d: message (%d,%d) received twice", rank, t, seq);
    seen[t][seq / 8] |= bit;
    pthread_mutex_unlock(&seen_mx);
}

static int copy_count;
static int count_copy(MPI_Comm c, int kv, void *extra, void *in, void *out, int *flag)
{
    (void)c, (void)kv, (void)extra;
    __atomic_fetch_add(&copy_count, 1, __ATOMIC_RELAXED);
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}

/* One thread's rounds; returns how many it ran. */
static void *worker(void *arg)
{
    int t = (int)(intptr_t)arg, last[MAXT], rounds = 0;
    unsigned char *sbuf = malloc(200000), *rbuf = malloc(200000), *pbuf = malloc(200000);
    CHECK(sbuf && rbuf && pbuf, "out of memory");
    for (int i = 0; i < MAXT; i++)
        last[i] = -1;
    for (;;) {
        /* thread 0 of rank 0 says whether this round runs; everyone hears it */
        pthread_barrier_wait(&bar);
        if (t == 0) {
            int more = rank == 0 ? MPI_Wtime() < deadline && rounds < MAXROUNDS : 0;
            CHECK_SUCCESS(MPI_Bcast(&more, 1, MPI_INT, 0, own[0]));
            go = more;
        }
        pthread_barrier_wait(&bar);
        if (!go)
            break;

        /* a receive this thread starts and the next thread completes */
        CHECK_SUCCESS(MPI_Irecv(handoff_buf[t], 200000, MPI_BYTE, prev, 9, own[t], &handoff[t]));

        /* own communicator: ring exchange, checksummed */
        int seq = rounds;
        int n = fill(sbuf, rank, t, seq);
        MPI_Request rq[2];
        MPI_Status st, sts[2];
        CHECK_SUCCESS(MPI_Isend(sbuf, n, MPI_BYTE, next, 1, own[t], &rq[0]));
        CHECK_SUCCESS(MPI_Irecv(rbuf, 200000, MPI_BYTE, prev, 1, own[t], &rq[1]));
        CHECK_SUCCESS(MPI_Waitall(2, rq, sts));
        int got, gt, gs;
        CHECK_SUCCESS(MPI_Get_count(&sts[1], MPI_BYTE, &got));
        verify(rbuf, got, prev, &gt, &gs);
        CHECK(gt == t && gs == seq, "rank %d thread %d: own-comm message (%d,%d), expected (%d,%d)", rank, t, gt,
              gs, t, seq);

        /* the handed-off receive's message, then complete the previous thread's receive */
        n = fill(sbuf, rank, t, seq);
        CHECK_SUCCESS(MPI_Send(sbuf, n, MPI_BYTE, next, 9, own[t]));
        pthread_barrier_wait(&bar);
        int o = (t + nthreads - 1) % nthreads;
        CHECK_SUCCESS(MPI_Wait(&handoff[o], &st));
        CHECK_SUCCESS(MPI_Get_count(&st, MPI_BYTE, &got));
        verify(handoff_buf[o], got, prev, &gt, &gs);
        CHECK(gt == o && gs == seq, "rank %d: handed-off message (%d,%d), expected (%d,%d)", rank, gt, gs, o, seq);

        /* shared communicator: K sends to next, K wildcard receives, order per sending thread */
        MPI_Request srq[K];
        unsigned char *kbuf = malloc((size_t)K * 100000);
        CHECK(kbuf != NULL, "out of memory");
        for (int k = 0; k < K; k++) {
            n = fill(kbuf + (size_t)k * 100000, rank, t, seq * K + k);
            CHECK_SUCCESS(MPI_Isend(kbuf + (size_t)k * 100000, n, MPI_BYTE, next, t * 1000 + k, shared, &srq[k]));
        }
        for (int k = 0; k < K; k++) {
            CHECK_SUCCESS(MPI_Recv(rbuf, 200000, MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG, shared, &st));
            CHECK_SUCCESS(MPI_Get_count(&st, MPI_BYTE, &got));
            CHECK(st.MPI_SOURCE == prev, "rank %d: wildcard message from %d", rank, st.MPI_SOURCE);
            verify(rbuf, got, prev, &gt, &gs);
            CHECK(st.MPI_TAG == gt * 1000 + gs % K, "rank %d: tag %d for message (%d,%d)", rank, st.MPI_TAG, gt, gs);
            CHECK(gs > last[gt], "rank %d thread %d: message %d of thread %d after %d (overtaken)", rank, t, gs, gt,
                  last[gt]);
            last[gt] = gs;
            mark_seen(gt, gs);
        }
        CHECK_SUCCESS(MPI_Waitall(K, srq, MPI_STATUSES_IGNORE));

        /* matched probes on another shared communicator */
        for (int k = 0; k < K; k++) {
            n = fill(kbuf + (size_t)k * 100000, rank, t, seq * K + k);
            CHECK_SUCCESS(MPI_Isend(kbuf + (size_t)k * 100000, n, MPI_BYTE, next, k, probed, &srq[k]));
        }
        for (int k = 0; k < K; k++) { /* blocking, and polled with the nonblocking forms */
            MPI_Message m;
            if (k % 2 == 0) {
                CHECK_SUCCESS(MPI_Mprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, probed, &m, &st));
                CHECK_SUCCESS(MPI_Get_count(&st, MPI_BYTE, &got));
                CHECK_SUCCESS(MPI_Mrecv(pbuf, got, MPI_BYTE, &m, &st));
            } else {
                MPI_Request rq;
                int flag = 0;
                while (!flag)
                    CHECK_SUCCESS(MPI_Improbe(MPI_ANY_SOURCE, MPI_ANY_TAG, probed, &flag, &m, &st));
                CHECK_SUCCESS(MPI_Get_count(&st, MPI_BYTE, &got));
                CHECK_SUCCESS(MPI_Imrecv(pbuf, got, MPI_BYTE, &m, &rq));
                CHECK(m == MPI_MESSAGE_NULL, "rank %d thread %d: MPI_Imrecv left the message handle", rank, t);
                CHECK_SUCCESS(MPI_Wait(&rq, &st));
            }
            verify(pbuf, got, prev, &gt, &gs);
        }
        CHECK_SUCCESS(MPI_Waitall(K, srq, MPI_STATUSES_IGNORE));
        free(kbuf);

        /* collectives on the own communicator */
        long v = (long)rank * 1000 + t + seq, sum = 0, want = 0;
        for (int r = 0; r < size; r++)
            want += (long)r * 1000 + t + seq;
        CHECK_SUCCESS(MPI_Allreduce(&v, &sum, 1, MPI_LONG, MPI_SUM, own[t]));
        CHECK(sum == want, "rank %d thread %d: allreduce gave %ld, not %ld", rank, t, sum, want);
        CHECK_SUCCESS(MPI_Barrier(own[t]));
        MPI_Request nb;
        long isum = 0;
        int done = 0;
        CHECK_SUCCESS(MPI_Iallreduce(&v, &isum, 1, MPI_LONG, MPI_SUM, own[t], &nb));
        while (!done)
            CHECK_SUCCESS(MPI_Test(&nb, &done, MPI_STATUS_IGNORE));
        CHECK(isum == want, "rank %d thread %d: iallreduce gave %ld, not %ld", rank, t, isum, want);

        /* churn: a duplicate with an attribute, a datatype, a keyval */
        int kv;
        MPI_Comm dup;
        CHECK_SUCCESS(MPI_Comm_create_keyval(count_copy, MPI_COMM_NULL_DELETE_FN, &kv, NULL));
        CHECK_SUCCESS(MPI_Comm_set_attr(own[t], kv, &rounds));
        CHECK_SUCCESS(MPI_Comm_dup(own[t], &dup));
        void *val;
        int flag;
        CHECK_SUCCESS(MPI_Comm_get_attr(dup, kv, &val, &flag));
        CHECK(flag && val == &rounds, "rank %d thread %d: attribute not copied", rank, t);
        MPI_Datatype vec;
        CHECK_SUCCESS(MPI_Type_vector(3, 2, 5, MPI_INT, &vec));
        CHECK_SUCCESS(MPI_Type_commit(&vec));
        int ints[15], back[15] = {0};
        for (int i = 0; i < 15; i++)
            ints[i] = i + seq;
        CHECK_SUCCESS(MPI_Sendrecv(ints, 1, vec, next, 2, back, 1, vec, prev, 2, dup, MPI_STATUS_IGNORE));
        for (int i = 0; i < 15; i++)
            CHECK(back[i] == (i % 5 < 2 && i < 12 ? i + seq : 0), "rank %d thread %d: vector element %d = %d", rank,
                  t, i, back[i]);
        CHECK_SUCCESS(MPI_Type_free(&vec));
        CHECK_SUCCESS(MPI_Comm_delete_attr(own[t], kv));
        CHECK_SUCCESS(MPI_Comm_free(&dup));
        CHECK_SUCCESS(MPI_Comm_free_keyval(&kv));
        rounds++;
    }
    free(sbuf);
    free(rbuf);
    free(pbuf);
    return (void *)(intptr_t)rounds;
}

int main(int argc, char **argv)
{
    int provided;
    const char *e = getenv("THREADS");
    const char *secs = getenv("STRESS_SECONDS");
    nthreads = e ? atoi(e) : 4;
    CHECK(nthreads >= 1 && nthreads <= MAXT, "THREADS=%d", nthreads);
    CHECK_SUCCESS(MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided));
    CHECK(provided == MPI_THREAD_MULTIPLE, "provided = %d, not MPI_THREAD_MULTIPLE", provided);
    CHECK_SUCCESS(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_SUCCESS(MPI_Comm_size(MPI_COMM_WORLD, &size));
    next = (rank + 1) % size;
    prev = (rank + size - 1) % size;
    for (int t = 0; t < nthreads; t++)
        CHECK_SUCCESS(MPI_Comm_dup(MPI_COMM_WORLD, &own[t]));
    CHECK_SUCCESS(MPI_Comm_dup(MPI_COMM_WORLD, &shared));
    CHECK_SUCCESS(MPI_Comm_dup(MPI_COMM_WORLD, &probed));
    seen = calloc(MAXT, sizeof *seen);
    CHECK(seen != NULL, "out of memory");
    for (int t = 0; t < nthreads; t++) {
        handoff_buf[t] = malloc(200000);
        CHECK(handoff_buf[t] != NULL, "out of memory");
    }
    deadline = MPI_Wtime() + (secs ? atof(secs) : 10);
    pthread_barrier_init(&bar, NULL, (unsigned)nthreads);

    pthread_t th[MAXT];
    int rounds = -1;
    for (int t = 1; t < nthreads; t++)
        CHECK(pthread_create(&th[t], NULL, worker, (void *)(intptr_t)t) == 0, "pthread_create");
    rounds = (int)(intptr_t)worker((void *)0);
    for (int t = 1; t < nthreads; t++) {
        void *r;
        pthread_join(th[t], &r);
        CHECK((int)(intptr_t)r == rounds, "thread %d ran %d rounds, thread 0 %d", t, (int)(intptr_t)r, rounds);
    }
    /* every wildcard message of every thread of prev, rounds * K each, seen exactly once */
    for (int t = 0; t < nthreads; t++)
        for (int s = 0; s < rounds * K; s++)
            CHECK(seen[t][s / 8] & (1u << (s % 8)), "rank %d: message (%d,%d) never received", rank, t, s);
    CHECK(copy_count == rounds * nthreads, "rank %d: %d attribute copies, expected %d", rank, copy_count,
          rounds * nthreads);
    int all;
    CHECK_SUCCESS(MPI_Allreduce(&rounds, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD));
    CHECK(all == rounds && rounds > 0, "rank %d ran %d rounds, the least %d", rank, rounds, all);
    for (int t = 0; t < nthreads; t++)
        CHECK_SUCCESS(MPI_Comm_free(&own[t]));
    CHECK_SUCCESS(MPI_Comm_free(&shared));
    CHECK_SUCCESS(MPI_Comm_free(&probed));
    for (int t = 0; t < nthreads; t++)
        free(handoff_buf[t]);
    free(seen);
    if (rank == 0)
        printf("thread_multiple: %d ranks x %d threads, %d rounds each\n", size, nthreads, rounds);
    CHECK_SUCCESS(MPI_Finalize());
    return 0;
}
