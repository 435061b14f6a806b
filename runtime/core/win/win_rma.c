/* win_rma.c — one-sided data movement as the origin does it (put, get, the accumulates): each
 * operation is a message to its target on the window's private communicator (win_rma.h),
 * which the target applies (win_target.c) when the epoch says (win_sync.c). */
#include "win_rma.h"
#include "p2p/p2p.h"
#include "type/type.h"

#include <stdlib.h>

/* ------------------------------------------------------------ the target's memory as blocks */

/* The blocks (b: `few` until more are needed). */
struct blocks {
    struct rma_blk *b, few[4];
    int64_t n, cap;
};

static void free_blocks(struct blocks *bl)
{
    if (bl->b != bl->few)
        free(bl->b);
}

static int add_block(struct blocks *bl, int64_t off, int64_t len)
{
    if (len == 0)
        return 0;
    if (bl->n > 0 && bl->b[bl->n - 1].off + bl->b[bl->n - 1].len == off) {
        bl->b[bl->n - 1].len += len; /* adjacent: one block */
        return 0;
    }
    if (bl->n == bl->cap) {
        int64_t ncap = 2 * bl->cap;
        struct rma_blk *nb = bl->b == bl->few ? malloc((size_t)ncap * sizeof *nb)
                                              : realloc(bl->b, (size_t)ncap * sizeof *nb);
        if (!nb)
            return -1;
        if (bl->b == bl->few)
            memcpy(nb, bl->few, sizeof bl->few);
        bl->b = nb, bl->cap = ncap;
    }
    bl->b[bl->n++] = (struct rma_blk){off, len};
    return 0;
}

/* The blocks of one element of layout l starting at byte off, in the order of the packed
 * stream (type.h: items in order; each `count` copies `stride` apart). */
static int walk(const struct rt__layout *l, int64_t off, struct blocks *bl)
{
    if (l->dense)
        return add_block(bl, off + l->dlo, l->size);
    for (int i = 0; i < l->nitems; i++) {
        const struct rt__item *it = &l->items[i];
        for (rt_count c = 0; c < it->count; c++) {
            int64_t at = off + it->off + c * it->stride;
            if (it->sub ? walk(it->sub, at, bl) : add_block(bl, at, it->len))
                return -1;
        }
    }
    return 0;
}

/* count elements of t from byte off as blocks; -1 when out of memory. */
static int blocks_of(const rt_type *t, rt_count count, int64_t off, struct blocks *bl)
{
    if (rt__type_contig(t)) /* one run: a block, not one per element */
        return add_block(bl, off, count * t->size);
    for (rt_count e = 0; e < count; e++)
        if (walk(t->lay, off + e * t->extent, bl))
            return -1;
    return 0;
}

/* ------------------------------------------------------------ origin side */

/* Checks the op of an accumulate (NULL: none): predefined, fitting the target type, whose
 * basic type the origin's shares. */
static int check_op(rt_win *w, rt_op *op, rt_type *otype, rt_type *ttype, const char *fn)
{
    if (!op)
        return RT_SUCCESS;
    if (!op->obj.builtin)
        return rt_raise(&w->obj, RT_ERR_OP, fn, "a user-defined operation cannot be used in one-sided accumulates");
    if (op->obj.index == RT_B_NO_OP)
        return RT_SUCCESS;
    if (ttype->basic < 0)
        return rt_raise(&w->obj, RT_ERR_TYPE, fn,
                        "the target datatype of an accumulate must be made of one predefined datatype");
    if (otype && otype->size > 0 && otype->basic != ttype->basic)
        return rt_raise(&w->obj, RT_ERR_TYPE, fn,
                        "the origin and target datatypes of an accumulate have different basic datatypes");
    if (op->obj.index == RT_B_REPLACE)
        return RT_SUCCESS;
    return rt__op_check(op, ttype, &w->obj, fn);
}

/* Sends operation `kind` to target: the target's memory (tcount elements of ttype at
 * displacement disp, checked against the target's window) and `bytes` of data from pack
 * (count elements of otype at obuf; cmp: a compare value of the same size first). A reply
 * tag goes with it when rbuf is set: the reply lands in rcount elements of rtype at rbuf. */
struct rma_args { /* callers name every field: a partial initializer is a memset first */
    int kind;
    const void *obuf, *cmp;
    rt_count ocount;
    rt_type *otype;
    void *rbuf;
    rt_count rcount;
    rt_type *rtype;
    int target;
    rt_aint disp;
    rt_count tcount;
    rt_type *ttype;
    rt_op *op;
    rt_request **req; /* request-based (MPI_Rput, ...): a request for it, passive epochs only */
};

