/* req_status_multi.c — MPI_Request_get_status_any/_some/_all (MPI-4.1) over null requests, an
 * inactive persistent request, a started one, a complete and a pending receive: nothing completed or freed. */
#include "check.h"

enum { N = 5, NUL = 0, IDLE = 1, PERS = 2, DONE = 3, PEND = 4 };

/* an empty status: MPI_ANY_SOURCE, MPI_ANY_TAG, count 0 */
static void check_empty(const MPI_Status *st, const char *what)
{
    int n = -1;
    CHECK(st->MPI_SOURCE == MPI_ANY_SOURCE && st->MPI_TAG == MPI_ANY_TAG,
          "%s: not an empty status (source %d, tag %d)", what, st->MPI_SOURCE, st->MPI_TAG);
    CHECK_SUCCESS(MPI_Get_count(st, MPI_INT, &n));
    CHECK_EQ_INT(n, 0);
}

/* the status of the receive of request i (tag 20 + i, one int from left) */
static void check_recv(const MPI_Status *st, int i, int left, const char *what)
{
    int n = -1;
    CHECK(st->MPI_SOURCE == left && st->MPI_TAG == 20 + i, "%s: request %d's status has source %d tag %d",
          what, i, st->MPI_SOURCE, st->MPI_TAG);
    CHECK_SUCCESS(MPI_Get_count(st, MPI_INT, &n));
    CHECK_EQ_INT(n, 1);
}

static void reset(MPI_Status *st, int n)
{
    for (int i = 0; i < n; i++)
        st[i].MPI_SOURCE = st[i].MPI_TAG = -99;
}

/* No active request in r[0..n): flag true, index and outcount MPI_UNDEFINED, empty statuses. */
static void check_none_active(MPI_Request *r, int n, const char *when)
{
    MPI_Status st[N];
    int idx = 0, flag = 0, out = 0, ind[N];
    reset(st, N);
    CHECK_SUCCESS(MPI_Request_get_status_any(n, r, &idx, &flag, &st[0]));
    CHECK(flag && idx == MPI_UNDEFINED, "%s: get_status_any of no active request: flag %d index %d", when, flag, idx);
    check_empty(&st[0], when);
    CHECK_SUCCESS(MPI_Request_get_status_some(n, r, &out, ind, st));
    CHECK(out == MPI_UNDEFINED, "%s: get_status_some of no active request: outcount %d", when, out);
    reset(st, N);
    flag = 0;
    CHECK_SUCCESS(MPI_Request_get_status_all(n, r, &flag, st));
    CHECK(flag, "%s: get_status_all of no active request: flag false", when);
    for (int i = 0; i < n; i++)
        check_empty(&st[i], when);
}

