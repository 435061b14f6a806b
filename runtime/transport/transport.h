/* transport.h — the contract between the point-to-point engine (runtime/core) and the
 * transports (self is in the engine; shm and tcp here): versioned method tables. */
#ifndef RT_TRANSPORT_H
#define RT_TRANSPORT_H

#include <stddef.h>
#include <stdint.h>

/* The envelope of a message as the engine matches it. Transports carry it verbatim. */
typedef struct rt_msg_hdr {
    int32_t ctx;      /* context id of the communicator (point-to-point and collective contexts differ) */
    int32_t src;      /* the sender's rank in that communicator */
    int32_t tag;
    uint32_t flags;   /* RT_MSG_* */
    uint64_t sreq;    /* the sender's token: echoed back in an acknowledgement */
    int64_t len;      /* payload bytes of the message (for RT_MSG_ACK: 0) */
} rt_msg_hdr;

#define RT_MSG_SYNC 1u  /* synchronous send: the receiver acknowledges the match (RT_MSG_ACK) */
#define RT_MSG_ACK 2u   /* an acknowledgement: sreq names the sender's request; ctx is the
                           acknowledged message's (its channel); no payload */

/* The channel (0 .. nchan - 1) that carries context id ctx: a communicator's point-to-point
 * context (even) and its collective context (the next, odd) share one. */
static inline int rt_tp_chan(int32_t ctx, int nchan)
{
    return (int)(((uint32_t)ctx >> 1) & (uint32_t)(nchan - 1)); /* nchan: a power of two */
}

/* Return values of transport methods besides 0 (done) and positive runtime error classes. */
#define RT_TP_AGAIN (-1)    /* no room now: call progress() and try again */
#define RT_TP_PENDING (-2)  /* taken by reference: completion comes through send_done/recv_done */

/* What the engine gives a transport at init, and the callbacks a transport makes from
 * inside its progress(). The callbacks never call back into the transport's send paths
 * for the same peer re-entrantly except through send(), which must be safe to call. */
typedef struct rt_tp_env {
    int world_rank, world_size;
    const char *jobid;          /* SWITCHYARD_JOBID (or a unique local id for a singleton) */
    const int *node_of;         /* node_of[r]: the node index of world rank r (same node = same value) */
    int crowded;                /* more ranks on this node than CPUs: a wait yields its CPU soon */
    /* Channels (version >= 2; 0 means 1): the engine's traffic is split by context id into
     * this many independent streams (rt_tp_chan), a power of two. Order is kept per channel; a
     * transport may keep each channel's state apart. This is what the rank asks for: a
     * transport whose state the ranks of a node share makes them agree on one count, and
     * says which through settle_chans, during init. */
    int nchan;
    /* Key-value exchange through the launcher (PMI): put, then barrier, then get. 0 or -1. */
    int (*kvs_put)(const char *key, const char *value);
    int (*kvs_barrier)(void);
    int (*kvs_get)(const char *key, char *value, size_t len);

    /* A message from world rank src arrived. Eager (payload inline): data points at h->len
     * bytes valid only during the call, token = 0. Large: data == NULL, and the engine
     * later calls recv_large(src, token, ...) once it knows where the bytes go (or
     * recv_large with buf == NULL to drop them). */
    void (*incoming)(int src, const rt_msg_hdr *h, const void *data, uint64_t token);
    /* A large send taken by reference (send returned RT_TP_PENDING) is complete: the user
     * buffer may be reused. err: 0 or a runtime error class (the peer died ...). */
    void (*send_done)(void *sreq, int err);
    /* A recv_large finished: the bytes are in place. */
    void (*recv_done)(void *rreq, int err);
    /* Writes bytes [offset, offset + n) of the payload of send sreq to dst: how a transport
     * reads a send given with data == NULL (a non-contiguous one, packed piece by piece
     * straight into the transport's buffers). sreq stays valid until the send completes. */
    void (*pack)(void *sreq, uint64_t offset, size_t n, void *dst);
    /* Writes n bytes at src to bytes [offset, offset + n) of the payload of receive rreq: how
     * a transport delivers a recv_large given with buf == NULL and n > 0 (a non-contiguous
     * receive, unpacked piece by piece from the transport's buffers). */
    void (*unpack)(void *rreq, uint64_t offset, size_t n, const void *src);
    /* The peer world rank is gone (its connection or process died). The transport first
     * completes what it holds for that peer (send_done / recv_done with
     * RT_ERR_PROC_ABORTED), then calls this once; the engine fails what it holds. */
    void (*peer_failed)(int rank);
    /* The ranks of this node use n channels, not nchan (called at most once, in init). */
    void (*settle_chans)(int n);
} rt_tp_env;

