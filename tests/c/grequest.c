/* grequest: generalized requests (MPI_Grequest_start/complete): the query function's status reaches
 * the waiter, free and cancel functions run with their extra_state, completion from another thread. */
#include "check.h"

#include <pthread.h>
#include <time.h>

/* One request's extra_state: what its callbacks report and how often they ran. */
struct state {
    struct state *self; /* the address given to MPI_Grequest_start: the callbacks check it */
    int source, tag, count, query_rc, free_rc;
    int queries, frees, cancels, cancel_complete;
};

static void init_state(struct state *s, int source, int tag, int count)
{
    *s = (struct state){.self = s, .source = source, .tag = tag, .count = count};
}

static int query_fn(void *extra, MPI_Status *st)
{
    struct state *s = extra;
    CHECK(s->self == s, "query_fn: extra_state %p is not the one given", extra);
    s->queries++;
    MPI_Status_set_elements(st, MPI_INT, s->count);
    MPI_Status_set_cancelled(st, s->cancels > 0);
    st->MPI_SOURCE = s->source;
    st->MPI_TAG = s->tag;
    return s->query_rc;
}

static int free_fn(void *extra)
{
    struct state *s = extra;
    CHECK(s->self == s, "free_fn: extra_state %p is not the one given", extra);
    __atomic_add_fetch(&s->frees, 1, __ATOMIC_SEQ_CST); /* may run in the completing thread */
    return s->free_rc;
}

static int cancel_fn(void *extra, int complete)
{
    struct state *s = extra;
    CHECK(s->self == s, "cancel_fn: extra_state %p is not the one given", extra);
    s->cancels++;
    s->cancel_complete = complete;
    return MPI_SUCCESS;
}

static void nap(long us)
{
    nanosleep(&(struct timespec){us / 1000000, (us % 1000000) * 1000}, NULL);
}

/* A thread that completes a generalized request after a delay. */
struct completer {
    MPI_Request req;
    long delay_us;
    int called; /* atomic: MPI_Grequest_complete is being called */
    pthread_t t;
};

static void *complete_later(void *arg)
{
    struct completer *c = arg;
    nap(c->delay_us);
    __atomic_store_n(&c->called, 1, __ATOMIC_SEQ_CST);
    CHECK_SUCCESS(MPI_Grequest_complete(c->req));
    return NULL;
}

static void start_completer(struct completer *c, MPI_Request req, long delay_us)
{
    c->req = req;
    c->delay_us = delay_us;
    c->called = 0;
    CHECK(pthread_create(&c->t, NULL, complete_later, c) == 0, "pthread_create");
}

static void check_status(const MPI_Status *st, const struct state *s)
{
    int count = -1, cancelled = -1;
    CHECK_SUCCESS(MPI_Get_count(st, MPI_INT, &count));
    CHECK_SUCCESS(MPI_Test_cancelled(st, &cancelled));
    CHECK_EQ_INT(st->MPI_SOURCE, s->source);
    CHECK_EQ_INT(st->MPI_TAG, s->tag);
    CHECK_EQ_INT(count, s->count);
    CHECK_EQ_INT(cancelled, s->cancels > 0);
}

/* Test before completion, get_status after it, then wait. */
static void basic(void)
{
    struct state s;
    MPI_Request r, copy;
    MPI_Status st;
    int flag = -1;
    init_state(&s, 7, 42, 5);
    CHECK_SUCCESS(MPI_Grequest_start(query_fn, free_fn, cancel_fn, &s, &r));
    CHECK(r != MPI_REQUEST_NULL, "MPI_Grequest_start gave MPI_REQUEST_NULL");
    copy = r;
    CHECK_SUCCESS(MPI_Test(&r, &flag, &st));
    CHECK_EQ_INT(flag, 0);
    CHECK(r == copy, "MPI_Test of an incomplete request changed the handle");
    CHECK_SUCCESS(MPI_Request_get_status(r, &flag, &st));
    CHECK_EQ_INT(flag, 0);
    CHECK_EQ_INT(s.queries, 0);
    CHECK_SUCCESS(MPI_Grequest_complete(r));
    CHECK_EQ_INT(s.queries, 0);
    CHECK_SUCCESS(MPI_Request_get_status(r, &flag, &st));
    CHECK_EQ_INT(flag, 1);
    CHECK_EQ_INT(s.queries, 1);
    CHECK_EQ_INT(s.frees, 0);
    check_status(&st, &s);
    s.count = 9; /* a second query sees the change */
    CHECK_SUCCESS(MPI_Wait(&r, &st));
    CHECK(r == MPI_REQUEST_NULL, "MPI_Wait left the generalized request");
    CHECK_EQ_INT(s.queries, 2);
    CHECK_EQ_INT(s.frees, 1);
    CHECK_EQ_INT(s.cancels, 0);
    check_status(&st, &s);

    /* MPI_Test once complete */
    init_state(&s, 3, 11, 0);
    CHECK_SUCCESS(MPI_Grequest_start(query_fn, free_fn, cancel_fn, &s, &r));
    CHECK_SUCCESS(MPI_Grequest_complete(r));
    CHECK_SUCCESS(MPI_Test(&r, &flag, &st));
    CHECK_EQ_INT(flag, 1);
    CHECK(r == MPI_REQUEST_NULL, "MPI_Test left the generalized request");
    CHECK_EQ_INT(s.queries, 1);
    CHECK_EQ_INT(s.frees, 1);
    check_status(&st, &s);
}