int main(int argc, char **argv)
{
    int me, np, flag, idx, out, ind[N], buf[N], one[N];
    MPI_Request r[N];
    MPI_Status st[N];
    CHECK_SUCCESS(MPI_Init(&argc, &argv));
    CHECK_SUCCESS(MPI_Comm_rank(MPI_COMM_WORLD, &me));
    CHECK_SUCCESS(MPI_Comm_size(MPI_COMM_WORLD, &np));
    int right = (me + 1) % np, left = (me + np - 1) % np;
    for (int i = 0; i < N; i++) {
        buf[i] = -1;
        one[i] = 100 * me + i;
    }

    r[NUL] = MPI_REQUEST_NULL;
    CHECK_SUCCESS(MPI_Recv_init(&buf[IDLE], 1, MPI_INT, left, 20 + IDLE, MPI_COMM_WORLD, &r[IDLE]));
    CHECK_SUCCESS(MPI_Recv_init(&buf[PERS], 1, MPI_INT, left, 20 + PERS, MPI_COMM_WORLD, &r[PERS]));
    CHECK_SUCCESS(MPI_Irecv(&buf[DONE], 1, MPI_INT, left, 20 + DONE, MPI_COMM_WORLD, &r[DONE]));
    CHECK_SUCCESS(MPI_Irecv(&buf[PEND], 1, MPI_INT, left, 20 + PEND, MPI_COMM_WORLD, &r[PEND]));

    /* before anything starts: the null and the never-started persistent requests are not active */
    check_none_active(r, 2, "never started");
    CHECK_SUCCESS(MPI_Start(&r[PERS]));
    CHECK_SUCCESS(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_SUCCESS(MPI_Send(&one[DONE], 1, MPI_INT, right, 20 + DONE, MPI_COMM_WORLD));
    for (long spins = 0, f = 0; !f; spins++) {
        int fl = 0;
        CHECK(spins < 100000000, "the receive of tag %d never completed", 20 + DONE);
        CHECK_SUCCESS(MPI_Request_get_status(r[DONE], &fl, MPI_STATUS_IGNORE));
        f = fl;
    }

    /* one active request complete (DONE); PERS and PEND pending; IDLE inactive, NUL null */
    reset(st, N);
    flag = 0, idx = -1;
    CHECK_SUCCESS(MPI_Request_get_status_any(N, r, &idx, &flag, &st[0]));
    CHECK(flag && idx == DONE, "get_status_any: flag %d index %d, expected the complete receive %d", flag, idx, DONE);
    check_recv(&st[0], DONE, left, "get_status_any");
    reset(st, N);
    out = -1;
    CHECK_SUCCESS(MPI_Request_get_status_some(N, r, &out, ind, st));
    CHECK(out == 1 && ind[0] == DONE, "get_status_some: outcount %d (first index %d), expected 1 (%d)", out, ind[0], DONE);
    check_recv(&st[0], DONE, left, "get_status_some");
    flag = 1;
    CHECK_SUCCESS(MPI_Request_get_status_all(N, r, &flag, st));
    CHECK(!flag, "get_status_all: flag true while two active requests are pending");
    /* without the complete one: nothing complete, the inactive persistent request is skipped */
    MPI_Request sub[4] = {r[NUL], r[IDLE], r[PERS], r[PEND]};
    flag = 1, idx = 0;
    CHECK_SUCCESS(MPI_Request_get_status_any(4, sub, &idx, &flag, &st[0]));
    CHECK(!flag && idx == MPI_UNDEFINED, "get_status_any of pending requests: flag %d index %d", flag, idx);
    out = -1;
    CHECK_SUCCESS(MPI_Request_get_status_some(4, sub, &out, ind, st));
    CHECK(out == 0, "get_status_some of pending requests: outcount %d, expected 0", out);
    check_none_active(r, 2, "null and inactive");
    CHECK(r[DONE] != MPI_REQUEST_NULL && r[PEND] != MPI_REQUEST_NULL, "a get_status call freed a request");

    /* every active request complete */
    CHECK_SUCCESS(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_SUCCESS(MPI_Send(&one[PERS], 1, MPI_INT, right, 20 + PERS, MPI_COMM_WORLD));
    CHECK_SUCCESS(MPI_Send(&one[PEND], 1, MPI_INT, right, 20 + PEND, MPI_COMM_WORLD));
    flag = 0;
    for (long spins = 0; !flag; spins++) {
        CHECK(spins < 100000000, "get_status_all never saw every request complete");
        reset(st, N);
        CHECK_SUCCESS(MPI_Request_get_status_all(N, r, &flag, st));
    }
    check_empty(&st[NUL], "get_status_all, null request");
    check_empty(&st[IDLE], "get_status_all, inactive request");
    for (int i = PERS; i < N; i++)
        check_recv(&st[i], i, left, "get_status_all");
    reset(st, N);
    CHECK_SUCCESS(MPI_Request_get_status_some(N, r, &out, ind, st));
    CHECK(out == 3, "get_status_some: outcount %d, expected 3", out);
    for (int k = 0; k < 3; k++) {
        CHECK_EQ_INT(ind[k], PERS + k);
        check_recv(&st[k], PERS + k, left, "get_status_some");
    }
    CHECK_SUCCESS(MPI_Request_get_status_any(N, r, &idx, &flag, &st[0]));
    CHECK(flag && idx >= PERS && idx < N, "get_status_any: flag %d index %d", flag, idx);
    check_recv(&st[0], idx, left, "get_status_any");

    /* the requests are whole: MPI_Waitall completes them, with the data and statuses */
    reset(st, N);
    CHECK_SUCCESS(MPI_Waitall(N, r, st));
    for (int i = PERS; i < N; i++) {
        CHECK_EQ_INT(buf[i], 100 * left + i);
        check_recv(&st[i], i, left, "MPI_Waitall");
    }
    CHECK(r[DONE] == MPI_REQUEST_NULL && r[PEND] == MPI_REQUEST_NULL && r[PERS] != MPI_REQUEST_NULL,
          "MPI_Waitall: requests not freed, or the persistent one freed");
    /* completed by MPI_Waitall, the persistent request is inactive again */
    check_none_active(r, N, "after MPI_Waitall");

    /* restarted (MPI_Startall), pending, then completed by MPI_Wait; the other by MPI_Test */
    buf[IDLE] = buf[PERS] = -1;
    CHECK_SUCCESS(MPI_Startall(2, &r[IDLE]));
    CHECK_SUCCESS(MPI_Request_get_status_any(N, r, &idx, &flag, &st[0]));
    CHECK(!flag && idx == MPI_UNDEFINED, "started again: get_status_any flag %d index %d", flag, idx);
    CHECK_SUCCESS(MPI_Request_get_status_some(N, r, &out, ind, st));
    CHECK_EQ_INT(out, 0);
    CHECK_SUCCESS(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_SUCCESS(MPI_Send(&one[PERS], 1, MPI_INT, right, 20 + PERS, MPI_COMM_WORLD));
    CHECK_SUCCESS(MPI_Wait(&r[PERS], &st[0]));
    CHECK_EQ_INT(buf[PERS], 100 * left + PERS);
    CHECK_SUCCESS(MPI_Request_get_status_some(N, r, &out, ind, st));
    /* the one MPI_Wait completed is inactive; the other may have its message by now */
    CHECK(out == 0 || (out == 1 && ind[0] == IDLE), "after MPI_Wait of one: outcount %d (first index %d)", out, ind[0]);
    CHECK_SUCCESS(MPI_Send(&one[IDLE], 1, MPI_INT, right, 20 + IDLE, MPI_COMM_WORLD));
    for (long spins = 0, f = 0; !f; spins++) {
        int fl = 0;
        CHECK(spins < 100000000, "MPI_Test never completed the persistent receive");
        CHECK_SUCCESS(MPI_Test(&r[IDLE], &fl, MPI_STATUS_IGNORE));
        f = fl;
    }
    CHECK_EQ_INT(buf[IDLE], 100 * left + IDLE);
    check_none_active(r, N, "after MPI_Wait and MPI_Test");

    CHECK_SUCCESS(MPI_Request_free(&r[IDLE]));
    CHECK_SUCCESS(MPI_Request_free(&r[PERS]));
    CHECK(MPI_Finalize() == MPI_SUCCESS, "MPI_Finalize failed");
    if (me == 0)
        printf("req_status_multi: %d processes ok\n", np);
    return 0;
}
