/* comm_split.c — MPI_Comm_split (colors, keys, MPI_UNDEFINED, a split of a split) and
 * MPI_Comm_split_type (shared, the MPI-4 hardware types), each result checked by a ring. */
#include <mpi.h>
#include <stdlib.h>

#include "check.h"

/* Every process sends its world rank around the ring of comm and checks what arrives. */
static void ring(MPI_Comm comm, int tag)
{
    int me, n, wme, got = -1, want;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &n);
    MPI_Comm_rank(MPI_COMM_WORLD, &wme);
    MPI_Group g, wg;
    MPI_Comm_group(comm, &g);
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    int left = (me + n - 1) % n;
    CHECK_SUCCESS(MPI_Group_translate_ranks(g, 1, &left, wg, &want));
    CHECK_SUCCESS(MPI_Sendrecv(&wme, 1, MPI_INT, (me + 1) % n, tag, &got, 1, MPI_INT, left, tag, comm,
                               MPI_STATUS_IGNORE));
    CHECK_EQ_INT(got, want);
    MPI_Group_free(&g);
    MPI_Group_free(&wg);
}

/* The world ranks of comm's processes, in comm's order, into w. */
static void members(MPI_Comm comm, int *w)
{
    int n;
    MPI_Comm_size(comm, &n);
    MPI_Group g, wg;
    MPI_Comm_group(comm, &g);
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    int *r = malloc(sizeof(int) * (size_t)n);
    for (int i = 0; i < n; i++)
        r[i] = i;
    CHECK_SUCCESS(MPI_Group_translate_ranks(g, n, r, wg, w));
    free(r);
    MPI_Group_free(&g);
    MPI_Group_free(&wg);
}

