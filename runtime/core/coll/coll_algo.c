/* coll_algo.c — the collective algorithms on intra-communicators, each written as a schedule
 * builder: dissemination barrier, binomial trees, recursive doubling, rings and direct exchanges. */
#include "coll.h"
#include "type/type.h"

#include <stdlib.h>

/* Below this many bytes per process an all-gather sends everything at once, else a ring. */
#define ALLGATHER_DIRECT_MAX 65536

void *rt__coll_at(const void *buf, rt_count i, const rt_type *t)
{
    return (char *)buf + i * t->extent;
}

/* ------------------------------------------------------------ barrier, broadcast */

/* Dissemination: in round k everyone signals rank + 2^k and waits for rank - 2^k. */
int rt__build_barrier(rt__sched *s, rt_comm *comm, const rt__coll_args *a, const char *fn)
{
    (void)a, (void)fn;
    rt_type *byte = (rt_type *)rt_builtins[RT_B_BYTE];
    int n = comm->size, me = comm->rank, err = RT_SUCCESS;
    for (int k = 1; k < n && !err; k <<= 1) {
        err = rt__sched_send(s, NULL, 0, byte, (me + k) % n, 0);
        if (!err)
            err = rt__sched_recv(s, NULL, 0, byte, (me - k + n) % n, 0);
        if (!err)
            err = rt__sched_round(s);
    }
    return err;
}

/* Binomial tree from root: receive from the parent, then send to the children. */
int rt__bcast_tree(rt__sched *s, int n, int me, void *buf, rt_count count, rt_type *type, int root)
{
    int rel = (me - root + n) % n, mask = 1, err = RT_SUCCESS;
    for (; mask < n; mask <<= 1)
        if (rel & mask) {
            err = rt__sched_recv(s, buf, count, type, (rel - mask + root) % n, 0);
            if (!err)
                err = rt__sched_round(s);
            break;
        }
    for (mask >>= 1; mask > 0 && !err; mask >>= 1)
        if (rel + mask < n)
            err = rt__sched_send(s, buf, count, type, (rel + mask + root) % n, 0);
    return err ? err : rt__sched_round(s);
}

int rt__build_bcast(rt__sched *s, rt_comm *comm, const rt__coll_args *a, const char *fn)
{
    if (a->rbuf == RT_IN_PLACE)
        return rt__coll_bad_in_place(comm, fn, "buffer");
    return rt__bcast_tree(s, comm->size, comm->rank, a->rbuf, a->rcount, a->rtype, a->root);
}

/* ------------------------------------------------------------ gather, scatter */

/* The root receives every block straight into place. */
int rt__build_gather(rt__sched *s, rt_comm *comm, const rt__coll_args *a, const char *fn)
{
    int n = comm->size, me = comm->rank, err = RT_SUCCESS, v = a->rcounts.p != NULL;
    if (me != a->root)
        return a->sbuf == RT_IN_PLACE ? rt__coll_bad_in_place(comm, fn, "sendbuf")
                                      : rt__sched_send(s, a->sbuf, a->scount, a->stype, a->root, 0);
    if (v && (err = rt__coll_check_counts(comm, a->rcounts, n, fn, "recvcounts")) != RT_SUCCESS)
        return err;
    for (int i = 0; i < n && !err; i++) {
        rt_count cnt = v ? rt_counts_get(a->rcounts, (size_t)i) : a->rcount;
        void *at = rt__coll_at(a->rbuf, v ? rt_counts_get(a->rdispls, (size_t)i) : (rt_count)i * a->rcount, a->rtype);
        if (i != me)
            err = rt__sched_recv(s, at, cnt, a->rtype, i, 0);
        else if (a->sbuf != RT_IN_PLACE)
            err = rt__sched_copy(s, a->sbuf, a->scount, a->stype, at, cnt, a->rtype);
    }
    return err;
}

