/* group.c — process groups: ordered lists of world ranks, MPI_GROUP_EMPTY, the group calls
 * (size, rank, translation, comparison, set operations, inclusion and exclusion, free). */
#include "group.h"

#include <stdlib.h>

#define EMPTY ((rt_group *)rt_builtins[RT_B_GROUP_EMPTY])

/* ------------------------------------------------------------ internal */

/* A group of the n world ranks in ranks (adopted); MPI_GROUP_EMPTY for n == 0. */
rt_group *rt__group_adopt(int n, int *ranks)
{
    if (n <= 0) {
        free(ranks);
        return EMPTY;
    }
    rt_group *g = (rt_group *)rt__obj_new(RT_CLASS_GROUP);
    if (!g) {
        free(ranks);
        return NULL;
    }
    g->size = n;
    g->ranks = ranks;
    g->rank = RT_UNDEFINED;
    for (int i = 0; i < n; i++)
        if (ranks[i] == rt__g.world.rank) {
            g->rank = i;
            break;
        }
    return g;
}

/* g (new, or NULL) derives from the session `from` derives from: g holds a reference to it. */
rt_group *rt__group_derive(rt_group *g, const rt_group *from)
{
    if (g && !g->obj.builtin && from && from->session && !g->session) {
        g->session = from->session;
        rt__obj_retain(&g->session->obj);
    }
    return g;
}

/* Frees g's rank list and drops its session (idempotent). */
void rt__group_destroy(rt_obj *o)
{
    rt_group *g = (rt_group *)o;
    free(g->ranks);
    g->ranks = NULL;
    g->size = 0;
    if (g->session)
        rt__obj_release(&g->session->obj);
    g->session = NULL;
}

/* obj.c has no destructor for groups registered yet: the rank list is freed here before
 * the last reference goes (rt__group_destroy is idempotent, so registering it is safe). */
void rt__group_release(rt_group *g)
{
    if (!g || g->obj.builtin)
        return;
    if (g->obj.refs == 1)
        rt__group_destroy(&g->obj);
    rt__obj_release(&g->obj);
}

/* The index of world rank w in ranks[0..n), -1 if absent (a linear search). */
int rt__ranks_find(int n, const int *ranks, int w)
{
    for (int i = 0; i < n; i++)
        if (ranks[i] == w)
            return i;
    return -1;
}

/* An inverse map of world ranks: inv[w] = index of w in ranks, -1 if absent. NULL when out
 * of memory. */
int *rt__ranks_inverse(int n, const int *ranks)
{
    int ws = rt__g.world.size > 0 ? rt__g.world.size : 1;
    int *inv = malloc(sizeof *inv * (size_t)ws);
    if (!inv)
        return NULL;
    for (int w = 0; w < ws; w++)
        inv[w] = -1;
    for (int i = 0; i < n; i++)
        if (ranks[i] >= 0 && ranks[i] < ws)
            inv[ranks[i]] = i;
    return inv;
}

/* RT_IDENT, RT_SIMILAR or RT_UNEQUAL for two lists of world ranks. */
int rt__ranks_compare(int n1, const int *a, int n2, const int *b)
{
    if (n1 != n2)
        return RT_UNEQUAL;
    if (n1 == 0 || memcmp(a, b, sizeof *a * (size_t)n1) == 0)
        return RT_IDENT;
    int *inv = rt__ranks_inverse(n2, b);
    int res = RT_SIMILAR;
    for (int i = 0; i < n1 && res == RT_SIMILAR; i++) {
        int found = inv ? (a[i] >= 0 && a[i] < rt__g.world.size && inv[a[i]] >= 0) : rt__ranks_find(n2, b, a[i]) >= 0;
        if (!found)
            res = RT_UNEQUAL;
    }
    free(inv);
    return res;
}

/* 1 if world rank w is in group g (inv: g's inverse map, or NULL to search). */
static int member(const rt_group *g, const int *inv, int w)
{
    if (inv)
        return w >= 0 && w < rt__g.world.size && inv[w] >= 0;
    return rt__ranks_find(g->size, g->ranks, w) >= 0;
}

