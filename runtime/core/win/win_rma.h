/* win_rma.h — what the one-sided files share (win/ only): the messages an operation travels
 * as, their tags, and the lists of requests an epoch keeps until they complete. */
#ifndef RT_WIN_RMA_H
#define RT_WIN_RMA_H

#include "win.h"
#include "type/type.h"

#include <string.h>

/* Kinds of messages: operations, then passive-target control (lock, unlock, flush), then the
 * notices of post/start/complete/wait (a target posted, an origin completed; no reply). */
enum { RMA_PUT = 1, RMA_ACC, RMA_GET, RMA_GACC, RMA_CAS, RMA_LOCK, RMA_UNLOCK, RMA_FLUSH, RMA_POST, RMA_COMPLETE };

/* Operations of fence epoch e travel with tag TAG_OP(e): a process one fence ahead may send
 * the next epoch's before this one's are all applied, and they must wait for the next fence.
 * Passive-target and post/start/complete/wait messages (operations, control, notices) travel
 * with TAG_PASSIVE and are applied on arrival (rt__win_rma_progress). A reply comes back with a tag of its own. */
#define TAG_OP(e) (1 + ((e) & 1))
#define TAG_PASSIVE 3
#define TAG_REPLY0 16
#define REPLY_TAGS (1 << 24)

/* A message: this header, nblk blocks of the target's memory (byte offset from the target's
 * base, or an address in a dynamic window; length), then `bytes` of data (the origin's,
 * packed; compare_and_swap: the compare value, then the origin's). Control messages have no
 * blocks; a lock's op is its RT_LOCK_* (0 for an unlock of a lock taken with
 * MPI_MODE_NOCHECK); their reply is one int. */
struct rma_hdr {
    int32_t kind, op, basic, reply_tag; /* op, basic: builtin ids (accumulates, compare_and_swap) */
    int64_t nblk, bytes;
};
struct rma_blk {
    int64_t off, len;
};

/* Keeps request r (and buf, freed once r completes) in list l: RT_SUCCESS or RT_ERR_NO_MEM. */
int rt__rma_keep(struct rt__win_ops *l, rt_request *r, void *buf);
/* Waits for every request of l, freeing their buffers; the first error class, or RT_SUCCESS. */
int rt__rma_finish(struct rt__win_ops *l);
/* Raises err, a failure of w's own communication (with rank, or RT_ANY_SOURCE: some rank), on
 * w naming fn, and the process that failed if one did; returns err. */
int rt__rma_failed(rt_win *w, int err, int rank, const char *fn);
/* Frees the buffers and requests of l that are complete, without progress. */
void rt__rma_reap(struct rt__win_ops *l);
/* The header of operation message msg into *h; returns the bytes its blocks cover. */
int64_t rt__rma_msg_bytes(const char *msg, struct rma_hdr *h);
/* A new reply tag of w. */
int rt__rma_reply_tag(rt_win *w);
/* Applies operation message msg from rank src at w (the target); a reply goes out through a
 * request kept in w->tgt. Errors are raised on w naming fn. */
int rt__rma_apply(rt_win *w, char *msg, int src, const char *fn);
/* A rank's window memory as a process reaches it: base in this process (pid 0; dynamic
 * windows: addresses, checked against this process's regions), or base in process pid
 * (cross-memory attach: process_vm_readv/writev). */
struct rma_mem {
    char *base;
    int pid, rank;
};
/* Copies between memory m at blocks bl[0..n) and the packed bytes at buf (to_mem: into m):
 * RT_SUCCESS, or an error raised on w naming fn (another process's memory out of reach). */
int rt__rma_move(rt_win *w, const struct rma_mem *m, const struct rma_blk *bl, int64_t n, char *buf, int to_mem,
                 const char *fn);
/* Applies operation message msg from rank src to window memory m; old, when set, receives
 * the bytes there before (packed, as many as the blocks hold). Errors raised on w naming fn. */
int rt__rma_apply_to(rt_win *w, const struct rma_mem *m, const char *msg, int src, char *old, const char *fn);

/* Direct windows (w->direct, win_direct.c). */
/* Byte off of rank's window memory, as this process maps it. */
static inline char *rt__win_direct_at(const rt_win *w, int rank, int64_t off)
{
    return (char *)w->shm + w->shm_off[rank] + off;
}
/* Copies n bytes between buffers that do not overlap: a small power of two as one load and
 * store (no call: a put or get of one element), else memcpy, or rt__copy from 2 KiB on. */
static inline void rt__win_copy(void *dst, const void *src, size_t n)
{
    switch (n) {
    case 8: memcpy(dst, src, 8); return;
    case 4: memcpy(dst, src, 4); return;
    case 16: memcpy(dst, src, 16); return;
    case 2: memcpy(dst, src, 2); return;
    case 1: memcpy(dst, src, 1); return;
    default:
        if (n < 2048)
            memcpy(dst, src, n);
        else
            rt__copy(dst, src, n);
    }
}
/* Waits for the lock of type at rank's memory: *answer = 1 when taken, -1 - r when rank r
 * failed holding or awaiting it (never granted again); rank's own failure raised on w. */
int rt__win_direct_lock(rt_win *w, int rank, int type, int *answer, const char *fn);
/* A put (put = 1: from buf into rank's memory at byte off) or get of len bytes. */
int rt__win_direct_copy(rt_win *w, int rank, int64_t off, void *buf, int64_t len, int put, const char *fn);
/* An accumulate of one run of `bytes` bytes of predefined type basic at byte off of rank's
 * memory, under its accumulate lock: the old bytes to result (if set), then in (NULL: nothing,
 * as MPI_NO_OP) combined in by op; or, when cmp is set (compare-and-swap, op unused), in
 * written there if the old bytes equal cmp's. */
int rt__win_direct_acc(rt_win *w, int rank, int64_t off, const void *in, const void *cmp, void *result,
                       int64_t bytes, rt_op *op, rt_type *basic, const char *fn);
/* Gives back the lock of type this process holds at rank's memory. */
void rt__win_direct_unlock(rt_win *w, int rank, int type);
/* Waits until every member of w has called it as often as this process (MPI_Win_fence),
 * progressing meanwhile. RT_SUCCESS, or a member's failure raised on w naming fn. */
int rt__win_direct_barrier(rt_win *w, const char *fn);
/* Applies operation message msg of this process at rank's memory, accumulates under rank's
 * accumulate lock; the bytes there before land at rbuf as rtype elements (rtype NULL: none).
 * Errors raised on w naming fn. */
int rt__win_direct_op(rt_win *w, int rank, const char *msg, void *rbuf, rt_type *rtype, const char *fn);

#endif