/* The root sends every block from its place. */
int rt__build_scatter(rt__sched *s, rt_comm *comm, const rt__coll_args *a, const char *fn)
{
    int n = comm->size, me = comm->rank, err = RT_SUCCESS, v = a->scounts.p != NULL;
    if (me != a->root)
        return a->rbuf == RT_IN_PLACE ? rt__coll_bad_in_place(comm, fn, "recvbuf")
                                      : rt__sched_recv(s, a->rbuf, a->rcount, a->rtype, a->root, 0);
    if (v && (err = rt__coll_check_counts(comm, a->scounts, n, fn, "sendcounts")) != RT_SUCCESS)
        return err;
    for (int i = 0; i < n && !err; i++) {
        rt_count cnt = v ? rt_counts_get(a->scounts, (size_t)i) : a->scount;
        const void *at = rt__coll_at(a->sbuf, v ? rt_counts_get(a->sdispls, (size_t)i) : (rt_count)i * a->scount,
                                     a->stype);
        if (i != me)
            err = rt__sched_send(s, at, cnt, a->stype, i, 0);
        else if (a->rbuf != RT_IN_PLACE)
            err = rt__sched_copy(s, at, cnt, a->stype, a->rbuf, a->rcount, a->rtype);
    }
    return err;
}

/* ------------------------------------------------------------ all-gather */

/* Block i of the result: count and element offset (in recvtype elements). */
static void block(const rt__coll_args *a, int i, rt_count *cnt, rt_count *off)
{
    int v = a->rcounts.p != NULL;
    *cnt = v ? rt_counts_get(a->rcounts, (size_t)i) : a->rcount;
    *off = v ? rt_counts_get(a->rdispls, (size_t)i) : (rt_count)i * a->rcount;
}

/* Small: everyone sends its block to everyone at once. Large: a ring of n - 1 rounds. */
int rt__build_allgather(rt__sched *s, rt_comm *comm, const rt__coll_args *a, const char *fn)
{
    int n = comm->size, me = comm->rank, err = RT_SUCCESS;
    if (a->rcounts.p && (err = rt__coll_check_counts(comm, a->rcounts, n, fn, "recvcounts")) != RT_SUCCESS)
        return err;
    rt_count cnt, off, total = 0;
    block(a, me, &cnt, &off);
    void *mine = rt__coll_at(a->rbuf, off, a->rtype);
    if (a->sbuf != RT_IN_PLACE && (err = rt__sched_copy(s, a->sbuf, a->scount, a->stype, mine, cnt, a->rtype)))
        return err;
    if ((err = rt__sched_round(s)))
        return err;
    for (int i = 0; i < n; i++) {
        rt_count c, o;
        block(a, i, &c, &o);
        total += c * a->rtype->size;
    }
    if (total / n <= ALLGATHER_DIRECT_MAX) {
        for (int k = 1; k < n && !err; k++) {
            int to = (me + k) % n, from = (me - k + n) % n;
            rt_count c, o;
            block(a, from, &c, &o);
            err = rt__sched_send(s, mine, cnt, a->rtype, to, 0);
            if (!err)
                err = rt__sched_recv(s, rt__coll_at(a->rbuf, o, a->rtype), c, a->rtype, from, 0);
        }
        return err;
    }
    int right = (me + 1) % n, left = (me - 1 + n) % n;
    for (int k = 0; k < n - 1 && !err; k++) {
        int sb = (me - k + n) % n, rb = (me - k - 1 + 2 * n) % n;
        rt_count sc, so, rc, ro;
        block(a, sb, &sc, &so);
        block(a, rb, &rc, &ro);
        err = rt__sched_send(s, rt__coll_at(a->rbuf, so, a->rtype), sc, a->rtype, right, 0);
        if (!err)
            err = rt__sched_recv(s, rt__coll_at(a->rbuf, ro, a->rtype), rc, a->rtype, left, 0);
        if (!err)
            err = rt__sched_round(s);
    }
    return err;
}

