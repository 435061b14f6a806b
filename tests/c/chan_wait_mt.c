/* chan_wait_mt: under MPI_THREAD_MULTIPLE, a thread's wait may complete another thread's
 * requests on the same communicator: freed sends and buffered sends, whose completion is
 * finished later under the library's lock. Every message arrives intact; the buffer detaches.
 * An error in a point-to-point call made beside them reaches the communicator's handler, which
 * calls MPI itself. A third thread streams windows of messages on a communicator of its own,
 * completed by every test and wait of several requests in turn (channel entries). */
#include "check.h"

#include <pthread.h>
#include <stdlib.h>

#define ROUNDS 200
#define BIG 20000 /* ints: past the eager size, completed by a later pass */
#define PINGS 2000

#define WINDOW 16
#define WINDOWS 300

static MPI_Comm comm, own;
static int rank;
static int handled; /* calls of on_error (atomic) */

/* The communicator's error handler: calls MPI, counts, and lets the call return the code. */
static void on_error(MPI_Comm *c, int *code, ...)
{
    int cls = -1, size = 0;
    MPI_Error_class(*code, &cls);
    MPI_Comm_size(*c, &size);
    CHECK(cls == MPI_ERR_RANK && size == 2, "handler: class %d, size %d", cls, size);
    __atomic_add_fetch(&handled, 1, __ATOMIC_SEQ_CST);
}

static void fill(int *buf, int n, int seed)
{
    for (int i = 0; i < n; i++)
        buf[i] = seed * 7919 + i;
}

/* Rank 0: large sends freed while running, and buffered ones, on comm (tag 1). */
static void *big_sender(void *arg)
{
    (void)arg;
    int *buf = malloc(sizeof(int) * BIG * 2);
    CHECK(buf != NULL, "out of memory");
    for (int i = 0; i < ROUNDS; i++) {
        int *b = buf + (i % 2) * BIG;
        MPI_Request r;
        fill(b, BIG, 2 * i);
        CHECK_SUCCESS(MPI_Isend(b, BIG, MPI_INT, 1, 1, comm, &r));
        CHECK_SUCCESS(MPI_Request_free(&r)); /* b is reused two rounds on, after the ack */
        int *c = malloc(sizeof(int) * BIG);
        CHECK(c != NULL, "out of memory");
        fill(c, BIG, 2 * i + 1);
        CHECK_SUCCESS(MPI_Bsend(c, BIG, MPI_INT, 1, 1, comm));
        free(c);
        CHECK_SUCCESS(MPI_Recv(NULL, 0, MPI_INT, 1, 3, comm, MPI_STATUS_IGNORE)); /* both arrived */
    }
    free(buf);
    return NULL;
}

/* Rank 1: receives and checks them, acknowledging each round (tag 3). */
static void *big_receiver(void *arg)
{
    (void)arg;
    int *b = malloc(sizeof(int) * BIG), *want = malloc(sizeof(int) * BIG);
    CHECK(b && want, "out of memory");
    for (int i = 0; i < 2 * ROUNDS; i++) {
        MPI_Status st;
        CHECK_SUCCESS(MPI_Recv(b, BIG, MPI_INT, 0, 1, comm, &st));
        fill(want, BIG, i);
        for (int k = 0; k < BIG; k++)
            CHECK(b[k] == want[k], "message %d: element %d is %d, want %d", i, k, b[k], want[k]);
        if (i % 2)
            CHECK_SUCCESS(MPI_Send(NULL, 0, MPI_INT, 0, 3, comm));
    }
    free(b);
    free(want);
    return NULL;
}

/* Both ranks: small ping-pongs on the same communicator (tag 2), whose waits run the
 * channel's passes that complete the other thread's sends. */
static void *pinger(void *arg)
{
    (void)arg;
    for (int i = 0; i < PINGS; i++) {
        int v = i, got = -1;
        if (rank == 0) {
            CHECK_SUCCESS(MPI_Send(&v, 1, MPI_INT, 1, 2, comm));
            CHECK_SUCCESS(MPI_Recv(&got, 1, MPI_INT, 1, 2, comm, MPI_STATUS_IGNORE));
        } else {
            CHECK_SUCCESS(MPI_Recv(&got, 1, MPI_INT, 0, 2, comm, MPI_STATUS_IGNORE));
            CHECK_SUCCESS(MPI_Send(&got, 1, MPI_INT, 0, 2, comm));
        }
        CHECK_EQ_INT(got, i);
        if (i % 100 == 0) { /* a bad rank, beside the other thread's traffic */
            int before = __atomic_load_n(&handled, __ATOMIC_SEQ_CST), cls = -1;
            int rc = MPI_Send(&v, 1, MPI_INT, 7, 2, comm);
            MPI_Error_class(rc, &cls);
            CHECK(cls == MPI_ERR_RANK, "MPI_Send to rank 7 of 2: class %d", cls);
            CHECK(__atomic_load_n(&handled, __ATOMIC_SEQ_CST) == before + 1, "the handler was not called");
        }
    }
    return NULL;
}

