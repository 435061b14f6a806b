/* group.h — the group part's contract: groups made from lists of world ranks, and the
 * comparisons and searches of such lists. */
#ifndef RT_GROUP_H
#define RT_GROUP_H

#include "rt_internal.h"

/* A group: an ordered list of world ranks. MPI_GROUP_EMPTY is the builtin of size 0. */
struct rt_group {
    rt_obj obj;
    int size;
    int rank;        /* this process's rank in the group, RT_UNDEFINED if not a member */
    int *ranks;      /* ranks[i]: world rank of group rank i (owned; NULL when size is 0) */
    rt_session *session; /* the session it derives from (a reference), or NULL (world model) */
};

/* ------------------------------------------------------------ groups (group.c) */

/* A new group of the n world ranks in ranks, which it adopts (malloc'ed; freed on failure
 * and for n == 0, which gives MPI_GROUP_EMPTY). NULL when out of memory. */
rt_group *rt__group_adopt(int n, int *ranks);
/* g (a new group, or NULL) derives from the session `from` derives from, if any (then g holds
 * a reference to that session). Returns g. */
rt_group *rt__group_derive(rt_group *g, const rt_group *from);
/* Drops a reference to g (NULL and builtins: nothing); the last frees its rank list. */
void rt__group_release(rt_group *g);
/* Destructor of groups (frees the rank list; safe to call twice). */
void rt__group_destroy(rt_obj *o);
/* Compares two ordered lists of world ranks: RT_IDENT (same members, same order),
 * RT_SIMILAR (same members) or RT_UNEQUAL. */
int rt__ranks_compare(int n1, const int *a, int n2, const int *b);
/* The index of world rank w in ranks[0..n), or -1. */
int rt__ranks_find(int n, const int *ranks, int w);
/* A new array over the world ranks: inv[w] = the index of w in ranks[0..n), -1 if absent.
 * NULL when out of memory. */
int *rt__ranks_inverse(int n, const int *ranks);

#endif
