/* comm_idup.c — MPI_Comm_idup and MPI_Comm_idup_with_info: the new communicator exists when the
 * call returns; its context id is agreed by a nonblocking schedule, its attributes copied at completion. */
#include "coll/coll.h"
#include "attr/attr.h"
#include "info/info.h"
#include "comm.h"

#include <stdlib.h>

#define MASK_BYTES ((rt_count)sizeof(uint32_t) * RT__CTX_WORDS)

/* One pending idup (freed by its last step). */
struct idup {
    rt_comm *parent;                /* the communicator duplicated (its request holds it) */
    rt_comm *nc;                    /* the new communicator (holds a reference) */
    uint32_t share[RT__CTX_WORDS];  /* the ids this agreement claimed and offers */
    uint32_t *res;                  /* the AND of every member's share (schedule's buffer) */
};

/* The last step: the parent's attributes are copied onto the new communicator (their copy
 * callbacks run here, in the MPI call that completes the agreement), then the lowest id of
 * the AND becomes its context. A copy callback's error (or no memory) fails the request with
 * that code; the new communicator keeps its placeholder context, as when no id is common. */
static int idup_done(void *arg)
{
    struct idup *st = arg;
    rt_comm *nc = st->nc, *parent = st->parent;
    rt__ctx_release(st->share);
    int id = rt__ctx_lowest(st->res);
    free(st);
    int err = id < 0 ? RT_ERR_OTHER : rt__attrs_copy_quiet(&parent->obj, &nc->obj);
    if (!err) /* (id < 0 is the same at every member; a copy error may be local) */
        rt__comm_set_ctx(nc, id);
    rt__obj_release(&nc->obj);
    return err;
}

/* The schedule (a->rbuf: the struct idup): an AND-allreduce of the shares (each group reduces
 * to its leader; across an inter-communicator the leaders swap and combine), then idup_done. */
static int build(rt__sched *s, rt_comm *comm, const rt__coll_args *a, const char *fn)
{
    (void)fn;
    struct idup *st = a->rbuf;
    rt_type *byte = (rt_type *)rt_builtins[RT_B_BYTE];
    rt_op *band = (rt_op *)rt_builtins[RT_B_BAND];
    int leader_swap = comm->remote_size > 0 && comm->rank == 0;
    void *res = rt__sched_buffer(s, MASK_BYTES, byte);
    void *theirs = leader_swap ? rt__sched_buffer(s, MASK_BYTES, byte) : NULL;
    if (!res || (leader_swap && !theirs))
        return RT_ERR_NO_MEM;
    st->res = res;
    int err = rt__reduce_tree(s, comm, st->share, res, MASK_BYTES, byte, band, 0);
    if (!err && leader_swap) {
        err = rt__sched_send(s, res, MASK_BYTES, byte, 0, 1);
        err = err ? err : rt__sched_recv(s, theirs, MASK_BYTES, byte, 0, 1);
        err = err ? err : rt__sched_reduce(s, theirs, res, MASK_BYTES, byte, band);
        err = err ? err : rt__sched_round(s);
    }
    err = err ? err : rt__bcast_tree(s, comm->size, comm->rank, res, MASK_BYTES, byte, 0);
    err = err ? err : rt__sched_round(s);
    return err ? err : rt__sched_call(s, idup_done, st);
}

/* A new communicator over comm's group(s), without a context yet, with comm's topology and
 * the hints of info (copied); NULL when out of memory. */
static rt_comm *pending_copy(rt_comm *comm, const rt_info *info)
{
    int inter = comm->remote_size > 0, n = inter ? comm->remote_size : comm->size;
    int *w = malloc(sizeof *w * (size_t)(n > 0 ? n : 1));
    int *lw = inter ? malloc(sizeof *lw * (size_t)comm->size) : NULL;
    if (!w || (inter && !lw)) {
        free(w);
        free(lw);
        return NULL;
    }
    for (int r = 0; r < n; r++)
        w[r] = rt__comm_world_rank(comm, r);
    for (int r = 0; lw && r < comm->size; r++)
        lw[r] = rt__comm_local_world(comm, r);
    rt_comm *nc = rt__comm_new_pending(comm, comm->size, comm->rank, w, inter ? comm->remote_size : 0, lw);
    if (!nc)
        return NULL;
    int ok = 1;
    nc->topo = rt__topo_hooks.dup(comm->topo, &ok);
    if (ok && info && info->n > 0 && !(nc->info = rt__info_copy(info)))
        ok = 0;
    if (!ok) {
        rt__obj_release(&nc->obj);
        return NULL;
    }
    return nc;
}

/* Starts the duplication of comm (intra or inter) with the hints of info. */
static int idup(rt_comm *comm, const rt_info *info, rt_comm **newcomm, rt_request **request, const char *fn)
{
    struct idup *st = calloc(1, sizeof *st);
    rt_comm *nc = st ? pending_copy(comm, info) : NULL;
    if (!nc) {
        free(st);
        return rt_raise(&comm->obj, RT_ERR_NO_MEM, fn, "out of memory");
    }
    st->parent = comm;
    st->nc = nc;
    rt__obj_retain(&nc->obj); /* the schedule's reference; the user gets the first */
    /* every member claims with the same seed: the parent's context and the number of
     * collectives started on it, which no other pending agreement here has */
    rt__ctx_claim((uint64_t)(uint32_t)comm->ctx << 32 | comm->coll_seq, st->share);
    const rt__coll_args a = {.rbuf = st};
    int err = rt__coll_run(comm, build, &a, RT__COLL_NONBLOCKING, request, fn);
    if (err) { /* raised; the schedule never started */
        rt__ctx_release(st->share);
        rt__obj_release(&nc->obj);
        rt__obj_release(&nc->obj);
        free(st);
        return err;
    }
    *newcomm = nc; /* st may be gone: a one-process schedule completes at once */
    return RT_SUCCESS;
}

/* MPI_Comm_idup: starts duplicating comm (intra or inter: same group(s), topology, hints and
 * attributes) and returns at once: *newcomm is the new communicator, *request completes when
 * the members have agreed on its context id, progressing in any MPI call that progresses
 * (other communication, MPI_Test). Then comm's attributes are copied onto it (one copy
 * callback per attribute, in the MPI call that completes the agreement, with comm's
 * attributes as they are then). A copy callback's error fails the request with the
 * callback's code (MPI_Wait / MPI_Test raise it on comm; the copies already made went through
 * their delete callbacks) and *newcomm stays without a context, with no attributes: the
 * program may only free it (MPI_Comm_free); the other members' communicators work.
 * Until completion using *newcomm is erroneous (MPI-5.0);
 * Switchyard does not detect it: queries of its group answer already, but communication on
 * it travels on a placeholder context that no finished communicator has, so it never reaches
 * what the communicator becomes and may hang. The context ids the agreement may pick are
 * claimed at the start (rt__ctx_claim): no other agreement at this process, blocking or
 * not, picks them meanwhile. If the members' shares have no id in common (out of ids, or
 * very many agreements pending at once), the request fails with RT_ERR_OTHER and *newcomm
 * stays without a context (it may only be freed). */
int rt_Comm_idup(rt_comm *comm, rt_comm **newcomm, rt_request **request)
{
    return idup(comm, comm->info, newcomm, request, "MPI_Comm_idup");
}

/* MPI_Comm_idup_with_info: as MPI_Comm_idup, with the hints of info (copied) instead of
 * comm's. */
int rt_Comm_idup_with_info(rt_comm *comm, rt_info *info, rt_comm **newcomm, rt_request **request)
{
    return idup(comm, info, newcomm, request, "MPI_Comm_idup_with_info");
}
