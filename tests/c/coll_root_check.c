/* coll_root_check.c — with SWITCHYARD_COLL_CHECK=1, mismatched roots and arguments refused on
 * one process only end in an error on every process, never a hang or a wrong result: roots
 * that differ, a root out of range on one rank, a bad count on one rank, for the blocking,
 * nonblocking and persistent forms; different collectives, forms, ops, counts and type
 * signatures (one signature in two datatypes passes); correct collectives keep working. */
#include "coll_in_step.h"

static int me, np;
static MPI_Comm comm;

/* a scratch buffer of 2 ints per process */
static int *all2(int n)
{
    static int buf[2 * 64];
    CHECK(n <= 64, "at most 64 ranks");
    return buf;
}

/* a correct collective: the processes are still in step */
static void in_step(int round)
{
    coll_in_step(comm, me, np, round);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    CHECK(np >= 2, "coll_root_check needs 2 or more processes");
    const char *e = getenv("SWITCHYARD_COLL_CHECK");
    CHECK(e && e[0] == '1', "run with SWITCHYARD_COLL_CHECK=1");
    CHECK_SUCCESS(MPI_Comm_dup(MPI_COMM_WORLD, &comm));
    CHECK_SUCCESS(MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN));
    char range[64];
    in_step(0);

    /* roots 0 and 1 alternate: everyone is told, whatever tree it would have used */
    int buf[4] = {me, me, me, me};
    CHECK_ERR(MPI_Bcast(buf, 4, MPI_INT, me % 2, comm), MPI_ERR_ROOT, "MPI_Bcast", "invalid root",
              "roots from 0 to 1");
    in_step(1);

    /* the last rank's root is out of range: it says so, the others learn that it refused */
    int root = me == np - 1 ? np : 0, out = 0;
    int rc = MPI_Reduce(&me, &out, 1, MPI_INT, MPI_SUM, root, comm);
    snprintf(range, sizeof range, "'root' = %d", np);
    if (me == np - 1)
        CHECK_ERR(rc, MPI_ERR_ROOT, "MPI_Reduce", range);
    else
        CHECK_ERR(rc, MPI_ERR_OTHER, "MPI_Reduce", "another process", "refused its arguments");
    /* two roots in range, and a third out of range: the mismatch is still seen */
    root = np > 2 && me == 2 ? -5 : me == 1;
    rc = MPI_Reduce(&me, &out, 1, MPI_INT, MPI_MAX, root, comm);
    if (np > 2 && me == 2)
        CHECK_ERR(rc, MPI_ERR_ROOT, "MPI_Reduce");
    else
        CHECK_ERR(rc, MPI_ERR_ROOT, "MPI_Reduce", "roots from 0 to 1");
    in_step(2);

    /* rank 0 passes a negative count: it gets MPI_ERR_COUNT, the others MPI_ERR_OTHER */
    int *all = malloc(sizeof(int) * (size_t)np);
    rc = MPI_Gather(&me, me == 0 ? -1 : 1, MPI_INT, all, 1, MPI_INT, 0, comm);
    if (me == 0)
        CHECK_ERR(rc, MPI_ERR_COUNT, "MPI_Gather");
    else
        CHECK_ERR(rc, MPI_ERR_OTHER, "MPI_Gather", "another process", "refused its arguments");
    in_step(3);

    /* nonblocking and persistent forms check at the call */
    MPI_Request rq = MPI_REQUEST_NULL;
    CHECK_ERR(MPI_Iscatter(all, 1, MPI_INT, &out, 1, MPI_INT, me == 1, comm, &rq), MPI_ERR_ROOT, "MPI_Iscatter",
              "roots from 0 to 1");
    CHECK(rq == MPI_REQUEST_NULL, "a refused MPI_Iscatter returned a request");
    in_step(4);
    CHECK_ERR(MPI_Bcast_init(buf, 4, MPI_INT, me == 0, comm, MPI_INFO_NULL, &rq),
              MPI_ERR_ROOT, "MPI_Bcast_init", "roots from 0 to 1");
    in_step(5);

    /* different collectives, forms, ops, counts and type signatures: an error everywhere */
    int v = me, got = 0, two[2] = {me, me}, pair_got[2];
    if (me == 0)
        rc = MPI_Allreduce(&v, &got, 1, MPI_INT, MPI_SUM, comm);
    else
        rc = MPI_Bcast(&v, 1, MPI_INT, 0, comm);
    CHECK_ERR(rc, MPI_ERR_OTHER, me == 0 ? "MPI_Allreduce" : "MPI_Bcast", "different collectives");
    in_step(6);
    if (me == np - 1) {
        rc = MPI_Iallreduce(&v, &got, 1, MPI_INT, MPI_SUM, comm, &rq);
        CHECK(rq == MPI_REQUEST_NULL, "a refused MPI_Iallreduce returned a request");
    } else {
        rc = MPI_Allreduce(&v, &got, 1, MPI_INT, MPI_SUM, comm);
    }
    CHECK_ERR(rc, MPI_ERR_OTHER, "different collectives", "nonblocking");
    in_step(7);
    CHECK_ERR(MPI_Allreduce(&v, &got, 1, MPI_INT, me == 1 ? MPI_MAX : MPI_SUM, comm), MPI_ERR_OP, "MPI_Allreduce",
              "different operations");
    in_step(8);
    CHECK_ERR(MPI_Bcast(two, me == 0 ? 2 : 1, MPI_INT, 0, comm), MPI_ERR_COUNT, "MPI_Bcast",
              "type signature mismatch", "from 1 to 2");
    in_step(9);
    CHECK_ERR(MPI_Bcast(two, 1, me == 0 ? MPI_FLOAT : MPI_INT, 0, comm), MPI_ERR_TYPE, "MPI_Bcast",
              "different type signatures");
    in_step(10);
    /* one signature, two datatypes: 2 MPI_INT at the root, one pair of MPI_INT elsewhere */
    MPI_Datatype pair;
    CHECK_SUCCESS(MPI_Type_contiguous(2, MPI_INT, &pair));
    CHECK_SUCCESS(MPI_Type_commit(&pair));
    two[0] = me == 0 ? 5 : -1, two[1] = me == 0 ? 6 : -1;
    CHECK_SUCCESS(MPI_Bcast(two, me == 0 ? 2 : 1, me == 0 ? MPI_INT : pair, 0, comm));
    CHECK(two[0] == 5 && two[1] == 6, "bcast of 2 MPI_INT to one pair");
    CHECK_SUCCESS(MPI_Allgather(two, 1, pair, all2(np), 2, MPI_INT, comm));
    CHECK_SUCCESS(MPI_Allreduce(two, pair_got, 2, MPI_INT, MPI_SUM, comm));
    CHECK(pair_got[0] == 5 * np && pair_got[1] == 6 * np, "allreduce after the signature checks");
    CHECK_SUCCESS(MPI_Type_free(&pair));
    in_step(11);

    /* the same calls with agreeing roots work */
    for (int r = 0; r < np; r++) {
        int x = me == r ? 1000 + r : -1;
        CHECK_SUCCESS(MPI_Bcast(&x, 1, MPI_INT, r, comm));
        CHECK_EQ_INT(x, 1000 + r);
        CHECK_SUCCESS(MPI_Gather(&me, 1, MPI_INT, all, 1, MPI_INT, r, comm));
        for (int i = 0; me == r && i < np; i++)
            CHECK_EQ_INT(all[i], i);
    }
    free(all);
    CHECK_SUCCESS(MPI_Comm_free(&comm));
    MPI_Finalize();
    return 0;
}
