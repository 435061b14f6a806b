/* comm_from_group.c — MPI_Comm_create_from_group and MPI_Intercomm_create_from_groups
 * (MPI-4) from groups of MPI_COMM_WORLD: sizes, ranks, traffic, and errors for non-members. */
#include <mpi.h>

#include "check.h"

int main(int argc, char **argv)
{
    int me, np;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    MPI_Group world, evens, odds;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    int ranges[1][3] = {{0, np - 1, 2}};
    MPI_Group_range_incl(world, 1, ranges, &evens);
    MPI_Group_difference(world, evens, &odds);

    /* a communicator of the even ranks, built without a parent communicator */
    if (me % 2 == 0) {
        MPI_Comm c;
        CHECK_SUCCESS(MPI_Comm_create_from_group(evens, "switchyard.test.evens", MPI_INFO_NULL, MPI_ERRORS_RETURN, &c));
        int size, rank;
        MPI_Comm_size(c, &size);
        MPI_Comm_rank(c, &rank);
        CHECK_EQ_INT(size, (np + 1) / 2);
        CHECK_EQ_INT(rank, me / 2);
        int v = rank, got;
        MPI_Sendrecv(&v, 1, MPI_INT, (rank + 1) % size, 0, &got, 1, MPI_INT, (rank + size - 1) % size, 0, c,
                     MPI_STATUS_IGNORE);
        CHECK_EQ_INT(got, (rank + size - 1) % size);
        MPI_Errhandler eh;
        MPI_Comm_get_errhandler(c, &eh);
        CHECK(eh == MPI_ERRORS_RETURN, "the new communicator does not have the requested error handler");
        MPI_Errhandler_free(&eh);
        MPI_Comm_free(&c);
    } else {
        /* a process outside the group may not call it */
        MPI_Comm c;
        MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
        int err = MPI_Comm_create_from_group(evens, "switchyard.test.evens", MPI_INFO_NULL, MPI_ERRORS_RETURN, &c);
        CHECK_ERR(err, MPI_ERR_GROUP, "MPI_Comm_create_from_group");
    }

    /* an inter-communicator between the even and the odd ranks */
    if (np >= 2) {
        MPI_Comm ic;
        MPI_Group mine = me % 2 == 0 ? evens : odds, other = me % 2 == 0 ? odds : evens;
        CHECK_SUCCESS(MPI_Intercomm_create_from_groups(mine, 0, other, 0, "switchyard.test.inter", MPI_INFO_NULL,
                                                       MPI_ERRORS_RETURN, &ic));
        int inter, rsize, lsize;
        MPI_Comm_test_inter(ic, &inter);
        CHECK(inter, "not an inter-communicator");
        MPI_Comm_remote_size(ic, &rsize);
        MPI_Comm_size(ic, &lsize);
        CHECK_EQ_INT(lsize, me % 2 == 0 ? (np + 1) / 2 : np / 2);
        CHECK_EQ_INT(rsize, me % 2 == 0 ? np / 2 : (np + 1) / 2);
        /* local rank 0 of each side talks to the other side's rank 0 */
        int rank;
        MPI_Comm_rank(ic, &rank);
        if (rank == 0) {
            int v = me, got;
            MPI_Sendrecv(&v, 1, MPI_INT, 0, 5, &got, 1, MPI_INT, 0, 5, ic, MPI_STATUS_IGNORE);
            CHECK_EQ_INT(got, me % 2 == 0 ? 1 : 0);
        }
        MPI_Comm_free(&ic);
    }
    MPI_Group_free(&evens);
    MPI_Group_free(&odds);
    MPI_Group_free(&world);
    MPI_Finalize();
    return 0;
}