/* Put or get a (the target's memory as blocks bl) by cross-memory attach, at once. */
static int cma_copy(rt_win *w, const struct rma_args *a, const struct blocks *bl, const char *fn)
{
    int put = a->kind == RMA_PUT;
    rt_type *t = put ? a->otype : a->rtype;
    rt_count count = put ? a->ocount : a->rcount;
    char *buf = put ? (char *)a->obuf : a->rbuf, *tmp = NULL;
    int64_t bytes = count * t->size;
    if (!rt__type_contig(t)) { /* through a packed copy */
        if (!(tmp = malloc((size_t)bytes)))
            return RT_ERR(w, RT_ERR_NO_MEM, "out of memory");
        if (put)
            rt__type_pack(t, buf, count, tmp);
    }
    struct rma_mem m = {w->cma[a->target].base, w->cma[a->target].pid, a->target};
    int err = rt__rma_move(w, &m, bl->b, bl->n, tmp ? tmp : buf, put, fn);
    if (!err && tmp && !put)
        rt__type_unpack(t, tmp, bytes, buf);
    free(tmp);
    return err;
}

/* Raises RT_ERR_RMA_RANGE for a's len bytes at byte off of the target's window. */
static int out_of_range(rt_win *w, const struct rma_args *a, int64_t off, int64_t len, const char *fn)
{
    return rt_raise(&w->obj, RT_ERR_RMA_RANGE, fn,
                    "target rank %d: bytes %lld to %lld are outside its window of %lld bytes "
                    "(target_disp = %lld, displacement unit %lld)",
                    a->target, (long long)off, (long long)(off + len - 1), (long long)w->peers[a->target].size,
                    (long long)a->disp, (long long)w->peers[a->target].disp_unit);
}

/* A request-based operation done already: its request, complete (req NULL: none). */
static int done_now(rt_win *w, rt_request **req)
{
    return req ? rt_Isend(NULL, 0, (rt_type *)rt_builtins[RT_B_BYTE], RT_PROC_NULL, 0, w->comm, req) : RT_SUCCESS;
}