/* The main thread waits while another completes. */
static void from_thread(void)
{
    struct state s;
    struct completer c;
    MPI_Request r;
    MPI_Status st;
    int flag = -1;
    init_state(&s, 1, 5, 3);
    CHECK_SUCCESS(MPI_Grequest_start(query_fn, free_fn, cancel_fn, &s, &r));
    start_completer(&c, r, 200000);
    CHECK_SUCCESS(MPI_Test(&r, &flag, &st)); /* the thread sleeps 200 ms first */
    CHECK_EQ_INT(flag, 0);
    CHECK_SUCCESS(MPI_Wait(&r, &st));
    CHECK(__atomic_load_n(&c.called, __ATOMIC_SEQ_CST), "MPI_Wait returned before MPI_Grequest_complete was called");
    CHECK(pthread_join(c.t, NULL) == 0, "pthread_join");
    CHECK(r == MPI_REQUEST_NULL, "MPI_Wait left the generalized request");
    CHECK_EQ_INT(s.queries, 1);
    CHECK_EQ_INT(s.frees, 1);
    check_status(&st, &s);

    /* MPI_Test in a loop until the other thread completes it */
    init_state(&s, 2, 6, 4);
    CHECK_SUCCESS(MPI_Grequest_start(query_fn, free_fn, cancel_fn, &s, &r));
    start_completer(&c, r, 50000);
    long tests = 0;
    for (flag = 0; !flag; tests++)
        CHECK_SUCCESS(MPI_Test(&r, &flag, &st));
    CHECK(__atomic_load_n(&c.called, __ATOMIC_SEQ_CST), "MPI_Test said complete before MPI_Grequest_complete");
    CHECK(pthread_join(c.t, NULL) == 0, "pthread_join");
    CHECK(tests > 1, "MPI_Test said complete at once");
    CHECK_EQ_INT(s.queries, 1);
    CHECK_EQ_INT(s.frees, 1);
    check_status(&st, &s);
}

/* MPI_Waitall over a generalized request (completed by a thread) and point-to-point ones. */
static void waitall_mix(int rank, int size)
{
    struct state s;
    struct completer c;
    MPI_Request r[3];
    MPI_Status st[3];
    int peer = (rank + 1) % size, from = (rank + size - 1) % size, out[4], in[4] = {0};
    for (int i = 0; i < 4; i++)
        out[i] = rank * 100 + i;
    init_state(&s, 4, 77, 2);
    CHECK_SUCCESS(MPI_Irecv(in, 4, MPI_INT, from, 31, MPI_COMM_WORLD, &r[0]));
    CHECK_SUCCESS(MPI_Grequest_start(query_fn, free_fn, cancel_fn, &s, &r[1]));
    CHECK_SUCCESS(MPI_Isend(out, 4, MPI_INT, peer, 31, MPI_COMM_WORLD, &r[2]));
    start_completer(&c, r[1], 100000);
    CHECK_SUCCESS(MPI_Waitall(3, r, st));
    CHECK(__atomic_load_n(&c.called, __ATOMIC_SEQ_CST), "MPI_Waitall returned before MPI_Grequest_complete");
    CHECK(pthread_join(c.t, NULL) == 0, "pthread_join");
    for (int i = 0; i < 3; i++)
        CHECK(r[i] == MPI_REQUEST_NULL, "MPI_Waitall left request %d", i);
    check_status(&st[1], &s);
    CHECK_EQ_INT(s.queries, 1);
    CHECK_EQ_INT(s.frees, 1);
    CHECK_EQ_INT(st[0].MPI_SOURCE, from);
    CHECK_EQ_INT(st[0].MPI_TAG, 31);
    for (int i = 0; i < 4; i++)
        CHECK_EQ_INT(in[i], from * 100 + i);
}