int main(int argc, char **argv)
{
    int me, np, size, rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    int *w = malloc(sizeof(int) * (size_t)np);

    /* color = rank % 3, key = -rank: each color's ranks in decreasing world order; the last
     * process (when there are several) opts out with MPI_UNDEFINED */
    int undef = np > 1 && me == np - 1;
    MPI_Comm c3;
    CHECK_SUCCESS(MPI_Comm_split(MPI_COMM_WORLD, undef ? MPI_UNDEFINED : me % 3, -me, &c3));
    if (undef) {
        CHECK(c3 == MPI_COMM_NULL, "MPI_UNDEFINED gave a communicator");
    } else {
        int n = 0;
        for (int r = me % 3; r < np; r += 3)
            if (!(np > 1 && r == np - 1))
                n++;
        MPI_Comm_size(c3, &size);
        MPI_Comm_rank(c3, &rank);
        CHECK_EQ_INT(size, n);
        members(c3, w);
        for (int i = 0; i < n; i++) /* decreasing world ranks of my color */
            CHECK(w[i] % 3 == me % 3 && (i == 0 || w[i] < w[i - 1]), "member %d is world rank %d", i, w[i]);
        CHECK_EQ_INT(w[rank], me);
        ring(c3, 1);

        /* a split of the split: all the same key, so the parent's order is kept */
        MPI_Comm c2;
        MPI_Comm_rank(c3, &rank);
        CHECK_SUCCESS(MPI_Comm_split(c3, rank % 2, 0, &c2));
        int n2, r2;
        MPI_Comm_size(c2, &n2);
        MPI_Comm_rank(c2, &r2);
        CHECK_EQ_INT(r2, rank / 2);
        CHECK_EQ_INT(n2, rank % 2 ? size / 2 : (size + 1) / 2);
        ring(c2, 2);
        MPI_Comm_free(&c2);
        MPI_Comm_free(&c3);
    }

    /* one color, equal keys: a communicator congruent to the parent */
    MPI_Comm same;
    int res;
    CHECK_SUCCESS(MPI_Comm_split(MPI_COMM_WORLD, 7, 1, &same));
    MPI_Comm_compare(same, MPI_COMM_WORLD, &res);
    CHECK_EQ_INT(res, MPI_CONGRUENT);
    MPI_Comm_free(&same);

    /* every process alone */
    MPI_Comm alone;
    CHECK_SUCCESS(MPI_Comm_split(MPI_COMM_WORLD, me, 0, &alone));
    MPI_Comm_compare(alone, MPI_COMM_SELF, &res);
    CHECK_EQ_INT(res, MPI_CONGRUENT);
    ring(alone, 3);
    MPI_Comm_free(&alone);

    /* all MPI_UNDEFINED */
    MPI_Comm none;
    CHECK_SUCCESS(MPI_Comm_split(MPI_COMM_WORLD, MPI_UNDEFINED, me, &none));
    CHECK(none == MPI_COMM_NULL, "all-undefined split gave a communicator");

    /* split_type SHARED: the processes of this node (the tests run on one) */
    MPI_Comm node;
    CHECK_SUCCESS(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node));
    MPI_Comm_compare(node, MPI_COMM_WORLD, &res);
    CHECK_EQ_INT(res, MPI_CONGRUENT);
    ring(node, 4);
    MPI_Comm_free(&node);
    /* keys reorder it */
    CHECK_SUCCESS(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, np - me, MPI_INFO_NULL, &node));
    MPI_Comm_rank(node, &rank);
    CHECK_EQ_INT(rank, np - 1 - me);
    MPI_Comm_free(&node);
    /* MPI_UNDEFINED at some processes */
    CHECK_SUCCESS(MPI_Comm_split_type(MPI_COMM_WORLD, me % 2 ? MPI_UNDEFINED : MPI_COMM_TYPE_SHARED, 0,
                                      MPI_INFO_NULL, &node));
    if (me % 2) {
        CHECK(node == MPI_COMM_NULL, "MPI_UNDEFINED split type gave a communicator");
    } else {
        MPI_Comm_size(node, &size);
        CHECK_EQ_INT(size, (np + 1) / 2);
        ring(node, 5);
        MPI_Comm_free(&node);
    }

    /* HW_GUIDED: mpi_shared_memory is a node; an unknown resource (or none) gives NULL */
    MPI_Info info, used;
    MPI_Info_create(&info);
    MPI_Info_set(info, "mpi_hw_resource_type", "mpi_shared_memory");
    CHECK_SUCCESS(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_GUIDED, 0, info, &node));
    CHECK(node != MPI_COMM_NULL, "HW_GUIDED mpi_shared_memory gave MPI_COMM_NULL");
    MPI_Comm_compare(node, MPI_COMM_WORLD, &res);
    CHECK_EQ_INT(res, MPI_CONGRUENT);
    MPI_Comm_get_info(node, &used);
    char val[MPI_MAX_INFO_VAL + 1];
    int flag = 0;
    MPI_Info_get(used, "mpi_hw_resource_type", MPI_MAX_INFO_VAL, val, &flag);
    if (CHECK_SWITCHYARD) /* MPICH 4.0 does not set it */
        CHECK(flag && strcmp(val, "mpi_shared_memory") == 0, "newcomm lacks mpi_hw_resource_type");
    MPI_Info_free(&used);
    MPI_Comm_free(&node);
    MPI_Info_set(info, "mpi_hw_resource_type", "switchyard_no_such_thing");
    CHECK_SUCCESS(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_GUIDED, 0, info, &node));
    CHECK(node == MPI_COMM_NULL, "HW_GUIDED with an unknown resource gave a communicator");
    if (CHECK_SWITCHYARD) {
        CHECK_SUCCESS(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_GUIDED, 0, MPI_INFO_NULL, &node));
        CHECK(node == MPI_COMM_NULL, "HW_GUIDED without the key gave a communicator");
    }
#ifdef MPI_COMM_TYPE_RESOURCE_GUIDED
    MPI_Info_set(info, "mpi_hw_resource_type", "mpi_shared_memory");
    CHECK_SUCCESS(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_RESOURCE_GUIDED, 0, info, &node));
    CHECK(node != MPI_COMM_NULL, "RESOURCE_GUIDED mpi_shared_memory gave MPI_COMM_NULL");
    MPI_Comm_free(&node);
#endif
    MPI_Info_free(&info);

    /* HW_UNGUIDED: a strict subset of the parent, or MPI_COMM_NULL */
    CHECK_SUCCESS(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_UNGUIDED, 0, MPI_INFO_NULL, &node));
    if (node != MPI_COMM_NULL) {
        MPI_Comm_size(node, &size);
        CHECK(size < np, "HW_UNGUIDED gave all %d processes", size);
        MPI_Comm_free(&node);
    }

    /* bad input */
    CHECK_ERR(MPI_Comm_split_type(MPI_COMM_WORLD, 12345, 0, MPI_INFO_NULL, &node), MPI_ERR_ARG, "MPI_Comm_split_type");
    if (CHECK_SWITCHYARD) /* negative colors are erroneous; MPICH takes them */
        CHECK_ERR(MPI_Comm_split(MPI_COMM_WORLD, -3, 0, &node), MPI_ERR_ARG, "color");
    CHECK_ERR(MPI_Comm_split(MPI_COMM_NULL, 0, 0, &node), MPI_ERR_COMM, NULL);

    free(w);
    MPI_Finalize();
    return 0;
}