static int rma_send(rt_win *w, const struct rma_args *a, const char *fn)
{
    int passive = a->target >= 0 ? w->lock_all || w->locked[a->target] : w->lock_all || w->nlocked > 0;
    if (!passive && (a->req || !w->fence_open))
        return rt_raise(&w->obj, RT_ERR_RMA_SYNC, fn,
                        a->req ? "no passive-target epoch is open on the window for target rank %d (a "
                                 "request-based operation needs MPI_Win_lock or MPI_Win_lock_all)"
                               : "no access epoch is open on the window for target rank %d (MPI_Win_fence, "
                                 "MPI_Win_lock or MPI_Win_lock_all opens one)",
                        a->target);
    if (a->target == RT_PROC_NULL) /* nothing moves: a request already complete */
        return done_now(w, a->req);
    int dynamic = w->flavor == RT_WIN_FLAVOR_DYNAMIC;
    int64_t tbytes = a->tcount * a->ttype->size;
    int64_t obytes = a->otype ? a->ocount * a->otype->size : 0;
    int64_t rbytes = a->rtype ? a->rcount * a->rtype->size : 0;
    int noop = a->op && a->op->obj.index == RT_B_NO_OP;
    if (a->otype && !noop && obytes != tbytes)
        return rt_raise(&w->obj, RT_ERR_ARG, fn,
                        "the origin holds %lld bytes of data and the target %lld: their type signatures differ",
                        (long long)obytes, (long long)tbytes);
    if (a->rtype && rbytes != tbytes)
        return rt_raise(&w->obj, RT_ERR_ARG, fn,
                        "the result buffer holds %lld bytes of data and the target %lld: their type signatures differ",
                        (long long)rbytes, (long long)tbytes);
    int64_t base = dynamic ? (int64_t)a->disp : (int64_t)a->disp * w->peers[a->target].disp_unit;
    int move = a->kind == RMA_PUT || a->kind == RMA_GET;
    int acc = a->kind == RMA_ACC || a->kind == RMA_GACC || a->kind == RMA_CAS;
    if (w->direct && rt__type_contig(a->ttype) &&
        ((move && rt__type_contig(a->kind == RMA_PUT ? a->otype : a->rtype)) || /* one copy */
         (acc && (!a->otype || rt__type_contig(a->otype)) && (!a->rtype || rt__type_contig(a->rtype)) &&
          a->ttype->basic >= 0 && rt__type_contig((rt_type *)rt_builtins[a->ttype->basic])))) {
        /* one run at the target, of one predefined type for an accumulate: nothing packed */
        if (tbytes > 0 && (base < 0 || base + tbytes > w->peers[a->target].size))
            return out_of_range(w, a, base, tbytes, fn);
        int err = move ? rt__win_direct_copy(w, a->target, base, a->kind == RMA_PUT ? (void *)a->obuf : a->rbuf,
                                             tbytes, a->kind == RMA_PUT, fn)
                       : rt__win_direct_acc(w, a->target, base, a->otype ? a->obuf : NULL, a->cmp, a->rbuf, tbytes,
                                            a->op, (rt_type *)rt_builtins[a->ttype->basic], fn);
        return err ? err : done_now(w, a->req);
    }
    struct blocks bl; /* not zeroed: few is written as it fills */
    bl.n = 0, bl.cap = 4, bl.b = bl.few;
    if (blocks_of(a->ttype, a->tcount, base, &bl))
        return free_blocks(&bl), RT_ERR(w, RT_ERR_NO_MEM, "out of memory");
    for (int64_t i = 0; i < bl.n && !dynamic; i++)
        if (bl.b[i].off < 0 || bl.b[i].off + bl.b[i].len > w->peers[a->target].size) {
            struct rma_blk out = bl.b[i];
            free_blocks(&bl);
            return out_of_range(w, a, out.off, out.len, fn);
        }
    if (w->cma && (a->kind == RMA_PUT || a->kind == RMA_GET) && tbytes >= rt__win_cma_min() &&
        a->target != w->comm->rank) { /* one copy, straight between the processes */
        int err = cma_copy(w, a, &bl, fn);
        free_blocks(&bl);
        return err ? err : done_now(w, a->req);
    }
    int64_t data = noop ? 0 : a->cmp ? 2 * obytes : obytes;
    size_t total = sizeof(struct rma_hdr) + (size_t)bl.n * sizeof(struct rma_blk) + (size_t)data;
    char small[512], *msg = w->direct && total <= sizeof small ? small : malloc(total);
    if (!msg)
        return free_blocks(&bl), RT_ERR(w, RT_ERR_NO_MEM, "out of memory");
    struct rma_hdr h = {.kind = a->kind, .op = a->op ? a->op->obj.index : -1, .basic = a->ttype->basic,
                        .reply_tag = a->rbuf || a->rtype ? rt__rma_reply_tag(w) : 0,
                        .nblk = bl.n, .bytes = data};
    memcpy(msg, &h, sizeof h);
    memcpy(msg + sizeof h, bl.b, (size_t)bl.n * sizeof(struct rma_blk));
    free_blocks(&bl);
    char *d = msg + sizeof h + (size_t)h.nblk * sizeof(struct rma_blk);
    if (a->cmp) {
        memcpy(d, a->cmp, (size_t)obytes); /* compare_and_swap: one predefined element each */
        d += obytes;
    }
    if (data > 0)
        rt__type_pack(a->otype, a->obuf, a->ocount, d);
    if (w->direct) { /* done here and now */
        int err = rt__win_direct_op(w, a->target, msg, a->rbuf, a->rtype, fn);
        if (msg != small)
            free(msg);
        return err ? err : done_now(w, a->req);
    }
    rt_type *byte = (rt_type *)rt_builtins[RT_B_BYTE];
    rt_request *rr = NULL, *sr = NULL;
    int err;
    if (h.reply_tag && (err = rt_Irecv(a->rbuf, a->rcount, a->rtype, a->target, h.reply_tag, w->comm, &rr)))
        return free(msg), rt__rma_failed(w, err, a->target, fn);
    if (rr && (err = rt__rma_keep(&w->rma, rr, NULL)))
        return free(msg), RT_ERR(w, err, "out of memory");
    int tag = passive ? TAG_PASSIVE : TAG_OP(w->epoch);
    if ((err = rt_Isend(msg, (rt_count)total, byte, a->target, tag, w->comm, &sr)))
        return free(msg), rt__rma_failed(w, err, a->target, fn);
    if ((err = rt__rma_keep(&w->rma, sr, msg)))
        return RT_ERR(w, err, "out of memory");
    if (!passive)
        w->sent_to[a->target]++; /* the fence tells the target how many to apply */
    if (a->req) { /* done when the reply landed, or the data left (local completion) */
        *a->req = rr ? rr : sr;
        rt__obj_retain(&(*a->req)->obj); /* the epoch's list keeps its own reference */
    }
    return RT_SUCCESS;
}

