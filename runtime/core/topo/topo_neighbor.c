/* topo_neighbor.c — the neighbourhood collectives: MPI_Neighbor_allgather(v) and _alltoall(v,w), their
 * MPI_Ineighbor_* and *_init forms, over a Cartesian, graph or distributed-graph topology. */
#include "coll/coll.h"
#include "topo.h"

#include <stdlib.h>

enum { ALLGATHER, ALLGATHERV, ALLTOALL, ALLTOALLV, ALLTOALLW };

/* This process's in- and out-neighbours in comm's topology (which it has), in the standard's
 * order: Cartesian, per dimension the -1 then the +1 neighbour (RT_PROC_NULL past the edge of
 * a non-periodic one), in and out alike; graph, the node's neighbour list, in and out alike;
 * distributed graph, the sources and the destinations as given. Malloc'd lists (freed by
 * the caller); RT_ERR_NO_MEM (not raised) when out of memory. */
static int neighbors(rt_comm *comm, int *indeg, int **in, int *outdeg, int **out)
{
    const struct rt__topo *t = comm->topo;
    *in = *out = NULL;
    if (t->kind == RT_DIST_GRAPH) {
        *indeg = t->indeg;
        *outdeg = t->outdeg;
        *in = rt__ints_dup(t->in, t->indeg);
        *out = rt__ints_dup(t->out, t->outdeg);
    } else if (t->kind == RT_GRAPH) {
        int first = comm->rank ? t->index[comm->rank - 1] : 0;
        *indeg = *outdeg = t->index[comm->rank] - first;
        *in = rt__ints_dup(t->edges + first, *indeg);
        *out = rt__ints_dup(t->edges + first, *indeg);
    } else {
        *indeg = *outdeg = 2 * t->ndims;
        *in = malloc(sizeof **in * (size_t)(*indeg > 0 ? *indeg : 1));
        *out = malloc(sizeof **out * (size_t)(*indeg > 0 ? *indeg : 1));
        int stride = 1; /* row-major ranks: dimension d moves by the product of the later ones */
        for (int d = t->ndims - 1; d >= 0 && *in && *out; stride *= t->dims[d--]) {
            int n = t->dims[d], c = comm->rank / stride % n, p = t->periods[d];
            (*in)[2 * d] = c > 0 ? comm->rank - stride : p ? comm->rank + (n - 1) * stride : RT_PROC_NULL;
            (*in)[2 * d + 1] = c < n - 1 ? comm->rank + stride : p ? comm->rank - (n - 1) * stride : RT_PROC_NULL;
            (*out)[2 * d] = (*in)[2 * d];
            (*out)[2 * d + 1] = (*in)[2 * d + 1];
        }
    }
    if (*in && *out)
        return RT_SUCCESS;
    free(*in);
    free(*out);
    *in = *out = NULL;
    return RT_ERR_NO_MEM;
}

/* The out-neighbour whose send is posted k-th. Messages between two processes match in the
 * order they are posted, and a Cartesian neighbour on both sides (a periodic dimension of
 * size 1 or 2) must get in its -1 slot what this process sends in its +1 direction: so in
 * each dimension the +1 block goes first, matching the peer's receive posted first (-1). */
static int send_slot(const rt_comm *comm, int k)
{
    return comm->topo->kind == RT_CART ? k ^ 1 : k;
}

/* A non-NULL array arg is needed when n > 0 (raised as a null argument). */
static int need(rt_comm *comm, const void *p, int n, const char *fn, const char *arg)
{
    return p || n <= 0 ? RT_SUCCESS : rt__null_arg(&comm->obj, fn, arg);
}

/* Checks the arrays of operation op for indeg receive and outdeg send blocks; alltoallw: its
 * decoded types in *st and *rt (malloc'd). */
static int check_arrays(rt_comm *comm, const rt__coll_args *a, int op, int indeg, int outdeg, rt_type ***st,
                        rt_type ***rt, const char *fn)
{
    int err = RT_SUCCESS;
    if (op == ALLGATHERV || op == ALLTOALLV || op == ALLTOALLW)
        if ((err = need(comm, a->rcounts.p, indeg, fn, "recvcounts")) ||
            (err = need(comm, op == ALLTOALLW ? (const void *)a->rdispls_a : a->rdispls.p, indeg, fn, "rdispls")) ||
            (err = rt__coll_check_counts(comm, a->rcounts, indeg, fn, "recvcounts")))
            return err;
    if (op == ALLTOALLV || op == ALLTOALLW)
        if ((err = need(comm, a->scounts.p, outdeg, fn, "sendcounts")) ||
            (err = need(comm, op == ALLTOALLW ? (const void *)a->sdispls_a : a->sdispls.p, outdeg, fn, "sdispls")) ||
            (err = rt__coll_check_counts(comm, a->scounts, outdeg, fn, "sendcounts")))
            return err;
    if (op != ALLTOALLW)
        return RT_SUCCESS;
    if ((err = need(comm, a->rtypes.p, indeg, fn, "recvtypes")) ||
        (err = need(comm, a->stypes.p, outdeg, fn, "sendtypes")))
        return err;
    *rt = rt__coll_types(comm, a->rtypes, indeg, fn, "recvtypes", &err);
    if (!err)
        *st = rt__coll_types(comm, a->stypes, outdeg, fn, "sendtypes", &err);
    return err;
}