/* ------------------------------------------------------------ all-to-all */

struct blk {
    const void *p;
    rt_count c;
    rt_type *t;
};

/* Block i of the send (send = 1) or receive side of an all-to-all; wtypes: alltoallw's
 * types (byte displacements), else NULL. */
static struct blk a2a_block(const rt__coll_args *a, int send, int i, rt_type *const *wtypes)
{
    int v = a->rcounts.p != NULL;
    const void *base = send ? a->sbuf : a->rbuf;
    rt_count c1 = send ? a->scount : a->rcount;
    rt_type *t = wtypes ? wtypes[i] : send ? a->stype : a->rtype;
    rt_count c = v ? rt_counts_get(send ? a->scounts : a->rcounts, (size_t)i) : c1;
    rt_count o = v ? rt_counts_get(send ? a->sdispls : a->rdispls, (size_t)i) : (rt_count)i * c1;
    return (struct blk){wtypes ? (const char *)base + o : rt__coll_at(base, o, t), c, t};
}

rt_type **rt__coll_types(rt_comm *comm, rt_handle_array h, int n, const char *fn, const char *arg, int *err)
{
    rt_type **t = calloc((size_t)(n > 0 ? n : 1), sizeof *t);
    *err = t ? RT_SUCCESS : RT_ERR_NO_MEM;
    for (int i = 0; i < n && !*err; i++) {
        t[i] = (rt_type *)h.face->handle_at(h.p, (size_t)i, RT_CLASS_DATATYPE, (rt_obj *)comm, fn, arg, err);
        if (!*err && !t[i])
            *err = rt_raise((rt_obj *)comm, RT_ERR_TYPE, fn, "invalid datatype '%s[%d]' = MPI_DATATYPE_NULL", arg, i);
        if (!*err)
            *err = rt__type_check(t[i], (rt_obj *)comm, fn);
    }
    if (*err) {
        free(t);
        return NULL;
    }
    return t;
}

/* Up to this many bytes per block, an all-to-all on bruck_min() or more ranks uses Bruck's
 * algorithm: log2(n) dependent rounds instead of one round of n - 1 messages. On one node
 * the single round wins (measured up to 8 ranks on 2 cores), so the default is 16 ranks;
 * SWITCHYARD_COLL_BRUCK_MIN sets it (the tests use it to exercise Bruck on few ranks). */
#define ALLTOALL_BRUCK_MAX 256

static int bruck_min(void)
{
    static int min = -1;
    if (min < 0) {
        const char *e = getenv("SWITCHYARD_COLL_BRUCK_MIN");
        min = e && atoi(e) >= 2 ? atoi(e) : 16;
    }
    return min;
}

/* Bruck: blocks rotated by rank into a packed buffer, then log2(n) rounds in which each
 * rank sends the blocks whose index has bit k set to rank + 2^k, then rotated back. */