/* ------------------------------------------------------------ direct windows: the common case */

/* rt__type_contig, inline here: the paths below ask it of every type. */
static inline int contig(const rt_type *t)
{
    return t->size == 0 || (t->lay->dense && t->lay->dlo == 0 && t->size == t->extent);
}

/* Whether an operation at target of a direct window may go straight to its memory: a rank of
 * the window, an access epoch open there, no process failure known. Anything else goes the
 * general way (rma_send), which raises what is wrong. */
static inline int direct_ready(const rt_win *w, int target)
{
    return w->direct && (unsigned)target < (unsigned)w->comm->size &&
           (w->lock_all || w->locked[target] || w->fence_open) && !rt__failures();
}

/* A put (put = 1) or get of count elements of type at buf, one run at both ends, on a direct
 * window: the byte offset of the run at the target in *off when it fits there, else -1 (the
 * general path raises the error). */
static inline int64_t direct_run(const rt_win *w, rt_count count, const rt_type *type, int target, rt_aint disp,
                                 rt_count tcount, const rt_type *ttype, int64_t *bytes)
{
    *bytes = tcount * ttype->size;
    int64_t off = (int64_t)disp * w->peers[target].disp_unit;
    if (count * type->size != *bytes || !contig(type) || !contig(ttype) ||
        (*bytes > 0 && (off < 0 || off + *bytes > w->peers[target].size)))
        return -1;
    return off;
}

/* Predefined (op, datatype) pairs an accumulate checked already (check_op: they fit; the
 * origin's datatype the same): (op id, type id) -> 1. Set once, read without the checks. */
static unsigned char op_fits[RT_NBUILTINS][RT_NBUILTINS];

static inline int op_known(const rt_op *op, const rt_type *t)
{
    return op->obj.builtin && t->obj.builtin && __atomic_load_n(&op_fits[op->obj.index][t->obj.index], __ATOMIC_RELAXED);
}

/* An accumulate-family operation on a direct window whose origin, result and target
 * datatypes are the same predefined one (count elements, one run): done here under the
 * target's accumulate lock and RT_SUCCESS or its error, or -1 for the general path. */
static inline int direct_acc(rt_win *w, const void *obuf, void *rbuf, rt_count count, rt_type *type, int target,
                             rt_aint disp, rt_op *op, const char *fn)
{
    int64_t bytes, off;
    if (!direct_ready(w, target) || !op_known(op, type) || type->basic < 0 ||
        (off = direct_run(w, count, type, target, disp, count, type, &bytes)) < 0)
        return -1;
    return rt__win_direct_acc(w, target, off, op->obj.index == RT_B_NO_OP ? NULL : obuf, NULL, rbuf, bytes, op,
                              (rt_type *)rt_builtins[type->basic], fn);
}

/* rt_Put's and rt_Get's general path (out of line: the direct one keeps a small frame). */
static __attribute__((noinline)) int put_general(const void *origin_addr, rt_count origin_count,
                                                 rt_type *origin_datatype, int target_rank, rt_aint target_disp,
                                                 rt_count target_count, rt_type *target_datatype, rt_win *win)
{
    return rma_send(win, &(struct rma_args){.kind = RMA_PUT, .obuf = origin_addr, .ocount = origin_count,
                                            .otype = origin_datatype, .target = target_rank, .disp = target_disp,
                                            .tcount = target_count, .ttype = target_datatype, .cmp = NULL, .rbuf = NULL, .rcount = 0, .rtype = NULL, .op = NULL, .req = NULL},
                    "MPI_Put");
}

static __attribute__((noinline)) int get_general(void *origin_addr, rt_count origin_count, rt_type *origin_datatype,
                                                 int target_rank, rt_aint target_disp, rt_count target_count,
                                                 rt_type *target_datatype, rt_win *win)
{
    return rma_send(win, &(struct rma_args){.kind = RMA_GET, .rbuf = origin_addr, .rcount = origin_count,
                                            .rtype = origin_datatype, .target = target_rank, .disp = target_disp,
                                            .tcount = target_count, .ttype = target_datatype, .obuf = NULL, .cmp = NULL, .ocount = 0, .otype = NULL, .op = NULL, .req = NULL},
                    "MPI_Get");
}

