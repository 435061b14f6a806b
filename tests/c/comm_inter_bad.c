/* comm_inter_bad.c — MPI_Intercomm_create with peer_comm = MPI_COMM_NULL or a bad remote_leader
 * at the local leader is an error for the whole local group (it crashed), and the group can
 * still work; the two are not looked at elsewhere. */
#include "check.h"

int main(int argc, char **argv)
{
    int me, np;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm ic = MPI_COMM_NULL;
    /* the whole world is the local group; its leader has no peer communicator */
    CHECK_ERR(MPI_Intercomm_create(MPI_COMM_WORLD, 0, MPI_COMM_NULL, 0, 3, &ic), MPI_ERR_COMM,
              "MPI_Intercomm_create", "peer_comm");
    CHECK(ic == MPI_COMM_NULL, "a failed MPI_Intercomm_create returned a communicator");
    /* its remote leader out of range there: every member is told, none waits for the leader */
    int bad = me == 0 ? np : -77;
    CHECK_ERR(MPI_Intercomm_create(MPI_COMM_WORLD, 0, MPI_COMM_WORLD, bad, 4, &ic), MPI_ERR_RANK,
              "MPI_Intercomm_create", "remote_leader");
    CHECK(ic == MPI_COMM_NULL, "a failed MPI_Intercomm_create returned a communicator");
    int v = 1, s = 0;
    CHECK_SUCCESS(MPI_Allreduce(&v, &s, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    CHECK_EQ_INT(s, np);
    /* two halves; only the leaders' peer_comm and remote_leader count: the others give garbage */
    if (np >= 2) {
        MPI_Comm half;
        int low = me < np / 2, leader_rank = 0;
        CHECK_SUCCESS(MPI_Comm_split(MPI_COMM_WORLD, low, me, &half));
        int hr;
        MPI_Comm_rank(half, &hr);
        int leader = hr == leader_rank;
        CHECK_SUCCESS(MPI_Intercomm_create(half, leader_rank, leader ? MPI_COMM_WORLD : MPI_COMM_NULL,
                                           leader ? (low ? np / 2 : 0) : -77, 5, &ic));
        int rs = 0;
        CHECK_SUCCESS(MPI_Comm_remote_size(ic, &rs));
        CHECK_EQ_INT(rs, low ? np - np / 2 : np / 2);
        MPI_Comm_free(&ic);
        MPI_Comm_free(&half);
    }
    MPI_Finalize();
    return 0;
}