static int alltoall_bruck(rt__sched *s, rt_comm *comm, const rt__coll_args *a)
{
    int n = comm->size, me = comm->rank, err = RT_SUCCESS;
    rt_type *byte = (rt_type *)rt_builtins[RT_B_BYTE];
    rt_count blk = a->scount * a->stype->size;
    char *tmp = rt__sched_buffer(s, n * blk, byte), *out = rt__sched_buffer(s, (n / 2 + 1) * blk, byte),
         *in = rt__sched_buffer(s, (n / 2 + 1) * blk, byte);
    if (!tmp || !out || !in)
        return RT_ERR_NO_MEM;
    for (int i = 0; i < n && !err; i++) /* tmp[i] = the block for rank me + i */
        err = rt__sched_copy(s, rt__coll_at(a->sbuf, (rt_count)((me + i) % n) * a->scount, a->stype), a->scount,
                             a->stype, tmp + i * blk, blk, byte);
    for (int k = 1; k < n && !err; k <<= 1) {
        int m = 0;
        for (int i = 0; i < n && !err; i++) /* pack the blocks that move in this round */
            if (i & k)
                err = rt__sched_copy(s, tmp + i * blk, blk, byte, out + (m++) * blk, blk, byte);
        err = err ? err : rt__sched_round(s);
        err = err ? err : rt__sched_send(s, out, m * blk, byte, (me + k) % n, 0);
        err = err ? err : rt__sched_recv(s, in, m * blk, byte, (me - k + n) % n, 0);
        for (int i = 0, j = 0; i < n && !err; i++) /* and unpack what came in their place */
            if (i & k)
                err = rt__sched_copy(s, in + (j++) * blk, blk, byte, tmp + i * blk, blk, byte);
    }
    for (int i = 0; i < n && !err; i++) /* tmp[i] now came from rank me - i */
        err = rt__sched_copy(s, tmp + i * blk, blk, byte,
                             rt__coll_at(a->rbuf, (rt_count)((me - i + n) % n) * a->rcount, a->rtype), a->rcount,
                             a->rtype);
    return err;
}

/* Everyone sends to and receives from everyone at once, in a pairwise order that spreads
 * the load; in place, the blocks to send are copied out first. On an inter-communicator the
 * blocks go to and come from the remote group (never in place). */
int rt__build_alltoall(rt__sched *s, rt_comm *comm, const rt__coll_args *a, const char *fn)
{
    int inter = comm->remote_size > 0, n = inter ? comm->remote_size : comm->size, me = comm->rank % n;
    int err = RT_SUCCESS, inplace = a->sbuf == RT_IN_PLACE;
    if (a->rcounts.p && ((err = rt__coll_check_counts(comm, a->rcounts, n, fn, "recvcounts")) ||
                         (!inplace && (err = rt__coll_check_counts(comm, a->scounts, n, fn, "sendcounts")))))
        return err;
    if (!inter && !inplace && !a->rcounts.p && !a->rtypes.p && n >= bruck_min() &&
        a->scount * a->stype->size <= ALLTOALL_BRUCK_MAX)
        return alltoall_bruck(s, comm, a);
    rt_type **st = NULL, **rt = NULL;
    if (a->rtypes.p) {
        rt = rt__coll_types(comm, a->rtypes, n, fn, "recvtypes", &err);
        if (!err && !inplace)
            st = rt__coll_types(comm, a->stypes, n, fn, "sendtypes", &err);
    }
    struct blk *sb = err ? NULL : malloc((size_t)n * sizeof *sb);
    if (!err && !sb)
        err = RT_ERR_NO_MEM;
    for (int i = 0; i < n && !err; i++) {
        sb[i] = inplace ? a2a_block(a, 0, i, rt) : a2a_block(a, 1, i, st);
        if (inplace && i != me) { /* the block to send lives where a block arrives */
            void *copy = rt__sched_buffer(s, sb[i].c, sb[i].t);
            err = copy ? rt__sched_copy(s, sb[i].p, sb[i].c, sb[i].t, copy, sb[i].c, sb[i].t) : RT_ERR_NO_MEM;
            sb[i].p = copy;
        }
    }
    if (!err)
        err = rt__sched_round(s);
    for (int k = 0; k < n && !err; k++) {
        int to = (me + k) % n, from = (me - k + n) % n;
        struct blk rb = a2a_block(a, 0, from, rt);
        if (k == 0 && !inter) {
            if (!inplace)
                err = rt__sched_copy(s, sb[me].p, sb[me].c, sb[me].t, (void *)rb.p, rb.c, rb.t);
            continue;
        }
        err = rt__sched_send(s, sb[to].p, sb[to].c, sb[to].t, to, inter);
        if (!err)
            err = rt__sched_recv(s, (void *)rb.p, rb.c, rb.t, from, inter);
    }
    free(sb);
    free(st);
    free(rt);
    return err;
}