int rt_Put(const void *origin_addr, rt_count origin_count, rt_type *origin_datatype, int target_rank,
           rt_aint target_disp, rt_count target_count, rt_type *target_datatype, rt_win *win)
{
    int64_t off, bytes;
    if (direct_ready(win, target_rank) &&
        (off = direct_run(win, origin_count, origin_datatype, target_rank, target_disp, target_count,
                          target_datatype, &bytes)) >= 0) {
        rt__win_copy(rt__win_direct_at(win, target_rank, off), origin_addr, (size_t)bytes);
        return RT_SUCCESS;
    }
    return put_general(origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count,
                       target_datatype, win);
}

int rt_Get(void *origin_addr, rt_count origin_count, rt_type *origin_datatype, int target_rank,
           rt_aint target_disp, rt_count target_count, rt_type *target_datatype, rt_win *win)
{
    int64_t off, bytes;
    if (direct_ready(win, target_rank) &&
        (off = direct_run(win, origin_count, origin_datatype, target_rank, target_disp, target_count,
                          target_datatype, &bytes)) >= 0) {
        rt__win_copy(origin_addr, rt__win_direct_at(win, target_rank, off), (size_t)bytes);
        return RT_SUCCESS;
    }
    return get_general(origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count,
                       target_datatype, win);
}

/* Accumulate-family operation a (checked: op and types), request-based when a->req. */
static __attribute__((noinline)) int accumulate(rt_win *w, struct rma_args *a, const char *fn)
{
    int noop = a->op->obj.index == RT_B_NO_OP && a->op->obj.builtin;
    if (noop && a->kind == RMA_GACC)
        a->otype = NULL; /* MPI_NO_OP: the origin buffer is ignored */
    int err = check_op(w, a->op, a->otype, a->ttype, fn);
    if (!err && a->op->obj.builtin && a->ttype->obj.builtin && (!a->otype || a->otype == a->ttype))
        __atomic_store_n(&op_fits[a->op->obj.index][a->ttype->obj.index], 1, __ATOMIC_RELAXED);
    return err ? err : rma_send(w, a, fn);
}

int rt_Accumulate(const void *origin_addr, rt_count origin_count, rt_type *origin_datatype, int target_rank,
                  rt_aint target_disp, rt_count target_count, rt_type *target_datatype, rt_op *op, rt_win *win)
{
    int err;
    if (origin_datatype == target_datatype && origin_count == target_count &&
        (err = direct_acc(win, origin_addr, NULL, origin_count, origin_datatype, target_rank, target_disp, op,
                          "MPI_Accumulate")) >= 0)
        return err;
    return accumulate(win, &(struct rma_args){.kind = RMA_ACC, .obuf = origin_addr, .ocount = origin_count,
                                              .otype = origin_datatype, .target = target_rank, .disp = target_disp,
                                              .tcount = target_count, .ttype = target_datatype, .op = op, .cmp = NULL, .rbuf = NULL, .rcount = 0, .rtype = NULL, .req = NULL},
                      "MPI_Accumulate");
}

int rt_Get_accumulate(const void *origin_addr, rt_count origin_count, rt_type *origin_datatype, void *result_addr,
                      rt_count result_count, rt_type *result_datatype, int target_rank, rt_aint target_disp,
                      rt_count target_count, rt_type *target_datatype, rt_op *op, rt_win *win)
{
    int err;
    if (origin_datatype == target_datatype && result_datatype == target_datatype && origin_count == target_count &&
        result_count == target_count &&
        (err = direct_acc(win, origin_addr, result_addr, origin_count, origin_datatype, target_rank, target_disp, op,
                          "MPI_Get_accumulate")) >= 0)
        return err;
    return accumulate(win, &(struct rma_args){.kind = RMA_GACC, .obuf = origin_addr, .ocount = origin_count,
                                              .otype = origin_datatype, .rbuf = result_addr, .rcount = result_count,
                                              .rtype = result_datatype, .target = target_rank, .disp = target_disp,
                                              .tcount = target_count, .ttype = target_datatype, .op = op, .cmp = NULL, .req = NULL},
                      "MPI_Get_accumulate");
}