/* The query function's error code is the completion's. */
static void query_error(void)
{
    struct state s;
    MPI_Request r[2];
    MPI_Status st[2];
    int cls, code, in = -1, flag = -1;
    CHECK_SUCCESS(MPI_Add_error_class(&cls));
    CHECK_SUCCESS(MPI_Add_error_code(cls, &code));

    init_state(&s, 0, 1, 1);
    s.query_rc = code;
    CHECK_SUCCESS(MPI_Grequest_start(query_fn, free_fn, cancel_fn, &s, &r[0]));
    CHECK_SUCCESS(MPI_Grequest_complete(r[0]));
    CHECK_EQ_INT(error_class(MPI_Wait(&r[0], &st[0])), cls);
    CHECK(r[0] == MPI_REQUEST_NULL, "a failed MPI_Wait left the generalized request");
    CHECK_EQ_INT(s.queries, 1);
    CHECK_EQ_INT(s.frees, 1);

    /* MPI_Request_get_status returns it too, and leaves the request (Open MPI 4.1 returns
     * MPI_SUCCESS, then keeps the code for the wait) */
    if (CHECK_SWITCHYARD) {
        init_state(&s, 0, 1, 1);
        s.query_rc = code;
        CHECK_SUCCESS(MPI_Grequest_start(query_fn, free_fn, cancel_fn, &s, &r[0]));
        CHECK_SUCCESS(MPI_Grequest_complete(r[0]));
        CHECK_EQ_INT(error_class(MPI_Request_get_status(r[0], &flag, &st[0])), cls);
        CHECK_EQ_INT(flag, 1);
        CHECK_EQ_INT(s.frees, 0);
        s.query_rc = MPI_SUCCESS;
        CHECK_SUCCESS(MPI_Wait(&r[0], &st[0]));
        CHECK_EQ_INT(s.queries, 2);
        CHECK_EQ_INT(s.frees, 1);
    }

    /* MPI_Waitall: MPI_ERR_IN_STATUS, the code in the failed request's status (the receive
     * first: MPICH 4.0.2 marks the requests after a failed one MPI_ERR_PENDING, complete or not) */
    init_state(&s, 8, 9, 3);
    s.query_rc = code;
    CHECK_SUCCESS(MPI_Irecv(&in, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &r[0]));
    CHECK_SUCCESS(MPI_Grequest_start(query_fn, free_fn, cancel_fn, &s, &r[1]));
    CHECK_SUCCESS(MPI_Grequest_complete(r[1]));
    st[0].MPI_ERROR = st[1].MPI_ERROR = -12345;
    CHECK_EQ_INT(error_class(MPI_Waitall(2, r, st)), MPI_ERR_IN_STATUS);
    if (CHECK_SWITCHYARD) /* MPICH 4.0.2 puts an MPI_ERR_OTHER of its own there */
        CHECK_EQ_INT(error_class(st[1].MPI_ERROR), cls);
    CHECK(st[1].MPI_ERROR != MPI_SUCCESS, "MPI_Waitall: no error in the failed request's status");
    CHECK_EQ_INT(st[0].MPI_ERROR, MPI_SUCCESS);
    CHECK_EQ_INT(st[1].MPI_SOURCE, 8);
    CHECK_EQ_INT(st[1].MPI_TAG, 9);
    CHECK(r[0] == MPI_REQUEST_NULL && r[1] == MPI_REQUEST_NULL, "a failed MPI_Waitall left requests");
    CHECK_EQ_INT(s.queries, 1);
    CHECK_EQ_INT(s.frees, 1);
}

/* MPI_Cancel calls the cancel function, with complete as it is; MPI_Request_free calls the
 * free function once the request is both freed and complete. */
