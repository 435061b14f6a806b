/* coll_nb.c — nonblocking collectives (many outstanding, mixed with point-to-point on the same
 * communicator), persistent collectives restarted, and bad arguments rejected on every rank. */
#include "check.h"

#define K 12 /* outstanding collectives at once */

static int me, np;

static void many_outstanding(void)
{
    MPI_Request rq[4 * K + 1];
    /* every send buffer stays untouched until its operation completes */
    int vals[K], gs[K], sums[K], bc[K][3], *gat = malloc(sizeof(int) * np * K), a2a_s[64], a2a_r[64];
    CHECK(np <= 64, "too many ranks for this test");
    int nr = 0, p2p_in = -1, p2p_out = 4242;
    /* a point-to-point receive that matches anything: collectives must not satisfy it */
    CHECK_SUCCESS(MPI_Irecv(&p2p_in, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &rq[nr++]));
    for (int k = 0; k < K; k++) {
        vals[k] = me + k;
        CHECK_SUCCESS(MPI_Iallreduce(&vals[k], &sums[k], 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &rq[nr++]));
        for (int i = 0; i < 3; i++)
            bc[k][i] = me == k % np ? k * 10 + i : -1;
        CHECK_SUCCESS(MPI_Ibcast(bc[k], 3, MPI_INT, k % np, MPI_COMM_WORLD, &rq[nr++]));
        gs[k] = me * 1000 + k;
        CHECK_SUCCESS(MPI_Iallgather(&gs[k], 1, MPI_INT, gat + k * np, 1, MPI_INT, MPI_COMM_WORLD, &rq[nr++]));
        CHECK_SUCCESS(MPI_Ibarrier(MPI_COMM_WORLD, &rq[nr++]));
    }
    /* the point-to-point message goes around the ring after the collectives started */
    if (np > 1)
        CHECK_SUCCESS(MPI_Send(&p2p_out, 1, MPI_INT, (me + 1) % np, 5, MPI_COMM_WORLD));
    else
        CHECK_SUCCESS(MPI_Send(&p2p_out, 1, MPI_INT, 0, 5, MPI_COMM_WORLD));
    MPI_Status st[4 * K + 1];
    /* completed in an order that differs between ranks: backwards on even ranks, with
     * MPI_Waitany on odd ones */
    if (me % 2 == 0) {
        for (int i = nr - 1; i >= 0; i--)
            CHECK_SUCCESS(MPI_Wait(&rq[i], &st[i]));
    } else {
        for (int k = 0; k < nr; k++) {
            int idx = -1;
            MPI_Status one;
            CHECK_SUCCESS(MPI_Waitany(nr, rq, &idx, &one));
            CHECK(idx >= 0 && idx < nr, "MPI_Waitany index %d", idx);
            st[idx] = one;
        }
    }
    for (int i = 0; i < nr; i++)
        CHECK(rq[i] == MPI_REQUEST_NULL, "request %d not freed", i);
    CHECK(p2p_in == 4242 && st[0].MPI_TAG == 5 && st[0].MPI_SOURCE == (me + np - 1) % np,
          "the any-tag receive got %d from %d tag %d", p2p_in, st[0].MPI_SOURCE, st[0].MPI_TAG);
    for (int k = 0; k < K; k++) {
        CHECK_EQ_INT(sums[k], np * (np - 1) / 2 + np * k);
        for (int i = 0; i < 3; i++)
            CHECK_EQ_INT(bc[k][i], k * 10 + i);
        for (int r = 0; r < np; r++)
            CHECK_EQ_INT(gat[k * np + r], r * 1000 + k);
    }
    /* alltoall completed by polling with MPI_Test */
    for (int i = 0; i < np; i++)
        a2a_s[i] = me * 100 + i;
    MPI_Request r1;
    int flag = 0;
    CHECK_SUCCESS(MPI_Ialltoall(a2a_s, 1, MPI_INT, a2a_r, 1, MPI_INT, MPI_COMM_WORLD, &r1));
    while (!flag)
        CHECK_SUCCESS(MPI_Test(&r1, &flag, MPI_STATUS_IGNORE));
    CHECK(r1 == MPI_REQUEST_NULL, "completed request not freed");
    for (int i = 0; i < np; i++)
        CHECK_EQ_INT(a2a_r[i], i * 100 + me);
    free(gat);
}

