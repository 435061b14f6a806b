/* win_target.c — one-sided operations as their target applies them (the window's memory as
 * blocks, accumulates element-wise, replies), and the request lists epochs keep. */
#define _GNU_SOURCE
#include "win_rma.h"
#include "p2p/p2p.h"
#include "type/type.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

int rt__rma_keep(struct rt__win_ops *l, rt_request *r, void *buf)
{
    if (l->n == l->cap) {
        int ncap = l->cap ? 2 * l->cap : 16;
        struct rt__win_op *n = realloc(l->v, (size_t)ncap * sizeof *n);
        if (!n)
            return RT_ERR_NO_MEM;
        l->v = n, l->cap = ncap;
    }
    l->v[l->n++] = (struct rt__win_op){r, buf};
    return RT_SUCCESS;
}

int rt__rma_finish(struct rt__win_ops *l)
{
    int err = RT_SUCCESS;
    for (int i = 0; i < l->n; i++) {
        int e = rt_Wait(&l->v[i].req, NULL);
        err = err ? err : e;
        free(l->v[i].buf);
    }
    l->n = 0;
    return err;
}

void rt__rma_reap(struct rt__win_ops *l)
{
    int k = 0;
    for (int i = 0; i < l->n; i++) {
        if (rt__request_done(l->v[i].req)) {
            rt__obj_release(&l->v[i].req->obj);
            free(l->v[i].buf);
        } else {
            l->v[k++] = l->v[i];
        }
    }
    l->n = k;
}

int rt__rma_reply_tag(rt_win *w)
{
    return TAG_REPLY0 + (int)(w->reply_seq++ % REPLY_TAGS);
}

/* The address of block b in memory m, or NULL when (a dynamic window) no attached region
 * holds it. */
static char *block_at(rt_win *w, const struct rma_mem *m, const struct rma_blk *b)
{
    if (w->flavor != RT_WIN_FLAVOR_DYNAMIC)
        return m->base + b->off;
    char *p = (char *)(intptr_t)b->off;
    for (int i = 0; i < w->nattached; i++) {
        char *rb = w->attached[i].base;
        if (p >= rb && p + b->len <= rb + w->attached[i].size)
            return p;
    }
    return NULL;
}

/* Copies between another process's memory m at blocks bl[0..n) and the packed bytes at buf
 * (to_mem: into m), up to 512 blocks a system call: 0 or -errno. */
static int cma_blocks(const struct rma_mem *m, const struct rma_blk *bl, int64_t n, char *buf, int to_mem)
{
    int64_t i = 0, in = 0; /* the next byte: block i, in bytes into it */
    for (char *at = buf; i < n;) {
        struct iovec remote[512];
        size_t want = 0;
        int k = 0;
        for (int64_t j = i, o = in; j < n && k < 512; j++, o = 0, k++) {
            remote[k] = (struct iovec){m->base + bl[j].off + o, (size_t)(bl[j].len - o)};
            want += remote[k].iov_len;
        }
        struct iovec local = {at, want};
        ssize_t got = to_mem ? process_vm_writev(m->pid, &local, 1, remote, (unsigned long)k, 0)
                             : process_vm_readv(m->pid, &local, 1, remote, (unsigned long)k, 0);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            return got < 0 ? -errno : -EFAULT;
        at += got;
        for (int64_t left = got; left > 0;) { /* step over what moved */
            int64_t rest = bl[i].len - in;
            if (left < rest) {
                in += left;
                break;
            }
            left -= rest, i++, in = 0;
        }
        while (i < n && bl[i].len == 0)
            i++;
    }
    return 0;
}

