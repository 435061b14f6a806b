/* coll_shm_ops.c — blocking barriers, broadcasts, reductions (to all, to a root, then scattered)
 * and gathers to all among the processes of one node, as steps through their communicator's
 * region (coll_shm.h). */
#include "coll_shm.h"

#include <string.h>

/* Larger broadcasts and reductions move as messages (one copy, the transport's), after a step
 * through the region that tells every member so (the root's size, or every member's). */
#define BCAST_MAX 65536
#define ALLREDUCE_MAX 65536
#define ALLGATHER_MAX 65536 /* (each member's block) */

/* A collective's answer when its data go as messages (rt__coll_run's schedule). */
#define BY_MESSAGES (-1)

/* The barrier: one step, every member's post seen by every member. */
static int barrier(rt_comm *comm, const rt__coll_args *a, const char *fn)
{
    (void)a;
    uint32_t q = ++comm->cshm->seq;
    rt__coll_shm_post(comm, q);
    int dead = rt__coll_shm_wait_all(comm, q);
    return dead >= 0 ? rt__coll_error(comm, RT_X_ERR_PROC_FAILED, dead, NULL, fn) : RT_SUCCESS;
}

/* The error of a process whose type signature expects `mine` bytes where `sent` came from
 * rank `from` (the processes' type signatures differ), or RT_SUCCESS when they are equal. */
static int mismatch(rt_comm *comm, rt_count mine, rt_count sent, int from, const char *fn)
{
    if (sent == mine)
        return RT_SUCCESS;
    char who[24];
    rt__rank_text(from, who, sizeof who);
    if (sent > mine)
        return rt_raise((rt_obj *)comm, RT_ERR_TRUNCATE, fn,
                        "the collective operation failed: more than the %lld bytes this process's type "
                        "signature expects arrived from rank %s (the processes' type signatures differ)",
                        (long long)mine, who);
    return rt_raise((rt_obj *)comm, RT_ERR_OTHER, fn,
                    "the collective operation failed: %lld bytes arrived from rank %s where this "
                    "process's type signature expects %lld (the processes' type signatures differ)",
                    (long long)sent, who, (long long)mine);
}

/* Bytes [off, off + len) of the packed stream of buf's elements of t to or from stream. */
static void part(rt_type *t, int contig, char *buf, rt_count off, rt_count len, char *stream, int to_stream)
{
    if (len <= 0)
        return;
    if (!contig)
        rt__type_part(t, buf, off, len, stream, to_stream);
    else if (to_stream)
        rt__copy(stream, buf + off, (size_t)len);
    else
        rt__copy(buf + off, stream, (size_t)len);
}

/* The broadcast: the root's packed data in its header line (INLINE_MAX bytes at most) or in
 * chunks of a lane's data, a step per chunk (at least one: the root's header carries its
 * total, which sets the number of steps on every member, and whether the data go as messages
 * instead). A receiver whose signature expects another size takes what fits, then fails. */
static int bcast(rt_comm *comm, const rt__coll_args *a, const char *fn)
{
    struct rt__coll_shm *cs = comm->cshm;
    int n = comm->size, me = comm->rank, root = a->root, contig = rt__type_contig(a->rtype), dead = -1;
    rt_count mine = a->rcount * a->rtype->size, total = mine, cap = (rt_count)((size_t)n * cs->slot);
    for (rt_count done = 0, first = 1; first || done < total; first = 0) {
        uint32_t q = ++cs->seq;
        struct rt__coll_line *h = rt__coll_line(cs, n, q, root);
        if (me == root) {
            if ((dead = rt__coll_shm_wait_all(comm, q - (total <= INLINE_MAX ? LANES : DATA_LANES) + 1)) >= 0)
                break;
            h->total = total;
            h->mode = total > BCAST_MAX;
        } else {
            if ((dead = rt__coll_shm_wait(comm, root, q)) >= 0)
                break;
            total = h->total;
        }
        if (h->mode) { /* (only at the first step) */
            rt__coll_shm_post(comm, q);
            return BY_MESSAGES;
        }
        rt_count len = total - done < cap ? total - done : cap;
        char *d = total <= INLINE_MAX ? h->data : rt__coll_slot(cs, n, q, 0);
        if (me == root)
            part(a->rtype, contig, a->rbuf, done, len, d, 1);
        else
            part(a->rtype, contig, a->rbuf, done, mine - done < len ? mine - done : len, d, 0);
        rt__coll_shm_post(comm, q);
        done += len;
    }
    if (dead >= 0)
        return rt__coll_error(comm, RT_X_ERR_PROC_FAILED, dead, NULL, fn);
    return me == root ? RT_SUCCESS : mismatch(comm, mine, total, root, fn);
}