#define RT_TP_VERSION 3u

/* A transport. Methods valid for version >= 2 are all below but progress_chan (>= 3); `size` is sizeof(rt_tp_ops)
 * as the transport was built, so a later engine can tell which methods exist. */
typedef struct rt_tp_ops {
    unsigned version;
    size_t size;
    const char *name;
    size_t eager_max;  /* largest payload send() copies at once */

    /* Sets the transport up for the peers it reaches (reaches(r) then answers). Collective
     * over the job through env->kvs_* (every rank makes the same kvs_barrier calls, even
     * when it fails; finalize is then still called). 0 or an error class. */
    int (*init)(const rt_tp_env *env);
    /* 1 if this transport carries traffic to world rank r. */
    int (*reaches)(int r);
    /* Sends h and n = h->len payload bytes to world rank dst. n <= eager_max: copied before
     * returning 0, or RT_TP_AGAIN. Larger: RT_TP_PENDING, the buffer is read later and
     * send_done(sreq) reports completion; or RT_TP_AGAIN. data == NULL with n > 0: the
     * payload is read through env->pack(sreq, ...) instead, at the same times. RT_ERR_NO_SPACE:
     * no file descriptor left for a connection (EMFILE, ENFILE; the engine's message names
     * RLIMIT_NOFILE), nothing sent, a later send may retry. Order between two ranks on one
     * transport is preserved (the non-overtaking rule relies on it). */
    int (*send)(int dst, const rt_msg_hdr *h, const void *data, size_t n, void *sreq);
    /* Receives the payload of large message `token` (whose envelope had context id ctx) from
     * src into buf (n bytes; n may be less than h->len when the receive truncates: the rest is
     * discarded; n == 0 drops all; buf NULL with n > 0: through env->unpack(rreq, ...)).
     * Returns 0 if done now, RT_TP_PENDING (then recv_done(rreq)), or an error. */
    int (*recv_large)(int src, int32_t ctx, uint64_t token, void *buf, size_t n, void *rreq);
    /* Handles arrivals and pending transfers; returns how many events it handled. */
    int (*progress)(void);
    /* Blocks at most timeout_ns until an arrival may have happened (a peer wrote to us). */
    void (*wait)(long timeout_ns);
    /* Leaves the job: collective through kvs_barrier, frees everything, removes what it
     * created in /dev/shm. It first finishes what it owes peers still in the job, so the
     * engine's callbacks may still be called during it. */
    void (*finalize)(void);
    /* The engine has waited about a second for a message from world rank r, which may have
     * died without ever talking to us: makes sure that its death is noticed (through
     * env->peer_failed). Called again while the wait lasts. May be NULL. */
    void (*watch)(int r);
    /* Version >= 3, may be NULL. progress() for channel c only (rt_tp_chan): arrivals and
     * transfers of the contexts it carries. Providing it declares that the transport keeps
     * each channel's state apart: under MPI_THREAD_MULTIPLE, calls for different channels
     * (send, recv_large, progress_chan; the callbacks they make) may then run at once in
     * different threads, each holding its channel's lock, while progress, wait, watch and
     * finalize run with every channel's lock held. Returns the events handled. */
    int (*progress_chan)(int c);
} rt_tp_ops;

extern const rt_tp_ops rt_tp_shm;
/* Ranks on other nodes, or every rank with SWITCHYARD_TRANSPORT=tcp (runtime/transport/tcp). */
extern const rt_tp_ops rt_tp_tcp;

#endif
