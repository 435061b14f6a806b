/* win_rma.c — one-sided data movement (put, get, the accumulates) and active-target
 * synchronization by MPI_Win_fence: each operation is a message to its target on the window's
 * private communicator, applied by the target inside the fence that ends the epoch. */
#include "win.h"
#include "coll/coll.h"
#include "comm/comm.h"
#include "p2p/p2p.h"
#include "type/type.h"

#include <stdlib.h>

enum { RMA_PUT = 1, RMA_ACC, RMA_GET, RMA_GACC, RMA_CAS };

/* Operations of epoch e travel with tag TAG_OP(e): a process one fence ahead may send the
 * next epoch's before this one's are all applied here, and they must wait for the next fence.
 * A reply (get, get_accumulate, compare_and_swap) comes back with its own tag. */
#define TAG_OP(e) (1 + ((e) & 1))
#define TAG_REPLY0 16
#define REPLY_TAGS (1 << 24)

/* An operation message: this header, nblk blocks of the target's memory (byte offset from
 * the target's base, or an address in a dynamic window; length), then `bytes` of data (the
 * origin's, packed; compare_and_swap: the compare value, then the origin's). */
struct rma_hdr {
    int32_t kind, op, basic, reply_tag; /* op, basic: builtin ids (accumulates, compare_and_swap) */
    int64_t nblk, bytes;
};
struct rma_blk {
    int64_t off, len;
};

/* Sum of int counters (the fence's count of operations per target). */
static void sum_ints(void *inout, const void *in, size_t bytes)
{
    int *a = inout;
    const int *b = in;
    for (size_t i = 0; i < bytes / sizeof(int); i++)
        a[i] += b[i];
}

/* ------------------------------------------------------------ the target's memory as blocks */

struct blocks {
    struct rma_blk *b;
    int64_t n, cap;
};