/* Rank r's chunk of step q: in its header line for contributions of INLINE_MAX bytes at most
 * (inl), else in its slot. */
static char *chunk(const struct rt__coll_shm *cs, int n, uint32_t q, int r, int inl)
{
    return inl ? rt__coll_line(cs, n, q, r)->data : rt__coll_slot(cs, n, q, r);
}

/* This process's part of step q: once it may write there, its size (total) and bytes [off, off
 * + len) of the packed stream of elements of t at buf as its chunk, then the post. Returns -1,
 * or the rank of comm that failed. */
static int contribute(rt_comm *comm, uint32_t q, rt_count total, int inl, rt_type *t, const void *buf, rt_count off,
                      rt_count len)
{
    struct rt__coll_shm *cs = comm->cshm;
    int dead = rt__coll_shm_wait_all(comm, q - (inl ? LANES : DATA_LANES) + 1);
    if (dead >= 0)
        return dead;
    struct rt__coll_line *l = rt__coll_line(cs, comm->size, q, comm->rank);
    l->total = total;
    l->mode = 0;
    part(t, rt__type_contig(t), (char *)buf, off, len, chunk(cs, comm->size, q, comm->rank, inl), 1);
    rt__coll_shm_post(comm, q);
    return -1;
}

/* The first member whose size at step q is not total, or -1. */
static int differs(const struct rt__coll_shm *cs, int n, uint32_t q, rt_count total)
{
    for (int r = 0; r < n; r++)
        if (rt__coll_line(cs, n, q, r)->total != total)
            return r;
    return -1;
}

/* A step in which every member contributes (as contribute) and then waits for all. Returns 0
 * to go on, or 1 to stop with *err set (unless set already): a member failed, or, at the
 * first step, the members' sizes differ (every member sees that, and fails). */
static int exchange(rt_comm *comm, uint32_t q, int first, rt_count total, int inl, rt_type *t, const void *buf,
                    rt_count off, rt_count len, int *err, const char *fn)
{
    int dead = contribute(comm, q, total, inl, t, buf, off, len), r = -1, e = RT_SUCCESS;
    if (dead < 0)
        dead = rt__coll_shm_wait_all(comm, q);
    if (dead >= 0)
        e = rt__coll_error(comm, RT_X_ERR_PROC_FAILED, dead, NULL, fn);
    else if (first && (r = differs(comm->cshm, comm->size, q, total)) >= 0)
        e = mismatch(comm, total, rt__coll_line(comm->cshm, comm->size, q, r)->total, r, fn);
    if (e && !*err)
        *err = e;
    return e != RT_SUCCESS;
}

/* Reduces bytes [off, off + len) of every member's chunk of step q in rank order into out,
 * a(0) op (a(1) op ...): the same operations on every member, so the same bits everywhere.
 * *err: the first error, raised. */
static void combine(rt_comm *comm, uint32_t q, int inl, rt_count off, rt_count len, rt_op *op, rt_type *t, char *out,
                    int *err, const char *fn)
{
    rt_count size = t->size ? t->size : 1;
    for (int r = comm->size - 1; r >= 0; r--) {
        const char *from = chunk(comm->cshm, comm->size, q, r, inl) + off;
        int e = r == comm->size - 1 ? (rt__copy(out, from, (size_t)len), RT_SUCCESS)
                                    : rt__op_apply(op, from, out, len / size, t);
        if (e && !*err)
            *err = rt_raise((rt_obj *)comm, e, fn, "the reduction failed");
    }
}

/* The reduction to all: every member contributes a chunk of whole elements per step and, once
 * all have, combines them into its result. The first step's sizes are compared by everyone:
 * where they differ, every member fails; above ALLREDUCE_MAX, the data go as messages. Only
 * for types whose elements are one run of bytes, at most SLOT_MIN. */
static int allreduce(rt_comm *comm, const rt__coll_args *a, const char *fn)
{
    struct rt__coll_shm *cs = comm->cshm;
    int err = RT_SUCCESS;
    rt_type *type = a->stype;
    const char *in = a->sbuf == RT_IN_PLACE ? a->rbuf : a->sbuf;
    rt_count size = type->size ? type->size : 1, total = a->scount * type->size;
    rt_count per = (rt_count)cs->slot / size * size;
    int inl = total <= INLINE_MAX;
    for (rt_count done = 0, first = 1; first || done < total; first = 0) {
        uint32_t q = ++cs->seq;
        rt_count len = total > ALLREDUCE_MAX ? 0 : total - done < per ? total - done : per;
        if (exchange(comm, q, (int)first, total, inl, type, in, done, len, &err, fn))
            break;
        if (total > ALLREDUCE_MAX)
            return BY_MESSAGES;
        combine(comm, q, inl, 0, len, a->op, type, (char *)a->rbuf + done, &err, fn);
        done += len;
    }
    return err;
}

