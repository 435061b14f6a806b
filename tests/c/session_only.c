/* session_only.c — a program of MPI-4 sessions only (no MPI_Init): a communicator from
 * mpi://WORLD carries an allreduce and a ring of sends; then a second session after the first. */
#include <mpi.h>

#include "check.h"

/* One session's life: WORLD and SELF communicators, an allreduce and a ring, all checked. */
static void one_session(int round)
{
    MPI_Session s;
    MPI_Group g, gself;
    MPI_Comm c, cself;
    int np, me, flag;

    CHECK_SUCCESS(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s));
    CHECK_SUCCESS(MPI_Initialized(&flag));
    CHECK(!flag, "MPI_Initialized says 1 in a program of sessions only");
    CHECK_SUCCESS(MPI_Group_from_session_pset(s, "mpi://WORLD", &g));
    CHECK_SUCCESS(MPI_Comm_create_from_group(g, "switchyard.test.session_only", MPI_INFO_NULL, MPI_ERRORS_RETURN, &c));
    MPI_Comm_size(c, &np);
    MPI_Comm_rank(c, &me);
    int gsize, grank;
    MPI_Group_size(g, &gsize);
    MPI_Group_rank(g, &grank);
    CHECK_EQ_INT(gsize, np);
    CHECK_EQ_INT(grank, me);

    long v = 1000L * round + me, sum = 0;
    CHECK_SUCCESS(MPI_Allreduce(&v, &sum, 1, MPI_LONG, MPI_SUM, c));
    CHECK_EQ_INT(sum, 1000L * round * np + (long)np * (np - 1) / 2);

    int out[4] = {me, round, me * 7, -me}, in[4] = {-1, -1, -1, -1}, from = (me + np - 1) % np;
    MPI_Request r;
    CHECK_SUCCESS(MPI_Irecv(in, 4, MPI_INT, from, 5, c, &r));
    CHECK_SUCCESS(MPI_Send(out, 4, MPI_INT, (me + 1) % np, 5, c));
    CHECK_SUCCESS(MPI_Wait(&r, MPI_STATUS_IGNORE));
    CHECK(in[0] == from && in[1] == round && in[2] == from * 7 && in[3] == -from,
          "ring: got %d %d %d %d from %d", in[0], in[1], in[2], in[3], from);

    CHECK_SUCCESS(MPI_Group_from_session_pset(s, "mpi://SELF", &gself));
    CHECK_SUCCESS(MPI_Comm_create_from_group(gself, "switchyard.test.session_self", MPI_INFO_NULL, MPI_ERRORS_RETURN, &cself));
    int ssize, b = me;
    MPI_Comm_size(cself, &ssize);
    CHECK_EQ_INT(ssize, 1);
    CHECK_SUCCESS(MPI_Bcast(&b, 1, MPI_INT, 0, cself));
    CHECK_EQ_INT(b, me);

    CHECK_SUCCESS(MPI_Comm_free(&cself));
    CHECK_SUCCESS(MPI_Comm_free(&c));
    CHECK_SUCCESS(MPI_Group_free(&gself));
    CHECK_SUCCESS(MPI_Group_free(&g));
    CHECK_SUCCESS(MPI_Session_finalize(&s));
    CHECK(s == MPI_SESSION_NULL, "MPI_Session_finalize did not set the handle to MPI_SESSION_NULL");
}

int main(void)
{
    one_session(1);
    one_session(2); /* a session again after all were finalized */
    int flag;
    CHECK_SUCCESS(MPI_Finalized(&flag));
    CHECK(!flag, "MPI_Finalized says 1 in a program of sessions only");
    return 0;
}