static int add_block(struct blocks *bl, int64_t off, int64_t len)
{
    if (len == 0)
        return 0;
    if (bl->n > 0 && bl->b[bl->n - 1].off + bl->b[bl->n - 1].len == off) {
        bl->b[bl->n - 1].len += len; /* adjacent: one block */
        return 0;
    }
    if (bl->n == bl->cap) {
        int64_t ncap = bl->cap ? 2 * bl->cap : 16;
        struct rma_blk *nb = realloc(bl->b, (size_t)ncap * sizeof *nb);
        if (!nb)
            return -1;
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
    for (rt_count e = 0; e < count; e++)
        if (walk(t->lay, off + e * t->extent, bl))
            return -1;
    return 0;
}

/* ------------------------------------------------------------ origin side */

/* Keeps request r (and buffer buf, freed once r completes) until the epoch's end. */
static int keep(rt_win *w, rt_request *r, void *buf)
{
    if (w->nrma == w->caprma) {
        int ncap = w->caprma ? 2 * w->caprma : 16;
        struct rt__win_op *n = realloc(w->rma, (size_t)ncap * sizeof *n);
        if (!n)
            return RT_ERR_NO_MEM;
        w->rma = n, w->caprma = ncap;
    }
    w->rma[w->nrma++] = (struct rt__win_op){r, buf};
    return RT_SUCCESS;
}

/* Checks for every operation: an access epoch is open, the op (accumulates; NULL: none) is
 * predefined and fits the target type, whose basic type the origin's shares. */
static int check_op(rt_win *w, rt_op *op, rt_type *otype, rt_type *ttype, const char *fn)
{
    if (!w->fence_open)
        return rt_raise(&w->obj, RT_ERR_RMA_SYNC, fn,
                        "no access epoch is open on the window (MPI_Win_fence opens one)");
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
struct rma_args {
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
};

static int rma_send(rt_win *w, const struct rma_args *a, const char *fn)
{
    if (a->target == RT_PROC_NULL)
        return RT_SUCCESS;
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
    struct blocks bl = {0};
    if (blocks_of(a->ttype, a->tcount, base, &bl))
        return free(bl.b), RT_ERR(w, RT_ERR_NO_MEM, "out of memory");
    for (int64_t i = 0; i < bl.n && !dynamic; i++)
        if (bl.b[i].off < 0 || bl.b[i].off + bl.b[i].len > w->peers[a->target].size) {
            int64_t off = bl.b[i].off, end = off + bl.b[i].len;
            free(bl.b);
            return rt_raise(&w->obj, RT_ERR_RMA_RANGE, fn,
                            "target rank %d: bytes %lld to %lld are outside its window of %lld bytes "
                            "(target_disp = %lld, displacement unit %lld)",
                            a->target, (long long)off, (long long)(end - 1),
                            (long long)w->peers[a->target].size, (long long)a->disp,
                            (long long)w->peers[a->target].disp_unit);
        }
    int64_t data = noop ? 0 : a->cmp ? 2 * obytes : obytes;
    size_t total = sizeof(struct rma_hdr) + (size_t)bl.n * sizeof(struct rma_blk) + (size_t)data;
    char *msg = malloc(total);
    if (!msg)
        return free(bl.b), RT_ERR(w, RT_ERR_NO_MEM, "out of memory");
    struct rma_hdr h = {.kind = a->kind, .op = a->op ? a->op->obj.index : -1, .basic = a->ttype->basic,
                        .reply_tag = a->rbuf || a->rtype ? TAG_REPLY0 + (int)(w->reply_seq++ % REPLY_TAGS) : 0,
                        .nblk = bl.n, .bytes = data};
    memcpy(msg, &h, sizeof h);
    memcpy(msg + sizeof h, bl.b, (size_t)bl.n * sizeof(struct rma_blk));
    free(bl.b);
    char *d = msg + sizeof h + (size_t)h.nblk * sizeof(struct rma_blk);
    if (a->cmp) {
        memcpy(d, a->cmp, (size_t)obytes); /* compare_and_swap: one predefined element each */
        d += obytes;
    }
    if (data > 0)
        rt__type_pack(a->otype, a->obuf, a->ocount, d);
    rt_type *byte = (rt_type *)rt_builtins[RT_B_BYTE];
    rt_request *rr = NULL, *sr = NULL;
    int err;
    if (h.reply_tag && (err = rt_Irecv(a->rbuf, a->rcount, a->rtype, a->target, h.reply_tag, w->comm, &rr)))
        return free(msg), err;
    if (rr && (err = keep(w, rr, NULL)))
        return free(msg), RT_ERR(w, err, "out of memory");
    if ((err = rt_Isend(msg, (rt_count)total, byte, a->target, TAG_OP(w->epoch), w->comm, &sr)))
        return free(msg), err;
    if ((err = keep(w, sr, msg)))
        return RT_ERR(w, err, "out of memory");
    w->sent_to[a->target]++;
    return RT_SUCCESS;
}

int rt_Put(const void *origin_addr, rt_count origin_count, rt_type *origin_datatype, int target_rank,
           rt_aint target_disp, rt_count target_count, rt_type *target_datatype, rt_win *win)
{
    int err = check_op(win, NULL, NULL, NULL, "MPI_Put");
    if (err)
        return err;
    return rma_send(win, &(struct rma_args){.kind = RMA_PUT, .obuf = origin_addr, .ocount = origin_count,
                                            .otype = origin_datatype, .target = target_rank, .disp = target_disp,
                                            .tcount = target_count, .ttype = target_datatype},
                    "MPI_Put");
}

int rt_Get(void *origin_addr, rt_count origin_count, rt_type *origin_datatype, int target_rank,
           rt_aint target_disp, rt_count target_count, rt_type *target_datatype, rt_win *win)
{
    int err = check_op(win, NULL, NULL, NULL, "MPI_Get");
    if (err)
        return err;
    return rma_send(win, &(struct rma_args){.kind = RMA_GET, .rbuf = origin_addr, .rcount = origin_count,
                                            .rtype = origin_datatype, .target = target_rank, .disp = target_disp,
                                            .tcount = target_count, .ttype = target_datatype},
                    "MPI_Get");
}

int rt_Accumulate(const void *origin_addr, rt_count origin_count, rt_type *origin_datatype, int target_rank,
                  rt_aint target_disp, rt_count target_count, rt_type *target_datatype, rt_op *op, rt_win *win)
{
    int err = check_op(win, op, origin_datatype, target_datatype, "MPI_Accumulate");
    if (err)
        return err;
    return rma_send(win, &(struct rma_args){.kind = RMA_ACC, .obuf = origin_addr, .ocount = origin_count,
                                            .otype = origin_datatype, .target = target_rank, .disp = target_disp,
                                            .tcount = target_count, .ttype = target_datatype, .op = op},
                    "MPI_Accumulate");
}

int rt_Get_accumulate(const void *origin_addr, rt_count origin_count, rt_type *origin_datatype, void *result_addr,
                      rt_count result_count, rt_type *result_datatype, int target_rank, rt_aint target_disp,
                      rt_count target_count, rt_type *target_datatype, rt_op *op, rt_win *win)
{
    int noop = op->obj.index == RT_B_NO_OP && op->obj.builtin;
    int err = check_op(win, op, noop ? NULL : origin_datatype, target_datatype, "MPI_Get_accumulate");
    if (err)
        return err;
    return rma_send(win, &(struct rma_args){.kind = RMA_GACC, .obuf = origin_addr, .ocount = origin_count,
                                            .otype = noop ? NULL : origin_datatype, .rbuf = result_addr,
                                            .rcount = result_count, .rtype = result_datatype, .target = target_rank,
                                            .disp = target_disp, .tcount = target_count,
                                            .ttype = target_datatype, .op = op},
                    "MPI_Get_accumulate");
}

int rt_Fetch_and_op(const void *origin_addr, void *result_addr, rt_type *datatype, int target_rank,
                    rt_aint target_disp, rt_op *op, rt_win *win)
{
    int noop = op->obj.index == RT_B_NO_OP && op->obj.builtin;
    int err = check_op(win, op, noop ? NULL : datatype, datatype, "MPI_Fetch_and_op");
    if (err)
        return err;
    return rma_send(win, &(struct rma_args){.kind = RMA_GACC, .obuf = origin_addr, .ocount = 1,
                                            .otype = noop ? NULL : datatype, .rbuf = result_addr, .rcount = 1,
                                            .rtype = datatype, .target = target_rank, .disp = target_disp,
                                            .tcount = 1, .ttype = datatype, .op = op},
                    "MPI_Fetch_and_op");
}

int rt_Compare_and_swap(const void *origin_addr, const void *compare_addr, void *result_addr, rt_type *datatype,
                        int target_rank, rt_aint target_disp, rt_win *win)
{
    int err = check_op(win, NULL, NULL, NULL, "MPI_Compare_and_swap");
    if (err)
        return err;
    if (datatype->basic < 0 || !datatype->obj.builtin)
        return RT_ERR(win, RT_ERR_TYPE, "the datatype of MPI_Compare_and_swap must be a predefined one");
    return rma_send(win, &(struct rma_args){.kind = RMA_CAS, .obuf = origin_addr, .cmp = compare_addr, .ocount = 1,
                                            .otype = datatype, .rbuf = result_addr, .rcount = 1, .rtype = datatype,
                                            .target = target_rank, .disp = target_disp, .tcount = 1,
                                            .ttype = datatype},
                    "MPI_Compare_and_swap");
}

/* ------------------------------------------------------------ target side */

/* The address of block b in w's memory, or NULL when (a dynamic window) no attached region
 * holds it. */
static char *block_at(rt_win *w, const struct rma_blk *b)
{
    if (w->flavor != RT_WIN_FLAVOR_DYNAMIC)
        return (char *)w->base + b->off;
    char *p = (char *)(intptr_t)b->off;
    for (int i = 0; i < w->nattached; i++) {
        char *rb = w->attached[i].base;
        if (p >= rb && p + b->len <= rb + w->attached[i].size)
            return p;
    }
    return NULL;
}

/* Copies between w's memory at blocks bl[0..n) and the packed bytes at buf (to_mem: into w). */
static void move_blocks(rt_win *w, const struct rma_blk *bl, int64_t n, char *buf, int to_mem)
{
    for (int64_t i = 0, at = 0; i < n; at += bl[i].len, i++) {
        char *p = block_at(w, &bl[i]);
        if (to_mem)
            memcpy(p, buf + at, (size_t)bl[i].len);
        else
            memcpy(buf + at, p, (size_t)bl[i].len);
    }
}

/* old = in op old over packed elements of the predefined type basic (bytes of them). Packed
 * is the layout itself unless basic has holes (a pair type such as MPI_SHORT_INT): then one
 * element at a time through a laid-out copy. */
static int combine(rt_op *op, rt_type *basic, const char *in, char *old, int64_t bytes)
{
    if (rt__type_contig(basic))
        return rt__op_apply(op, in, old, bytes / basic->size, basic);
    char *a = malloc((size_t)basic->extent), *b = malloc((size_t)basic->extent);
    int err = a && b ? RT_SUCCESS : RT_ERR_NO_MEM;
    for (int64_t at = 0; !err && at + basic->size <= bytes; at += basic->size) {
        rt__type_unpack(basic, in + at, basic->size, a);
        rt__type_unpack(basic, old + at, basic->size, b);
        if (!(err = rt__op_apply(op, a, b, 1, basic)))
            rt__type_pack(basic, b, 1, old + at);
    }
    free(a);
    free(b);
    return err;
}

/* Applies operation message msg from rank src; a reply goes out through w's kept requests. */
static int apply(rt_win *w, char *msg, int src, const char *fn)
{
    struct rma_hdr h;
    memcpy(&h, msg, sizeof h);
    const struct rma_blk *bl = (const struct rma_blk *)(msg + sizeof h);
    const char *data = msg + sizeof h + (size_t)h.nblk * sizeof *bl;
    int64_t total = 0;
    for (int64_t i = 0; i < h.nblk; i++) {
        if (!block_at(w, &bl[i]))
            return rt_raise(&w->obj, RT_ERR_RMA_RANGE, fn,
                            "rank %d accessed %lld bytes at address %p, outside every region attached to the window",
                            src, (long long)bl[i].len, (void *)(intptr_t)bl[i].off);
        total += bl[i].len;
    }
    if (h.kind == RMA_PUT) {
        move_blocks(w, bl, h.nblk, (char *)data, 1);
        return RT_SUCCESS;
    }
    /* the others read the old contents first, packed */
    char *old = malloc(total > 0 ? (size_t)total : 1), *reply = NULL;
    if (!old)
        return RT_ERR(w, RT_ERR_NO_MEM, "out of memory");
    move_blocks(w, bl, h.nblk, old, 0);
    if (h.reply_tag && !(reply = malloc(total > 0 ? (size_t)total : 1)))
        return free(old), RT_ERR(w, RT_ERR_NO_MEM, "out of memory");
    if (reply)
        memcpy(reply, old, (size_t)total);
    rt_op *op = h.op >= 0 ? (rt_op *)rt_builtins[h.op] : NULL;
    rt_type *basic = h.basic >= 0 ? (rt_type *)rt_builtins[h.basic] : NULL;
    int changed = 0, err = RT_SUCCESS;
    if (h.kind == RMA_CAS) { /* data: the compare value, then the new one */
        if ((changed = memcmp(old, data, (size_t)total) == 0))
            memcpy(old, data + total, (size_t)total);
    } else if (h.bytes > 0 && op && op->obj.index == RT_B_REPLACE) {
        memcpy(old, data, (size_t)total), changed = 1;
    } else if (h.bytes > 0 && op && basic) {
        err = combine(op, basic, data, old, total), changed = 1;
    }
    if (changed && !err)
        move_blocks(w, bl, h.nblk, old, 1);
    free(old);
    if (err)
        return free(reply), RT_ERR(w, err, "out of memory");
    if (!reply)
        return RT_SUCCESS;
    rt_request *r = NULL;
    if ((err = rt_Isend(reply, total, (rt_type *)rt_builtins[RT_B_BYTE], src, h.reply_tag, w->comm, &r)))
        return free(reply), err;
    if ((err = keep(w, r, reply)))
        return RT_ERR(w, err, "out of memory");
    return RT_SUCCESS;
}

/* Completes every kept request of w, freeing their buffers. */
static int finish_kept(rt_win *w)
{
    int err = RT_SUCCESS;
    for (int i = 0; i < w->nrma; i++) {
        int e = rt_Wait(&w->rma[i].req, NULL);
        err = err ? err : e;
        free(w->rma[i].buf);
    }
    w->nrma = 0;
    return err;
}

int rt_Win_fence(int assert, rt_win *win)
{
    int known = RT_MODE_NOSTORE | RT_MODE_NOPUT | RT_MODE_NOPRECEDE | RT_MODE_NOSUCCEED;
    if (assert & ~known)
        return RT_ERR(win, RT_ERR_ASSERT,
                      "invalid assertion 'assert'%s: MPI_Win_fence knows MPI_MODE_NOSTORE, MPI_MODE_NOPUT, "
                      "MPI_MODE_NOPRECEDE and MPI_MODE_NOSUCCEED",
                      assert & RT_MODE_NOCHECK ? " (MPI_MODE_NOCHECK is for MPI_Win_start, post and lock)" : "");
    rt_comm *c = win->comm;
    int n = c->size, err;
    int *counts = malloc(sizeof *counts * (size_t)n);
    if (!counts)
        return RT_ERR(win, RT_ERR_NO_MEM, "out of memory");
    memcpy(counts, win->sent_to, sizeof *counts * (size_t)n);
    rt__team t = rt__team_of(c);
    if ((err = rt__coll_allreduce(&t, counts, sizeof *counts * (size_t)n, sum_ints))) {
        free(counts);
        return RT_ERR(win, err, "the processes could not agree (internal communication failed: %s)",
                      rt__class_string(err));
    }
    int expect = counts[c->rank], first = RT_SUCCESS;
    free(counts);
    for (int i = 0; i < expect; i++) { /* the operations aimed here, from every origin */
        rt_status st;
        if ((err = rt_Probe(RT_ANY_SOURCE, TAG_OP(win->epoch), c, &st)))
            return err;
        char *msg = malloc(st.count > 0 ? (size_t)st.count : 1);
        if (!msg)
            return RT_ERR(win, RT_ERR_NO_MEM, "out of memory");
        if ((err = rt_Recv(msg, st.count, (rt_type *)rt_builtins[RT_B_BYTE], st.source, TAG_OP(win->epoch), c, &st)))
            return free(msg), err;
        err = apply(win, msg, st.source, "MPI_Win_fence");
        first = first ? first : err;
        free(msg);
    }
    err = finish_kept(win);
    first = first ? first : err;
    memset(win->sent_to, 0, sizeof *win->sent_to * (size_t)n);
    win->epoch++;
    win->fence_open = !(assert & RT_MODE_NOSUCCEED);
    return first;
}

int rt__win_rma_idle(const rt_win *w)
{
    if (w->nrma > 0)
        return 0;
    for (int r = 0; w->sent_to && r < w->comm->size; r++)
        if (w->sent_to[r])
            return 0;
    return 1;
}
