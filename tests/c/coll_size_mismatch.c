/* coll_size_mismatch.c — collectives whose processes pass type signatures of different sizes
 * (erroneous) end in an error on the processes that receive, never success with part of the
 * buffer unwritten, and never a hang: a bcast whose receivers expect more than the root sends,
 * or less (truncation), eager and rendezvous sizes, blocking and nonblocking; an allreduce with
 * a different count on one rank fails everywhere, and a reduce in which one rank passes more
 * fails at the root. Correct collectives keep working after each. */
#include "coll_in_step.h"

static int me, np;
static MPI_Comm comm;

/* a correct collective: the processes are still in step */
static void in_step(int round)
{
    coll_in_step(comm, me, np, round);
}

/* rc, a receiver's result of a collective fn whose signatures differ: an error of class
 * MPI_ERR_OTHER (fewer bytes than expected, here or upstream) or MPI_ERR_TRUNCATE (more) */
static void check_mismatch(int rc, const char *fn, int truncating)
{
    CHECK(rc != MPI_SUCCESS, "%s with mismatched type signatures returned MPI_SUCCESS on rank %d", fn, me);
    int cls = error_class(rc);
    if (cls == MPI_ERR_TRUNCATE) {
        CHECK(truncating, "%s: rank %d truncated a message no process sent too long", fn, me);
        CHECK_ERR(rc, MPI_ERR_TRUNCATE, fn, "type signatures differ");
        return;
    }
    if (!CHECK_SWITCHYARD) {
        CHECK_EQ_INT(cls, MPI_ERR_OTHER);
        return;
    }
    char text[MPI_MAX_ERROR_STRING];
    int len = 0;
    MPI_Error_string(rc, text, &len);
    if (strstr(text, "depend on"))
        CHECK_ERR(rc, MPI_ERR_OTHER, fn, "part of the collective failed");
    else if (truncating)
        CHECK_ERR(rc, MPI_ERR_OTHER, fn, "type signatures differ");
    else
        CHECK_ERR(rc, MPI_ERR_OTHER, fn, "bytes arrived from rank", "type signature expects", "type signatures differ");
}

/* a bcast from rank 0 of n ints, where the others expect m */
static void bcast(int n, int m, int nonblocking, int round)
{
    int count = me == 0 ? n : m, big = n > m ? n : m;
    int *buf = malloc((size_t)big * sizeof *buf);
    CHECK(buf, "out of memory");
    for (int i = 0; i < big; i++)
        buf[i] = me == 0 ? i : -1;
    int rc;
    const char *fn = nonblocking ? "MPI_Wait" : "MPI_Bcast";
    if (nonblocking) {
        MPI_Request r;
        CHECK_SUCCESS(MPI_Ibcast(buf, count, MPI_INT, 0, comm, &r));
        rc = MPI_Wait(&r, MPI_STATUS_IGNORE);
        CHECK(r == MPI_REQUEST_NULL, "MPI_Wait left the failed request active");
    } else {
        rc = MPI_Bcast(buf, count, MPI_INT, 0, comm);
    }
    if (me != 0)
        check_mismatch(rc, fn, n > m);
    free(buf);
    in_step(round);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    CHECK(np >= 2, "coll_size_mismatch needs 2 or more processes");
    CHECK_SUCCESS(MPI_Comm_dup(MPI_COMM_WORLD, &comm));
    CHECK_SUCCESS(MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN));
    in_step(0);

    int round = 1;
    for (int nonblocking = 0; nonblocking < 2; nonblocking++) {
        bcast(1, 2, nonblocking, round++);              /* receivers expect more: eager */
        bcast(2, 1, nonblocking, round++);              /* receivers expect less: truncation */
        bcast(1 << 16, 1 << 17, nonblocking, round++);  /* the same, rendezvous sizes */
        bcast(1 << 17, 1 << 16, nonblocking, round++);
    }

    /* an allreduce in which rank 0 has 1 element and the others 2: every result depends on
     * rank 0's short contribution, so every process fails */
    int in[2] = {me, me}, out[2] = {-1, -1};
    int rc = MPI_Allreduce(in, out, me == 0 ? 1 : 2, MPI_INT, MPI_SUM, comm);
    check_mismatch(rc, "MPI_Allreduce", 1);
    in_step(round++);

    /* a reduce to rank 0 in which the last rank contributes 2 elements and the others 1: the
     * root fails (what the others return depends on the algorithm) */
    rc = MPI_Reduce(in, out, me == np - 1 ? 2 : 1, MPI_INT, MPI_SUM, 0, comm);
    if (me == 0)
        check_mismatch(rc, "MPI_Reduce", 1);
    in_step(round++);
    /* the same with contributions of several chunks: the last rank's longer, then shorter */
    int *big = calloc(40000, sizeof *big), *bigout = calloc(40000, sizeof *bigout);
    CHECK(big && bigout, "out of memory");
    for (int longer = 1; longer >= 0; longer--) {
        int count = me != np - 1 ? 20000 : longer ? 40000 : 1;
        rc = MPI_Reduce(big, bigout, count, MPI_INT, MPI_SUM, 0, comm);
        if (me == 0)
            check_mismatch(rc, "MPI_Reduce", longer);
        in_step(round++);
    }
    free(big);
    free(bigout);

    CHECK_SUCCESS(MPI_Comm_free(&comm));
    MPI_Finalize();
    return 0;
}
