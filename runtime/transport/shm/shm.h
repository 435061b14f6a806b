/* shm.h — internals of the shared-memory transport rt_tp_shm: design constants, the layout
 * of the per-node region (one inbound ring per rank and channel), ring records, and the
 * process-local state (per channel, and per process). */
#ifndef SWITCHYARD_SHM_H
#define SWITCHYARD_SHM_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "transport.h"
#include "common/tp_pool.h"

/* ---- design constants ---------------------------------------------------------------- */
#ifndef SHM_EAGER_MAX
#define SHM_EAGER_MAX (32u << 10)       /* largest payload copied through the ring (measured) */
#endif
#define SHM_RING_BYTES (256u << 10)     /* data bytes of a rank's inbound ring per sender, */
#define SHM_RING_MAX (1u << 20)         /* ... up to this (powers of two) */
#define SHM_LOCAL_MAX 65535             /* ranks of one node (a record names its sender in 16 bits) */
#ifndef SHM_CHUNK
#define SHM_CHUNK (64u << 10)           /* largest DATA record of a pipelined transfer */
#endif
#define SHM_CHUNK_MIN (8u << 10)        /* a DATA record waits for this much room */
#define SHM_STREAM_BUDGET (1u << 20)    /* DATA bytes written to one peer per progress() */
#define SHM_XFERS 64                    /* a sender's large sends that it may help copy, */
#define SHM_XFER_MIN (32u << 10)        /* ... in pieces of at least this, */
#define SHM_XFER_PIECES 2               /* ... this many per message (measured: 2, 4, 8, 16) */
#define SHM_POLL_BATCH 64               /* records taken from our ring per progress() */
#define SHM_PAUSE_NS 1000L              /* wait() polls with pause this long, */
#define SHM_SPIN_NS 20000L              /* then with sched_yield until this, then sleeps */
#define SHM_SPIN_COPY_NS 500000L        /* ... or until this while a peer copies our buffer */
#define SHM_WAIT_MAX_NS 100000000L      /* longest sleep of one wait() (also timeout < 0) */
#define SHM_ALIVE_NS 50000000L          /* peers' processes checked at most this often */

#define SHM_LINE 64u                    /* cache line: records and ring data are aligned */
#define SHM_SEP 128u                    /* head, tail, doorbell: each owns this many bytes */
#define SHM_MAGIC 0x314d485359575331ull /* "1SWYSHM1" */
#define SHM_VERSION 3u
#define SHM_CHAN_MAX 8u                 /* channels (rt_tp_env.nchan): rings per rank */

_Static_assert(ATOMIC_LLONG_LOCK_FREE == 2 && ATOMIC_INT_LOCK_FREE == 2,
               "shared-memory atomics must be lock-free");
_Static_assert(SHM_RING_BYTES >= 2 * (SHM_EAGER_MAX + 2 * SHM_LINE),
               "a ring must hold an eager record after a wrap pad");
_Static_assert(SHM_RING_BYTES >= 2 * (SHM_CHUNK + 2 * SHM_LINE), "rings too small for DATA");
_Static_assert(SHM_RING_MAX >= SHM_RING_BYTES && (SHM_RING_MAX & (SHM_RING_MAX - 1)) == 0,
               "ring sizes are powers of two");

/* ---- the region (shared; offsets, never pointers) -------------------------------------- */
/* At offset 0. Written by the creator; magic is stored last (release). */
struct shm_header {
    _Atomic uint64_t magic;
    uint32_t version;
    uint32_t header_bytes;      /* sizeof(struct shm_header) */
    uint32_t nlocal;            /* ranks of the node, in world-rank order */
    uint32_t ring_bytes;        /* data bytes of each ring */
    uint32_t nchan;             /* channels: each rank has one inbound ring per channel */
    uint32_t pad;
    uint64_t slot_stride;       /* bytes of a slot with its nchan channel parts */
    uint64_t total_bytes;       /* size of the region */
    uint64_t off_slots;         /* nlocal slots, slot_stride apart */
    uint64_t off_rings;         /* nlocal * nchan rings (rank i's ring of channel c is the
                                 * (i * nchan + c)-th), ring_stride apart */
    uint64_t ring_ctl_bytes;    /* the control block in front of each ring's data */
    uint64_t ring_stride;       /* ring_ctl_bytes + ring_bytes, rounded to a page */
};