/* Hands a new group to the user, or raises RT_ERR_NO_MEM. */
static int give(rt_group *g, rt_group **newgroup, const char *fn)
{
    if (!g)
        return rt_raise(NULL, RT_ERR_NO_MEM, fn, "out of memory for a group");
    *newgroup = g;
    return RT_SUCCESS;
}

static int nomem(const char *fn)
{
    return rt_raise(NULL, RT_ERR_NO_MEM, fn, "out of memory");
}

/* ------------------------------------------------------------ queries */

/* MPI_Group_size. */
int rt_Group_size(rt_group *group, int *size)
{
    *size = group->size;
    return RT_SUCCESS;
}

/* MPI_Group_rank: this process's rank in group, RT_UNDEFINED if it is not a member. */
int rt_Group_rank(rt_group *group, int *rank)
{
    *rank = group->obj.builtin ? RT_UNDEFINED : group->rank;
    return RT_SUCCESS;
}

/* MPI_Group_translate_ranks: ranks2[i] = the rank in group2 of the process with rank
 * ranks1[i] in group1, RT_UNDEFINED if it is not in group2. MPI_PROC_NULL translates to
 * itself: the faces pass rank arrays unmapped today, so both the MPICH value (-1, the
 * runtime's RT_ANY_SOURCE) and the runtime's RT_PROC_NULL (-3, the standard ABI's) are
 * kept as they are. A rank outside group1: RT_ERR_RANK; n < 0: RT_ERR_ARG. */
int rt_Group_translate_ranks(rt_group *group1, int n, const int *ranks1, rt_group *group2, int *ranks2)
{
    if (n < 0)
        return RT_ERR(NULL, RT_ERR_ARG, "invalid argument 'n' = %d: must be >= 0", n);
    if (n == 0)
        return RT_SUCCESS;
    if (!ranks1)
        return rt__null_arg(NULL, __func__, "ranks1");
    if (!ranks2)
        return rt__null_arg(NULL, __func__, "ranks2");
    for (int i = 0; i < n; i++) {
        int r = ranks1[i];
        if (r != RT_PROC_NULL && r != RT_ANY_SOURCE && (r < 0 || r >= group1->size))
            return RT_ERR(NULL, RT_ERR_RANK, "invalid rank 'ranks1[%d]' = %s: group1 has %d processes", i,
                          rt__rank_text(r, (char[16]){0}, 16), group1->size);
    }
    int *inv = n > 8 ? rt__ranks_inverse(group2->size, group2->ranks) : NULL;
    for (int i = 0; i < n; i++) {
        int r = ranks1[i];
        if (r < 0) {
            ranks2[i] = r;
            continue;
        }
        int w = group1->ranks[r];
        int j = inv ? (w >= 0 && w < rt__g.world.size ? inv[w] : -1) : rt__ranks_find(group2->size, group2->ranks, w);
        ranks2[i] = j >= 0 ? j : RT_UNDEFINED;
    }
    free(inv);
    return RT_SUCCESS;
}

/* MPI_Group_compare: RT_IDENT, RT_SIMILAR or RT_UNEQUAL. */
int rt_Group_compare(rt_group *group1, rt_group *group2, int *result)
{
    *result = group1 == group2 ? RT_IDENT
                               : rt__ranks_compare(group1->size, group1->ranks, group2->size, group2->ranks);
    return RT_SUCCESS;
}

/* ------------------------------------------------------------ set operations */

enum setop { UNION, INTERSECTION, DIFFERENCE };