/* The reduction to a root: each member contributes chunks as for the reduction to all, but
 * only the root waits for the others and combines. The root posts its first step only once it
 * has seen every member's size, with its verdict (mode 1: a size differs; then every member
 * stops after that step and the root fails). A member whose contribution takes one step
 * leaves once it is posted (it takes one step either way); a larger one waits for the root's
 * first post: for the verdict, then follows the root's steps. */
static int reduce(rt_comm *comm, const rt__coll_args *a, const char *fn)
{
    struct rt__coll_shm *cs = comm->cshm;
    int n = comm->size, me = comm->rank, root = a->root, dead = -1, err = RT_SUCCESS;
    rt_type *type = a->stype;
    const char *in = a->sbuf == RT_IN_PLACE ? a->rbuf : a->sbuf;
    rt_count size = type->size ? type->size : 1, total = a->scount * type->size;
    rt_count per = (rt_count)cs->slot / size * size;
    int inl = total <= INLINE_MAX;
    for (rt_count done = 0, first = 1; first || done < total; first = 0) {
        uint32_t q = ++cs->seq;
        rt_count len = total - done < per ? total - done : per;
        struct rt__coll_line *l = rt__coll_line(cs, n, q, me);
        if ((dead = rt__coll_shm_wait_all(comm, q - (inl ? LANES : DATA_LANES) + 1)) >= 0)
            break;
        l->total = total;
        l->mode = 0;
        part(type, 1, (char *)in, done, len, chunk(cs, n, q, me, inl), 1);
        if (me != root) {
            rt__coll_shm_post(comm, q);
            if (first && total > per) { /* more steps: as many as the root's, unless it stops */
                if ((dead = rt__coll_shm_wait(comm, root, q)) >= 0 || rt__coll_line(cs, n, q, root)->mode)
                    break;
            }
        } else {
            for (int r = 0; r < n && dead < 0; r++)
                dead = r == me ? -1 : rt__coll_shm_wait(comm, r, q);
            int r = dead < 0 && first ? differs(cs, n, q, total) : -1;
            if (r >= 0) {
                err = mismatch(comm, total, rt__coll_line(cs, n, q, r)->total, r, fn);
                l->mode = 1;
            } else if (dead < 0) {
                combine(comm, q, inl, 0, len, a->op, type, (char *)a->rbuf + done, &err, fn);
            }
            rt__coll_shm_post(comm, q);
            if (dead >= 0 || r >= 0)
                break;
        }
        done += len;
    }
    return dead >= 0 ? rt__coll_error(comm, RT_X_ERR_PROC_FAILED, dead, NULL, fn) : err;
}

/* The reduction then scatter (block or v): every member contributes the whole vector in
 * chunks as for the reduction to all, and combines only the part of each chunk that falls in
 * its own block, into its result (the block's start). The first step's sizes are compared by
 * everyone. Only for types whose elements are one run of bytes, at most SLOT_MIN. */
static int reduce_scatter(rt_comm *comm, const rt__coll_args *a, const char *fn)
{
    struct rt__coll_shm *cs = comm->cshm;
    int n = comm->size, me = comm->rank, err = RT_SUCCESS, v = a->rcounts.p != NULL;
    rt_type *type = a->stype;
    const char *in = a->sbuf == RT_IN_PLACE ? a->rbuf : a->sbuf;
    rt_count size = type->size ? type->size : 1, total = 0, lo = 0, hi = 0;
    for (int r = 0; r < n; r++) {
        rt_count c = (v ? rt_counts_get(a->rcounts, (size_t)r) : a->rcount) * type->size;
        if (r == me)
            lo = total, hi = total + c;
        total += c;
    }
    rt_count per = (rt_count)cs->slot / size * size;
    int inl = total <= INLINE_MAX;
    for (rt_count done = 0, first = 1; first || done < total; first = 0) {
        uint32_t q = ++cs->seq;
        rt_count len = total - done < per ? total - done : per;
        if (exchange(comm, q, (int)first, total, inl, type, in, done, len, &err, fn))
            break;
        rt_count from = done > lo ? done : lo, to = done + len < hi ? done + len : hi;
        if (from < to) /* (in place: the result goes below what is still to contribute) */
            combine(comm, q, inl, from - done, to - from, a->op, type, (char *)a->rbuf + (from - lo), &err, fn);
        done += len;
    }
    return err;
}

/* The gather to all (not v): every member contributes a chunk of its block per step and, once
 * all have, unpacks every member's chunk into that member's block of its result. The blocks'
 * sizes are compared by everyone at the first step (all equal, else every member fails); a
 * member whose receive signature expects another size takes what fits and fails at the end.
 * Blocks above ALLGATHER_MAX go as messages. */
