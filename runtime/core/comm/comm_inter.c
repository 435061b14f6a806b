/* comm_inter.c — inter-communicators: MPI_Intercomm_create (leaders over a peer communicator),
 * MPI_Intercomm_merge, remote size, and dup / split / create of inter-communicators. */
#include "group/group.h"
#include "coll/coll.h"
#include "comm.h"

#include <stdlib.h>

/* ------------------------------------------------------------ leaders */

/* The leaders swap mine for theirs; every local process gets theirs (errors too). */
int rt__inter_swap(rt_comm *inter, const void *mine, size_t mbytes, void *theirs, size_t tbytes)
{
    rt__team t = rt__team_of(inter);
    int err = RT_SUCCESS;
    if (inter->rank == 0)
        err = rt__coll_exchange(inter->coll, 0, RT__TAG_INTER, mine, mbytes, theirs, tbytes);
    int e2 = rt__coll_bcast(&t, &err, sizeof err, 0);
    if (e2)
        return e2;
    return err ? err : rt__coll_bcast(&t, theirs, tbytes, 0);
}

/* The world ranks of an inter-communicator's local (remote = 0) or remote group (a new
 * array); NULL when out of memory. */
static int *ranks_of(const rt_comm *c, int remote)
{
    int n = remote ? c->remote_size : c->size;
    int *w = malloc(sizeof *w * (size_t)(n > 0 ? n : 1));
    for (int r = 0; w && r < n; r++)
        w[r] = remote ? rt__comm_world_rank(c, r) : rt__comm_local_world(c, r);
    return w;
}

/* MPI_Comm_dup of an inter-communicator: a new context agreed by both groups. */
int rt__inter_dup(rt_comm *comm, rt_comm **newcomm)
{
    int id, err = rt__ctx_agree(comm, &id);
    if (err)
        return err;
    if (id < 0)
        return RT__NO_IDS;
    int *lw = ranks_of(comm, 0), *rw = ranks_of(comm, 1);
    *newcomm = lw && rw ? rt__comm_new(comm, id, comm->size, comm->rank, rw, comm->remote_size, lw) : NULL;
    if (!*newcomm) {
        free(lw);
        free(rw);
        return RT_ERR_NO_MEM;
    }
    return RT_SUCCESS;
}

/* MPI_Comm_split of an inter-communicator: each color's processes of both groups; a
 * color missing on either side gives MPI_COMM_NULL. */
int rt__inter_split(rt_comm *comm, int color, int key, rt_comm **newcomm)
{
    *newcomm = NULL;
    int id, err = rt__ctx_agree(comm, &id);
    if (err)
        return err;
    int mine[2] = {color, key};
    int *lck = malloc(sizeof *lck * 2 * (size_t)comm->size), *rck = malloc(sizeof *rck * 2 * (size_t)comm->remote_size);
    int *lw = ranks_of(comm, 0), *rw = ranks_of(comm, 1);
    int *lnew = NULL, *rnew = NULL, ln = 0, rn = 0, pos = -1, dummy;
    rt__team t = rt__team_of(comm);
    if (!lck || !rck || !lw || !rw)
        err = RT_ERR_NO_MEM;
    /* every process takes part in the exchanges before any may fail alone */
    if (!err)
        err = rt__coll_allgather(&t, mine, lck, sizeof mine);
    if (!err)
        err = rt__inter_swap(comm, lck, sizeof *lck * 2 * (size_t)comm->size, rck,
                             sizeof *rck * 2 * (size_t)comm->remote_size);
    if (!err && id < 0)
        err = RT__NO_IDS;
    if (!err && color != RT_UNDEFINED) {
        err = rt__split_members(lck, comm->size, color, lw, comm->rank, &lnew, &ln, &pos);
        if (!err)
            err = rt__split_members(rck, comm->remote_size, color, rw, -1, &rnew, &rn, &dummy);
    }
    if (!err && ln > 0 && rn > 0) {
        *newcomm = rt__comm_new(comm, id, ln, pos, rnew, rn, lnew);
        lnew = rnew = NULL; /* adopted, or freed on failure */
        if (!*newcomm)
            err = RT_ERR_NO_MEM;
    }
    free(lck);
    free(rck);
    free(lw);
    free(rw);
    free(lnew);
    free(rnew);
    return err;
}

/* MPI_Comm_create of an inter-communicator: group (of the local group) against the group
 * the other side gives; MPI_COMM_NULL outside group or when either group is empty. */