static int setop(rt_group *g1, rt_group *g2, rt_group **newgroup, enum setop op, const char *fn)
{
    int *out = malloc(sizeof *out * (size_t)(g1->size + g2->size + 1));
    int *inv = rt__ranks_inverse(g2->size, g2->ranks);
    if (!out || !inv) {
        free(out);
        free(inv);
        return nomem(fn);
    }
    int n = 0;
    for (int i = 0; i < g1->size; i++) {
        int in2 = member(g2, inv, g1->ranks[i]);
        if (op == UNION || (op == INTERSECTION) == (in2 != 0))
            out[n++] = g1->ranks[i];
    }
    if (op == UNION) {
        free(inv);
        inv = rt__ranks_inverse(g1->size, g1->ranks);
        if (!inv) {
            free(out);
            return nomem(fn);
        }
        for (int i = 0; i < g2->size; i++)
            if (!member(g1, inv, g2->ranks[i]))
                out[n++] = g2->ranks[i];
    }
    free(inv);
    return give(rt__group_derive(rt__group_derive(rt__group_adopt(n, out), g1), g2), newgroup, fn);
}

/* MPI_Group_union: group1's processes in order, then group2's not in group1. */
int rt_Group_union(rt_group *group1, rt_group *group2, rt_group **newgroup)
{
    return setop(group1, group2, newgroup, UNION, __func__);
}

/* MPI_Group_intersection: group1's processes that are in group2, in group1's order. */
int rt_Group_intersection(rt_group *group1, rt_group *group2, rt_group **newgroup)
{
    return setop(group1, group2, newgroup, INTERSECTION, __func__);
}

/* MPI_Group_difference: group1's processes that are not in group2, in group1's order. */
int rt_Group_difference(rt_group *group1, rt_group *group2, rt_group **newgroup)
{
    return setop(group1, group2, newgroup, DIFFERENCE, __func__);
}

/* ------------------------------------------------------------ inclusion and exclusion */

/* Checks that ranks[0..n) are distinct ranks of group; marks them in seen (size of
 * group). */
static int check_ranks(const rt_group *g, int n, const int *ranks, char *seen, const char *fn)
{
    if (n < 0 || n > g->size)
        return rt_raise(NULL, RT_ERR_ARG, fn, "invalid argument 'n' = %d: must be in 0..%d (the group's size)", n,
                        g->size);
    if (n > 0 && !ranks)
        return rt__null_arg(NULL, fn, "ranks");
    for (int i = 0; i < n; i++) {
        int r = ranks[i];
        if (r < 0 || r >= g->size)
            return rt_raise(NULL, RT_ERR_RANK, fn, "invalid rank 'ranks[%d]' = %s: the group has %d processes", i,
                            rt__rank_text(r, (char[16]){0}, 16), g->size);
        if (seen[r])
            return rt_raise(NULL, RT_ERR_RANK, fn, "invalid rank 'ranks[%d]' = %d: it appears twice", i, r);
        seen[r] = 1;
    }
    return RT_SUCCESS;
}

/* MPI_Group_incl: the processes ranks[0..n) of group, in that order (n = 0: MPI_GROUP_EMPTY).
 * Ranks out of range or repeated: RT_ERR_RANK; bad n: RT_ERR_ARG. */
int rt_Group_incl(rt_group *group, int n, const int *ranks, rt_group **newgroup)
{
    char *seen = calloc((size_t)group->size + 1, 1);
    int *out = malloc(sizeof *out * (size_t)(n > 0 ? n : 1));
    if (!seen || !out) {
        free(seen);
        free(out);
        return nomem(__func__);
    }
    int err = check_ranks(group, n, ranks, seen, __func__);
    free(seen);
    if (err) {
        free(out);
        return err;
    }
    for (int i = 0; i < n; i++)
        out[i] = group->ranks[ranks[i]];
    return give(rt__group_derive(rt__group_adopt(n, out), group), newgroup, __func__);
}

/* MPI_Group_excl: group without the processes ranks[0..n), in group's order. Ranks out of
 * range or repeated: RT_ERR_RANK; bad n: RT_ERR_ARG. */