/* A large message copied by both sides at once: the receiver, having matched the sender's
 * RTS, publishes where the bytes go; then each side takes pieces in turn (next) and copies
 * them, the receiver with process_vm_readv, the sender with process_vm_writev; each piece
 * copied (or given up) counts in done. Entry i of a sender's slot belongs to its large send
 * whose token has index i (tp_pool.h); the receiver writes it only between that RTS and
 * its FIN, the sender only resets state before the RTS. */
struct shm_xfer {
    _Atomic uint32_t state;     /* SHM_XFER_OPEN once the receiver published the fields below */
    _Atomic uint32_t redo;      /* 1 + the piece the sender took and failed to write, or 0 */
    _Atomic uint64_t next;      /* the next piece to take */
    _Atomic uint64_t done;      /* pieces copied or given up; the side that completes it ends */
    uint64_t pieces, piece;     /* how many, bytes each (the last may be shorter) */
    uint64_t n;                 /* bytes to copy */
    uint64_t raddr;             /* the receive buffer in the receiver's memory */
    uint64_t rtoken;            /* the receiver's token (shm_recv), for XDONE */
};
#define SHM_XFER_OPEN 1u
_Static_assert(sizeof(struct shm_xfer) == SHM_LINE, "a transfer entry is one cache line");

/* A rank's part of its slot for one channel: the latest reservation its producer of that
 * channel made, and the channel's large sends' transfer entries. */
struct shm_chan_slot {
    /* Written before the producer takes [res_pos, res_end) of ring res_ring - 1 (the ring's
     * id, shm_ring.id): if the process dies before committing, that ring's consumer skips it. */
    _Atomic uint32_t res_ring;
    uint32_t pad_res;
    _Atomic uint64_t res_pos, res_end;
    char pad[SHM_LINE - 24];
    struct shm_xfer xfer[SHM_XFERS]; /* the channel's large sends, by token index */
};

/* One per node-local rank. The doorbell line is written by the peers, the transfer entries
 * by both sides of a large message (above), the rest by its owner. */
struct shm_slot {
    _Atomic uint32_t bell;      /* futex word: bumped by a writer that found `sleeping` */
    _Atomic uint32_t sleeping;  /* the owner is (about to be) blocked on bell */
    char pad0[SHM_SEP - 8];
    _Atomic int32_t pid;        /* the owner's process id, set before the 2nd init barrier */
    int32_t world_rank;
    _Atomic uint32_t attached;  /* the owner mapped the region */
    _Atomic uint32_t left;      /* the owner is in finalize and consumes nothing more */
    char pad1[SHM_SEP - 16];
    struct shm_chan_slot chan[]; /* nchan of them */
};

/* The control block in front of each ring's data: head (consumer), tail (producers) and the
 * room waiters on their own lines. Positions count bytes since creation and never wrap. The
 * ring is multi-producer: every node peer of its owner reserves records by a compare-and-swap
 * of tail, writes them, and commits each by its stamp; the owner consumes in tail order. */
struct shm_ring_ctl {
    _Atomic uint64_t head;      /* written by the consumer */
    char pad0[SHM_SEP - 8];
    _Atomic uint64_t tail;      /* reserved up to here (compare-and-swap by the producers),
                                 * | SHM_TAIL_SLEEP while the owner sleeps on its doorbell */
    char pad1[SHM_SEP - 8];
    _Atomic uint32_t want_space;/* a producer found no room: the consumer wakes the waiters */
    uint32_t pad2;
    _Atomic uint64_t waiters[]; /* bit i: local rank i waits for room (nlocal bits) */
};

#define SHM_TAIL_SLEEP 1ull   /* positions are multiples of SHM_LINE: bit 0 is free */

/* A ring record: one cache line of header, then the payload. `bytes` counts the whole
 * record (header included), a multiple of SHM_LINE. A SHORT record is one line in all: an
 * envelope whose flags and sender token are 0, and a payload of at most SHM_SHORT_MAX bytes. */
