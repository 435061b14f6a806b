/* coll_inter.c — collectives on inter-communicators: data flows between the two groups; rooted
 * ones name the root MPI_ROOT in its group (MPI_PROC_NULL for the others there). */
#include "coll.h"
#include "type/type.h"

#include <stdlib.h>

/* Leaders (local rank 0 of each group) swap sbuf into rbuf; NULL sbuf: a 0-byte signal. */
static int leaders_swap(rt__sched *s, rt_comm *comm, const void *sbuf, void *rbuf, rt_count count, rt_type *type)
{
    int err = RT_SUCCESS;
    if (comm->rank == 0) {
        err = rt__sched_send(s, sbuf, count, type, 0, 1);
        err = err ? err : rt__sched_recv(s, rbuf, count, type, 0, 1);
    }
    return err ? err : rt__sched_round(s);
}

/* Each group synchronises internally, the leaders exchange a signal, and each leader
 * releases its group. */
static int barrier_inter(rt__sched *s, rt_comm *comm, const rt__coll_args *a, const char *fn)
{
    rt_type *byte = (rt_type *)rt_builtins[RT_B_BYTE];
    int err = rt__build_barrier(s, comm, a, fn);
    err = err ? err : rt__sched_round(s);
    err = err ? err : leaders_swap(s, comm, NULL, NULL, 0, byte);
    return err ? err : rt__bcast_tree(s, comm->size, comm->rank, NULL, 0, byte, 0);
}

static int bcast_inter(rt__sched *s, rt_comm *comm, const rt__coll_args *a, const char *fn)
{
    (void)fn;
    if (a->root == RT_ROOT)
        return rt__sched_send(s, a->rbuf, a->rcount, a->rtype, 0, 1);
    if (a->root == RT_PROC_NULL)
        return RT_SUCCESS;
    int err = comm->rank == 0 ? rt__sched_recv(s, a->rbuf, a->rcount, a->rtype, a->root, 1) : RT_SUCCESS;
    err = err ? err : rt__sched_round(s);
    return err ? err : rt__bcast_tree(s, comm->size, comm->rank, a->rbuf, a->rcount, a->rtype, 0);
}

/* Block i (of the remote group) of a gather's receive buffer or a scatter's send buffer. */
static void root_block(const rt__coll_args *a, int gather, int i, void **at, rt_count *cnt)
{
    rt_counts counts = gather ? a->rcounts : a->scounts, displs = gather ? a->rdispls : a->sdispls;
    rt_count c1 = gather ? a->rcount : a->scount;
    rt_type *t = gather ? a->rtype : a->stype;
    void *base = gather ? a->rbuf : (void *)a->sbuf;
    *cnt = counts.p ? rt_counts_get(counts, (size_t)i) : c1;
    *at = rt__coll_at(base, counts.p ? rt_counts_get(displs, (size_t)i) : (rt_count)i * c1, t);
}

/* Gather (gather = 1) or scatter: the root exchanges one block with every remote rank. */
static int rooted_inter(rt__sched *s, rt_comm *comm, const rt__coll_args *a, const char *fn, int gather)
{
    int m = comm->remote_size, err = RT_SUCCESS;
    if (a->root == RT_PROC_NULL)
        return RT_SUCCESS;
    if (a->root != RT_ROOT)
        return gather ? rt__sched_send(s, a->sbuf, a->scount, a->stype, a->root, 1)
                      : rt__sched_recv(s, a->rbuf, a->rcount, a->rtype, a->root, 1);
    rt_counts counts = gather ? a->rcounts : a->scounts;
    if (counts.p && (err = rt__coll_check_counts(comm, counts, m, fn, gather ? "recvcounts" : "sendcounts")))
        return err;
    for (int i = 0; i < m && !err; i++) {
        void *at;
        rt_count c;
        root_block(a, gather, i, &at, &c);
        err = gather ? rt__sched_recv(s, at, c, a->rtype, i, 1) : rt__sched_send(s, at, c, a->stype, i, 1);
    }
    return err;
}

static int gather_inter(rt__sched *s, rt_comm *comm, const rt__coll_args *a, const char *fn)
{
    return rooted_inter(s, comm, a, fn, 1);
}

static int scatter_inter(rt__sched *s, rt_comm *comm, const rt__coll_args *a, const char *fn)
{
    return rooted_inter(s, comm, a, fn, 0);
}

/* Everyone sends its block to every remote rank and receives theirs, at once. */
static int allgather_inter(rt__sched *s, rt_comm *comm, const rt__coll_args *a, const char *fn)
{
    int m = comm->remote_size, err = RT_SUCCESS;
    if (a->rcounts.p && (err = rt__coll_check_counts(comm, a->rcounts, m, fn, "recvcounts")))
        return err;
    for (int k = 0; k < m && !err; k++) {
        int j = (comm->rank + k) % m;
        rt_count c = a->rcounts.p ? rt_counts_get(a->rcounts, (size_t)j) : a->rcount;
        rt_count o = a->rcounts.p ? rt_counts_get(a->rdispls, (size_t)j) : (rt_count)j * a->rcount;
        err = rt__sched_send(s, a->sbuf, a->scount, a->stype, j, 1);
        err = err ? err : rt__sched_recv(s, rt__coll_at(a->rbuf, o, a->rtype), c, a->rtype, j, 1);
    }
    return err;
}