static void cancel_and_free(void)
{
    struct state s;
    struct completer c;
    MPI_Request r, copy;
    MPI_Status st;
    int cancelled = -1;

    init_state(&s, 0, 0, 0);
    CHECK_SUCCESS(MPI_Grequest_start(query_fn, free_fn, cancel_fn, &s, &r));
    CHECK_SUCCESS(MPI_Cancel(&r));
    CHECK_EQ_INT(s.cancels, 1);
    CHECK_EQ_INT(s.cancel_complete, 0);
    CHECK_SUCCESS(MPI_Grequest_complete(r));
    CHECK_SUCCESS(MPI_Cancel(&r));
    CHECK_EQ_INT(s.cancels, 2);
    CHECK_EQ_INT(s.cancel_complete, 1);
    CHECK_SUCCESS(MPI_Wait(&r, &st));
    CHECK_SUCCESS(MPI_Test_cancelled(&st, &cancelled));
    CHECK_EQ_INT(cancelled, 1);
    CHECK_EQ_INT(s.frees, 1);

    /* freed before complete: the free function runs in MPI_Grequest_complete (another thread) */
    init_state(&s, 0, 0, 0);
    CHECK_SUCCESS(MPI_Grequest_start(query_fn, free_fn, cancel_fn, &s, &r));
    copy = r;
    CHECK_SUCCESS(MPI_Request_free(&r));
    CHECK(r == MPI_REQUEST_NULL, "MPI_Request_free left the handle");
    if (CHECK_SWITCHYARD) /* MPICH 4.0.2 calls the free function at once */
        CHECK_EQ_INT(__atomic_load_n(&s.frees, __ATOMIC_SEQ_CST), 0);
    start_completer(&c, copy, 1000);
    CHECK(pthread_join(c.t, NULL) == 0, "pthread_join");
    CHECK_EQ_INT(__atomic_load_n(&s.frees, __ATOMIC_SEQ_CST), 1);
    CHECK_EQ_INT(s.queries, 0);

    /* freed once complete: the free function runs in MPI_Request_free */
    init_state(&s, 0, 0, 0);
    CHECK_SUCCESS(MPI_Grequest_start(query_fn, free_fn, cancel_fn, &s, &r));
    CHECK_SUCCESS(MPI_Grequest_complete(r));
    CHECK_EQ_INT(s.frees, 0);
    CHECK_SUCCESS(MPI_Request_free(&r));
    CHECK_EQ_INT(s.frees, 1);
    CHECK_EQ_INT(s.queries, 0);
}

/* Bad input: clear errors (Switchyard's checks; other MPIs may crash on some). */
static void bad_input(int rank, int size)
{
    struct state s;
    MPI_Request r, p2p;
    int in = 0;
    CHECK_ERR(MPI_Grequest_complete(MPI_REQUEST_NULL), MPI_ERR_REQUEST, "MPI_Grequest_complete", "request");
    CHECK_SUCCESS(MPI_Irecv(&in, 1, MPI_INT, (rank + size - 1) % size, 99, MPI_COMM_WORLD, &p2p));
    CHECK_ERR(MPI_Grequest_complete(p2p), MPI_ERR_REQUEST, "MPI_Grequest_complete", "not a generalized request");
    CHECK_SUCCESS(MPI_Send(&rank, 1, MPI_INT, (rank + 1) % size, 99, MPI_COMM_WORLD));
    CHECK_SUCCESS(MPI_Wait(&p2p, MPI_STATUS_IGNORE));
    CHECK_EQ_INT(in, (rank + size - 1) % size);
    CHECK_ERR(MPI_Grequest_start(query_fn, free_fn, cancel_fn, &s, NULL), MPI_ERR_ARG, "MPI_Grequest_start",
              "request");
    CHECK_ERR(MPI_Grequest_start(NULL, free_fn, cancel_fn, &s, &r), MPI_ERR_ARG, "MPI_Grequest_start", "query_fn");
    init_state(&s, 0, 0, 0);
    CHECK_SUCCESS(MPI_Grequest_start(query_fn, free_fn, cancel_fn, &s, &r));
    CHECK_SUCCESS(MPI_Grequest_complete(r));
    CHECK_ERR(MPI_Grequest_complete(r), MPI_ERR_REQUEST, "MPI_Grequest_complete", "already");
    CHECK_SUCCESS(MPI_Wait(&r, MPI_STATUS_IGNORE));
    CHECK_EQ_INT(s.frees, 1);
}

int main(int argc, char **argv)
{
    int provided = -1, rank, size;
    CHECK_SUCCESS(MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided));
    CHECK_EQ_INT(provided, MPI_THREAD_MULTIPLE);
    CHECK_SUCCESS(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_SUCCESS(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK_SUCCESS(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_SUCCESS(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
    basic();
    from_thread();
    waitall_mix(rank, size);
    query_error();
    cancel_and_free();
    if (CHECK_SWITCHYARD)
        bad_input(rank, size);
    CHECK_SUCCESS(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_SUCCESS(MPI_Finalize());
    if (rank == 0)
        printf("grequest: OK\n");
    return 0;
}
