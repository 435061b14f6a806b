/* group_ops.c — the group calls on 1 to 8 processes: translation (non-members, MPI_PROC_NULL),
 * the compare table, set operations, (range) inclusion/exclusion, MPI_GROUP_EMPTY, bad input. */
#include <mpi.h>
#include <stdlib.h>

#include "check.h"

static int gsize(MPI_Group g)
{
    int n;
    CHECK_SUCCESS(MPI_Group_size(g, &n));
    return n;
}

static int grank(MPI_Group g)
{
    int r;
    CHECK_SUCCESS(MPI_Group_rank(g, &r));
    return r;
}

static int gcompare(MPI_Group a, MPI_Group b)
{
    int res;
    CHECK_SUCCESS(MPI_Group_compare(a, b, &res));
    return res;
}

/* The world rank of rank r of group g. */
static int world_of(MPI_Group world, MPI_Group g, int r)
{
    int w;
    CHECK_SUCCESS(MPI_Group_translate_ranks(g, 1, &r, world, &w));
    return w;
}

int main(int argc, char **argv)
{
    int me, np;
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);

    MPI_Group world, self, g, h, u;
    CHECK_SUCCESS(MPI_Comm_group(MPI_COMM_WORLD, &world));
    CHECK_SUCCESS(MPI_Comm_group(MPI_COMM_SELF, &self));
    CHECK_EQ_INT(gsize(world), np);
    CHECK_EQ_INT(grank(world), me);
    CHECK_EQ_INT(gsize(self), 1);
    CHECK_EQ_INT(grank(self), 0);

    /* MPI_GROUP_EMPTY */
    CHECK_EQ_INT(gsize(MPI_GROUP_EMPTY), 0);
    CHECK_EQ_INT(grank(MPI_GROUP_EMPTY), MPI_UNDEFINED);
    CHECK_EQ_INT(gcompare(MPI_GROUP_EMPTY, MPI_GROUP_EMPTY), MPI_IDENT);

    /* reversed world: similar, not identical (unless one process) */
    int *ranks = malloc(sizeof(int) * (size_t)np), *out = malloc(sizeof(int) * (size_t)np);
    for (int i = 0; i < np; i++)
        ranks[i] = np - 1 - i;
    CHECK_SUCCESS(MPI_Group_incl(world, np, ranks, &g));
    CHECK_EQ_INT(gsize(g), np);
    CHECK_EQ_INT(grank(g), np - 1 - me);
    CHECK_EQ_INT(gcompare(world, world), MPI_IDENT);
    CHECK_EQ_INT(gcompare(world, g), np == 1 ? MPI_IDENT : MPI_SIMILAR);
    CHECK_EQ_INT(gcompare(world, self), np == 1 ? MPI_IDENT : MPI_UNEQUAL);
    CHECK_SUCCESS(MPI_Comm_group(MPI_COMM_WORLD, &h)); /* another handle, same group */
    CHECK_EQ_INT(gcompare(world, h), MPI_IDENT);
    MPI_Group_free(&h);

    /* translate_ranks: world -> reversed, and MPI_PROC_NULL */
    CHECK_SUCCESS(MPI_Group_translate_ranks(world, np, ranks, g, out));
    for (int i = 0; i < np; i++)
        CHECK_EQ_INT(out[i], i);
    int pn = MPI_PROC_NULL, pnout = 0;
    CHECK_SUCCESS(MPI_Group_translate_ranks(world, 1, &pn, g, &pnout));
    CHECK_EQ_INT(pnout, MPI_PROC_NULL);
    CHECK_SUCCESS(MPI_Group_translate_ranks(world, 0, NULL, g, NULL));

    /* even ranks, by incl; odd by excl; non-members translate to MPI_UNDEFINED */
    int ne = (np + 1) / 2, no = np / 2;
    int *even = malloc(sizeof(int) * (size_t)ne), *odd = malloc(sizeof(int) * (size_t)(no + 1));
    for (int i = 0; i < ne; i++)
        even[i] = 2 * i;
    for (int i = 0; i < no; i++)
        odd[i] = 2 * i + 1;
    MPI_Group ge, go, ge2, go2;
    CHECK_SUCCESS(MPI_Group_incl(world, ne, even, &ge));
    CHECK_SUCCESS(MPI_Group_excl(world, ne, even, &go));
    CHECK_EQ_INT(gsize(ge), ne);
    CHECK_EQ_INT(gsize(go), no);
    CHECK_EQ_INT(grank(ge), me % 2 == 0 ? me / 2 : MPI_UNDEFINED);
    CHECK_EQ_INT(grank(go), me % 2 == 1 ? me / 2 : MPI_UNDEFINED);
    for (int i = 0; i < np; i++)
        ranks[i] = i;
    CHECK_SUCCESS(MPI_Group_translate_ranks(world, np, ranks, ge, out));
    for (int i = 0; i < np; i++)
        CHECK_EQ_INT(out[i], i % 2 == 0 ? i / 2 : MPI_UNDEFINED);
    if (no > 0)
        for (int i = 0; i < no; i++)
            CHECK_EQ_INT(world_of(world, go, i), 2 * i + 1);

    /* the same by ranges: (0, np-1, 2) and its exclusion */
    int range[1][3] = {{0, np - 1, 2}};
    CHECK_SUCCESS(MPI_Group_range_incl(world, 1, range, &ge2));
    CHECK_SUCCESS(MPI_Group_range_excl(world, 1, range, &go2));
    CHECK_EQ_INT(gcompare(ge, ge2), MPI_IDENT);
    CHECK_EQ_INT(gcompare(go, go2), MPI_IDENT);
    MPI_Group_free(&ge2);
    MPI_Group_free(&go2);
    /* a descending range: np-1 down to 0 is the reversed world */
    int down[1][3] = {{np - 1, 0, -1}};
    CHECK_SUCCESS(MPI_Group_range_incl(world, 1, down, &h));
    CHECK_EQ_INT(gcompare(h, g), MPI_IDENT);
    MPI_Group_free(&h);
    /* a range of stride 3 from 1 */
    if (np >= 2) {
        int r3[1][3] = {{1, np - 1, 3}};
        CHECK_SUCCESS(MPI_Group_range_incl(world, 1, r3, &h));
        CHECK_EQ_INT(gsize(h), (np - 2) / 3 + 1);
        for (int i = 0; i < gsize(h); i++)
            CHECK_EQ_INT(world_of(world, h, i), 1 + 3 * i);
        MPI_Group_free(&h);
    }

    /* set operations */
    CHECK_SUCCESS(MPI_Group_union(ge, go, &u));
    CHECK_EQ_INT(gsize(u), np);
    CHECK_EQ_INT(gcompare(u, world), np <= 2 ? MPI_IDENT : MPI_SIMILAR);
    for (int i = 0; i < ne; i++)
        CHECK_EQ_INT(world_of(world, u, i), 2 * i); /* group1's first, in order */
    MPI_Group_free(&u);
    CHECK_SUCCESS(MPI_Group_union(world, g, &u)); /* nothing new from g */
    CHECK_EQ_INT(gcompare(u, world), MPI_IDENT);
    MPI_Group_free(&u);
    CHECK_SUCCESS(MPI_Group_intersection(ge, go, &u));
    CHECK_EQ_INT(gsize(u), 0);
    CHECK_EQ_INT(gcompare(u, MPI_GROUP_EMPTY), MPI_IDENT);
    MPI_Group_free(&u);
    CHECK_SUCCESS(MPI_Group_intersection(g, ge, &u)); /* g's order: descending evens */
    CHECK_EQ_INT(gsize(u), ne);
    CHECK_EQ_INT(world_of(world, u, 0), 2 * (ne - 1));
    MPI_Group_free(&u);
    CHECK_SUCCESS(MPI_Group_difference(world, ge, &u));
    CHECK_EQ_INT(gcompare(u, go), MPI_IDENT);
    MPI_Group_free(&u);
    CHECK_SUCCESS(MPI_Group_difference(world, world, &u));
    CHECK_EQ_INT(gsize(u), 0);
    MPI_Group_free(&u);
    CHECK_SUCCESS(MPI_Group_union(MPI_GROUP_EMPTY, self, &u));
    CHECK_EQ_INT(gcompare(u, self), MPI_IDENT);
    MPI_Group_free(&u);

    /* incl of nothing is empty; excl of nothing is the same group */
    CHECK_SUCCESS(MPI_Group_incl(world, 0, NULL, &u));
    CHECK_EQ_INT(gsize(u), 0);
    MPI_Group_free(&u);
    CHECK_SUCCESS(MPI_Group_excl(world, 0, NULL, &u));
    CHECK_EQ_INT(gcompare(u, world), MPI_IDENT);
    MPI_Group_free(&u);

    /* free: the handle becomes MPI_GROUP_NULL; MPI_GROUP_EMPTY may be freed */
    MPI_Group e = MPI_GROUP_EMPTY;
    CHECK_SUCCESS(MPI_Group_free(&e));
    CHECK(e == MPI_GROUP_NULL, "freed MPI_GROUP_EMPTY is not MPI_GROUP_NULL");
    CHECK_SUCCESS(MPI_Group_incl(world, 1, &me, &h));
    CHECK_EQ_INT(gcompare(h, self), MPI_IDENT);
    CHECK_SUCCESS(MPI_Group_free(&h));
    CHECK(h == MPI_GROUP_NULL, "freed group is not MPI_GROUP_NULL");

    /* bad input */
    int bad = np;
    CHECK_ERR(MPI_Group_incl(world, 1, &bad, &h), MPI_ERR_RANK, "MPI_Group_incl", "ranks[0]");
    /* the message shows the user's value: a face's MPI_PROC_NULL by name, not the runtime's number */
    int pnull = MPI_PROC_NULL;
    if (CHECK_SWITCHYARD)
        CHECK_ERR(MPI_Group_incl(world, 1, &pnull, &h), MPI_ERR_RANK, "'ranks[0]' = MPI_PROC_NULL");
    int dup2[2] = {0, 0};
    if (np >= 2 && CHECK_SWITCHYARD) /* erroneous; MPICH does not check it */
        CHECK_ERR(MPI_Group_incl(world, 2, dup2, &h), MPI_ERR_RANK, "twice");
    CHECK_ERR(MPI_Group_excl(world, 1, &bad, &h), MPI_ERR_RANK, "MPI_Group_excl");
    CHECK_ERR(MPI_Group_incl(world, -1, ranks, &h), MPI_ERR_ARG, "MPI_Group_incl");
    CHECK_ERR(MPI_Group_translate_ranks(world, 1, &bad, g, out), MPI_ERR_RANK, "MPI_Group_translate_ranks");
    int r0[1][3] = {{0, np, 1}}, rz[1][3] = {{0, 0, 0}};
    CHECK_ERR(MPI_Group_range_incl(world, 1, r0, &h), MPI_ERR_ARG, "MPI_Group_range_incl");
    CHECK_ERR(MPI_Group_range_excl(world, 1, rz, &h), MPI_ERR_ARG, "stride");
    CHECK_ERR(MPI_Group_size(MPI_GROUP_NULL, &bad), MPI_ERR_GROUP, NULL);
    CHECK_ERR(MPI_Group_size((MPI_Group)MPI_COMM_WORLD, &bad), MPI_ERR_GROUP, NULL); /* wrong class */
    CHECK_ERR(MPI_Group_rank((MPI_Group)MPI_INFO_ENV, &bad), MPI_ERR_GROUP, NULL);
    CHECK_ERR(MPI_Comm_group((MPI_Comm)world, &h), MPI_ERR_COMM, NULL);

    MPI_Group_free(&ge);
    MPI_Group_free(&go);
    MPI_Group_free(&g);
    MPI_Group_free(&world);
    MPI_Group_free(&self);
    free(ranks);
    free(out);
    free(even);
    free(odd);
    MPI_Finalize();
    return 0;
}