enum { SHM_PAD = 1, SHM_EAGER, SHM_RTS, SHM_FIN, SHM_CTS, SHM_DATA, SHM_SHORT, SHM_XDONE };
#define SHM_SHORT_MAX 32u
struct shm_rec {
    _Atomic uint64_t stamp;     /* position | 1 once committed (stored last, release) */
    uint16_t type;
    uint16_t from;              /* the producer's local index */
    uint32_t bytes;
    union {
        struct {
            uint64_t a, b;      /* per type, below */
            union {
                rt_msg_hdr h;   /* EAGER and RTS: the envelope, verbatim */
                uint64_t c;
            };
        };
        struct {                /* SHORT: the rest of the envelope, then the payload */
            int32_t ctx, src, tag;
            uint32_t len;       /* <= SHM_SHORT_MAX */
            unsigned char data[SHM_SHORT_MAX];
        } s;
    };
};
/* EAGER: a = payload bytes.  RTS: a = sender's buffer address, b = sender token (the length
 * is h.len, the sender's pid is in its slot).  FIN: a = sender token, b = 0 or an error class.
 * CTS: a = sender token, b = receiver token, c = bytes wanted (> 0).  DATA: a = receiver
 * token, b = offset, c = payload bytes.  XDONE (sender to receiver): a = receiver token; the
 * sender completed the last piece of a transfer copied by both sides (struct shm_xfer). */
_Static_assert(sizeof(struct shm_rec) == SHM_LINE, "record header is one cache line");

/* ---- process-local state ------------------------------------------------------------- */
/* One process's view of a ring. The consumer's pos is the head; a producer's pos is where
 * its latest record starts, end where it ends, seen a cached head. */
struct shm_ring {
    struct shm_ring_ctl *ctl;
    unsigned char *data;
    uint64_t size;              /* a power of two */
    int owner;                  /* the consumer's local index */
    int chan;                   /* the channel it carries */
    uint32_t id;                /* owner * nchan + chan: its place in the region */
    struct shm_chan_slot *res;  /* producer: where we say our reservations (our slot's part
                                 * for this channel) */
    uint64_t pos, end, seen;
    uint64_t blocked_head;      /* producer: head when a reservation last failed */
    int blocked;                /* producer: a reservation failed since the last success */
    int wake;                   /* producer: a reservation took the owner's sleep bit */
    int bad;                    /* consumer: a malformed record was found */
};

/* A control record (FIN, CTS) waiting for room in the ring to its peer. */
struct shm_ctl {
    uint32_t type;
    uint64_t a, b, c;
};

/* A large send taken by reference (send returned RT_TP_PENDING). */
struct shm_send {
    struct tp_pool_ent ent;
    int peer;                   /* local index of the destination */
    void *sreq;
    const unsigned char *buf;
    uint64_t len;
    uint64_t rtoken, want, off; /* pipelined: receiver's token, bytes it wants, bytes sent */
    struct shm_send *next;      /* the peer's stream queue */
};

/* A large message announced by an RTS, then (pipelined) being received. */
struct shm_recv {
    struct tp_pool_ent ent;
    int peer;                   /* local index of the sender */
    uint64_t addr, len, stoken; /* from the RTS */
    uint64_t token;             /* ours, once recv_large was called */
    int active;                 /* recv_large chose the pipeline (SHM_RECV_PIPE): DATA records
                                 * expected; or both sides copy (SHM_RECV_XFER): XDONE expected */
    unsigned char *buf;
    uint64_t n, got;
    void *rreq;
    int err;                    /* both sides copy: the error class of a piece we copied */
};
enum { SHM_RECV_PIPE = 1, SHM_RECV_XFER };

/* A node peer, as every channel sees it. */
struct shm_peer {
    int world;                  /* its world rank */
    pid_t pid;
    struct shm_slot *slot;
    int gone;                   /* wait() found its process gone: progress() reports it */
    int dead;                   /* reported through peer_failed: nothing more goes to it */
} __attribute__((aligned(32))); /* sizes of these arrays' entries are powers of two: indexing
                                   is a shift (allocated by shm_calloc) */

/* A node peer, as one channel talks to it. */
struct shm_link {
    struct shm_ring out;        /* its inbound ring of the channel, as we produce into it */
    struct shm_ctl *ctl;        /* FIFO of control records not yet written */
    size_t ctl_head, ctl_len, ctl_cap;
    struct shm_send *stream, *stream_last; /* pipelined sends, in CTS order */
    int rts_pending;            /* our large sends to it awaiting FIN or CTS */
    uint64_t rts_tail;          /* out.end after the latest RTS: once its head passes, the
                                 * peer may be copying (wait() then spins longer) */
    int listed;                 /* in the channel's work list */
} __attribute__((aligned(256)));

