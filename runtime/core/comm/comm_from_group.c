/* comm_from_group.c — MPI_Comm_create_from_group and MPI_Intercomm_create_from_groups (MPI-4)
 * in the world model: every member is in MPI_COMM_WORLD, so the members agree on a context
 * id over WORLD's internal context, with a tag derived from the string tag. */
#include "coll/coll.h"
#include "group/group.h"
#include "comm.h"
#include "p2p/p2p.h"

#include <stdlib.h>

/* A non-negative tag from stringtag (FNV-1a), so that unrelated creations do not mix. */
static int tag_of(const char *stringtag)
{
    uint32_t h = 2166136261u;
    for (const unsigned char *p = (const unsigned char *)stringtag; *p; p++)
        h = (h ^ *p) * 16777619u;
    return (int)(h % (uint32_t)rt_tag_ub());
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* Agrees on a context id among the world ranks `members` (n, sorted, this process among
 * them). *id = -1 when none is free everywhere. */
static int agree(const int *members, int n, int tag, int *id)
{
    rt_comm *world = (rt_comm *)rt_builtins[RT_B_COMM_WORLD];
    int me = -1;
    for (int i = 0; i < n; i++)
        if (members[i] == world->rank)
            me = i;
    rt__team t = {.cc = world->coll, .n = n, .me = me, .rank = members, .tag = tag};
    uint32_t mask[RT__CTX_WORDS], claim[RT__CTX_WORDS];
    rt__ctx_offer((uint64_t)(uint32_t)tag, mask, claim);
    int err = rt__coll_allreduce(&t, mask, sizeof mask, rt__op_band);
    *id = err ? -1 : rt__ctx_lowest(mask);
    rt__ctx_settle(claim, *id);
    return err;
}

/* A copy of n ints (n may be 0). */
static int *copy_ints(const int *a, int n)
{
    int *c = malloc(sizeof *c * (size_t)(n > 0 ? n : 1));
    if (c && n > 0)
        memcpy(c, a, sizeof *c * (size_t)n);
    return c;
}

/* Gives the new communicator the requested error handler. */
static void set_errhandler(rt_comm *c, rt_errhandler *eh)
{
    if (eh)
        rt__errhandler_replace(&c->errh, eh);
}

/* MPI_Comm_create_from_group: the members of group (all of them call it) build a new
 * intra-communicator; errhandler becomes its error handler. */
int rt_Comm_create_from_group(rt_group *group, const char *stringtag, rt_info *info, rt_errhandler *errhandler,
                              rt_comm **newcomm)
{
    (void)info;
    *newcomm = NULL;
    if (group->rank == RT_UNDEFINED || group->size == 0)
        return RT_ERR(NULL, RT_ERR_GROUP, "the calling process is not a member of 'group'");
    int *members = copy_ints(group->ranks, group->size), *w = copy_ints(group->ranks, group->size);
    if (!members || !w) {
        free(members);
        free(w);
        return RT_ERR(NULL, RT_ERR_NO_MEM, "out of memory");
    }
    qsort(members, (size_t)group->size, sizeof *members, cmp_int);
    int id, err = agree(members, group->size, tag_of(stringtag), &id);
    free(members);
    if (err || id < 0) {
        free(w);
        return err ? RT_ERR(NULL, err, "cannot agree on a context id with the group's processes")
                   : RT_ERR(NULL, RT_ERR_OTHER, "out of context ids");
    }
    *newcomm = rt__comm_new((rt_comm *)rt_builtins[RT_B_COMM_WORLD], id, group->size, group->rank, w, 0, NULL);
    if (!*newcomm || rt__bsend_comm_set_session(*newcomm, group->session)) {
        if (*newcomm)
            rt_Comm_free(newcomm);
        return RT_ERR(NULL, RT_ERR_NO_MEM, "out of memory");
    }
    set_errhandler(*newcomm, errhandler);
    return RT_SUCCESS;
}

/* MPI_Intercomm_create_from_groups: the members of two disjoint groups build an
 * inter-communicator between them (the leaders' ranks are checked; every member takes part
 * in agreeing on the context id, so no leader exchange is needed). */
int rt_Intercomm_create_from_groups(rt_group *local_group, int local_leader, rt_group *remote_group,
                                    int remote_leader, const char *stringtag, rt_info *info,
                                    rt_errhandler *errhandler, rt_comm **newintercomm)
{
    (void)info;
    *newintercomm = NULL;
    if (local_group->rank == RT_UNDEFINED)
        return RT_ERR(NULL, RT_ERR_GROUP, "the calling process is not a member of 'local_group'");
    if (local_leader < 0 || local_leader >= local_group->size)
        return RT_ERR(NULL, RT_ERR_RANK, "invalid rank 'local_leader' = %s: the group has %d processes",
                      rt__rank_text(local_leader, (char[16]){0}, 16), local_group->size);
    if (remote_leader < 0 || remote_leader >= remote_group->size)
        return RT_ERR(NULL, RT_ERR_RANK, "invalid rank 'remote_leader' = %s: the group has %d processes",
                      rt__rank_text(remote_leader, (char[16]){0}, 16), remote_group->size);
    int nl = local_group->size, nr = remote_group->size, n = nl + nr;
    int *members = malloc(sizeof *members * (size_t)n);
    if (!members)
        return RT_ERR(NULL, RT_ERR_NO_MEM, "out of memory");
    memcpy(members, local_group->ranks, sizeof *members * (size_t)nl);
    memcpy(members + nl, remote_group->ranks, sizeof *members * (size_t)nr);
    qsort(members, (size_t)n, sizeof *members, cmp_int);
    for (int i = 1; i < n; i++)
        if (members[i] == members[i - 1]) {
            int both = members[i];
            free(members);
            return RT_ERR(NULL, RT_ERR_ARG, "the local and remote groups overlap (world rank %d is in both)", both);
        }
    int id, err = agree(members, n, tag_of(stringtag), &id);
    free(members);
    if (err || id < 0)
        return err ? RT_ERR(NULL, err, "cannot agree on a context id with the groups' processes")
                   : RT_ERR(NULL, RT_ERR_OTHER, "out of context ids");
    int *remote = copy_ints(remote_group->ranks, nr), *local = copy_ints(local_group->ranks, nl);
    if (!remote || !local) {
        free(remote);
        free(local);
        return RT_ERR(NULL, RT_ERR_NO_MEM, "out of memory");
    }
    *newintercomm = rt__comm_new((rt_comm *)rt_builtins[RT_B_COMM_WORLD], id, nl, local_group->rank, remote, nr,
                                 local);
    if (!*newintercomm || rt__bsend_comm_set_session(*newintercomm, local_group->session)) {
        if (*newintercomm)
            rt_Comm_free(newintercomm);
        return RT_ERR(NULL, RT_ERR_NO_MEM, "out of memory");
    }
    set_errhandler(*newintercomm, errhandler);
    return RT_SUCCESS;
}