/* Receives block i (from in-neighbour i) or sends block j (to out-neighbour j) of op. */
static int transfer(rt__sched *s, const rt__coll_args *a, int op, int send, int i, int peer, rt_type **wtypes)
{
    rt_count c, off;
    rt_type *t = wtypes ? wtypes[i] : send ? a->stype : a->rtype;
    if (send && (op == ALLGATHER || op == ALLGATHERV))
        return rt__sched_send(s, a->sbuf, a->scount, a->stype, peer, 0);
    if (op == ALLGATHER || op == ALLTOALL) {
        c = send ? a->scount : a->rcount;
        off = (rt_count)i * c;
    } else {
        c = rt_counts_get(send ? a->scounts : a->rcounts, (size_t)i);
        off = op == ALLTOALLW ? (send ? a->sdispls_a : a->rdispls_a)[i]
                              : rt_counts_get(send ? a->sdispls : a->rdispls, (size_t)i);
    }
    const void *base = send ? a->sbuf : a->rbuf;
    void *at = op == ALLTOALLW ? (char *)base + off : rt__coll_at(base, off, t);
    return send ? rt__sched_send(s, at, c, t, peer, 0) : rt__sched_recv(s, at, c, t, peer, 0);
}

/* One round: block i received from in-neighbour i, block j sent to out-neighbour j (none for
 * RT_PROC_NULL), receives and sends each posted in list order (sends as send_slot says). */
static int build(rt__sched *s, rt_comm *comm, const rt__coll_args *a, const char *fn, int op)
{
    int indeg, outdeg, *in, *out, err = neighbors(comm, &indeg, &in, &outdeg, &out);
    if (err)
        return rt_raise(&comm->obj, err, fn, "out of memory for the neighbour lists");
    rt_type **st = NULL, **rt = NULL;
    err = check_arrays(comm, a, op, indeg, outdeg, &st, &rt, fn);
    int nomem = 0;
    for (int i = 0; i < indeg && !err && !nomem; i++)
        if (in[i] != RT_PROC_NULL)
            nomem = transfer(s, a, op, 0, i, in[i], rt);
    for (int k = 0; k < outdeg && !err && !nomem; k++) {
        int j = send_slot(comm, k);
        if (out[j] != RT_PROC_NULL)
            nomem = transfer(s, a, op, 1, j, out[j], st);
    }
    free(in);
    free(out);
    free(st);
    free(rt);
    if (!err && nomem)
        err = rt_raise(&comm->obj, RT_ERR_NO_MEM, fn, "out of memory for the collective's schedule");
    return err;
}

static int build_allgather(rt__sched *s, rt_comm *comm, const rt__coll_args *a, const char *fn)
{
    return build(s, comm, a, fn, ALLGATHER);
}

static int build_allgatherv(rt__sched *s, rt_comm *comm, const rt__coll_args *a, const char *fn)
{
    return build(s, comm, a, fn, ALLGATHERV);
}

static int build_alltoall(rt__sched *s, rt_comm *comm, const rt__coll_args *a, const char *fn)
{
    return build(s, comm, a, fn, ALLTOALL);
}

static int build_alltoallv(rt__sched *s, rt_comm *comm, const rt__coll_args *a, const char *fn)
{
    return build(s, comm, a, fn, ALLTOALLV);
}

static int build_alltoallw(rt__sched *s, rt_comm *comm, const rt__coll_args *a, const char *fn)
{
    return build(s, comm, a, fn, ALLTOALLW);
}

/* The neighbourhood collectives' own checks (a topology, no MPI_IN_PLACE: the collectives'
 * shared check only refuses it as recvbuf), then the shared ones and the run. */
static int neighbor_call(rt_comm *comm, rt__coll_build_fn b, const rt__coll_args *a, int mode, rt_request **req,
                         const char *fn)
{
    if (!comm->topo)
        return rt_raise(&comm->obj, RT_ERR_TOPOLOGY, fn,
                        "invalid communicator 'comm': it has no topology (a neighbourhood collective needs a "
                        "Cartesian, graph or distributed-graph one)");
    if (a->sbuf == RT_IN_PLACE)
        return rt__coll_bad_in_place(comm, fn, "sendbuf");
    return rt__coll_call(comm, b, a, mode, req, fn);
}

/* The entry points below: COLLECTIVE (coll.h) through neighbor_call. */
#undef COLLECTIVE_CALL
#define COLLECTIVE_CALL neighbor_call

COLLECTIVE(Neighbor_allgather, Ineighbor_allgather, P_ALLGATHER, build_allgather, A_ALLGATHER)
COLLECTIVE(Neighbor_alltoall, Ineighbor_alltoall, P_ALLGATHER, build_alltoall, A_ALLGATHER)

COLLECTIVE(Neighbor_allgatherv, Ineighbor_allgatherv, P_ALLGATHERV, build_allgatherv, A_ALLGATHERV)
COLLECTIVE(Neighbor_alltoallv, Ineighbor_alltoallv, P_ALLTOALLV, build_alltoallv, A_ALLTOALLV)

#define P_ALLTOALLW                                                                                        \
    const void *sendbuf, rt_counts sendcounts, const rt_aint *sdispls, rt_handle_array sendtypes,          \
        void *recvbuf, rt_counts recvcounts, const rt_aint *rdispls, rt_handle_array recvtypes, rt_comm *comm
COLLECTIVE(Neighbor_alltoallw, Ineighbor_alltoallw, P_ALLTOALLW, build_alltoallw, .sbuf = sendbuf,
         .scounts = sendcounts, .sdispls_a = sdispls, .stypes = sendtypes, .rbuf = recvbuf,
         .rcounts = recvcounts, .rdispls_a = rdispls, .rtypes = recvtypes)
