/* comm_inter_bad.c — MPI_Intercomm_create with peer_comm = MPI_COMM_NULL at the local leader
 * is MPI_ERR_COMM for the whole local group (it crashed), and the group can still work. */
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
    int v = 1, s = 0;
    CHECK_SUCCESS(MPI_Allreduce(&v, &s, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    CHECK_EQ_INT(s, np);
    MPI_Finalize();
    return 0;
}
