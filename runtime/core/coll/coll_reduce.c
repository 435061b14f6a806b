/* coll_reduce.c — reductions on intra-communicators as schedules: binomial reduce, recursive
 * doubling allreduce, reduce-scatter, scans; operands always combined in rank order. */
#include "coll.h"
#include "type/type.h"

#include <stdlib.h>

/* A commutative op uses a tree rooted at root; otherwise the tree is rooted at 0 (where
 * blocks of ranks meet in order) and 0 sends the result to root. */
int rt__reduce_tree(rt__sched *s, rt_comm *comm, const void *in, void *res, rt_count count, rt_type *type,
                       rt_op *op, int root)
{
    int n = comm->size, me = comm->rank, err = RT_SUCCESS;
    int commute = rt__op_commutative(op), top = commute ? root : 0, rel = (me - top + n) % n;
    const void *acc = in;   /* this rank's partial result */
    void *tmp = NULL, *spare = NULL;
    if (me == top && me == root && in != res) { /* accumulate straight into the result */
        err = rt__sched_copy(s, in, count, type, res, count, type);
        acc = res;
    }
    for (int mask = 1; mask < n && !err; mask <<= 1) {
        if (rel & mask) {
            err = rt__sched_send(s, acc, count, type, (rel - mask + top) % n, 0);
            if (!err)
                err = rt__sched_round(s);
            break;
        }
        if (rel + mask >= n)
            continue;
        if (!tmp && !(tmp = rt__sched_buffer(s, count, type)))
            return RT_ERR_NO_MEM;
        err = rt__sched_recv(s, tmp, count, type, (rel + mask + top) % n, 0);
        if (!err && acc == in && in != res) { /* the first partial: a copy we may write */
            void *own = rt__sched_buffer(s, count, type);
            if (!own)
                return RT_ERR_NO_MEM;
            err = rt__sched_copy(s, in, count, type, own, count, type);
            acc = own;
        }
        if (err)
            break;
        if (commute) {
            err = rt__sched_reduce(s, tmp, (void *)acc, count, type, op);
        } else { /* acc holds lower ranks than tmp: tmp = acc op tmp, then swap */
            err = rt__sched_reduce(s, acc, tmp, count, type, op);
            spare = (void *)acc;
            acc = tmp;
            tmp = spare;
        }
        err = err ? err : rt__sched_round(s); /* local steps run after the round's transfers */
    }
    if (!err && me == top && top == root && acc != res)
        err = rt__sched_copy(s, acc, count, type, res, count, type);
    if (!err && top != root && (me == top || me == root)) {
        err = rt__sched_round(s);
        if (!err && me == top)
            err = rt__sched_send(s, acc, count, type, root, 0);
        else if (!err)
            err = rt__sched_recv(s, res, count, type, top, 0);
    }
    return err ? err : rt__sched_round(s);
}

int rt__build_reduce(rt__sched *s, rt_comm *comm, const rt__coll_args *a, const char *fn)
{
    int err = rt__op_check(a->op, a->stype, (rt_obj *)comm, fn);
    if (err)
        return err;
    if (a->sbuf == RT_IN_PLACE && comm->rank != a->root)
        return rt__coll_bad_in_place(comm, fn, "sendbuf");
    if (comm->rank == a->root && a->rbuf == RT_IN_PLACE)
        return rt__coll_bad_in_place(comm, fn, "recvbuf");
    const void *in = a->sbuf == RT_IN_PLACE ? a->rbuf : a->sbuf;
    return rt__reduce_tree(s, comm, in, a->rbuf, a->scount, a->stype, a->op, a->root);
}

/* Recursive doubling over the largest power of two of ranks; the others first hand their
 * operand to a neighbour and get the result back at the end. Partners combine their blocks
 * lower-ranks-first, so every rank computes the same bits, for any op. */
static int allreduce_rd(rt__sched *s, rt_comm *comm, const void *in, void *res, rt_count count, rt_type *type,
                        rt_op *op)
{
    int n = comm->size, me = comm->rank, err = RT_SUCCESS, pof2 = 1;
    while (pof2 * 2 <= n)
        pof2 *= 2;
    int rem = n - pof2, newrank;
    if (in != res)
        err = rt__sched_copy(s, in, count, type, res, count, type);
    void *acc = res, *tmp = rt__sched_buffer(s, count, type);
    if (!tmp)
        return RT_ERR_NO_MEM;
    if (!err)
        err = rt__sched_round(s);
    if (me < 2 * rem) {
        if (me % 2 == 0) {
            err = err ? err : rt__sched_send(s, acc, count, type, me + 1, 0);
            newrank = -1;
        } else {
            err = err ? err : rt__sched_recv(s, tmp, count, type, me - 1, 0);
            err = err ? err : rt__sched_reduce(s, tmp, acc, count, type, op);
            newrank = me / 2;
        }
        err = err ? err : rt__sched_round(s);
    } else {
        newrank = me - rem;
    }
    for (int mask = 1; newrank >= 0 && mask < pof2 && !err; mask <<= 1) {
        int pn = newrank ^ mask, partner = pn < rem ? pn * 2 + 1 : pn + rem;
        err = rt__sched_send(s, acc, count, type, partner, 0);
        err = err ? err : rt__sched_recv(s, tmp, count, type, partner, 0);
        if (err)
            break;
        if (partner < me) {
            err = rt__sched_reduce(s, tmp, acc, count, type, op);
        } else {
            err = rt__sched_reduce(s, acc, tmp, count, type, op);
            void *t = acc;
            acc = tmp;
            tmp = t;
        }
        err = err ? err : rt__sched_round(s);
    }
    if (!err && newrank >= 0 && acc != res)
        err = rt__sched_copy(s, acc, count, type, res, count, type);
    if (!err && me < 2 * rem) {
        err = rt__sched_round(s);
        if (!err && me % 2)
            err = rt__sched_send(s, res, count, type, me - 1, 0);
        else if (!err)
            err = rt__sched_recv(s, res, count, type, me + 1, 0);
    }
    return err ? err : rt__sched_round(s);
}

