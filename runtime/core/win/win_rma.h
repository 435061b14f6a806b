/* win_rma.h — what the one-sided files share (win/ only): the messages an operation travels
 * as, their tags, and the lists of requests an epoch keeps until they complete. */
#ifndef RT_WIN_RMA_H
#define RT_WIN_RMA_H

#include "win.h"

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
/* A new reply tag of w. */
int rt__rma_reply_tag(rt_win *w);
/* Applies operation message msg from rank src at w (the target); a reply goes out through a
 * request kept in w->tgt. Errors are raised on w naming fn. */
int rt__rma_apply(rt_win *w, char *msg, int src, const char *fn);

#endif