int rt__inter_create(rt_comm *comm, rt_group *group, rt_comm **newcomm)
{
    *newcomm = NULL;
    int id, err = rt__ctx_agree(comm, &id);
    if (err)
        return err;
    int n = group->size, rn = 0;
    if ((err = rt__inter_swap(comm, &n, sizeof n, &rn, sizeof rn)) != RT_SUCCESS)
        return err;
    int *rw = malloc(sizeof *rw * (size_t)(rn > 0 ? rn : 1)), *lw = malloc(sizeof *lw * (size_t)(n > 0 ? n : 1));
    if (!rw || !lw) {
        free(rw);
        free(lw);
        return RT_ERR_NO_MEM;
    }
    if (n > 0)
        memcpy(lw, group->ranks, sizeof *lw * (size_t)n);
    err = rt__inter_swap(comm, lw, sizeof *lw * (size_t)n, rw, sizeof *rw * (size_t)rn);
    if (!err && id < 0)
        err = RT__NO_IDS;
    if (err || group->obj.builtin || group->rank == RT_UNDEFINED || rn == 0) {
        free(rw);
        free(lw);
        return err;
    }
    *newcomm = rt__comm_new(comm, id, n, group->rank, rw, rn, lw);
    return *newcomm ? RT_SUCCESS : RT_ERR_NO_MEM;
}

/* ------------------------------------------------------------ entry points */

/* What the leaders of Intercomm_create swap first: group size and free context ids. */
struct hello {
    int size;
    uint32_t mask[RT__CTX_WORDS];
};

/* What the local leader of Intercomm_create then tells its group. */
struct verdict {
    int err;   /* 0, or the error class every local process raises */
    int id;    /* the agreed context id, -1: none is free */
    int rsize; /* the remote group's size */
};

/* The local leader's part of Intercomm_create: checks its arguments, swaps the groups
 * and free ids with the remote leader; fills v and *remote (new array). */
static void leader(rt_comm *local, const uint32_t *mask, rt_comm *peer, int remote_leader, int tag,
                   struct verdict *v, int **remote)
{
    if (!peer) { /* MPI_COMM_NULL: the face lets it through, as it matters at the leader only */
        v->err = RT_ERR_COMM;
        return;
    }
    int pn = peer->remote_size > 0 ? peer->remote_size : peer->size;
    if (remote_leader < 0 || remote_leader >= pn) {
        v->err = RT_ERR_RANK;
        return;
    }
    struct hello mine = {.size = local->size}, theirs;
    memcpy(mine.mask, mask, sizeof mine.mask);
    int *lw = ranks_of(local, 0);
    if (!lw) {
        v->err = RT_ERR_NO_MEM;
        return;
    }
    v->err = rt__coll_exchange(peer->coll, remote_leader, tag, &mine, sizeof mine, &theirs, sizeof theirs);
    int *rw = NULL;
    if (!v->err && theirs.size > 0 && !(rw = malloc(sizeof *rw * (size_t)theirs.size)))
        v->err = RT_ERR_NO_MEM;
    if (!v->err)
        v->err = rt__coll_exchange(peer->coll, remote_leader, tag, lw, sizeof *lw * (size_t)local->size, rw,
                                   sizeof *rw * (size_t)theirs.size);
    if (!v->err && theirs.size <= 0)
        v->err = RT_ERR_INTERN;
    for (int i = 0; !v->err && i < theirs.size; i++)
        if (rt__ranks_find(local->size, lw, rw[i]) >= 0)
            v->err = RT_ERR_ARG; /* both leaders see it */
    free(lw);
    if (v->err) {
        free(rw);
        return;
    }
    rt__op_band(mine.mask, theirs.mask, sizeof mine.mask);
    v->id = rt__ctx_lowest(mine.mask);
    v->rsize = theirs.size;
    *remote = rw;
}

/* MPI_Intercomm_create: local_comm's group and the remote group (its leader is
 * remote_leader in peer_comm) become an inter-communicator. Collective over both groups;
 * the leaders talk over peer_comm's collective context with `tag`; peer_comm and
 * remote_leader matter at the local leader only. local_comm an inter-communicator, or
 * peer_comm MPI_COMM_NULL at the local leader (the whole local group is told): RT_ERR_COMM; leaders out of range: RT_ERR_RANK; overlapping groups: RT_ERR_ARG. */
