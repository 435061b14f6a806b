/* coll_in_step.h — the check the collective-error tests make after each erroneous call: correct
 * collectives on comm still give the right results, so its processes are still in step. */
#ifndef COLL_IN_STEP_H
#define COLL_IN_STEP_H

#include "check.h"

/* An allreduce and a bcast from the last rank on comm (me of np processes), with values that
 * change with round. */
static void coll_in_step(MPI_Comm comm, int me, int np, int round)
{
    int v = me + round, sum = -1;
    CHECK_SUCCESS(MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, comm));
    CHECK_EQ_INT(sum, np * (np - 1) / 2 + np * round);
    int b = me == np - 1 ? 77 + round : -1;
    CHECK_SUCCESS(MPI_Bcast(&b, 1, MPI_INT, np - 1, comm));
    CHECK_EQ_INT(b, 77 + round);
}

#endif
