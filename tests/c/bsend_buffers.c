/* bsend_buffers.c — MPI-4.1 buffers for buffered sends: a communicator's buffer is used before
 * the process's, a session's for the communicators derived from it; flush, iflush, detach, and
 * MPI_BUFFER_AUTOMATIC. Rank 0 sends 4 MiB messages (never eager) that rank 1 takes later. */
#include <mpi.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

#define N (1 << 20) /* ints per message */
#define BYTES ((int)(N * sizeof(int)) + MPI_BSEND_OVERHEAD) /* room for one message */

static int *msg(int seed)
{
    int *m = malloc(N * sizeof *m);
    for (int i = 0; i < N; i++)
        m[i] = seed * 7919 + i;
    return m;
}

/* Rank 1 receives message `seed` on c with tag and compares it byte for byte. */
static void take(MPI_Comm c, int tag, int seed)
{
    int *want = msg(seed), *got = calloc(N, sizeof *got), count = -1;
    MPI_Status st;
    CHECK_SUCCESS(MPI_Recv(got, N, MPI_INT, 0, tag, c, &st));
    MPI_Get_count(&st, MPI_INT, &count);
    CHECK_EQ_INT(count, N);
    CHECK(memcmp(got, want, N * sizeof *got) == 0, "message %d (tag %d) differs", seed, tag);
    free(want);
    free(got);
}

/* Rank 0 buffers message `seed`; a refused one fails with want_class, its message saying `says`
 * (the buffer it found full, or none). */
static void send_says(MPI_Comm c, int tag, int seed, int want_class, const char *says)
{
    int *m = msg(seed);
    int err = MPI_Bsend(m, N, MPI_INT, 1, tag, c);
    if (want_class == MPI_SUCCESS)
        CHECK_SUCCESS(err);
    else
        CHECK_ERR(err, want_class, "MPI_Bsend", says);
    free(m); /* the buffered copy is the library's */
}
#define send(c, tag, seed, cls) send_says(c, tag, seed, cls, "")
#define FULL_PROCESS "the buffer attached to the process (MPI_Buffer_attach) has no room"
#define FULL_COMM "the buffer attached to the communicator (MPI_Comm_attach_buffer) has no room"
#define FULL_SESSION "the buffer attached to the communicator's session (MPI_Session_attach_buffer) has no room"
#define NONE "no buffer is attached for buffered sends"


/* The process's buffer and a communicator's: each serves its own sends only. */
static void comm_and_process(int me)
{
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN);
    char *pbuf = malloc(BYTES), *cbuf = malloc(BYTES);
    if (me == 0) {
        CHECK_SUCCESS(MPI_Buffer_attach(pbuf, BYTES));
        send(dup, 1, 1, MPI_SUCCESS);       /* the process's buffer is full now */
        send_says(dup, 9, 9, MPI_ERR_BUFFER, FULL_PROCESS);
        CHECK_SUCCESS(MPI_Comm_attach_buffer(dup, cbuf, BYTES));
        CHECK_ERR(MPI_Comm_attach_buffer(dup, cbuf, BYTES), MPI_ERR_BUFFER, "MPI_Comm_attach_buffer", "already");
        send(dup, 2, 2, MPI_SUCCESS);       /* dup's own buffer */
        send_says(dup, 9, 9, MPI_ERR_BUFFER, FULL_COMM); /* dup's buffer is full: the process's is not used */
        send_says(MPI_COMM_WORLD, 9, 9, MPI_ERR_BUFFER, FULL_PROCESS); /* WORLD has only the (full) process buffer */
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (me == 1) {
        take(dup, 2, 2);
        take(dup, 1, 1);
    }
    if (me == 0) {
        MPI_Request r = MPI_REQUEST_NULL;
        CHECK_SUCCESS(MPI_Comm_iflush_buffer(dup, &r));
        CHECK_SUCCESS(MPI_Wait(&r, MPI_STATUS_IGNORE));
        CHECK(r == MPI_REQUEST_NULL, "MPI_Wait left the flush request");
        CHECK_SUCCESS(MPI_Buffer_flush());
        /* both buffers are empty again: each takes one more message */
        send(dup, 3, 3, MPI_SUCCESS);
        send(MPI_COMM_WORLD, 4, 4, MPI_SUCCESS);
    }
    if (me == 1) {
        take(MPI_COMM_WORLD, 4, 4);
        take(dup, 3, 3);
    }
    if (me == 0) {
        void *addr = NULL;
        int size = -1;
        CHECK_SUCCESS(MPI_Comm_flush_buffer(dup));
        CHECK_SUCCESS(MPI_Comm_detach_buffer(dup, &addr, &size));
        CHECK(addr == cbuf && size == BYTES, "comm detach gave %p, %d; attached %p, %d", addr, size,
              (void *)cbuf, BYTES);
        CHECK_SUCCESS(MPI_Buffer_detach(&addr, &size));
        CHECK(addr == pbuf && size == BYTES, "process detach gave %p, %d; attached %p, %d", addr, size,
              (void *)pbuf, BYTES);
        send_says(dup, 9, 9, MPI_ERR_BUFFER, NONE); /* none attached anywhere */
        CHECK_ERR(MPI_Comm_attach_buffer(MPI_COMM_NULL, cbuf, BYTES), MPI_ERR_COMM, "MPI_Comm_attach_buffer");
        CHECK_ERR(MPI_Comm_flush_buffer(MPI_COMM_NULL), MPI_ERR_COMM, "MPI_Comm_flush_buffer");
    }
    MPI_Barrier(MPI_COMM_WORLD);
    free(pbuf);
    free(cbuf);
    MPI_Comm_free(&dup);
}

