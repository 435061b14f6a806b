/* coll_tags.c — collectives never match communicator-management traffic on the same
 * context: a barrier in flight on MPI_COMM_WORLD while its leaders run MPI_Intercomm_create
 * over MPI_COMM_WORLD with tag 0 (4 ranks; rank 3 comes late so rank 2 waits in round 2). */
#include <unistd.h>

#include "check.h"

int main(int argc, char **argv)
{
    int me, np;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    CHECK(np == 4, "coll_tags runs on 4 ranks");
    MPI_Comm half, ic;
    CHECK_SUCCESS(MPI_Comm_split(MPI_COMM_WORLD, me / 2, me, &half));
    if (me == 3)
        usleep(200000); /* rank 0 stays in the barrier's first round, rank 2 moves on */
    MPI_Request rq;
    CHECK_SUCCESS(MPI_Ibarrier(MPI_COMM_WORLD, &rq));
    for (int tag = 0; tag < 8; tag++) {
        CHECK_SUCCESS(MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, me < 2 ? 2 : 0, tag, &ic));
        int rsize = 0, rrank = -1, mine = me;
        MPI_Comm_remote_size(ic, &rsize);
        CHECK_EQ_INT(rsize, 2);
        /* the remote group is who it should be */
        CHECK_SUCCESS(MPI_Sendrecv(&mine, 1, MPI_INT, me % 2, 5, &rrank, 1, MPI_INT, me % 2, 5, ic, MPI_STATUS_IGNORE));
        CHECK_EQ_INT(rrank, me < 2 ? me + 2 : me - 2);
        MPI_Comm_free(&ic);
    }
    CHECK_SUCCESS(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    MPI_Comm_free(&half);
    MPI_Finalize();
    return 0;
}