/* Above this many bytes a commutative allreduce halves the vector instead of doubling it. */
#define ALLREDUCE_HALVING_MIN 16384

/* Where chunks [first, first + n) lie when count elements are cut into k chunks (the
 * first count % k one element longer): *off and *cnt in elements. */
static void chunks(rt_count count, int k, int first, int n, rt_count *off, rt_count *cnt)
{
    rt_count q = count / k, r = count % k, end = first + n;
    *off = first * q + (first < r ? first : r);
    *cnt = end * q + (end < r ? end : r) - *off;
}

/* Rabenseifner's allreduce for commutative ops and large vectors: the ranks left over above
 * a power of two hand their operand to a neighbour; then recursive halving leaves each of
 * the pof2 ranks the full reduction of one chunk, recursive doubling gathers the chunks
 * everywhere, and the neighbours get the result back. Each chunk is combined on one rank
 * only, so every rank ends with the same bits. */
static int allreduce_halving(rt__sched *s, rt_comm *comm, const void *in, void *res, rt_count count,
                             rt_type *type, rt_op *op)
{
    int n = comm->size, me = comm->rank, err = RT_SUCCESS, pof2 = 1;
    while (pof2 * 2 <= n)
        pof2 *= 2;
    int rem = n - pof2, newrank = me < 2 * rem ? (me % 2 ? me / 2 : -1) : me - rem;
    void *tmp = rt__sched_buffer(s, count, type);
    if (!tmp)
        return RT_ERR_NO_MEM;
    if (in != res)
        err = rt__sched_copy(s, in, count, type, res, count, type);
    err = err ? err : rt__sched_round(s);
    if (!err && me < 2 * rem) { /* fold the extra ranks into their odd neighbours */
        if (newrank < 0) {
            err = rt__sched_send(s, res, count, type, me + 1, 0);
        } else {
            err = rt__sched_recv(s, tmp, count, type, me - 1, 0);
            err = err ? err : rt__sched_reduce(s, tmp, res, count, type, op);
        }
        err = err ? err : rt__sched_round(s);
    }
    int lo = 0, width = pof2; /* the chunks this rank is responsible for: [lo, lo + width) */
    for (int d = pof2 / 2; newrank >= 0 && d >= 1 && !err; d /= 2) { /* recursive halving */
        int pn = newrank ^ d, partner = pn < rem ? pn * 2 + 1 : pn + rem;
        int keep = newrank & d ? lo + d : lo, give = newrank & d ? lo : lo + d;
        rt_count koff, kcnt, goff, gcnt;
        chunks(count, pof2, keep, d, &koff, &kcnt);
        chunks(count, pof2, give, d, &goff, &gcnt);
        err = rt__sched_send(s, rt__coll_at(res, goff, type), gcnt, type, partner, 0);
        err = err ? err : rt__sched_recv(s, rt__coll_at(tmp, koff, type), kcnt, type, partner, 0);
        err = err ? err : rt__sched_reduce(s, rt__coll_at(tmp, koff, type), rt__coll_at(res, koff, type), kcnt,
                                           type, op);
        err = err ? err : rt__sched_round(s);
        lo = keep;
        width = d;
    }
    for (int d = 1; newrank >= 0 && d < pof2 && !err; d *= 2) { /* recursive doubling */
        int pn = newrank ^ d, partner = pn < rem ? pn * 2 + 1 : pn + rem, plo = lo ^ d;
        rt_count off, cnt, poff, pcnt;
        chunks(count, pof2, lo, width, &off, &cnt);
        chunks(count, pof2, plo, width, &poff, &pcnt);
        err = rt__sched_send(s, rt__coll_at(res, off, type), cnt, type, partner, 0);
        err = err ? err : rt__sched_recv(s, rt__coll_at(res, poff, type), pcnt, type, partner, 0);
        err = err ? err : rt__sched_round(s);
        lo = lo < plo ? lo : plo;
        width *= 2;
    }
    if (!err && me < 2 * rem) {
        if (newrank < 0)
            err = rt__sched_recv(s, res, count, type, me + 1, 0);
        else
            err = rt__sched_send(s, res, count, type, me - 1, 0);
    }
    return err ? err : rt__sched_round(s);
}