/* A channel (transport.h, rt_tp_env.nchan): what the messages of the contexts it carries
 * touch, apart from the other channels (issue 38: under MPI_THREAD_MULTIPLE each channel
 * will be owned by its own lock). */
struct shm_chan {
    int c;                      /* its index */
    struct shm_ring in;         /* our inbound ring of this channel, as its consumer */
    struct shm_link *link;      /* nlocal entries (ours unused) */
    int *work, nwork;           /* peers with control records, streams or a blocked send */
    struct shm_chan_slot *mine; /* our slot's part for this channel */
    uint64_t helping;           /* bit i: our xfer entry i belongs to a large send in flight */
    uint64_t pieces_written;    /* pieces of our large sends we wrote ourselves (tests read it) */
    int busy;                   /* inside its progress */
    struct tp_pool sends, recvs;
} __attribute__((aligned(256)));

struct shm_state {
    const rt_tp_env *env;       /* set by init, cleared by finalize */
    int active;                 /* the region is mapped and the peers are set up */
    int me, nlocal;             /* our local index; ranks of our node */
    int nchan;                  /* channels (rt_tp_env.nchan, at most SHM_CHAN_MAX) */
    int *local_of;              /* world rank -> local index, -1 on another node */
    struct shm_peer *peer;      /* nlocal entries (ours unused) */
    struct shm_chan *ch;        /* nchan entries */
    int ngone;                  /* peers found gone (reported or not) */
    int gone_new;               /* some were found gone and not reported yet */
    int busy;                   /* inside progress() */
    void *base;                 /* the region's mapping */
    size_t bytes;
    struct shm_slot *slot;      /* ours */
    int cma;                    /* process_vm_readv may be tried */
    int cma_write;              /* process_vm_writev may be tried */
    long long alive_ns;         /* last check of the peers' processes */
};

extern struct shm_state shm_g;

/* ---- shm_region.c -------------------------------------------------------------------- */
/* Writes "/switchyard-<jobid>-shm-<node>-pid<P>-ns<N>" into buf: P is our pid (the creator's),
 * N the inode of our pid namespace (0 if unknown); jobid characters other than [A-Za-z0-9._-]
 * become '_'. */
void shm_region_name(char *buf, size_t len, const char *jobid, int node);
/* Removes from /dev/shm the regions of our uid named by shm_region_name whose creator, of our
 * pid namespace, no longer exists or is us (a job killed while its ranks attached leaves its
 * region: under Hydra nobody else removes it). Nothing if our pid namespace is unknown. */
void shm_region_sweep(void);
/* Creates, sizes and maps a new region for nlocal ranks and nchan channels and writes its
 * header. 0, or an error class, RT_ERR_FILE_EXISTS when the name is taken (nothing is left
 * behind then). */
int shm_region_create(const char *name, int nlocal, int nchan, void **base, size_t *bytes);
/* Maps an existing region and checks its header against nlocal and nchan. 0 or an error class. */
int shm_region_open(const char *name, int nlocal, int nchan, void **base, size_t *bytes);
/* The slot of local rank i. */
struct shm_slot *shm_region_slot(void *base, int i);
/* Points r at the inbound ring of channel chan of local rank owner, positions at 0; a
 * producer's reservations are said in res (NULL for the consumer). */
void shm_region_ring(void *base, int owner, int chan, struct shm_chan_slot *res, struct shm_ring *r);

/* ---- shm_ring.c ---------------------------------------------------------------------- */
/* Producer: room for a record of `bytes` (multiple of SHM_LINE): returns where to write it
 * (type, bytes and from already set), or NULL (the ring is marked blocked and we are
 * registered to be woken). Nothing is visible before shm_ring_commit. */
struct shm_rec *shm_ring_reserve(struct shm_ring *r, uint64_t bytes, uint16_t type);
/* shm_ring_reserve(r, SHM_LINE, type), with the common case (room, no other producer at the
 * same moment) in a few instructions: the one-line records of small messages. */
struct shm_rec *shm_ring_reserve_line(struct shm_ring *r, uint16_t type);
/* Producer: publishes the reserved record (its stamp, release). */
void shm_ring_commit(struct shm_ring *r);
/* Producer: the largest record shm_ring_reserve would accept now. */
uint64_t shm_ring_room(struct shm_ring *r);
/* Producer: 1 if a reservation failed and the consumer has freed room since. */
int shm_ring_room_changed(struct shm_ring *r);
/* Consumer: the next record (pads skipped), NULL when none is committed at the head or it is
 * malformed (r->bad). */