/* Completes the WINDOW requests of rq (round w picks how), checking each index once. */
static void complete_window(MPI_Request *rq, int w)
{
    int done = 0, seen[WINDOW] = {0}, idx[WINDOW], n, flag;
    while (done < WINDOW) {
        switch (w % 5) {
        case 0:
            CHECK_SUCCESS(MPI_Waitany(WINDOW, rq, &idx[0], MPI_STATUS_IGNORE));
            n = 1;
            break;
        case 1:
            CHECK_SUCCESS(MPI_Waitsome(WINDOW, rq, &n, idx, MPI_STATUSES_IGNORE));
            break;
        case 2:
            CHECK_SUCCESS(MPI_Testany(WINDOW, rq, &idx[0], &flag, MPI_STATUS_IGNORE));
            n = flag && idx[0] != MPI_UNDEFINED;
            break;
        case 3:
            CHECK_SUCCESS(MPI_Testsome(WINDOW, rq, &n, idx, MPI_STATUSES_IGNORE));
            break;
        default:
            CHECK_SUCCESS(MPI_Testall(WINDOW, rq, &flag, MPI_STATUSES_IGNORE));
            n = 0;
            for (int i = 0; flag && i < WINDOW; i++)
                if (!seen[i])
                    idx[n++] = i;
            break;
        }
        for (int i = 0; i < n; i++) {
            CHECK(idx[i] >= 0 && idx[i] < WINDOW && !seen[idx[i]], "round %d: index %d again or out of range", w,
                  idx[i]);
            CHECK(rq[idx[i]] == MPI_REQUEST_NULL, "round %d: request %d not freed", w, idx[i]);
            seen[idx[i]] = 1;
        }
        done += n;
    }
}

/* Both ranks: windows of small messages from rank 0 to rank 1 on `own`, each checked. */
static void *streamer(void *arg)
{
    (void)arg;
    int buf[WINDOW];
    MPI_Request rq[WINDOW];
    for (int w = 0; w < WINDOWS; w++) {
        for (int i = 0; i < WINDOW; i++) {
            buf[i] = rank == 0 ? w * WINDOW + i : -1;
            if (rank == 0)
                CHECK_SUCCESS(MPI_Isend(&buf[i], 1, MPI_INT, 1, i, own, &rq[i]));
            else
                CHECK_SUCCESS(MPI_Irecv(&buf[i], 1, MPI_INT, 0, i, own, &rq[i]));
        }
        complete_window(rq, w);
        for (int i = 0; rank == 1 && i < WINDOW; i++)
            CHECK(buf[i] == w * WINDOW + i, "window %d, message %d: %d", w, i, buf[i]);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int provided, size;
    CHECK_SUCCESS(MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided));
    CHECK_EQ_INT(provided, MPI_THREAD_MULTIPLE);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(size == 2, "needs 2 ranks, has %d", size);
    CHECK_SUCCESS(MPI_Comm_dup(MPI_COMM_WORLD, &comm));
    CHECK_SUCCESS(MPI_Comm_dup(MPI_COMM_WORLD, &own));
    MPI_Errhandler eh;
    CHECK_SUCCESS(MPI_Comm_create_errhandler(on_error, &eh));
    CHECK_SUCCESS(MPI_Comm_set_errhandler(comm, eh));
    CHECK_SUCCESS(MPI_Errhandler_free(&eh));
    int bsize = 2 * (BIG * (int)sizeof(int) + MPI_BSEND_OVERHEAD);
    void *bbuf = malloc((size_t)bsize);
    CHECK(bbuf != NULL, "out of memory");
    CHECK_SUCCESS(MPI_Buffer_attach(bbuf, bsize));

    pthread_t t[3];
    CHECK(pthread_create(&t[0], NULL, rank == 0 ? big_sender : big_receiver, NULL) == 0, "pthread_create");
    CHECK(pthread_create(&t[1], NULL, pinger, NULL) == 0, "pthread_create");
    CHECK(pthread_create(&t[2], NULL, streamer, NULL) == 0, "pthread_create");
    for (int i = 0; i < 3; i++)
        pthread_join(t[i], NULL);

    void *back;
    int bback;
    CHECK_SUCCESS(MPI_Buffer_detach(&back, &bback)); /* every buffered send has gone */
    CHECK(back == bbuf && bback == bsize, "detach gave %p, %d", back, bback);
    free(bbuf);
    CHECK_EQ_INT(handled, PINGS / 100);
    CHECK_SUCCESS(MPI_Comm_free(&comm));
    CHECK_SUCCESS(MPI_Comm_free(&own));
    CHECK_SUCCESS(MPI_Finalize());
    if (rank == 0)
        printf("chan_wait_mt: ok\n");
    return 0;
}