int rt_Intercomm_create(rt_comm *local_comm, int local_leader, rt_comm *peer_comm, int remote_leader, int tag,
                        rt_comm **newintercomm)
{
    rt_comm *lc = local_comm;
    int err;
    if ((err = rt__comm_check_intra(lc, __func__, "local_comm")) != RT_SUCCESS)
        return err;
    if (local_leader < 0 || local_leader >= lc->size)
        return RT_ERR(lc, RT_ERR_RANK, "invalid rank 'local_leader' = %s: local_comm has %d processes",
                      rt__rank_text(local_leader, (char[16]){0}, 16), lc->size);
    uint32_t mask[RT__CTX_WORDS], claim[RT__CTX_WORDS];
    rt__team t = rt__team_of(lc);
    rt__ctx_offer((uint64_t)(uint32_t)lc->ctx << 32 | lc->coll_seq, mask, claim);
    if ((err = rt__coll_allreduce(&t, mask, sizeof mask, rt__op_band)) != RT_SUCCESS) {
        rt__ctx_settle(claim, -1);
        return RT_ERR(lc, err, "the local group could not agree (internal communication failed: %s)",
                rt__class_string(err));
    }
    struct verdict v = {0, -1, 0};
    int *rw = NULL;
    if (lc->rank == local_leader)
        leader(lc, mask, peer_comm, remote_leader, tag, &v, &rw);
    err = rt__coll_bcast(&t, &v, sizeof v, local_leader);
    rt__ctx_settle(claim, err || v.err ? -1 : v.id);
    if (err) {
        free(rw);
        return RT_ERR(lc, err, "the local group could not agree (internal communication failed: %s)",
                rt__class_string(err));
    }
    if (!v.err && lc->rank != local_leader && !(rw = malloc(sizeof *rw * (size_t)v.rsize)))
        v.err = RT_ERR_NO_MEM; /* (the bcast below then fails for the others: a broken job) */
    if (!v.err && (err = rt__coll_bcast(&t, rw, sizeof *rw * (size_t)v.rsize, local_leader)) != RT_SUCCESS)
        v.err = err;
    if (v.err) {
        free(rw);
        switch (v.err) {
        case RT_ERR_RANK:
            return RT_ERR(lc, RT_ERR_RANK, "invalid rank 'remote_leader' = %s at the local leader",
                          rt__rank_text(remote_leader, (char[16]){0}, 16));
        case RT_ERR_ARG:
            return RT_ERR(lc, RT_ERR_ARG, "the local and remote groups overlap");
        case RT_ERR_COMM:
            return RT_ERR(lc, RT_ERR_COMM, "invalid communicator 'peer_comm' = MPI_COMM_NULL at the local leader");
        default:
            return RT_ERR(lc, v.err, "the leaders could not agree (internal communication failed: %s)",
                    rt__class_string(v.err));
        }
    }
    if (v.id < 0) {
        free(rw);
        return RT_ERR(lc, RT_ERR_OTHER, "out of context ids: all %d communicators this process may share are in use",
                      RT__CTX_IDS - 2);
    }
    int *lw = ranks_of(lc, 0);
    *newintercomm = lw ? rt__comm_new(lc, v.id, lc->size, lc->rank, rw, v.rsize, lw) : NULL;
    if (!lw)
        free(rw);
    return *newintercomm ? RT_SUCCESS : RT_ERR(lc, RT_ERR_NO_MEM, "out of memory");
}

/* MPI_Intercomm_merge: an intra-communicator of both groups; the group that passed
 * high = 0 comes first (both the same: the group whose leader has the lower world rank).
 * Intra-communicators: RT_ERR_COMM. */
int rt_Intercomm_merge(rt_comm *intercomm, int high, rt_comm **newintracomm)
{
    rt_comm *c = intercomm;
    if (c->remote_size == 0)
        return RT_ERR(c, RT_ERR_COMM, "invalid communicator 'intercomm': not an inter-communicator");
    int id, err = rt__ctx_agree(c, &id), rhigh = 0;
    if (!err)
        err = rt__inter_swap(c, &high, sizeof high, &rhigh, sizeof rhigh);
    if (err)
        return RT_ERR(c, err, "the groups could not agree (internal communication failed: %s)", rt__class_string(err));
    if (id < 0)
        return RT_ERR(c, RT_ERR_OTHER, "out of context ids: all %d communicators this process may share are in use",
                      RT__CTX_IDS - 2);
    int first = high != rhigh ? !high : rt__comm_local_world(c, 0) < rt__comm_world_rank(c, 0);
    int n = c->size + c->remote_size, *w = malloc(sizeof *w * (size_t)n);
    if (!w)
        return RT_ERR(c, RT_ERR_NO_MEM, "out of memory");
    int lo = first ? 0 : c->remote_size, ro = first ? c->size : 0;
    for (int r = 0; r < c->size; r++)
        w[lo + r] = rt__comm_local_world(c, r);
    for (int r = 0; r < c->remote_size; r++)
        w[ro + r] = rt__comm_world_rank(c, r);
    *newintracomm = rt__comm_new(c, id, n, lo + c->rank, w, 0, NULL);
    return *newintracomm ? RT_SUCCESS : RT_ERR(c, RT_ERR_NO_MEM, "out of memory");
}

/* MPI_Comm_remote_size: the remote group's size. Intra-communicators: RT_ERR_COMM. */
int rt_Comm_remote_size(rt_comm *comm, int *size)
{
    if (comm->remote_size == 0)
        return RT_ERR(comm, RT_ERR_COMM, "invalid communicator 'comm': not an inter-communicator");
    *size = comm->remote_size;
    return RT_SUCCESS;
}