struct shm_rec *shm_ring_peek(struct shm_ring *r);
/* Consumer: frees the record shm_ring_peek returned (release). */
void shm_ring_release(struct shm_ring *r);
/* Consumer: 1 if a committed record waits at the head. */
int shm_ring_ready(struct shm_ring *r);
/* Consumer, after releases: wakes the producers that wait for room. */
void shm_ring_wake_producers(struct shm_ring *r);
/* Producer, after committing: wakes the owner (whose slot is owner) if a reservation since
 * the last call took its sleep bit. */
void shm_ring_wake_owner(struct shm_ring *r, struct shm_slot *owner);
/* Consumer, before sleeping: sets the sleep bit in the tail (a full fence); 1 if nothing is
 * reserved beyond the head and nothing committed, so that the next producer will wake us. */
int shm_ring_sleep_mark(struct shm_ring *r);
/* Consumer, awake: clears the sleep bit if no producer took it. */
void shm_ring_sleep_unmark(struct shm_ring *r);
/* Consumer: when the head is reserved but not committed by a producer that is gone (its slot
 * names the range), skips the range; 1 if it did. */
int shm_ring_skip_dead(struct shm_ring *r, const struct shm_slot *dead);
/* Bytes a record with n payload bytes occupies. */
static inline uint64_t shm_rec_bytes(uint64_t n)
{
    return SHM_LINE + ((n + SHM_LINE - 1) & ~(uint64_t)(SHM_LINE - 1));
}

/* ---- shm_bell.c ---------------------------------------------------------------------- */
/* After freeing room the owner of s waits for: wakes it if it announced it sleeps. */
void shm_bell_ring(struct shm_slot *s);
/* Wakes the owner of s unconditionally (a producer that took its sleep bit). */
void shm_bell_wake(struct shm_slot *s);
/* Announces sleep on our slot and in the tails of our nin inbound rings, rechecks ready(),
 * sleeps at most ns unless it is true or the bell rings. Returns 1 if the sleep timed out. */
int shm_bell_sleep(struct shm_slot *s, struct shm_chan *ch, int nin, int (*ready)(void), long ns);

/* ---- shm_progress.c ------------------------------------------------------------------ */
/* Puts p on ch's list of peers progress() writes to (control records, streams, a blocked send). */
void shm_work_add(struct shm_chan *ch, int p);
/* The channel that carries context id ctx. */
struct shm_chan *shm_chan_of(int32_t ctx);

/* ---- shm_ctl.c ----------------------------------------------------------------------- */
/* Sends a control record to local peer p on channel ch now, or queues it. 0 or RT_ERR_NO_MEM. */
int shm_ctl_send(struct shm_chan *ch, int p, uint32_t type, uint64_t a, uint64_t b, uint64_t c);
/* Writes ch's queued control records to p while there is room; returns how many. */
int shm_ctl_flush(struct shm_chan *ch, int p);
/* Drops ch's queue to p. */
void shm_ctl_drop(struct shm_chan *ch, int p);

/* ---- shm_send.c ---------------------------------------------------------------------- */
/* rt_tp_ops.send: n <= SHM_EAGER_MAX copied (0) or RT_TP_AGAIN; larger: an RTS and
 * RT_TP_PENDING, or RT_TP_AGAIN. RT_ERR_INTERN if dst is not a node peer or h->len != n,
 * RT_ERR_PROC_ABORTED once dst was reported failed. */
int shm_send(int dst, const rt_msg_hdr *h, const void *data, size_t n, void *sreq);
/* Queues a pipelined send of ch (after its CTS) behind the others to the same peer. */
void shm_stream_start(struct shm_chan *ch, struct shm_send *s);
/* Writes DATA records of ch's streams to p while there is room (bounded); completes the sends
 * fully written. Returns the records written. */
int shm_stream_advance(struct shm_chan *ch, int p);

/* ---- shm_recv.c ---------------------------------------------------------------------- */
/* Handles up to SHM_POLL_BATCH records of ch's inbound ring; returns how many. */
int shm_poll(struct shm_chan *ch);

/* ---- shm_large.c --------------------------------------------------------------------- */
/* rt_tp_ops.recv_large: consumes token whatever it returns. 0 when done at once (CMA copy,
 * n == 0 or buf NULL), RT_TP_PENDING (pipeline: recv_done follows), or an error class. */
