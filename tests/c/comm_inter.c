/* comm_inter.c — inter-communicators between two halves of the world: sizes, groups, traffic,
 * merge both ways, compare, dup, split, create, and MPI_ERR_COMM where intra is required. */
#include <mpi.h>
#include <stdlib.h>

#include "check.h"

static int cmp(MPI_Comm a, MPI_Comm b)
{
    int res;
    CHECK_SUCCESS(MPI_Comm_compare(a, b, &res));
    return res;
}

/* The world rank of rank r of group g. */
static int world_of(MPI_Group g, int r)
{
    MPI_Group wg;
    int w;
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    CHECK_SUCCESS(MPI_Group_translate_ranks(g, 1, &r, wg, &w));
    MPI_Group_free(&wg);
    return w;
}

/* Each process sends its world rank to every remote process, and checks what each sends. */
static void all_across(MPI_Comm inter, int tag)
{
    int me, rsize;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_remote_size(inter, &rsize);
    MPI_Group rg;
    MPI_Comm_remote_group(inter, &rg);
    MPI_Request *rq = malloc(sizeof(MPI_Request) * (size_t)rsize);
    for (int r = 0; r < rsize; r++)
        CHECK_SUCCESS(MPI_Isend(&me, 1, MPI_INT, r, tag, inter, &rq[r]));
    for (int r = 0; r < rsize; r++) {
        int got = -1;
        MPI_Status st;
        CHECK_SUCCESS(MPI_Recv(&got, 1, MPI_INT, MPI_ANY_SOURCE, tag, inter, &st));
        CHECK_EQ_INT(got, world_of(rg, st.MPI_SOURCE));
    }
    CHECK_SUCCESS(MPI_Waitall(rsize, rq, MPI_STATUSES_IGNORE));
    free(rq);
    MPI_Group_free(&rg);
}

