/* session_world.c — sessions beside MPI_Init in one process: one started before MPI_Init and
 * used after MPI_Finalize, a second at the same time; their groups match MPI_COMM_WORLD's. */
#include <mpi.h>

#include "check.h"

/* A communicator of the session's pset, checked against WORLD with an allreduce. */
static MPI_Comm comm_of(MPI_Session s, const char *pset, const char *tag)
{
    MPI_Group g;
    MPI_Comm c;
    CHECK_SUCCESS(MPI_Group_from_session_pset(s, pset, &g));
    CHECK_SUCCESS(MPI_Comm_create_from_group(g, tag, MPI_INFO_NULL, MPI_ERRORS_RETURN, &c));
    MPI_Group_free(&g);
    return c;
}

static void comm_eh(MPI_Comm *c, int *code, ...)
{
    (void)c;
    (void)code;
}

static void check_sum(MPI_Comm c, int me, int np)
{
    int v = me + 1, sum = -1;
    CHECK_SUCCESS(MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, c));
    CHECK_EQ_INT(sum, np * (np + 1) / 2);
}

int main(int argc, char **argv)
{
    MPI_Session a, b;
    int me, np, res;

    CHECK_SUCCESS(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &a));
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    CHECK_SUCCESS(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &b));
    CHECK(a != b, "two sessions share a handle");

    MPI_Group wg, ag;
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    CHECK_SUCCESS(MPI_Group_from_session_pset(a, "mpi://WORLD", &ag));
    MPI_Group_compare(wg, ag, &res);
    CHECK_EQ_INT(res, MPI_IDENT);
    MPI_Group_free(&ag);
    MPI_Group_free(&wg);

    MPI_Comm ca = comm_of(a, "mpi://WORLD", "switchyard.test.sw.a");
    MPI_Comm cb = comm_of(b, "mpi://world", "switchyard.test.sw.b"); /* names: any case */
    MPI_Comm_compare(ca, MPI_COMM_WORLD, &res);
    CHECK_EQ_INT(res, MPI_CONGRUENT);
    check_sum(ca, me, np);
    check_sum(cb, me, np);
    check_sum(MPI_COMM_WORLD, me, np);

    /* bad input: an invalid session handle (no object: MPI_COMM_SELF's handler) */
    int n;
    CHECK_ERR(MPI_Session_get_num_psets(MPI_SESSION_NULL, MPI_INFO_NULL, &n), MPI_ERR_SESSION,
              "MPI_Session_get_num_psets", "session");
    /* a communicator's error handler cannot go on a session (the session's handler reports it) */
    MPI_Errhandler user, got;
    MPI_Comm_create_errhandler(comm_eh, &user);
    CHECK_ERR(MPI_Session_set_errhandler(b, user), MPI_ERR_ARG, "MPI_Session_set_errhandler", "communicators");
    CHECK_SUCCESS(MPI_Session_get_errhandler(b, &got));
    CHECK(got == MPI_ERRORS_RETURN, "the session's error handler changed");
    MPI_Errhandler_free(&got);
    MPI_Errhandler_free(&user);

    CHECK_SUCCESS(MPI_Comm_free(&cb));
    CHECK_SUCCESS(MPI_Session_finalize(&b));
    MPI_Finalize();

    /* the first session outlives MPI_Finalize */
    check_sum(ca, me, np);
    CHECK_SUCCESS(MPI_Comm_free(&ca));
    CHECK_SUCCESS(MPI_Session_finalize(&a));
    return 0;
}