static int allgather(rt_comm *comm, const rt__coll_args *a, const char *fn)
{
    struct rt__coll_shm *cs = comm->cshm;
    int n = comm->size, me = comm->rank, err = RT_SUCCESS, in_place = a->sbuf == RT_IN_PLACE;
    rt_type *st = in_place ? a->rtype : a->stype, *rt = a->rtype;
    const void *in = in_place ? rt__coll_at(a->rbuf, (rt_count)me * a->rcount, rt) : a->sbuf;
    rt_count total = (in_place ? a->rcount : a->scount) * st->size, expect = a->rcount * rt->size;
    rt_count per = (rt_count)cs->slot;
    int inl = total <= INLINE_MAX, contig = rt__type_contig(rt);
    for (rt_count done = 0, first = 1; first || done < total; first = 0) {
        uint32_t q = ++cs->seq;
        rt_count len = total > ALLGATHER_MAX ? 0 : total - done < per ? total - done : per;
        if (exchange(comm, q, (int)first, total, inl, st, in, done, len, &err, fn))
            break;
        if (first) {
            if (total > ALLGATHER_MAX)
                return BY_MESSAGES;
            err = mismatch(comm, expect, total, me ? 0 : n - 1, fn); /* (all blocks have total bytes) */
        }
        rt_count fit = expect - done < len ? (expect > done ? expect - done : 0) : len;
        for (int r = 0; r < n; r++) {
            char *block = rt__coll_at(a->rbuf, (rt_count)r * a->rcount, rt);
            if (!(in_place && r == me))
                part(rt, contig, block, done, fit, chunk(cs, n, q, r, inl), 0);
        }
        done += len;
    }
    return err;
}

typedef int run_fn(rt_comm *comm, const rt__coll_args *a, const char *fn);

/* The collective through the region for `build` with arguments a, or NULL (the same answer on
 * every member); *err: this process's argument error, raised, or RT_SUCCESS. */
static run_fn *shm_form(rt_comm *comm, rt__coll_build_fn build, const rt__coll_args *a, const char *fn, int *err)
{
    *err = RT_SUCCESS;
    if (build == rt__build_barrier)
        return barrier;
    if (build == rt__build_bcast) {
        if (a->rbuf == RT_IN_PLACE)
            *err = rt__coll_bad_in_place(comm, fn, "buffer");
        return bcast;
    }
    if (build == rt__build_allreduce && rt__type_contig(a->stype) && a->stype->size <= SLOT_MIN) {
        *err = rt__op_check(a->op, a->stype, (rt_obj *)comm, fn);
        if (!*err && a->rbuf == RT_IN_PLACE)
            *err = rt__coll_bad_in_place(comm, fn, "recvbuf");
        return allreduce;
    }
    if (build == rt__build_reduce && rt__type_contig(a->stype) && a->stype->size <= SLOT_MIN) {
        *err = rt__op_check(a->op, a->stype, (rt_obj *)comm, fn);
        if (!*err && a->sbuf == RT_IN_PLACE && comm->rank != a->root)
            *err = rt__coll_bad_in_place(comm, fn, "sendbuf");
        if (!*err && comm->rank == a->root && a->rbuf == RT_IN_PLACE)
            *err = rt__coll_bad_in_place(comm, fn, "recvbuf");
        return reduce;
    }
    if (build == rt__build_reduce_scatter && rt__type_contig(a->stype) && a->stype->size <= SLOT_MIN) {
        *err = rt__op_check(a->op, a->stype, (rt_obj *)comm, fn);
        if (!*err && a->rcounts.p)
            *err = rt__coll_check_counts(comm, a->rcounts, comm->size, fn, "recvcounts");
        if (!*err && a->rbuf == RT_IN_PLACE)
            *err = rt__coll_bad_in_place(comm, fn, "recvbuf");
        return reduce_scatter;
    }
    if (build == rt__build_allgather && !a->varies)
        return allgather;
    return NULL;
}

int rt__coll_shm_run(rt_comm *comm, rt__coll_build_fn build, const rt__coll_args *a, const char *fn, int *err)
{
    if (comm->cshm == RT__COLL_SHM_OFF || comm->remote_size > 0)
        return 0;
    run_fn *run = shm_form(comm, build, a, fn, err);
    if (!run)
        return 0;
    if ((*err = rt__coll_agree(comm, build, a, *err, fn)) != RT_SUCCESS)
        return 1;
    if (!comm->cshm) /* the first collective through it: every member makes the region */
        rt__coll_shm_make(comm);
    if (comm->cshm == RT__COLL_SHM_OFF) /* (or the check's allreduce just tried) */
        return 0;
    *err = run(comm, a, fn);
    return *err != BY_MESSAGES;
}