/* Progress happens in every MPI call, not only in the wait: rank 0 starts a large broadcast
 * and then only probes for a message that the last rank sends once its part of the same
 * broadcast has arrived (through the ranks in between, rendezvous-sized). */
static void progress_outside_wait(void)
{
    enum { LEN = 1 << 18 };
    int *b = malloc(sizeof(int) * LEN), flag = 0, token = 0;
    for (int i = 0; i < LEN; i++)
        b[i] = me == 0 ? i : -1;
    MPI_Request rq;
    CHECK_SUCCESS(MPI_Ibcast(b, LEN, MPI_INT, 0, MPI_COMM_WORLD, &rq));
    if (me == np - 1 && np > 1) {
        CHECK_SUCCESS(MPI_Wait(&rq, MPI_STATUS_IGNORE));
        CHECK_SUCCESS(MPI_Send(&token, 1, MPI_INT, 0, 31, MPI_COMM_WORLD));
    } else if (me == 0 && np > 1) {
        while (!flag)
            CHECK_SUCCESS(MPI_Iprobe(np - 1, 31, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE));
        CHECK_SUCCESS(MPI_Recv(&token, 1, MPI_INT, np - 1, 31, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK_SUCCESS(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    } else {
        CHECK_SUCCESS(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    }
    for (int i = 0; i < LEN; i += 4097)
        CHECK_EQ_INT(b[i], i);
    free(b);
}

static void persistent(void)
{
    MPI_Request rq[2];
    int in = 0, out = -1, b[2] = {0, 0};
    CHECK_SUCCESS(MPI_Allreduce_init(&in, &out, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD, MPI_INFO_NULL, &rq[0]));
    CHECK_SUCCESS(MPI_Bcast_init(b, 2, MPI_INT, np - 1, MPI_COMM_WORLD, MPI_INFO_NULL, &rq[1]));
    /* inactive: waiting returns at once with an empty status */
    CHECK_SUCCESS(MPI_Wait(&rq[0], MPI_STATUS_IGNORE));
    CHECK(rq[0] != MPI_REQUEST_NULL, "MPI_Wait freed an inactive persistent request");
    for (int round = 0; round < 5; round++) {
        in = me * round;
        if (me == np - 1)
            b[0] = round, b[1] = -round;
        CHECK_SUCCESS(MPI_Startall(2, rq));
        CHECK_SUCCESS(MPI_Waitall(2, rq, MPI_STATUSES_IGNORE));
        CHECK(rq[0] != MPI_REQUEST_NULL && rq[1] != MPI_REQUEST_NULL, "a persistent request was freed");
        CHECK_EQ_INT(out, (np - 1) * round);
        CHECK(b[0] == round && b[1] == -round, "persistent bcast round %d: %d %d", round, b[0], b[1]);
    }
    CHECK_SUCCESS(MPI_Start(&rq[0]));
    CHECK_ERR(MPI_Cancel(&rq[0]), MPI_ERR_REQUEST, "collective");
    CHECK_SUCCESS(MPI_Wait(&rq[0], MPI_STATUS_IGNORE));
    CHECK_SUCCESS(MPI_Request_free(&rq[0]));
    CHECK_SUCCESS(MPI_Request_free(&rq[1]));
    CHECK(rq[0] == MPI_REQUEST_NULL, "MPI_Request_free did not reset the handle");
}

/* Every rank makes the same bad call: each gets the error, nobody hangs. */
static void bad_input(void)
{
    int x[64] = {0}, y[64] = {0}, counts[64], displs[64];
    float f = 1.0f, g;
    MPI_Datatype loose;
    MPI_Type_contiguous(2, MPI_INT, &loose); /* never committed */
    for (int i = 0; i < np; i++)
        counts[i] = 1, displs[i] = i;
    CHECK_ERR(MPI_Bcast(x, 1, MPI_INT, np, MPI_COMM_WORLD), MPI_ERR_ROOT, "MPI_Bcast", "root");
    CHECK_ERR(MPI_Reduce(x, y, 1, MPI_INT, MPI_SUM, -1, MPI_COMM_WORLD), MPI_ERR_ROOT, "MPI_Reduce");
    CHECK_ERR(MPI_Bcast(x, -1, MPI_INT, 0, MPI_COMM_WORLD), MPI_ERR_COUNT, "MPI_Bcast");
    CHECK_ERR(MPI_Bcast(x, 1, loose, 0, MPI_COMM_WORLD), MPI_ERR_TYPE, "MPI_Bcast");
    CHECK_ERR(MPI_Allreduce(&f, &g, 1, MPI_FLOAT, MPI_BXOR, MPI_COMM_WORLD), MPI_ERR_OP, "MPI_Allreduce",
              "MPI_BXOR", "MPI_FLOAT");
    CHECK_ERR(MPI_Allreduce(x, y, 1, MPI_INT, MPI_OP_NULL, MPI_COMM_WORLD), MPI_ERR_OP, "MPI_Allreduce");
    CHECK_ERR(MPI_Barrier(MPI_COMM_NULL), MPI_ERR_COMM, "MPI_Barrier");
    counts[np - 1] = -2;
    CHECK_ERR(MPI_Allgatherv(x, 1, MPI_INT, y, counts, displs, MPI_INT, MPI_COMM_WORLD), MPI_ERR_COUNT,
              "MPI_Allgatherv", "recvcounts");
    counts[np - 1] = 1;
    MPI_Request rq = MPI_REQUEST_NULL;
    CHECK_ERR(MPI_Iallgather(x, 1, MPI_INT, y, 1, loose, MPI_COMM_WORLD, &rq), MPI_ERR_TYPE, "MPI_Iallgather");
    CHECK(rq == MPI_REQUEST_NULL, "a failed MPI_Iallgather returned a request");
    CHECK_ERR(MPI_Allgather(MPI_IN_PLACE, 1, MPI_INT, MPI_IN_PLACE, 1, MPI_INT, MPI_COMM_WORLD), MPI_ERR_BUFFER,
              "MPI_Allgather", "recvbuf");
    if (me != 0) /* MPI_IN_PLACE as sendbuf of a reduce is for the root only (caught before any traffic) */
        CHECK_ERR(MPI_Reduce(MPI_IN_PLACE, y, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD), MPI_ERR_BUFFER, "MPI_Reduce",
                  "sendbuf");
    MPI_Type_free(&loose);
    /* the communicator still works after all that */
    int v = 1, s = 0;
    CHECK_SUCCESS(MPI_Allreduce(&v, &s, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    CHECK_EQ_INT(s, np);
}

/* Arguments a process does not use may hold anything (MPI_DATATYPE_NULL, -1): the
 * receive side of a gather away from the root, the send side of a scatter, send arguments
 * next to MPI_IN_PLACE. */
static void unused_args(void)
{
    int mine[2] = {me, -me}, all[128], back[2] = {-1, -1};
    for (int root = 0; root < np; root++) {
        int r = me == root;
        CHECK_SUCCESS(MPI_Gather(mine, 2, MPI_INT, r ? all : NULL, r ? 2 : -1, r ? MPI_INT : MPI_DATATYPE_NULL, root,
                                 MPI_COMM_WORLD));
        for (int k = 0; r && k < np; k++)
            CHECK(all[2 * k] == k && all[2 * k + 1] == -k, "gather with unused arguments: from %d", k);
        CHECK_SUCCESS(MPI_Scatter(r ? all : NULL, r ? 2 : -1, r ? MPI_INT : MPI_DATATYPE_NULL, back, 2, MPI_INT, root,
                                  MPI_COMM_WORLD));
        CHECK(back[0] == me && back[1] == -me, "scatter with unused arguments");
        if (r) /* the root's own block in place: its send arguments are unused */
            CHECK_SUCCESS(MPI_Gather(MPI_IN_PLACE, -1, MPI_DATATYPE_NULL, all, 2, MPI_INT, root, MPI_COMM_WORLD));
        else
            CHECK_SUCCESS(MPI_Gather(mine, 2, MPI_INT, NULL, 0, MPI_DATATYPE_NULL, root, MPI_COMM_WORLD));
    }
    all[me] = 10 * me;
    CHECK_SUCCESS(MPI_Allgather(MPI_IN_PLACE, -1, MPI_DATATYPE_NULL, all, 1, MPI_INT, MPI_COMM_WORLD));
    for (int k = 0; k < np; k++)
        CHECK_EQ_INT(all[k], 10 * k);
    /* ... but where they are used, they are checked */
    CHECK_ERR(MPI_Gather(mine, 2, MPI_DATATYPE_NULL, all, 2, MPI_INT, 0, MPI_COMM_WORLD), MPI_ERR_TYPE, "MPI_Gather",
              "sendtype");
    CHECK_ERR(MPI_Allgather(mine, -1, MPI_INT, all, 1, MPI_INT, MPI_COMM_WORLD), MPI_ERR_COUNT, "sendcount");
}

/* The large-count (_c) forms: MPI_Count counts and MPI_Aint displacements. */
static void large_count_forms(void)
{
    int b[3] = {me == 0 ? 7 : 0, me == 0 ? 8 : 0, me == 0 ? 9 : 0}, v = me + 1, sum = 0;
    CHECK_SUCCESS(MPI_Bcast_c(b, 3, MPI_INT, 0, MPI_COMM_WORLD));
    CHECK(b[0] == 7 && b[1] == 8 && b[2] == 9, "MPI_Bcast_c");
    CHECK_SUCCESS(MPI_Allreduce_c(&v, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    CHECK_EQ_INT(sum, np * (np + 1) / 2);
    MPI_Count *cnt = malloc(sizeof(MPI_Count) * np);
    MPI_Aint *dsp = malloc(sizeof(MPI_Aint) * np);
    int *all = malloc(sizeof(int) * 2 * np), mine[2] = {me, -me};
    for (int k = 0; k < np; k++)
        cnt[k] = 2, dsp[k] = 2 * (np - 1 - k);
    CHECK_SUCCESS(MPI_Allgatherv_c(mine, 2, MPI_INT, all, cnt, dsp, MPI_INT, MPI_COMM_WORLD));
    for (int k = 0; k < np; k++)
        CHECK(all[2 * (np - 1 - k)] == k && all[2 * (np - 1 - k) + 1] == -k, "MPI_Allgatherv_c from %d", k);
    int *sb = malloc(sizeof(int) * np), *rb = malloc(sizeof(int) * np);
    MPI_Count *one = malloc(sizeof(MPI_Count) * np);
    MPI_Aint *at = malloc(sizeof(MPI_Aint) * np);
    for (int k = 0; k < np; k++)
        sb[k] = 100 * me + k, one[k] = 1, at[k] = k;
    MPI_Request rq;
    CHECK_SUCCESS(MPI_Ialltoallv_c(sb, one, at, MPI_INT, rb, one, at, MPI_INT, MPI_COMM_WORLD, &rq));
    CHECK_SUCCESS(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    for (int k = 0; k < np; k++)
        CHECK_EQ_INT(rb[k], 100 * k + me);
    int blk = -1;
    CHECK_SUCCESS(MPI_Reduce_scatter_block_c(sb, &blk, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    CHECK_EQ_INT(blk, 100 * np * (np - 1) / 2 + np * me);
    free(cnt), free(dsp), free(all), free(sb), free(rb), free(one), free(at);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    many_outstanding();
    progress_outside_wait();
    persistent();
    bad_input();
    unused_args();
    large_count_forms();
    MPI_Finalize();
    return 0;
}