int rt__rma_move(rt_win *w, const struct rma_mem *m, const struct rma_blk *bl, int64_t n, char *buf, int to_mem,
                 const char *fn)
{
    if (m->pid) {
        int e = cma_blocks(m, bl, n, buf, to_mem);
        if (e == -ESRCH)
            return rt_raise(&w->obj, RT_X_ERR_PROC_FAILED, fn, "rank %d of the window has failed", m->rank);
        return e ? rt_raise(&w->obj, RT_ERR_OTHER, fn, "cannot %s rank %d's window memory (process %d: %s)",
                            to_mem ? "write" : "read", m->rank, m->pid, strerror(-e))
                 : RT_SUCCESS;
    }
    for (int64_t i = 0, at = 0; i < n; at += bl[i].len, i++) {
        char *p = block_at(w, m, &bl[i]);
        if (to_mem)
            rt__copy(p, buf + at, (size_t)bl[i].len);
        else
            rt__copy(buf + at, p, (size_t)bl[i].len);
    }
    return RT_SUCCESS;
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

int rt__rma_apply_to(rt_win *w, const struct rma_mem *m, const char *msg, int src, char *old, const char *fn)
{
    struct rma_hdr h;
    memcpy(&h, msg, sizeof h);
    const struct rma_blk *bl = (const struct rma_blk *)(msg + sizeof h);
    const char *data = msg + sizeof h + (size_t)h.nblk * sizeof *bl;
    int64_t total = 0;
    for (int64_t i = 0; i < h.nblk; i++) {
        if (!m->pid && !block_at(w, m, &bl[i]))
            return rt_raise(&w->obj, RT_ERR_RMA_RANGE, fn,
                            "rank %d accessed %lld bytes at address %p, outside every region attached to the window",
                            src, (long long)bl[i].len, (void *)(intptr_t)bl[i].off);
        total += bl[i].len;
    }
    if (h.kind == RMA_PUT)
        return rt__rma_move(w, m, bl, h.nblk, (char *)data, 1, fn);
    if (h.kind == RMA_GET)
        return old ? rt__rma_move(w, m, bl, h.nblk, old, 0, fn) : RT_SUCCESS;
    /* the accumulates read the old contents first, packed, and write back the new */
    char small[256], *cur = total <= (int64_t)sizeof small ? small : malloc((size_t)total);
    if (!cur)
        return RT_ERR(w, RT_ERR_NO_MEM, "out of memory");
    int err = rt__rma_move(w, m, bl, h.nblk, cur, 0, fn);
    if (err) {
        if (cur != small)
            free(cur);
        return err;
    }
    if (old)
        memcpy(old, cur, (size_t)total);
    rt_op *op = h.op >= 0 ? (rt_op *)rt_builtins[h.op] : NULL;
    rt_type *basic = h.basic >= 0 ? (rt_type *)rt_builtins[h.basic] : NULL;
    int changed = 0;
    if (h.kind == RMA_CAS) { /* data: the compare value, then the new one */
        if ((changed = memcmp(cur, data, (size_t)total) == 0))
            memcpy(cur, data + total, (size_t)total);
    } else if (h.bytes > 0 && op && op->obj.index == RT_B_REPLACE) {
        memcpy(cur, data, (size_t)total), changed = 1;
    } else if (h.bytes > 0 && op && basic) {
        if ((err = combine(op, basic, data, cur, total)))
            err = RT_ERR(w, err, "out of memory");
        changed = 1;
    }
    if (changed && !err)
        err = rt__rma_move(w, m, bl, h.nblk, cur, 1, fn);
    if (cur != small)
        free(cur);
    return err;
}

int64_t rt__rma_msg_bytes(const char *msg, struct rma_hdr *h)
{
    memcpy(h, msg, sizeof *h);
    const struct rma_blk *bl = (const struct rma_blk *)(msg + sizeof *h);
    int64_t total = 0;
    for (int64_t i = 0; i < h->nblk; i++)
        total += bl[i].len;
    return total;
}

int rt__rma_apply(rt_win *w, char *msg, int src, const char *fn)
{
    struct rma_hdr h;
    int64_t total = rt__rma_msg_bytes(msg, &h);
    char *reply = NULL;
    if (h.reply_tag && !(reply = malloc(total > 0 ? (size_t)total : 1)))
        return RT_ERR(w, RT_ERR_NO_MEM, "out of memory");
    int err = rt__rma_apply_to(w, &(struct rma_mem){w->base, 0, w->comm->rank}, msg, src, reply, fn);
    if (err || !reply)
        return free(reply), err;
    rt_request *r = NULL;
    if ((err = rt_Isend(reply, total, (rt_type *)rt_builtins[RT_B_BYTE], src, h.reply_tag, w->comm, &r)))
        return free(reply), err;
    if ((err = rt__rma_keep(&w->tgt, r, reply)))
        return RT_ERR(w, err, "out of memory");
    return RT_SUCCESS;
}