/* MPI_BUFFER_AUTOMATIC on a communicator: any number of large buffered sends. */
static void automatic(int me)
{
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN);
    if (me == 0) {
        CHECK_SUCCESS(MPI_Comm_attach_buffer(dup, MPI_BUFFER_AUTOMATIC, 0));
        for (int k = 0; k < 4; k++)
            send(dup, 10 + k, 10 + k, MPI_SUCCESS);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (me == 1)
        for (int k = 3; k >= 0; k--)
            take(dup, 10 + k, 10 + k);
    if (me == 0) {
        void *addr = NULL;
        int size = -1;
        CHECK_SUCCESS(MPI_Comm_detach_buffer(dup, &addr, &size)); /* waits for the four */
        CHECK(addr == MPI_BUFFER_AUTOMATIC, "detach gave %p, not MPI_BUFFER_AUTOMATIC", addr);
        /* a communicator freed with a buffer still attached gives it up */
        CHECK_SUCCESS(MPI_Comm_attach_buffer(dup, MPI_BUFFER_AUTOMATIC, 0));
        send(dup, 14, 14, MPI_SUCCESS);
    }
    if (me == 1)
        take(dup, 14, 14);
    MPI_Comm_free(&dup);
}

/* A session's buffer serves the communicators derived from it that have none of their own. */
static void session(int me)
{
    MPI_Session s;
    MPI_Group g;
    MPI_Comm sc, sdup;
    char *sbuf = malloc(BYTES);
    CHECK_SUCCESS(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s));
    CHECK_SUCCESS(MPI_Group_from_session_pset(s, "mpi://WORLD", &g));
    CHECK_SUCCESS(MPI_Comm_create_from_group(g, "bsend_buffers", MPI_INFO_NULL, MPI_ERRORS_RETURN, &sc));
    MPI_Group_free(&g);
    CHECK_SUCCESS(MPI_Comm_dup(sc, &sdup));
    if (me == 0) {
        send_says(sc, 9, 9, MPI_ERR_BUFFER, NONE); /* no buffer anywhere yet */
        CHECK_SUCCESS(MPI_Session_attach_buffer(s, sbuf, BYTES));
        CHECK_ERR(MPI_Session_attach_buffer(s, sbuf, BYTES), MPI_ERR_BUFFER, "MPI_Session_attach_buffer",
                  "already");
        send(sc, 20, 20, MPI_SUCCESS);          /* the session's buffer */
        send_says(sdup, 9, 9, MPI_ERR_BUFFER, FULL_SESSION); /* a duplicate shares it: full */
        send_says(MPI_COMM_WORLD, 9, 9, MPI_ERR_BUFFER, NONE); /* WORLD does not derive from the session */
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (me == 1)
        take(sc, 20, 20);
    if (me == 0) {
        MPI_Request r = MPI_REQUEST_NULL;
        CHECK_SUCCESS(MPI_Session_iflush_buffer(s, &r));
        CHECK_SUCCESS(MPI_Wait(&r, MPI_STATUS_IGNORE));
        send(sdup, 21, 21, MPI_SUCCESS);
    }
    if (me == 1)
        take(sdup, 21, 21);
    if (me == 0) {
        void *addr = NULL;
        MPI_Count size = -1;
        CHECK_SUCCESS(MPI_Session_flush_buffer(s));
        CHECK_SUCCESS(MPI_Session_detach_buffer_c(s, &addr, &size));
        CHECK(addr == sbuf && size == BYTES, "session detach gave %p, %lld; attached %p, %d", addr,
              (long long)size, (void *)sbuf, BYTES);
        CHECK_SUCCESS(MPI_Session_detach_buffer_c(s, &addr, &size)); /* none attached */
        CHECK(addr == NULL && size == 0, "second detach gave %p, %lld", addr, (long long)size);
        send_says(sc, 9, 9, MPI_ERR_BUFFER, NONE);
        CHECK_ERR(MPI_Session_attach_buffer(MPI_SESSION_NULL, sbuf, BYTES), MPI_ERR_SESSION,
                  "MPI_Session_attach_buffer");
        CHECK_ERR(MPI_Session_flush_buffer(MPI_SESSION_NULL), MPI_ERR_SESSION, "MPI_Session_flush_buffer");
        /* a buffer left attached goes with MPI_Session_finalize, after its messages */
        CHECK_SUCCESS(MPI_Session_attach_buffer_c(s, sbuf, BYTES));
        send(sc, 22, 22, MPI_SUCCESS);
    }
    if (me == 1)
        take(sc, 22, 22);
    MPI_Comm_free(&sdup);
    MPI_Comm_free(&sc);
    CHECK_SUCCESS(MPI_Session_finalize(&s));
    free(sbuf);
}

int main(int argc, char **argv)
{
    int me, np;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    CHECK(np >= 2, "needs 2 processes, has %d", np);
    comm_and_process(me);
    automatic(me);
    session(me);
    MPI_Finalize();
    return 0;
}