int shm_recv_large(int src, int32_t ctx, uint64_t token, void *buf, size_t n, void *rreq);
/* Asks m's sender for its m->n bytes through ch's ring (CTS) into m->buf, or m->rreq's unpack
 * when NULL: RT_TP_PENDING (recv_done follows), or an error class (m released). */
int shm_recv_pipe(struct shm_chan *ch, struct shm_recv *m);

/* ---- shm_xfer.c ---------------------------------------------------------------------- */
/* Receiver, for m (announced by an RTS with a transfer entry) into the contiguous buf:
 * publishes the entry, copies pieces until none is left to take. 0 when the whole message
 * is in (FIN sent, m released), RT_TP_PENDING when the sender still copies (XDONE follows,
 * or the pipeline when copying is not permitted), or an error class (m released). */
int shm_xfer_recv(struct shm_chan *ch, struct shm_recv *m, void *buf, uint64_t n, void *rreq);
/* Receiver: XDONE for m: finishes it (FIN, recv_done). */
void shm_xfer_done(struct shm_chan *ch, struct shm_recv *m);
/* Sender: the entry of ch's large send with token index i, before its RTS is committed. */
void shm_xfer_offer(struct shm_chan *ch, uint32_t i);
/* Sender: ch's large send with token index i no longer needs its entry (FIN, CTS, failure). */
void shm_xfer_withdraw(struct shm_chan *ch, uint32_t i);
/* Sender: copies pieces of ch's transfers receivers opened; returns how many. */
int shm_xfer_help(struct shm_chan *ch);
/* Sender: 1 if a receiver opened a transfer of ch with pieces left to take. */
int shm_xfer_ready(struct shm_chan *ch);
/* Pieces of our large sends we wrote ourselves, over the channels (tests read it). */
uint64_t shm_pieces_written(void);

/* ---- shm_cma.c ----------------------------------------------------------------------- */
/* Allows peers to read our memory (PR_SET_PTRACER for Yama) and decides whether we try process_vm_readv
 * (not with SWITCHYARD_SHM_NOCMA=1). */
void shm_cma_setup(void);
/* Copies n bytes at addr in process pid to dst. 0, or -errno. */
int shm_cma_read(pid_t pid, void *dst, uint64_t addr, size_t n);
/* Copies n bytes at src to addr in process pid. 0, or -errno. */
int shm_cma_write(pid_t pid, uint64_t addr, const void *src, size_t n);
/* What a copy's result means: 0 copied, 1 refused (this process may not use cross-memory
 * attach: EPERM, ENOSYS, EACCES), else the error class (the peer is gone, or a buffer is not
 * accessible). */
int shm_cma_outcome(int rc);

/* ---- shm_progress.c / shm_wait.c / shm_fail.c / shm_init.c ---------------------------- */
/* rt_tp_ops.progress: polls the rings (bounded), flushes control records, advances
 * pipelined sends, reports gone peers; the events handled. 0 when re-entered. */
int shm_progress(void);
/* rt_tp_ops.progress_chan: channel c's part of shm_progress. */
int shm_progress_chan(int c);
/* rt_tp_ops.wait: returns when progress() has work, a peer rang, or after timeout_ns
 * (< 0 or more than SHM_WAIT_MAX_NS: that much). Checks the peers' processes at most
 * every SHM_ALIVE_NS. */
void shm_wait(long timeout_ns);
/* 1 if progress() has something to do now (arrivals, room, local work). */
int shm_ready(void);
/* Monotonic clock in ns. */
long long shm_now_ns(void);
/* Checks the peers' processes; marks those gone (progress() then fails them). */
void shm_check_peers(void);
/* Peer p is gone: fails what is pending with it, then calls env->peer_failed once. */
void shm_fail_peer(int p);
/* rt_tp_ops.init: exactly two env->kvs_barrier calls on every rank, whatever happens. */
int shm_init(const rt_tp_env *env);
/* rt_tp_ops.reaches: 1 for the other ranks of our node once init succeeded. */
int shm_reaches(int r);
/* rt_tp_ops.finalize: drains control records owed to peers still in the job, marks us
 * left, one env->kvs_barrier, unmaps and frees. Also required after a failed init. */
void shm_finalize(void);

#endif
