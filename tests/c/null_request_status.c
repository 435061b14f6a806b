/* null_request_status.c — every completion call gives null and inactive persistent requests an
 * empty status (source MPI_ANY_SOURCE, tag MPI_ANY_TAG, error MPI_SUCCESS, count 0, not
 * cancelled: MPI-5.0 3.7.3), whatever the status held before. */
#include "check.h"

#define GARBAGE 12345

static void garble(MPI_Status *st, int n)
{
    for (int i = 0; i < n; i++) {
        st[i].MPI_SOURCE = st[i].MPI_TAG = st[i].MPI_ERROR = GARBAGE;
        MPI_Status_set_elements(&st[i], MPI_BYTE, GARBAGE);
    }
}

static void empty(const MPI_Status *st, const char *what, int i)
{
    int count = -1, cancelled = -1;
    CHECK(st->MPI_SOURCE == MPI_ANY_SOURCE, "%s: status %d: source %d", what, i, st->MPI_SOURCE);
    CHECK(st->MPI_TAG == MPI_ANY_TAG, "%s: status %d: tag %d", what, i, st->MPI_TAG);
    CHECK(st->MPI_ERROR == MPI_SUCCESS, "%s: status %d: error %d", what, i, st->MPI_ERROR);
    CHECK_SUCCESS(MPI_Get_count(st, MPI_BYTE, &count));
    CHECK(count == 0, "%s: status %d: count %d", what, i, count);
    CHECK_SUCCESS(MPI_Test_cancelled(st, &cancelled));
    CHECK(!cancelled, "%s: status %d: cancelled", what, i);
}

/* the completion calls on rq[0..1], all null or inactive (MPI_Request_get_status* too) */
static void all_calls(MPI_Request *rq, const char *kind)
{
    MPI_Status st[2];
    int flag, idx, outcount, indices[2];
    char what[96];
#define NAMED(call) (snprintf(what, sizeof what, "%s on %s requests", call, kind), what)
    garble(st, 1);
    CHECK_SUCCESS(MPI_Wait(&rq[0], st));
    empty(st, NAMED("MPI_Wait"), 0);
    garble(st, 1);
    CHECK_SUCCESS(MPI_Test(&rq[0], &flag, st));
    CHECK(flag, "MPI_Test on %s: flag", kind);
    empty(st, NAMED("MPI_Test"), 0);
    garble(st, 1);
    CHECK_SUCCESS(MPI_Request_get_status(rq[0], &flag, st));
    CHECK(flag, "MPI_Request_get_status on %s: flag", kind);
    empty(st, NAMED("MPI_Request_get_status"), 0);
    garble(st, 1);
    CHECK_SUCCESS(MPI_Waitany(2, rq, &idx, st));
    CHECK(idx == MPI_UNDEFINED, "MPI_Waitany on %s: index %d", kind, idx);
    empty(st, NAMED("MPI_Waitany"), 0);
    garble(st, 1);
    CHECK_SUCCESS(MPI_Testany(2, rq, &idx, &flag, st));
    CHECK(flag && idx == MPI_UNDEFINED, "MPI_Testany on %s: flag %d index %d", kind, flag, idx);
    empty(st, NAMED("MPI_Testany"), 0);
    garble(st, 2);
    CHECK_SUCCESS(MPI_Waitall(2, rq, st));
    for (int i = 0; i < 2; i++)
        empty(&st[i], NAMED("MPI_Waitall"), i);
    garble(st, 2);
    CHECK_SUCCESS(MPI_Testall(2, rq, &flag, st));
    CHECK(flag, "MPI_Testall on %s: flag", kind);
    for (int i = 0; i < 2; i++)
        empty(&st[i], NAMED("MPI_Testall"), i);
    garble(st, 1);
    CHECK_SUCCESS(MPI_Request_get_status_any(2, rq, &idx, &flag, st));
    CHECK(flag && idx == MPI_UNDEFINED, "MPI_Request_get_status_any on %s: flag %d index %d", kind, flag, idx);
    empty(st, NAMED("MPI_Request_get_status_any"), 0);
    garble(st, 2);
    CHECK_SUCCESS(MPI_Request_get_status_all(2, rq, &flag, st));
    CHECK(flag, "MPI_Request_get_status_all on %s: flag", kind);
    for (int i = 0; i < 2; i++)
        empty(&st[i], NAMED("MPI_Request_get_status_all"), i);
    CHECK_SUCCESS(MPI_Request_get_status_some(2, rq, &outcount, indices, st));
    CHECK(outcount == MPI_UNDEFINED, "MPI_Request_get_status_some on %s: outcount %d", kind, outcount);
    CHECK_SUCCESS(MPI_Waitsome(2, rq, &outcount, indices, st));
    CHECK(outcount == MPI_UNDEFINED, "MPI_Waitsome on %s: outcount %d", kind, outcount);
    CHECK_SUCCESS(MPI_Testsome(2, rq, &outcount, indices, st));
    CHECK(outcount == MPI_UNDEFINED, "MPI_Testsome on %s: outcount %d", kind, outcount);
#undef NAMED
}

int main(int argc, char **argv)
{
    int me, buf = 0;
    MPI_Request rq[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    all_calls(rq, "null");
    CHECK_SUCCESS(MPI_Send_init(&buf, 1, MPI_INT, me, 1, MPI_COMM_WORLD, &rq[0]));
    CHECK_SUCCESS(MPI_Recv_init(&buf, 1, MPI_INT, me, 1, MPI_COMM_WORLD, &rq[1]));
    all_calls(rq, "inactive persistent");
    /* and after a round: completed persistent requests are inactive again */
    CHECK_SUCCESS(MPI_Startall(2, rq));
    CHECK_SUCCESS(MPI_Waitall(2, rq, MPI_STATUSES_IGNORE));
    all_calls(rq, "completed persistent");
    CHECK_SUCCESS(MPI_Request_free(&rq[0]));
    CHECK_SUCCESS(MPI_Request_free(&rq[1]));
    MPI_Finalize();
    return 0;
}