int rt_Group_excl(rt_group *group, int n, const int *ranks, rt_group **newgroup)
{
    char *seen = calloc((size_t)group->size + 1, 1);
    int *out = malloc(sizeof *out * (size_t)(group->size + 1));
    if (!seen || !out) {
        free(seen);
        free(out);
        return nomem(__func__);
    }
    int err = check_ranks(group, n, ranks, seen, __func__);
    int k = 0;
    for (int i = 0; !err && i < group->size; i++)
        if (!seen[i])
            out[k++] = group->ranks[i];
    free(seen);
    if (err) {
        free(out);
        return err;
    }
    return give(rt__group_derive(rt__group_adopt(k, out), group), newgroup, __func__);
}

/* Expands n triplets (first, last, stride) of group into ranks (marked in seen, in order);
 * *k = how many. Bad triplets (stride 0, ranks out of range or repeated) and n < 0:
 * RT_ERR_ARG (MPICH's class). */
static int expand_ranges(const rt_group *g, int n, const int *ranges, char *seen, int *out, int *k,
                         const char *fn)
{
    *k = 0;
    if (n < 0)
        return rt_raise(NULL, RT_ERR_ARG, fn, "invalid argument 'n' = %d: must be >= 0", n);
    if (n > 0 && !ranges)
        return rt__null_arg(NULL, fn, "ranges");
    for (int i = 0; i < n; i++) {
        int first = ranges[3 * i], last = ranges[3 * i + 1], stride = ranges[3 * i + 2];
        if (stride == 0)
            return rt_raise(NULL, RT_ERR_ARG, fn, "invalid range 'ranges[%d]' = (%d, %d, 0): the stride is 0", i,
                            first, last);
        if (first < 0 || first >= g->size || last < 0 || last >= g->size)
            return rt_raise(NULL, RT_ERR_ARG, fn,
                            "invalid range 'ranges[%d]' = (%d, %d, %d): the group has %d processes", i, first, last,
                            stride, g->size);
        if ((stride > 0 && first > last) || (stride < 0 && first < last))
            continue; /* an empty range */
        for (long long r = first; stride > 0 ? r <= last : r >= last; r += stride) {
            if (seen[r])
                return rt_raise(NULL, RT_ERR_ARG, fn, "invalid range 'ranges[%d]': rank %lld appears twice", i, r);
            seen[r] = 1;
            if (out)
                out[(*k)++] = g->ranks[r];
        }
    }
    return RT_SUCCESS;
}

/* MPI_Group_range_incl: the processes of the n ranges (first, last, stride), in order. */
int rt_Group_range_incl(rt_group *group, int n, const int *ranges, rt_group **newgroup)
{
    char *seen = calloc((size_t)group->size + 1, 1);
    int *out = malloc(sizeof *out * (size_t)(group->size + 1));
    if (!seen || !out) {
        free(seen);
        free(out);
        return nomem(__func__);
    }
    int k, err = expand_ranges(group, n, ranges, seen, out, &k, __func__);
    free(seen);
    if (err) {
        free(out);
        return err;
    }
    return give(rt__group_derive(rt__group_adopt(k, out), group), newgroup, __func__);
}

/* MPI_Group_range_excl: group without the processes of the n ranges, in group's order. */
int rt_Group_range_excl(rt_group *group, int n, const int *ranges, rt_group **newgroup)
{
    char *seen = calloc((size_t)group->size + 1, 1);
    int *out = malloc(sizeof *out * (size_t)(group->size + 1));
    if (!seen || !out) {
        free(seen);
        free(out);
        return nomem(__func__);
    }
    int k, err = expand_ranges(group, n, ranges, seen, NULL, &k, __func__);
    k = 0;
    for (int i = 0; !err && i < group->size; i++)
        if (!seen[i])
            out[k++] = group->ranks[i];
    free(seen);
    if (err) {
        free(out);
        return err;
    }
    return give(rt__group_derive(rt__group_adopt(k, out), group), newgroup, __func__);
}

/* ------------------------------------------------------------ free */

/* MPI_Group_free: drops the user's reference; *group becomes MPI_GROUP_NULL. Freeing
 * MPI_GROUP_EMPTY is allowed (a no-op, as in MPICH). */
int rt_Group_free(rt_group **group)
{
    rt__group_release(*group);
    *group = NULL;
    return RT_SUCCESS;
}
