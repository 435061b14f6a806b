/* req_error_inactive.c — a persistent receive completed with an error (MPI_ERR_TRUNCATE) by MPI_Wait,
 * MPI_Test, MPI_Waitany or MPI_Testany is inactive afterwards, and can be started again. */
#include "check.h"

/* r is an inactive persistent request: MPI_Request_get_status_any/_some skip it */
static void check_inactive(MPI_Request r, const char *when)
{
    int idx = 0, flag = 0, out = 0, ind[1];
    MPI_Status st;
    CHECK_SUCCESS(MPI_Request_get_status_any(1, &r, &idx, &flag, &st));
    CHECK(flag && idx == MPI_UNDEFINED, "%s: get_status_any of an inactive request: flag %d index %d", when, flag, idx);
    CHECK_SUCCESS(MPI_Request_get_status_some(1, &r, &out, ind, &st));
    CHECK(out == MPI_UNDEFINED, "%s: get_status_some of an inactive request: outcount %d", when, out);
}

static void check_truncated(int rc, const char *call)
{
    int cls = -1;
    CHECK_SUCCESS(MPI_Error_class(rc, &cls));
    CHECK(cls == MPI_ERR_TRUNCATE, "%s of a truncated receive: class %d, expected MPI_ERR_TRUNCATE", call, cls);
}

int main(int argc, char **argv)
{
    int me, np, buf = -1, two[2] = {1, 2}, rc = MPI_SUCCESS, flag, idx;
    MPI_Request r;
    CHECK_SUCCESS(MPI_Init(&argc, &argv));
    CHECK_SUCCESS(MPI_Comm_rank(MPI_COMM_WORLD, &me));
    CHECK_SUCCESS(MPI_Comm_size(MPI_COMM_WORLD, &np));
    CHECK_SUCCESS(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    int right = (me + 1) % np, left = (me + np - 1) % np;
    CHECK_SUCCESS(MPI_Recv_init(&buf, 1, MPI_INT, left, 7, MPI_COMM_WORLD, &r));

    for (int how = 0; how < 4; how++) {
        static const char *const calls[] = {"MPI_Wait", "MPI_Test", "MPI_Waitany", "MPI_Testany"};
        CHECK_SUCCESS(MPI_Start(&r));
        CHECK_SUCCESS(MPI_Send(two, 2, MPI_INT, right, 7, MPI_COMM_WORLD));
        flag = how == 0 || how == 2;
        if (how == 0)
            rc = MPI_Wait(&r, MPI_STATUS_IGNORE);
        if (how == 2)
            rc = MPI_Waitany(1, &r, &idx, MPI_STATUS_IGNORE);
        for (long spins = 0; !flag; spins++) {
            CHECK(spins < 100000000, "%s never completed the truncated receive", calls[how]);
            rc = how == 1 ? MPI_Test(&r, &flag, MPI_STATUS_IGNORE)
                          : MPI_Testany(1, &r, &idx, &flag, MPI_STATUS_IGNORE);
            CHECK(rc == MPI_SUCCESS || flag, "%s returned an error with flag false", calls[how]);
        }
        check_truncated(rc, calls[how]);
        CHECK(r != MPI_REQUEST_NULL, "%s freed the persistent request", calls[how]);
        check_inactive(r, calls[how]);
    }
    /* still whole: a matching message completes it */
    CHECK_SUCCESS(MPI_Start(&r));
    CHECK_SUCCESS(MPI_Send(&me, 1, MPI_INT, right, 7, MPI_COMM_WORLD));
    CHECK_SUCCESS(MPI_Wait(&r, MPI_STATUS_IGNORE));
    CHECK_EQ_INT(buf, left);
    check_inactive(r, "MPI_Wait after the errors");
    CHECK_SUCCESS(MPI_Request_free(&r));
    CHECK(MPI_Finalize() == MPI_SUCCESS, "MPI_Finalize failed");
    if (me == 0)
        printf("req_error_inactive: %d processes ok\n", np);
    return 0;
}