int main(int argc, char **argv)
{
    int me, np, size, rank, flag;
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    MPI_Comm nc;

    /* errors that need no partner */
    CHECK_ERR(MPI_Intercomm_create(MPI_COMM_SELF, 1, MPI_COMM_WORLD, 0, 5, &nc), MPI_ERR_RANK, NULL);
    if (CHECK_SWITCHYARD) { /* erroneous calls other MPIs need not detect */
        CHECK_ERR(MPI_Intercomm_create(MPI_COMM_SELF, 0, MPI_COMM_WORLD, np, 5, &nc), MPI_ERR_RANK,
                  "remote_leader");
        /* both groups are the world: they overlap (the leader talks to itself) */
        CHECK_ERR(MPI_Intercomm_create(MPI_COMM_WORLD, 0, MPI_COMM_WORLD, 0, 6, &nc), MPI_ERR_ARG, "overlap");
    }
    if (np < 2) {
        MPI_Finalize();
        return 0;
    }

    /* two halves: A = [0, np/2), B = [np/2, np) */
    int half = np / 2, inA = me < half, lsize = inA ? half : np - half, rsize = np - lsize;
    MPI_Comm local, inter;
    CHECK_SUCCESS(MPI_Comm_split(MPI_COMM_WORLD, !inA, me, &local));
    CHECK_SUCCESS(MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, inA ? half : 0, 42, &inter));
    CHECK_SUCCESS(MPI_Comm_test_inter(inter, &flag));
    CHECK_EQ_INT(flag, 1);
    MPI_Comm_size(inter, &size);
    MPI_Comm_rank(inter, &rank);
    CHECK_EQ_INT(size, lsize);
    CHECK_EQ_INT(rank, inA ? me : me - half);
    CHECK_SUCCESS(MPI_Comm_remote_size(inter, &size));
    CHECK_EQ_INT(size, rsize);
    MPI_Group lg, rg, g;
    CHECK_SUCCESS(MPI_Comm_group(inter, &lg));
    CHECK_SUCCESS(MPI_Comm_remote_group(inter, &rg));
    CHECK_EQ_INT(world_of(lg, 0), inA ? 0 : half);
    for (int r = 0; r < rsize; r++)
        CHECK_EQ_INT(world_of(rg, r), inA ? half + r : r);
    MPI_Comm_group(local, &g);
    int res;
    MPI_Group_compare(g, lg, &res);
    CHECK_EQ_INT(res, MPI_IDENT);
    MPI_Group_free(&g);
    CHECK_EQ_INT(cmp(inter, inter), MPI_IDENT);
    CHECK_EQ_INT(cmp(inter, local), MPI_UNEQUAL);
    int topo;
    MPI_Topo_test(inter, &topo);
    CHECK_EQ_INT(topo, MPI_UNDEFINED);

    /* point-to-point addresses the remote group */
    all_across(inter, 1);

    /* dup: congruent, and its traffic is not matched on the original */
    MPI_Comm idup;
    CHECK_SUCCESS(MPI_Comm_dup(inter, &idup));
    CHECK_EQ_INT(cmp(inter, idup), MPI_CONGRUENT);
    CHECK_SUCCESS(MPI_Comm_test_inter(idup, &flag));
    CHECK_EQ_INT(flag, 1);
    int peer = rank % rsize, a = 1000 + me, b = 2000 + me, got;
    CHECK_SUCCESS(MPI_Send(&a, 1, MPI_INT, peer, 3, idup));
    CHECK_SUCCESS(MPI_Send(&b, 1, MPI_INT, peer, 3, inter));
    int senders = 0; /* remote process r sends to my rank r % lsize */
    for (int r = 0; r < rsize; r++)
        senders += r % lsize == rank;
    for (int k = 0; k < senders; k++) {
        MPI_Status st;
        CHECK_SUCCESS(MPI_Recv(&got, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, inter, &st));
        CHECK_EQ_INT(got, 2000 + world_of(rg, st.MPI_SOURCE));
    }
    CHECK_SUCCESS(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, inter, &flag, MPI_STATUS_IGNORE));
    CHECK_EQ_INT(flag, 0);
    for (int k = 0; k < senders; k++) {
        MPI_Status st;
        CHECK_SUCCESS(MPI_Recv(&got, 1, MPI_INT, MPI_ANY_SOURCE, 3, idup, &st));
        CHECK_EQ_INT(got, 1000 + world_of(rg, st.MPI_SOURCE));
    }
    all_across(idup, 2);

    /* merge: the group passing high = 0 comes first */
    MPI_Comm m1, m2, m3;
    CHECK_SUCCESS(MPI_Intercomm_merge(inter, !inA, &m1)); /* A low: world order */
    MPI_Comm_size(m1, &size);
    MPI_Comm_rank(m1, &rank);
    CHECK_EQ_INT(size, np);
    CHECK_EQ_INT(rank, me);
    CHECK_EQ_INT(cmp(m1, MPI_COMM_WORLD), MPI_CONGRUENT);
    CHECK_SUCCESS(MPI_Comm_test_inter(m1, &flag));
    CHECK_EQ_INT(flag, 0);
    CHECK_SUCCESS(MPI_Intercomm_merge(inter, inA, &m2)); /* B first */
    MPI_Comm_rank(m2, &rank);
    CHECK_EQ_INT(rank, inA ? me + (np - half) : me - half);
    CHECK_EQ_INT(cmp(m2, MPI_COMM_WORLD), MPI_SIMILAR);
    CHECK_SUCCESS(MPI_Intercomm_merge(idup, 1, &m3)); /* both high: either order, groups kept whole */
    MPI_Comm_size(m3, &size);
    MPI_Comm_rank(m3, &rank);
    CHECK_EQ_INT(size, np);
    int lrank;
    MPI_Comm_rank(inter, &lrank);
    CHECK(rank == lrank || rank == lrank + rsize, "merged rank %d for local rank %d", rank, lrank);
    /* point-to-point on the merged communicators */
    int right = (me + 1) % np, left = (me + np - 1) % np;
    CHECK_SUCCESS(MPI_Sendrecv(&me, 1, MPI_INT, right, 4, &got, 1, MPI_INT, left, 4, m1, MPI_STATUS_IGNORE));
    CHECK_EQ_INT(got, left);

    /* split of an inter-communicator: same color on both sides */
    MPI_Comm isplit;
    MPI_Comm_rank(inter, &lrank);
    int color = lrank % 2;
    CHECK_SUCCESS(MPI_Comm_split(inter, color, -lrank, &isplit));
    int lcount = (lsize + (color ? 0 : 1)) / 2, rcount = (rsize + (color ? 0 : 1)) / 2;
    if (rcount == 0) {
        CHECK(isplit == MPI_COMM_NULL, "color %d has no remote processes but a communicator came", color);
    } else {
        CHECK_SUCCESS(MPI_Comm_test_inter(isplit, &flag));
        CHECK_EQ_INT(flag, 1);
        MPI_Comm_size(isplit, &size);
        MPI_Comm_rank(isplit, &rank);
        CHECK_EQ_INT(size, lcount);
        CHECK_EQ_INT(rank, lcount - 1 - lrank / 2); /* keys reverse the order */
        MPI_Comm_remote_size(isplit, &size);
        CHECK_EQ_INT(size, rcount);
        all_across(isplit, 5);
        MPI_Comm_free(&isplit);
    }
    CHECK_SUCCESS(MPI_Comm_split(inter, MPI_UNDEFINED, 0, &isplit));
    CHECK(isplit == MPI_COMM_NULL, "MPI_UNDEFINED split of an inter-communicator gave one");

    /* create on an inter-communicator: A keeps its leader only, B all of itself */
    MPI_Comm icreate;
    MPI_Group sub;
    int zero = 0;
    if (inA)
        MPI_Group_incl(lg, 1, &zero, &sub);
    else
        MPI_Comm_group(inter, &sub);
    CHECK_SUCCESS(MPI_Comm_create(inter, sub, &icreate));
    if (inA && me != 0) {
        CHECK(icreate == MPI_COMM_NULL, "a process outside the group got a communicator");
    } else {
        MPI_Comm_size(icreate, &size);
        MPI_Comm_remote_size(icreate, &rsize);
        CHECK_EQ_INT(size, inA ? 1 : np - half);
        CHECK_EQ_INT(rsize, inA ? np - half : 1);
        all_across(icreate, 6);
        MPI_Comm_free(&icreate);
    }
    MPI_Group_free(&sub);

    /* inter-communicators where intra-communicators are needed: MPI_ERR_COMM */
    int dims[1] = {1}, periods[1] = {0}, index[1] = {0};
    CHECK_ERR(MPI_Cart_create(inter, 1, dims, periods, 0, &nc), MPI_ERR_COMM, "MPI_Cart_create");
    CHECK_ERR(MPI_Graph_create(inter, 1, index, index, 0, &nc), MPI_ERR_COMM, NULL);
    /* (through a volatile: GCC 12 warns about the standard ABI's (int *)10 passed for an array) */
    int *volatile unweighted = MPI_UNWEIGHTED;
    CHECK_ERR(MPI_Dist_graph_create_adjacent(inter, 0, NULL, unweighted, 0, NULL, unweighted, MPI_INFO_NULL, 0, &nc),
              MPI_ERR_COMM, NULL);
    CHECK_ERR(MPI_Intercomm_create(inter, 0, MPI_COMM_WORLD, 0, 7, &nc), MPI_ERR_COMM, NULL);
    if (CHECK_SWITCHYARD) {
        CHECK_ERR(MPI_Comm_create_group(inter, lg, 0, &nc), MPI_ERR_COMM, "intra-communicator");
        CHECK_ERR(MPI_Comm_split_type(inter, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &nc), MPI_ERR_COMM, NULL);
    }

    MPI_Group_free(&lg);
    MPI_Group_free(&rg);
    MPI_Comm_free(&m1);
    MPI_Comm_free(&m2);
    MPI_Comm_free(&m3);
    MPI_Comm_free(&idup);
    MPI_Comm_free(&inter);
    MPI_Comm_free(&local);
    MPI_Finalize();
    return 0;
}