int rt__build_allreduce(rt__sched *s, rt_comm *comm, const rt__coll_args *a, const char *fn)
{
    int err = rt__op_check(a->op, a->stype, (rt_obj *)comm, fn);
    if (err)
        return err;
    if (a->rbuf == RT_IN_PLACE)
        return rt__coll_bad_in_place(comm, fn, "recvbuf");
    const void *in = a->sbuf == RT_IN_PLACE ? a->rbuf : a->sbuf;
    if (rt__op_commutative(a->op) && a->scount * a->stype->size >= ALLREDUCE_HALVING_MIN && a->scount >= comm->size)
        return allreduce_halving(s, comm, in, a->rbuf, a->scount, a->stype, a->op);
    return allreduce_rd(s, comm, in, a->rbuf, a->scount, a->stype, a->op);
}

/* Reduce-scatter (block or v): the whole vector reduced to rank 0, then scattered. */
int rt__build_reduce_scatter(rt__sched *s, rt_comm *comm, const rt__coll_args *a, const char *fn)
{
    int n = comm->size, me = comm->rank, v = a->rcounts.p != NULL;
    int err = rt__op_check(a->op, a->stype, (rt_obj *)comm, fn);
    if (!err && v)
        err = rt__coll_check_counts(comm, a->rcounts, n, fn, "recvcounts");
    if (!err && a->rbuf == RT_IN_PLACE)
        err = rt__coll_bad_in_place(comm, fn, "recvbuf");
    if (err)
        return err;
    rt_count total = 0;
    rt_count *off = malloc((size_t)n * sizeof *off);
    if (!off)
        return RT_ERR_NO_MEM;
    for (int i = 0; i < n; i++) {
        off[i] = total;
        total += v ? rt_counts_get(a->rcounts, (size_t)i) : a->rcount;
    }
    const void *in = a->sbuf == RT_IN_PLACE ? a->rbuf : a->sbuf;
    void *whole = me == 0 ? rt__sched_buffer(s, total, a->stype) : NULL;
    if (me == 0 && !whole)
        err = RT_ERR_NO_MEM;
    if (!err)
        err = rt__reduce_tree(s, comm, in, whole, total, a->stype, a->op, 0);
    for (int i = 0; i < n && !err; i++) { /* scatter from 0 */
        rt_count c = v ? rt_counts_get(a->rcounts, (size_t)i) : a->rcount;
        if (me == 0 && i == 0)
            err = rt__sched_copy(s, whole, c, a->stype, a->rbuf, c, a->stype);
        else if (me == 0)
            err = rt__sched_send(s, rt__coll_at(whole, off[i], a->stype), c, a->stype, i, 0);
        else if (i == me)
            err = rt__sched_recv(s, a->rbuf, c, a->stype, 0, 0);
    }
    free(off);
    return err;
}

/* Inclusive (exclusive = 0) or exclusive prefix reduction along the chain of ranks: rank i
 * receives x0 op .. op x(i-1) from i - 1, combines its own operand and passes it on. */
static int scan_chain(rt__sched *s, rt_comm *comm, const rt__coll_args *a, const char *fn, int exclusive)
{
    int n = comm->size, me = comm->rank;
    int err = rt__op_check(a->op, a->stype, (rt_obj *)comm, fn);
    if (!err && a->rbuf == RT_IN_PLACE)
        err = rt__coll_bad_in_place(comm, fn, "recvbuf");
    if (err)
        return err;
    rt_count count = a->scount;
    rt_type *type = a->stype;
    const void *in = a->sbuf == RT_IN_PLACE ? a->rbuf : a->sbuf;
    void *acc = rt__sched_buffer(s, count, type), *prev = me > 0 ? rt__sched_buffer(s, count, type) : NULL;
    if (!acc || (me > 0 && !prev))
        return RT_ERR_NO_MEM;
    err = rt__sched_copy(s, in, count, type, acc, count, type); /* acc = own operand */
    err = err ? err : rt__sched_round(s);
    if (!err && me > 0) {
        err = rt__sched_recv(s, prev, count, type, me - 1, 0);
        if (!err && exclusive)
            err = rt__sched_copy(s, prev, count, type, a->rbuf, count, type);
        err = err ? err : rt__sched_reduce(s, prev, acc, count, type, a->op);
        err = err ? err : rt__sched_round(s);
    }
    if (!err && !exclusive)
        err = rt__sched_copy(s, acc, count, type, a->rbuf, count, type);
    if (!err && me + 1 < n)
        err = rt__sched_send(s, acc, count, type, me + 1, 0);
    return err ? err : rt__sched_round(s);
}

int rt__build_scan(rt__sched *s, rt_comm *comm, const rt__coll_args *a, const char *fn)
{
    return scan_chain(s, comm, a, fn, 0);
}

int rt__build_exscan(rt__sched *s, rt_comm *comm, const rt__coll_args *a, const char *fn)
{
    return scan_chain(s, comm, a, fn, 1);
}
