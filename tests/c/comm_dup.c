/* comm_dup.c — intra-communicators: dup, idup, dup_with_info, the compare table, traffic on a dup
 * unseen by the parent, free with operations pending, create, create_group, hints, bad input. */
#include <mpi.h>
#include <stdlib.h>

#include "check.h"

static int cmp(MPI_Comm a, MPI_Comm b)
{
    int res;
    CHECK_SUCCESS(MPI_Comm_compare(a, b, &res));
    return res;
}

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

/* 1 if info has key with value val. */
static int has(MPI_Info info, const char *key, const char *val)
{
    char v[MPI_MAX_INFO_VAL + 1];
    int flag = 0;
    MPI_Info_get(info, key, MPI_MAX_INFO_VAL, v, &flag);
    return flag && strcmp(v, val) == 0;
}

int main(int argc, char **argv)
{
    int me, np, size, rank, flag;
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    int right = (me + 1) % np, left = (me + np - 1) % np;

    /* dup: same group, new context; the error handler is inherited */
    MPI_Comm dup, dup2, rev;
    CHECK_SUCCESS(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    MPI_Comm_size(dup, &size);
    MPI_Comm_rank(dup, &rank);
    CHECK_EQ_INT(size, np);
    CHECK_EQ_INT(rank, me);
    CHECK_SUCCESS(MPI_Comm_test_inter(dup, &flag));
    CHECK_EQ_INT(flag, 0);
    int topo;
    CHECK_SUCCESS(MPI_Topo_test(dup, &topo));
    CHECK_EQ_INT(topo, MPI_UNDEFINED);
    MPI_Errhandler eh;
    MPI_Comm_get_errhandler(dup, &eh);
    CHECK(eh == MPI_ERRORS_RETURN, "the dup did not inherit MPI_ERRORS_RETURN");
    MPI_Errhandler_free(&eh);

    /* the compare table */
    CHECK_EQ_INT(cmp(MPI_COMM_WORLD, MPI_COMM_WORLD), MPI_IDENT);
    CHECK_EQ_INT(cmp(dup, dup), MPI_IDENT);
    CHECK_EQ_INT(cmp(MPI_COMM_WORLD, dup), MPI_CONGRUENT);
    CHECK_EQ_INT(cmp(MPI_COMM_WORLD, MPI_COMM_SELF), np == 1 ? MPI_CONGRUENT : MPI_UNEQUAL);
    CHECK_SUCCESS(MPI_Comm_split(MPI_COMM_WORLD, 0, np - me, &rev)); /* reversed order */
    CHECK_EQ_INT(cmp(rev, dup), np == 1 ? MPI_CONGRUENT : MPI_SIMILAR);
    MPI_Comm_rank(rev, &rank);
    CHECK_EQ_INT(rank, np - 1 - me);
    ring(rev, 3);

    /* traffic on the dup is never matched by receives on the parent */
    int a = 100 + me, b = 200 + me, got = -1;
    MPI_Status st;
    CHECK_SUCCESS(MPI_Send(&a, 1, MPI_INT, right, 5, dup));
    CHECK_SUCCESS(MPI_Send(&b, 1, MPI_INT, right, 5, MPI_COMM_WORLD));
    CHECK_SUCCESS(MPI_Recv(&got, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
    CHECK_EQ_INT(got, 200 + left);
    CHECK_SUCCESS(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE));
    CHECK_EQ_INT(flag, 0);
    CHECK_SUCCESS(MPI_Recv(&got, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, dup, &st));
    CHECK_EQ_INT(got, 100 + left);
    /* nor on a dup of the dup */
    CHECK_SUCCESS(MPI_Comm_dup(dup, &dup2));
    CHECK_EQ_INT(cmp(dup, dup2), MPI_CONGRUENT);
    CHECK_SUCCESS(MPI_Send(&a, 1, MPI_INT, right, 6, dup2));
    CHECK_SUCCESS(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, dup, &flag, MPI_STATUS_IGNORE));
    CHECK_SUCCESS(MPI_Recv(&got, 1, MPI_INT, left, 6, dup2, MPI_STATUS_IGNORE));
    CHECK_EQ_INT(got, 100 + left);
    CHECK_EQ_INT(flag, 0);

    /* free with operations pending: they complete afterwards */
    MPI_Request rq[2];
    got = -1;
    CHECK_SUCCESS(MPI_Irecv(&got, 1, MPI_INT, left, 9, dup2, &rq[0]));
    CHECK_SUCCESS(MPI_Isend(&a, 1, MPI_INT, right, 9, dup2, &rq[1]));
    CHECK_SUCCESS(MPI_Comm_free(&dup2));
    CHECK(dup2 == MPI_COMM_NULL, "freed communicator is not MPI_COMM_NULL");
    CHECK_SUCCESS(MPI_Waitall(2, rq, MPI_STATUSES_IGNORE));
    CHECK_EQ_INT(got, 100 + left);

    /* idup completes by MPI_Wait */
    MPI_Comm idup;
    MPI_Request req;
    CHECK_SUCCESS(MPI_Comm_idup(MPI_COMM_WORLD, &idup, &req));
    CHECK_SUCCESS(MPI_Wait(&req, MPI_STATUS_IGNORE));
    CHECK(req == MPI_REQUEST_NULL, "idup request not freed");
    CHECK_EQ_INT(cmp(idup, MPI_COMM_WORLD), MPI_CONGRUENT);
    ring(idup, 4);

    /* hints: dup_with_info takes info's, dup copies the parent's, set_info adds */
    MPI_Info info, used;
    MPI_Comm withinfo, dupinfo;
    MPI_Info_create(&info);
    MPI_Info_set(info, "mpi_assert_no_any_tag", "true");
    CHECK_SUCCESS(MPI_Comm_dup_with_info(MPI_COMM_WORLD, info, &withinfo));
    CHECK_EQ_INT(cmp(withinfo, MPI_COMM_WORLD), MPI_CONGRUENT);
    CHECK_SUCCESS(MPI_Comm_get_info(withinfo, &used));
    if (CHECK_SWITCHYARD)
        CHECK(has(used, "mpi_assert_no_any_tag", "true"), "dup_with_info lost the hint");
    MPI_Info_free(&used);
    CHECK_SUCCESS(MPI_Comm_dup(withinfo, &dupinfo));
    CHECK_SUCCESS(MPI_Comm_get_info(dupinfo, &used));
    if (CHECK_SWITCHYARD)
        CHECK(has(used, "mpi_assert_no_any_tag", "true"), "dup did not copy the hint");
    MPI_Info_free(&used);
    MPI_Info_set(info, "mpi_assert_no_any_source", "true");
    CHECK_SUCCESS(MPI_Comm_set_info(dupinfo, info));
    CHECK_SUCCESS(MPI_Comm_get_info(dupinfo, &used));
    if (CHECK_SWITCHYARD)
        CHECK(has(used, "mpi_assert_no_any_source", "true"), "set_info lost the hint");
    MPI_Info_free(&used);
    MPI_Comm idup2;
    CHECK_SUCCESS(MPI_Comm_idup_with_info(dupinfo, MPI_INFO_NULL, &idup2, &req));
    CHECK_SUCCESS(MPI_Wait(&req, MPI_STATUS_IGNORE));
    ring(idup2, 8);
    MPI_Comm_free(&idup2);
    MPI_Info_free(&info);
    MPI_Comm_free(&withinfo);
    MPI_Comm_free(&dupinfo);

    /* names are per communicator */
    char name[MPI_MAX_OBJECT_NAME];
    int len;
    CHECK_SUCCESS(MPI_Comm_set_name(dup, "the dup"));
    CHECK_SUCCESS(MPI_Comm_get_name(dup, name, &len));
    CHECK(strcmp(name, "the dup") == 0, "name '%s'", name);
    CHECK_SUCCESS(MPI_Comm_get_name(MPI_COMM_WORLD, name, &len));
    CHECK(strcmp(name, "MPI_COMM_WORLD") == 0, "name '%s'", name);

    /* group of a communicator */
    MPI_Group wg, dg, eg;
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    MPI_Comm_group(dup, &dg);
    int gres;
    MPI_Group_compare(wg, dg, &gres);
    CHECK_EQ_INT(gres, MPI_IDENT);

    /* create: the even ranks (in reverse order) get a communicator, the others NULL */
    int ne = (np + 1) / 2, *even = malloc(sizeof(int) * (size_t)ne);
    for (int i = 0; i < ne; i++)
        even[i] = 2 * (ne - 1 - i);
    MPI_Group_incl(wg, ne, even, &eg);
    MPI_Comm ec, gc, nc;
    CHECK_SUCCESS(MPI_Comm_create(dup, eg, &ec));
    if (me % 2 == 0) {
        CHECK(ec != MPI_COMM_NULL, "even rank %d got MPI_COMM_NULL", me);
        MPI_Comm_size(ec, &size);
        MPI_Comm_rank(ec, &rank);
        CHECK_EQ_INT(size, ne);
        CHECK_EQ_INT(rank, ne - 1 - me / 2);
        ring(ec, 10);
        MPI_Comm_free(&ec);
    } else {
        CHECK(ec == MPI_COMM_NULL, "odd rank %d got a communicator", me);
    }
    CHECK_SUCCESS(MPI_Comm_create(MPI_COMM_WORLD, MPI_GROUP_EMPTY, &nc));
    CHECK(nc == MPI_COMM_NULL, "create with MPI_GROUP_EMPTY gave a communicator");
    /* create with disjoint groups (MPI-2.2): evens and odds each get theirs */
    MPI_Group mine;
    int *part = malloc(sizeof(int) * (size_t)np), npart = 0;
    for (int r = me % 2; r < np; r += 2)
        part[npart++] = r;
    MPI_Group_incl(wg, npart, part, &mine);
    CHECK_SUCCESS(MPI_Comm_create(MPI_COMM_WORLD, mine, &nc));
    MPI_Comm_size(nc, &size);
    CHECK_EQ_INT(size, npart);
    ring(nc, 11);
    MPI_Comm_free(&nc);

    /* create_group: only the members call; evens and odds separately, with a tag */
    CHECK_SUCCESS(MPI_Comm_create_group(MPI_COMM_WORLD, mine, 7, &gc));
    MPI_Comm_size(gc, &size);
    MPI_Comm_rank(gc, &rank);
    CHECK_EQ_INT(size, npart);
    CHECK_EQ_INT(rank, me / 2);
    ring(gc, 12);
    CHECK_EQ_INT(cmp(gc, MPI_COMM_WORLD), np == 1 ? MPI_CONGRUENT : MPI_UNEQUAL);
    MPI_Comm_free(&gc);
    /* and of a group with just this process, over the dup */
    MPI_Group one;
    MPI_Group_incl(wg, 1, &me, &one);
    CHECK_SUCCESS(MPI_Comm_create_group(dup, one, 0, &gc));
    CHECK_EQ_INT(cmp(gc, MPI_COMM_SELF), MPI_CONGRUENT);
    MPI_Comm_free(&gc);
    MPI_Group_free(&one);
    MPI_Group_free(&mine);
    free(part);

    /* bad input */
    MPI_Comm w = MPI_COMM_WORLD;
    CHECK_ERR(MPI_Comm_free(&w), MPI_ERR_COMM, "MPI_Comm_free");
    CHECK_ERR(MPI_Comm_dup(MPI_COMM_NULL, &nc), MPI_ERR_COMM, NULL);
    CHECK_ERR(MPI_Comm_dup((MPI_Comm)wg, &nc), MPI_ERR_COMM, NULL); /* a group handle */
    CHECK_ERR(MPI_Comm_compare(MPI_COMM_WORLD, (MPI_Comm)MPI_INFO_ENV, &gres), MPI_ERR_COMM, NULL);
    CHECK_ERR(MPI_Comm_create(MPI_COMM_WORLD, (MPI_Group)MPI_COMM_WORLD, &nc), MPI_ERR_GROUP, NULL);
    if (np >= 2 && CHECK_SWITCHYARD) { /* not a subgroup of SELF's (MPICH does not check) */
        int other = right;
        MPI_Group og;
        MPI_Group_incl(wg, 1, &other, &og);
        CHECK_ERR(MPI_Comm_create(MPI_COMM_SELF, og, &nc), MPI_ERR_GROUP, NULL);
        MPI_Group_free(&og);
    }
    if (CHECK_SWITCHYARD) /* negative colors are erroneous; MPICH takes them */
        CHECK_ERR(MPI_Comm_split(MPI_COMM_SELF, -5, 0, &nc), MPI_ERR_ARG, "MPI_Comm_split");
    if (CHECK_SWITCHYARD) { /* an intra-communicator where an inter-communicator is needed */
        CHECK_ERR(MPI_Comm_remote_size(dup, &size), MPI_ERR_COMM, "MPI_Comm_remote_size");
        CHECK_ERR(MPI_Comm_remote_group(dup, &dg), MPI_ERR_COMM, NULL);
        CHECK_ERR(MPI_Intercomm_merge(dup, 0, &nc), MPI_ERR_COMM, NULL); /* MPICH aborts */
    }

    MPI_Group_free(&wg);
    MPI_Group_free(&dg);
    MPI_Group_free(&eg);
    MPI_Comm_free(&rev);
    MPI_Comm_free(&idup);
    MPI_Comm_free(&dup);
    free(even);
    MPI_Finalize();
    return 0;
}
