/* coll_shm_ops.c — blocking barriers, broadcasts and reductions (to all or to a root) among the
 * processes of one node, as steps through their communicator's region (coll_shm.h). */
#include "coll_shm.h"

#include <string.h>

/* Larger broadcasts and reductions move as messages (one copy, the transport's), after a step
 * through the region that tells every member so (the root's size, or every member's). */
#define BCAST_MAX 65536
#define ALLREDUCE_MAX 65536
#define REDUCE_MAX 65536

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

/* The reduction to all: every member copies a chunk of its contribution into its header line
 * (INLINE_MAX bytes at most) or slot, and once all have, reduces them in rank order into its
 * result (a(0) op (a(1) op ...): the same operations on every member, so the same bits
 * everywhere), a step per chunk of whole elements. The first step's headers carry every
 * member's size: where they differ, every member sees it and fails; above ALLREDUCE_MAX, the
 * data go as messages. Only for types whose elements are one run of bytes, at most SLOT_MIN. */
static int allreduce(rt_comm *comm, const rt__coll_args *a, const char *fn)
{
    struct rt__coll_shm *cs = comm->cshm;
    int n = comm->size, me = comm->rank, dead = -1, err = RT_SUCCESS;
    rt_type *type = a->stype;
    const char *in = a->sbuf == RT_IN_PLACE ? a->rbuf : a->sbuf;
    char *out = a->rbuf;
    rt_count size = type->size ? type->size : 1, total = a->scount * type->size;
    rt_count per = (rt_count)cs->slot / size * size;
    int inl = total <= INLINE_MAX;
    for (rt_count done = 0, first = 1; first || done < total; first = 0) {
        uint32_t q = ++cs->seq;
        rt_count len = total > ALLREDUCE_MAX ? 0 : total - done < per ? total - done : per;
        struct rt__coll_line *l = rt__coll_line(cs, n, q, me);
        if ((dead = rt__coll_shm_wait_all(comm, q - (inl ? LANES : DATA_LANES) + 1)) >= 0)
            break;
        l->total = total;
        rt__copy(inl ? l->data : rt__coll_slot(cs, n, q, me), in + done, (size_t)len);
        rt__coll_shm_post(comm, q);
        if ((dead = rt__coll_shm_wait_all(comm, q)) >= 0)
            break;
        if (first) {
            int r = 0;
            while (r < n && rt__coll_line(cs, n, q, r)->total == total)
                r++;
            if (r < n) {
                err = mismatch(comm, total, rt__coll_line(cs, n, q, r)->total, r, fn);
                break;
            }
            if (total > ALLREDUCE_MAX)
                return BY_MESSAGES;
        }
        for (int r = n - 1; r >= 0; r--) {
            const char *from = inl ? rt__coll_line(cs, n, q, r)->data : rt__coll_slot(cs, n, q, r);
            int e = r == n - 1 ? (rt__copy(out + done, from, (size_t)len), RT_SUCCESS)
                               : rt__op_apply(a->op, from, out + done, len / size, type);
            if (e && !err)
                err = rt_raise((rt_obj *)comm, e, fn, "the reduction failed");
        }
        done += len;
    }
    if (dead >= 0)
        return rt__coll_error(comm, RT_X_ERR_PROC_FAILED, dead, NULL, fn);
    return err;
}

/* The reduction to a root: each member copies chunks of its contribution as for the reduction
 * to all, but only the root waits for the others and reduces. The root's size sets the number
 * of steps (and above REDUCE_MAX, messages instead): the others learn it from its line at the
 * first step, the only step they wait for it. A member whose size differs from the root's goes
 * through every step with what it has and fails at the end, as does the root. */
static int reduce(rt_comm *comm, const rt__coll_args *a, const char *fn)
{
    struct rt__coll_shm *cs = comm->cshm;
    int n = comm->size, me = comm->rank, root = a->root, dead = -1, err = RT_SUCCESS, bad = 0;
    rt_type *type = a->stype;
    const char *in = a->sbuf == RT_IN_PLACE ? a->rbuf : a->sbuf;
    char *out = a->rbuf;
    rt_count size = type->size ? type->size : 1, total = a->scount * type->size, want = total;
    rt_count per = (rt_count)cs->slot / size * size;
    for (rt_count done = 0, first = 1; first || done < want; first = 0) {
        uint32_t q = ++cs->seq;
        rt_count len = want > REDUCE_MAX ? 0 : want - done < per ? want - done : per;
        rt_count mine = total - done < len ? (total > done ? total - done : 0) : len;
        int inl = want <= INLINE_MAX;
        struct rt__coll_line *l = rt__coll_line(cs, n, q, me);
        if ((dead = rt__coll_shm_wait_all(comm, q - (inl ? LANES : DATA_LANES) + 1)) >= 0)
            break;
        l->total = total;
        l->mode = total > REDUCE_MAX;
        rt__copy(inl ? l->data : rt__coll_slot(cs, n, q, me), in + done, (size_t)mine);
        rt__coll_shm_post(comm, q);
        if (me != root) {
            if (first) {
                if ((dead = rt__coll_shm_wait(comm, root, q)) >= 0)
                    break;
                struct rt__coll_line *h = rt__coll_line(cs, n, q, root);
                if (h->mode)
                    return BY_MESSAGES;
                want = h->total; /* the steps follow the root's size from here */
                len = want - done < per ? want - done : per;
                if (want != total)
                    err = mismatch(comm, total, want, root, fn);
            }
        } else {
            if (first && l->mode)
                return BY_MESSAGES;
            if ((dead = rt__coll_shm_wait_all(comm, q)) >= 0)
                break;
            for (int r = 0; first && r < n && !bad; r++)
                if (rt__coll_line(cs, n, q, r)->total != total)
                    bad = 1, err = mismatch(comm, total, rt__coll_line(cs, n, q, r)->total, r, fn);
            for (int r = n - 1; r >= 0 && !bad; r--) {
                const char *from = inl ? rt__coll_line(cs, n, q, r)->data : rt__coll_slot(cs, n, q, r);
                int e = r == n - 1 ? (rt__copy(out + done, from, (size_t)len), RT_SUCCESS)
                                   : rt__op_apply(a->op, from, out + done, len / size, type);
                if (e && !err)
                    err = rt_raise((rt_obj *)comm, e, fn, "the reduction failed");
            }
        }
        done += len;
    }
    if (dead >= 0)
        return rt__coll_error(comm, RT_X_ERR_PROC_FAILED, dead, NULL, fn);
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
    if (!comm->cshm) { /* the first collective through it: every member makes the region */
        rt__coll_shm_make(comm);
        if (comm->cshm == RT__COLL_SHM_OFF)
            return 0;
    }
    *err = run(comm, a, fn);
    return *err != BY_MESSAGES;
}