int rt_Fetch_and_op(const void *origin_addr, void *result_addr, rt_type *datatype, int target_rank,
                    rt_aint target_disp, rt_op *op, rt_win *win)
{
    int err = direct_acc(win, origin_addr, result_addr, 1, datatype, target_rank, target_disp, op, "MPI_Fetch_and_op");
    if (err >= 0)
        return err;
    return accumulate(win, &(struct rma_args){.kind = RMA_GACC, .obuf = origin_addr, .ocount = 1, .otype = datatype,
                                              .rbuf = result_addr, .rcount = 1, .rtype = datatype,
                                              .target = target_rank, .disp = target_disp, .tcount = 1,
                                              .ttype = datatype, .op = op, .cmp = NULL, .req = NULL},
                      "MPI_Fetch_and_op");
}

int rt_Compare_and_swap(const void *origin_addr, const void *compare_addr, void *result_addr, rt_type *datatype,
                        int target_rank, rt_aint target_disp, rt_win *win)
{
    if (datatype->basic < 0 || !datatype->obj.builtin)
        return RT_ERR(win, RT_ERR_TYPE, "the datatype of MPI_Compare_and_swap must be a predefined one");
    return rma_send(win, &(struct rma_args){.kind = RMA_CAS, .obuf = origin_addr, .cmp = compare_addr, .ocount = 1,
                                            .otype = datatype, .rbuf = result_addr, .rcount = 1, .rtype = datatype,
                                            .target = target_rank, .disp = target_disp, .tcount = 1,
                                            .ttype = datatype, .op = NULL, .req = NULL},
                    "MPI_Compare_and_swap");
}


/* The request-based forms: as above, in a passive-target epoch, with a request that
 * completes when the origin's buffers may be reused (MPI_Rput, MPI_Raccumulate) or the
 * result arrived (MPI_Rget, MPI_Rget_accumulate). */
int rt_Rput(const void *origin_addr, rt_count origin_count, rt_type *origin_datatype, int target_rank,
            rt_aint target_disp, rt_count target_count, rt_type *target_datatype, rt_win *win, rt_request **request)
{
    return rma_send(win, &(struct rma_args){.kind = RMA_PUT, .obuf = origin_addr, .ocount = origin_count,
                                            .otype = origin_datatype, .target = target_rank, .disp = target_disp,
                                            .tcount = target_count, .ttype = target_datatype, .req = request, .cmp = NULL, .rbuf = NULL, .rcount = 0, .rtype = NULL, .op = NULL},
                    "MPI_Rput");
}

int rt_Rget(void *origin_addr, rt_count origin_count, rt_type *origin_datatype, int target_rank,
            rt_aint target_disp, rt_count target_count, rt_type *target_datatype, rt_win *win, rt_request **request)
{
    return rma_send(win, &(struct rma_args){.kind = RMA_GET, .rbuf = origin_addr, .rcount = origin_count,
                                            .rtype = origin_datatype, .target = target_rank, .disp = target_disp,
                                            .tcount = target_count, .ttype = target_datatype, .req = request, .obuf = NULL, .cmp = NULL, .ocount = 0, .otype = NULL, .op = NULL},
                    "MPI_Rget");
}

int rt_Raccumulate(const void *origin_addr, rt_count origin_count, rt_type *origin_datatype, int target_rank,
                   rt_aint target_disp, rt_count target_count, rt_type *target_datatype, rt_op *op, rt_win *win,
                   rt_request **request)
{
    return accumulate(win, &(struct rma_args){.kind = RMA_ACC, .obuf = origin_addr, .ocount = origin_count,
                                              .otype = origin_datatype, .target = target_rank, .disp = target_disp,
                                              .tcount = target_count, .ttype = target_datatype, .op = op,
                                              .req = request, .cmp = NULL, .rbuf = NULL, .rcount = 0, .rtype = NULL},
                      "MPI_Raccumulate");
}

int rt_Rget_accumulate(const void *origin_addr, rt_count origin_count, rt_type *origin_datatype, void *result_addr,
                       rt_count result_count, rt_type *result_datatype, int target_rank, rt_aint target_disp,
                       rt_count target_count, rt_type *target_datatype, rt_op *op, rt_win *win,
                       rt_request **request)
{
    return accumulate(win, &(struct rma_args){.kind = RMA_GACC, .obuf = origin_addr, .ocount = origin_count,
                                              .otype = origin_datatype, .rbuf = result_addr, .rcount = result_count,
                                              .rtype = result_datatype, .target = target_rank, .disp = target_disp,
                                              .tcount = target_count, .ttype = target_datatype, .op = op,
                                              .req = request, .cmp = NULL},
                      "MPI_Rget_accumulate");
}