/* This group's operands reduced to its leader, into a scratch buffer there (*out). */
static int reduce_to_leader(rt__sched *s, rt_comm *comm, const rt__coll_args *a, rt_count count, void **out)
{
    *out = comm->rank == 0 ? rt__sched_buffer(s, count, a->stype) : NULL;
    if (comm->rank == 0 && !*out)
        return RT_ERR_NO_MEM;
    int err = rt__reduce_tree(s, comm, a->sbuf, *out, count, a->stype, a->op, 0);
    return err ? err : rt__sched_round(s);
}

/* The root receives the reduction of the remote group's operands, made by its leader. */
static int reduce_inter(rt__sched *s, rt_comm *comm, const rt__coll_args *a, const char *fn)
{
    int err = rt__op_check(a->op, a->stype, (rt_obj *)comm, fn);
    if (err || a->root == RT_PROC_NULL)
        return err;
    if (a->root == RT_ROOT)
        return rt__sched_recv(s, a->rbuf, a->scount, a->stype, 0, 1);
    void *part;
    err = reduce_to_leader(s, comm, a, a->scount, &part);
    if (!err && comm->rank == 0)
        err = rt__sched_send(s, part, a->scount, a->stype, a->root, 1);
    return err;
}

/* Each group reduces its operands to its leader; the leaders swap the results and
 * broadcast what they got in their group. */
static int allreduce_inter(rt__sched *s, rt_comm *comm, const rt__coll_args *a, const char *fn)
{
    int err = rt__op_check(a->op, a->stype, (rt_obj *)comm, fn);
    void *part;
    err = err ? err : reduce_to_leader(s, comm, a, a->scount, &part);
    err = err ? err : leaders_swap(s, comm, part, a->rbuf, a->scount, a->stype);
    return err ? err : rt__bcast_tree(s, comm->size, comm->rank, a->rbuf, a->scount, a->stype, 0);
}

/* Each group's whole vector is reduced to its leader; the leaders swap them, and each
 * scatters the remote group's result over its group by its own counts. */
static int reduce_scatter_inter(rt__sched *s, rt_comm *comm, const rt__coll_args *a, const char *fn)
{
    int n = comm->size, me = comm->rank, v = a->rcounts.p != NULL;
    int err = rt__op_check(a->op, a->stype, (rt_obj *)comm, fn);
    if (!err && v)
        err = rt__coll_check_counts(comm, a->rcounts, n, fn, "recvcounts");
    if (err)
        return err;
    rt_count total = 0;
    for (int i = 0; i < n; i++)
        total += v ? rt_counts_get(a->rcounts, (size_t)i) : a->rcount;
    void *part, *got = me == 0 ? rt__sched_buffer(s, total, a->stype) : NULL;
    if (me == 0 && !got)
        return RT_ERR_NO_MEM;
    err = reduce_to_leader(s, comm, a, total, &part);
    err = err ? err : leaders_swap(s, comm, part, got, total, a->stype);
    rt_count off = 0;
    for (int i = 0; i < n && !err; i++) {
        rt_count c = v ? rt_counts_get(a->rcounts, (size_t)i) : a->rcount;
        if (me == 0 && i == 0)
            err = rt__sched_copy(s, got, c, a->stype, a->rbuf, c, a->stype);
        else if (me == 0)
            err = rt__sched_send(s, rt__coll_at(got, off, a->stype), c, a->stype, i, 0);
        else if (i == me)
            err = rt__sched_recv(s, a->rbuf, c, a->stype, 0, 0);
        off += c;
    }
    return err;
}

static int scan_inter(rt__sched *s, rt_comm *comm, const rt__coll_args *a, const char *fn)
{
    (void)s, (void)a;
    return rt_raise((rt_obj *)comm, RT_ERR_COMM, fn, "not defined on an inter-communicator");
}

rt__coll_build_fn rt__coll_inter_builder(rt__coll_build_fn b)
{
    static const struct {
        rt__coll_build_fn intra, inter;
    } map[] = {
        {rt__build_barrier, barrier_inter},   {rt__build_bcast, bcast_inter},
        {rt__build_gather, gather_inter},     {rt__build_scatter, scatter_inter},
        {rt__build_allgather, allgather_inter}, {rt__build_alltoall, rt__build_alltoall},
        {rt__build_reduce, reduce_inter},     {rt__build_allreduce, allreduce_inter},
        {rt__build_reduce_scatter, reduce_scatter_inter},
        {rt__build_scan, scan_inter},         {rt__build_exscan, scan_inter},
    };
    for (size_t i = 0; i < sizeof map / sizeof *map; i++)
        if (map[i].intra == b)
            return map[i].inter;
    return NULL;
}
