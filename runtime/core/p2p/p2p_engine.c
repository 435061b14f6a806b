/* p2p_engine.c — the point-to-point engine: posted and unexpected queues, matching in
 * arrival order, the self path, sends through the transports, progress and blocking waits. */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#include "p2p.h"
#include "type/type.h"

#include <linux/futex.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "nodemap.h"
#include "pmi.h"

/* A channel: the queues of the contexts it carries (rt_tp_chan: a communicator's point-to-
 * point and collective contexts share one), so that a receive and every message it may match
 * meet in one channel. SWITCHYARD_CHANNELS sets how many (docs/internals.md, "Threads"). */
struct chan {
    rt_request *posted, *posted_tail;       /* receives waiting for a message, in post order */
    struct rt__umsg *unexp, *unexp_tail;    /* messages waiting for a receive, in arrival order */
    struct rt__umsg *defer, *defer_tail;    /* large messages matched during a transport's
                                               progress: delivered after it returns */
    rt_request *pending, *pending_tail;     /* sends the transport had no room for yet */
    struct ctl { int dst; rt_msg_hdr h; struct ctl *next; } *ctl;  /* acks waiting for room */
    struct rt__umsg *spares;                /* freed unexpected-message records (new_umsg),
                                               linked through next */
    int nspares;
    uint32_t word;                          /* its lock: 0 free, 1 taken, 2 taken and a thread
                                               may sleep on it (chan_acquire) */
} __attribute__((aligned(128))); /* a power of two: chan_of is a shift; no false sharing */
#define CHAN_MAX 8
static struct chan C[CHAN_MAX];
static int nchan = 1; /* a power of two, the same on every rank of the job */
/* Bit c: channel c may have deferred deliveries, acknowledgements or sends waiting for room
 * (set when one is queued, cleared by the pass that empties them, both under channel c's
 * lock): a pass over the channels skips the others at the cost of one test. Atomic: bits of
 * two channels change under two locks (a relaxed read may miss a bit set meanwhile under
 * another channel's lock; that channel's holder then runs its pass). */
static unsigned waiting;
#define WAITING_SET(ch) __atomic_fetch_or(&waiting, 1u << ((ch) - C), __ATOMIC_RELAXED)
#define WAITING_CLEAR(ch) __atomic_fetch_and(&waiting, ~(1u << ((ch) - C)), __ATOMIC_RELAXED)
#define WAITING() __atomic_load_n(&waiting, __ATOMIC_RELAXED)

static inline struct chan *chan_of(int32_t ctx)
{
    return &C[rt_tp_chan(ctx, nchan)];
}

/* ------------------------------------------------------------ channel locks */

/* Under MPI_THREAD_MULTIPLE with more than one channel, each channel's state is guarded by its
 * own lock, taken by the engine's entry points themselves (recursively: the levels a thread
 * holds are counted in `held`); all of them, in index order, by a pass over every channel
 * (rt__progress). Today every caller also holds the library's lock, taken first (lock order:
 * library, then channels in index order); docs/internals.md, "Threads", channels. */
static int chan_locks;
static __thread __attribute__((tls_model("initial-exec"))) unsigned char held[CHAN_MAX];

#ifdef RT_HELGRIND /* make check-helgrind: tell Helgrind what a channel's word is */
#include <valgrind/helgrind.h>
#define HG_CHAN_TAKEN(ch) ANNOTATE_RWLOCK_ACQUIRED(&(ch)->word, 1)
#define HG_CHAN_GIVEN(ch) ANNOTATE_RWLOCK_RELEASED(&(ch)->word, 1)
__attribute__((constructor)) static void hg_chan_create(void)
{
    for (int c = 0; c < CHAN_MAX; c++)
        ANNOTATE_RWLOCK_CREATE(&C[c].word);
}
#else
#define HG_CHAN_TAKEN(ch) ((void)0)
#define HG_CHAN_GIVEN(ch) ((void)0)
#endif

static void chan_futex(uint32_t *word, int op, uint32_t val)
{
    syscall(SYS_futex, word, op | FUTEX_PRIVATE_FLAG, val, NULL, NULL, 0);
}

/* Takes ch's word, which this thread does not hold. */
static void chan_take(struct chan *ch)
{
    uint32_t c = 0;
    if (__atomic_compare_exchange_n(&ch->word, &c, 1, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
        return;
    for (int i = 0; i < 64 + 512; i++) { /* held briefly, mostly: spin, then yield */
        if (i < 64) {
#if defined(__x86_64__) || defined(__i386__)
            __builtin_ia32_pause();
#endif
        } else {
            sched_yield();
        }
        c = 0;
        if (__atomic_load_n(&ch->word, __ATOMIC_RELAXED) == 0 &&
            __atomic_compare_exchange_n(&ch->word, &c, 1, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
            return;
    }
    while (__atomic_exchange_n(&ch->word, 2, __ATOMIC_ACQUIRE) != 0) /* Drepper's mutex */
        chan_futex(&ch->word, FUTEX_WAIT, 2);
}

static __attribute__((noinline)) void chan_lock_slow(struct chan *ch)
{
    if (held[ch - C]++)
        return;
    chan_take(ch);
    HG_CHAN_TAKEN(ch);
}

static __attribute__((noinline)) void chan_unlock_slow(struct chan *ch)
{
    if (--held[ch - C])
        return;
    HG_CHAN_GIVEN(ch);
    if (__atomic_exchange_n(&ch->word, 0, __ATOMIC_RELEASE) == 2)
        chan_futex(&ch->word, FUTEX_WAKE, 1);
}

/* The locks cost one test of a flag when off (below MPI_THREAD_MULTIPLE, or one channel). */
static inline void chan_acquire(struct chan *ch)
{
    if (__builtin_expect(chan_locks, 0))
        chan_lock_slow(ch);
}

static inline void chan_release(struct chan *ch)
{
    if (__builtin_expect(chan_locks, 0))
        chan_unlock_slow(ch);
}

static inline void all_acquire(void)
{
    if (__builtin_expect(chan_locks, 0))
        for (struct chan *ch = C; ch < C + nchan; ch++)
            chan_lock_slow(ch);
}

static inline void all_release(void)
{
    if (__builtin_expect(chan_locks, 0))
        for (struct chan *ch = C + nchan; ch-- > C;)
            chan_unlock_slow(ch);
}

/* Whether this thread holds some channel's lock. */
static int held_any(void)
{
    for (int c = 0; c < nchan; c++)
        if (held[c])
            return 1;
    return 0;
}

/* The engine's set-up state. */
static struct {
    const rt_tp_ops **tp_of;                /* tp_of[world rank]: its transport (NULL: self) */
    int *node_of;
    unsigned char *failed;                  /* failed[world rank]: reported by peer_failed */
    int nfailed;                            /* how many are */
    const rt_tp_ops *active[2];             /* transports set up (all are finalized) */
    int nactive;
    const rt_tp_ops *polled[2];             /* those that reach a peer: progress and wait */
    int npolled;
    rt_tp_env env;
} E;

struct rt__coll_hooks rt__coll_hooks;
int (*rt__win_progress)(void);
int (*rt__io_progress)(void);

/* Channel waits (rt__wait_requests): under the channel locks, when every transport in use
 * keeps its channels apart (rt_tp_ops.progress_chan). */
int rt__chan_waits;
int rt__chan_entries; /* rt.h: = rt__chan_waits, unless SWITCHYARD_CHANNEL_ENTRIES=0 */

void rt__chan_locks_on(void)
{
    chan_locks = nchan > 1;
    rt__chan_waits = chan_locks && E.npolled > 0;
    for (int i = 0; i < E.npolled; i++)
        if (E.polled[i]->size < sizeof(rt_tp_ops) || !E.polled[i]->progress_chan)
            rt__chan_waits = 0;
    const char *e = getenv("SWITCHYARD_CHANNEL_ENTRIES");
    rt__atomic_refs = rt__chan_waits && !(e && strcmp(e, "0") == 0); /* before the entries */
    __atomic_store_n(&rt__chan_entries, rt__atomic_refs, __ATOMIC_RELAXED);
}

/* Seconds on a monotonic clock. */
static double monotonic_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ------------------------------------------------------------ queues */

static void queue_append(rt_request **head, rt_request **tail, rt_request *r)
{
    r->next = NULL;
    r->prev = *tail;
    if (*tail)
        (*tail)->next = r;
    else
        *head = r;
    *tail = r;
    r->queued = 1;
}

static void queue_remove(rt_request **head, rt_request **tail, rt_request *r)
{
    if (r->prev)
        r->prev->next = r->next;
    else
        *head = r->next;
    if (r->next)
        r->next->prev = r->prev;
    else
        *tail = r->prev;
    r->next = r->prev = NULL;
    r->queued = 0;
}

static int matches(int ctx, int src, int tag, const rt_msg_hdr *h)
{
    return h->ctx == ctx && (src == RT_ANY_SOURCE || src == h->src) && (tag == RT_ANY_TAG ? h->tag >= 0 : tag == h->tag);
    /* MPI_ANY_TAG never matches the negative tags of partitioned traffic (p2p_part.c) */
}

/* rt__unexpected_find in ch, whose lock the caller holds. */
static inline struct rt__umsg *unexpected_find(struct chan *ch, int ctx, int source, int tag, int take)
{
    struct rt__umsg *prev = NULL, *found = NULL;
    for (struct rt__umsg *m = ch->unexp; m; prev = m, m = m->next) {
        if (!matches(ctx, source, tag, &m->h))
            continue;
        if (take) {
            if (prev)
                prev->next = m->next;
            else
                ch->unexp = m->next;
            if (ch->unexp_tail == m)
                ch->unexp_tail = prev;
            m->next = NULL;
        }
        found = m;
        break;
    }
    return found;
}

struct rt__umsg *rt__unexpected_find(int ctx, int source, int tag, int take)
{
    struct chan *ch = chan_of(ctx);
    chan_acquire(ch);
    struct rt__umsg *m = unexpected_find(ch, ctx, source, tag, take);
    chan_release(ch);
    return m;
}

/* Takes r off its channel's queue of its kind (posted receives, or sends waiting for room)
 * if it is on it: 1 if it was. */
static int unqueue(rt_request *r)
{
    struct chan *ch = chan_of(r->comm->ctx);
    chan_acquire(ch);
    int queued = r->queued;
    if (queued && r->kind == RT__REQ_RECV)
        queue_remove(&ch->posted, &ch->posted_tail, r);
    else if (queued)
        queue_remove(&ch->pending, &ch->pending_tail, r);
    chan_release(ch);
    return queued;
}

int rt__free_when_complete(rt_request *r)
{
    /* under its channel's lock: a channel wait's pass may be completing it */
    struct chan *ch = (r->kind == RT__REQ_SEND || r->kind == RT__REQ_RECV) && r->comm ? chan_of(r->comm->ctx) : NULL;
    if (ch)
        chan_acquire(ch);
    int running = r->active && !rt__request_done(r);
    if (running) {
        r->persistent = 0;
        r->freed = 1;
    }
    if (ch)
        chan_release(ch);
    return running;
}

int rt__posted_cancel(rt_request *r)
{
    return r->kind == RT__REQ_RECV && unqueue(r);
}

int rt__pending_cancel(rt_request *r)
{
    return r->kind == RT__REQ_SEND && r->comm && unqueue(r);
}

/* ------------------------------------------------------------ delivery */

static rt_count capacity(const rt_request *r)
{
    return r->count * r->type->size;
}

/* The error of receive r, of capacity cap, that gets the message with header h; notes the
 * message's taint in r. */
static int received_error(rt_request *r, const rt_msg_hdr *h, rt_count cap)
{
    r->taint = (uint8_t)(h->flags & (RT__MSG_FAILED | RT__MSG_TAINTED));
    if (h->len > cap)
        return RT_ERR_TRUNCATE;
    return h->flags & RT__MSG_FAILED ? RT_X_ERR_PROC_FAILED : h->flags & RT__MSG_TAINTED ? RT_ERR_OTHER : RT_SUCCESS;
}

/* The class a request fails with when its peer failed: the transports say
 * RT_ERR_PROC_ABORTED, the program gets MPIX_ERR_PROC_FAILED (docs/internals.md). */
static int peer_error(int err)
{
    return err == RT_ERR_PROC_ABORTED ? RT_X_ERR_PROC_FAILED : err;
}

/* Acknowledges the match of a synchronous send on context ctx to world rank dst. */
static void send_ack(int dst, int32_t ctx, uint64_t sreq)
{
    rt_msg_hdr h = {.ctx = ctx, .flags = RT_MSG_ACK, .sreq = sreq};
    const rt_tp_ops *tp = E.tp_of ? E.tp_of[dst] : NULL;
    if (!tp) { /* our own synchronous send */
        rt_request *s = (rt_request *)(uintptr_t)sreq;
        s->need_ack = 0;
        if (!s->tp_pending)
            rt__request_complete(s);
        return;
    }
    if (tp->send(dst, &h, NULL, 0, NULL) == RT_TP_AGAIN) {
        struct ctl *c = malloc(sizeof *c);
        if (!c)
            rt__fatal("out of memory queueing a synchronous-send acknowledgement");
        struct chan *ch = chan_of(ctx);
        *c = (struct ctl){dst, h, ch->ctl};
        ch->ctl = c;
        WAITING_SET(ch);
    }
}

/* Puts n bytes of message data into r's buffer (through its datatype) and completes it. */
static void finish_recv(rt_request *r, const void *data, rt_count n)
{
    if (n > 0 && rt__type_contig(r->type))
        rt__copy(r->buf, data, (size_t)n); /* from a ring slot: see rt__copy */
    else if (n > 0)
        rt__type_unpack(r->type, data, n, r->buf);
    rt__request_complete(r);
}

void rt__deliver(rt_request *r, struct rt__umsg *m)
{
    struct chan *ch = chan_of(m->h.ctx);
    chan_acquire(ch);
    rt_count cap = capacity(r), n = m->h.len < cap ? m->h.len : cap;
    r->status.source = m->h.src;
    r->status.tag = m->h.tag;
    r->status.count = n;
    r->status.error = received_error(r, &m->h, cap);
    r->tmp_len = m->h.len; /* the message's real length, for the truncation message */
    /* A synchronous send is acknowledged once the data is in place (or, for a large one,
     * once the transport holds the match): the ack may complete the send and free its copy. */
    int sync = (m->h.flags & RT_MSG_SYNC) != 0, ack_to = m->src_world;
    int32_t ctx = m->h.ctx;
    uint64_t sreq = m->h.sreq;
    if (!m->large) {
        finish_recv(r, m->data, n);
    } else { /* large: NULL for a non-contiguous layout, unpacked piece by piece (env.unpack) */
        void *buf = n && rt__type_contig(r->type) ? r->buf : NULL;
        int rc = m->tp->recv_large(m->src_world, m->h.ctx, m->token, buf, (size_t)n, r);
        if (rc == 0)
            rt__request_complete(r);
        else if (rc > 0)
            r->status.error = peer_error(rc), rt__request_complete(r);
    }
    rt__umsg_free(m);
    if (sync)
        send_ack(ack_to, ctx, sreq);
    chan_release(ch);
}

/* Records of unexpected messages come with room for a small payload, and freed ones are kept
 * for reuse: a small message that arrives before its receive costs no malloc. */
#define UMSG_INLINE 256
#define UMSG_SPARES 64 /* per channel */
struct umsg_block {
    struct rt__umsg m;
    unsigned char data[UMSG_INLINE];
};

/* A message arrived from world rank src (transport or self); payload bytes of room: len. */
static struct rt__umsg *new_umsg(int src, const rt_msg_hdr *h, uint64_t token, const rt_tp_ops *tp,
                                 int large, int64_t len)
{
    struct chan *ch = chan_of(h->ctx); /* held by the caller */
    struct umsg_block *b = (struct umsg_block *)ch->spares;
    if (b)
        ch->spares = b->m.next, ch->nspares--;
    else
        b = malloc(sizeof *b);
    if (!b)
        rt__fatal("out of memory for an incoming message");
    b->m = (struct rt__umsg){.h = *h, .src_world = src, .token = token, .tp = tp, .large = large};
    if (len > UMSG_INLINE) {
        b->m.data = malloc((size_t)len);
        if (!b->m.data)
            rt__fatal("out of memory keeping an unexpected message");
    } else if (len > 0) {
        b->m.data = b->data;
    }
    return &b->m;
}

void rt__umsg_free(struct rt__umsg *m)
{
    struct umsg_block *b = (struct umsg_block *)m;
    struct chan *ch = chan_of(m->h.ctx);
    if (m->data != b->data)
        free(m->data);
    chan_acquire(ch);
    if (ch->nspares < UMSG_SPARES)
        m->next = ch->spares, ch->spares = m, ch->nspares++, b = NULL;
    chan_release(ch);
    free(b);
}

static void incoming(int src, const rt_msg_hdr *h, const void *data, uint64_t token, const rt_tp_ops *tp)
{
    if (h->flags & RT_MSG_ACK) {
        rt_request *s = (rt_request *)(uintptr_t)h->sreq;
        s->need_ack = 0;
        if (!s->tp_pending)
            rt__request_complete(s);
        return;
    }
    int large = tp && !data && h->len > 0;
    struct chan *ch = chan_of(h->ctx);
    for (rt_request *r = ch->posted; r; r = r->next) {
        if (!matches(r->comm->ctx, r->peer, r->tag, h))
            continue;
        queue_remove(&ch->posted, &ch->posted_tail, r);
        if (!large) { /* the common case: straight into the posted receive, no record */
            rt_count cap = capacity(r), n = h->len < cap ? h->len : cap;
            r->status = (rt_status){.source = h->src, .tag = h->tag, .count = n, .error = received_error(r, h, cap)};
            r->tmp_len = h->len;
            finish_recv(r, data, n); /* data in place first: the ack may free it (self) */
            if (h->flags & RT_MSG_SYNC)
                send_ack(src, h->ctx, h->sreq);
            return;
        }
        /* the transport may not re-enter recv_large from its callback: after its progress */
        struct rt__umsg *m = new_umsg(src, h, token, tp, large, 0);
        m->target = r;
        if (ch->defer_tail)
            ch->defer_tail->next = m;
        else
            ch->defer = m;
        ch->defer_tail = m;
        WAITING_SET(ch);
        return;
    }
    int copy = data && h->len > 0; /* keep a copy until a receive comes */
    struct rt__umsg *m = new_umsg(src, h, token, tp, large, copy ? h->len : 0);
    if (copy)
        rt__copy(m->data, data, (size_t)h->len);
    if (ch->unexp_tail)
        ch->unexp_tail->next = m;
    else
        ch->unexp = m;
    ch->unexp_tail = m;
}

/* ------------------------------------------------------------ transport callbacks */

static __thread __attribute__((tls_model("initial-exec"))) const rt_tp_ops *cb_tp; /* the transport whose progress() this thread runs */

static void tp_incoming(int src, const rt_msg_hdr *h, const void *data, uint64_t token)
{
    incoming(src, h, data, token, cb_tp);
}

static void tp_send_done(void *sreq, int err)
{
    rt_request *s = sreq;
    s->tp_pending = 0;
    if (err)
        s->status.error = peer_error(err);
    if (!s->need_ack || err)
        rt__request_complete(s);
}

static void tp_pack(void *sreq, uint64_t offset, size_t n, void *dst)
{
    rt_request *s = sreq;
    rt__type_part(s->type, s->buf, (rt_count)offset, (rt_count)n, dst, 1);
}

static void tp_unpack(void *rreq, uint64_t offset, size_t n, const void *src)
{
    rt_request *r = rreq;
    rt__type_part(r->type, r->buf, (rt_count)offset, (rt_count)n, (void *)src, 0);
}

static void tp_recv_done(void *rreq, int err)
{
    rt_request *r = rreq;
    if (err)
        r->status.error = peer_error(err);
    rt__request_complete(r);
}

int rt__failed_peer(const rt_comm *comm, int source)
{
    if (!E.nfailed || source == RT_PROC_NULL)
        return -1;
    if (source != RT_ANY_SOURCE)
        return E.failed[rt__comm_world_rank(comm, source)] ? source : -1;
    int n = comm->remote_size > 0 ? comm->remote_size : comm->size;
    for (int r = 0; r < n; r++)
        if (E.failed[rt__comm_world_rank(comm, r)])
            return r;
    return -1;
}

int rt__failures(void)
{
    return E.nfailed;
}

/* Fails MPI_ANY_SOURCE receive r because rank lost of its communicator failed (ULFM's
 * MPIX_ERR_PROC_FAILED_PENDING; a blocking call reports MPIX_ERR_PROC_FAILED). */
static void fail_any_source(rt_request *r, int lost)
{
    r->lost = lost;
    r->status = (rt_status){.source = RT_ANY_SOURCE, .tag = RT_ANY_TAG, .error = RT_X_ERR_PROC_FAILED_PENDING};
    rt__request_complete(r);
}

static void tp_peer_failed(int rank)
{
    /* Receives posted for that peer and sends queued to it fail, and so will those started
     * later (rt__recv_start; the transports refuse sends): under the default error handler
     * the job ends (mpiexec tears it down anyway unless -disable-auto-cleanup), under
     * MPI_ERRORS_RETURN the calls return MPIX_ERR_PROC_FAILED. Posted MPI_ANY_SOURCE
     * receives on a communicator whose (remote) group holds that peer fail too, as ULFM's
     * MPIX_ERR_PROC_FAILED_PENDING: the message they wait for may never come. */
    if (!E.failed || E.failed[rank])
        return;
    E.failed[rank] = 1;
    E.nfailed++;
    for (struct chan *ch = C; ch < C + nchan; ch++) {
        for (rt_request *r = ch->posted, *n; r; r = n) {
            n = r->next;
            if (r->peer != RT_ANY_SOURCE && rt__comm_world_rank(r->comm, r->peer) == rank) {
                queue_remove(&ch->posted, &ch->posted_tail, r);
                r->status.error = RT_X_ERR_PROC_FAILED;
                rt__request_complete(r);
            } else if (r->peer == RT_ANY_SOURCE) {
                int lost = rt__failed_peer(r->comm, RT_ANY_SOURCE);
                if (lost >= 0) {
                    queue_remove(&ch->posted, &ch->posted_tail, r);
                    fail_any_source(r, lost);
                }
            }
        }
        for (rt_request *r = ch->pending, *n; r; r = n) {
            n = r->next;
            if (rt__comm_world_rank(r->comm, r->peer) == rank) {
                queue_remove(&ch->pending, &ch->pending_tail, r);
                r->status.error = RT_X_ERR_PROC_FAILED;
                rt__request_complete(r);
            }
        }
    }
}

static int kvs_put(const char *k, const char *v) { return rt__pmi_put(k, v); }
static int kvs_get(const char *k, char *v, size_t n) { return rt__pmi_get(k, v, n); }
static int kvs_barrier(void) { return rt__pmi_barrier(); }

/* ------------------------------------------------------------ sends */

/* Tries to hand send r to its transport; RT_TP_AGAIN leaves it for later. */
static int try_send(rt_request *r)
{
    int dst = rt__comm_world_rank(r->comm, r->peer);
    rt_count n = r->tmp ? r->tmp_len : r->count * r->type->size;
    /* NULL: a non-contiguous send the transport packs piece by piece (env.pack) */
    const void *data = r->tmp ? r->tmp : rt__type_contig(r->type) || n == 0 ? r->buf : NULL;
    rt_msg_hdr h = {.ctx = r->comm->ctx, .src = r->comm->rank, .tag = r->tag, .len = n,
                    .flags = (r->mode == RT__MODE_SYNC ? RT_MSG_SYNC : 0) | r->taint,
                    .sreq = (uint64_t)(uintptr_t)r};
    int sync = r->mode == RT__MODE_SYNC;
    r->need_ack = (uint8_t)sync;
    const rt_tp_ops *tp = E.tp_of ? E.tp_of[dst] : NULL;
    if (!tp) { /* to ourselves: straight into the matching; a synchronous send is completed
                  by its acknowledgement (possibly already, and r released with it) */
        incoming(dst, &h, data, 0, NULL);
        if (!sync)
            rt__request_complete(r);
        return 0;
    }
    int rc = tp->send(dst, &h, data, (size_t)n, r);
    if (rc == 0) {
        if (!sync)
            rt__request_complete(r);
    } else if (rc == RT_TP_PENDING) {
        r->tp_pending = 1;
    } else if (rc > 0) {
        r->status.error = peer_error(rc);
        rt__request_complete(r);
    }
    return rc;
}

int rt__send_eager(const void *buf, rt_count count, rt_type *type, int peer, int tag, rt_comm *comm)
{
    if (peer == RT_PROC_NULL || !type->committed || !rt__type_contig(type))
        return 0;
    int dst = rt__comm_world_rank(comm, peer);
    const rt_tp_ops *tp = E.tp_of ? E.tp_of[dst] : NULL;
    size_t n = (size_t)(count * type->size);
    if (!tp || n > tp->eager_max || (n && !buf))
        return 0;
    rt_msg_hdr h = {.ctx = comm->ctx, .src = comm->rank, .tag = tag, .len = (int64_t)n};
    struct chan *ch = chan_of(comm->ctx);
    if (!__builtin_expect(chan_locks, 0)) /* a tail call */
        return !ch->pending && tp->send(dst, &h, buf, n, NULL) == 0; /* else nothing was sent */
    chan_lock_slow(ch);
    int sent = !ch->pending && tp->send(dst, &h, buf, n, NULL) == 0;
    chan_unlock_slow(ch);
    return sent;
}

rt_request *rt__send_now(const void *buf, rt_count count, rt_type *type, int peer, int tag, rt_comm *comm)
{
    rt_request *r = rt__request_sent();
    if (__builtin_expect(!r, 0) || !rt__send_eager(buf, count, type, peer, tag, comm))
        return NULL;
    rt__obj_retain(&r->obj);
    return r;
}

int rt__send_start(rt_request *r)
{
    r->status = (rt_status){.source = RT_ANY_SOURCE, .tag = RT_ANY_TAG};
    if (r->peer == RT_PROC_NULL) {
        rt__request_complete(r);
        return RT_SUCCESS;
    }
    if (r->mode == RT__MODE_BUFFERED)
        return rt__bsend_start(r);
    int dst = rt__comm_world_rank(r->comm, r->peer);
    if (!rt__type_contig(r->type) && r->count > 0 && !(E.tp_of && E.tp_of[dst])) {
        /* to ourselves: a packed copy (a transport packs in place, through env.pack) */
        r->tmp_len = r->count * r->type->size;
        r->tmp = malloc((size_t)r->tmp_len);
        if (!r->tmp)
            return RT_ERR_NO_MEM;
        rt__type_pack(r->type, r->buf, r->count, r->tmp);
    }
    /* Keep the order of sends: while some wait for room, new ones queue behind them. */
    struct chan *ch = chan_of(r->comm->ctx);
    chan_acquire(ch);
    if (ch->pending || try_send(r) == RT_TP_AGAIN) {
        queue_append(&ch->pending, &ch->pending_tail, r);
        WAITING_SET(ch);
    }
    chan_release(ch);
    return RT_SUCCESS;
}

int rt__recv_start(rt_request *r)
{
    r->status = (rt_status){.source = RT_PROC_NULL, .tag = RT_ANY_TAG};
    if (r->peer == RT_PROC_NULL) {
        rt__request_complete(r);
        return RT_SUCCESS;
    }
    struct chan *ch = chan_of(r->comm->ctx); /* held from the search to the posting */
    chan_acquire(ch);
    struct rt__umsg *m = unexpected_find(ch, r->comm->ctx, r->peer, r->tag, 1);
    if (m) {
        rt__deliver(r, m);
    } else if (r->peer != RT_ANY_SOURCE && E.failed && E.failed[rt__comm_world_rank(r->comm, r->peer)]) {
        r->status.error = RT_X_ERR_PROC_FAILED; /* nothing more can come from it */
        rt__request_complete(r);
    } else if (r->peer == RT_ANY_SOURCE && rt__failed_peer(r->comm, RT_ANY_SOURCE) >= 0) {
        fail_any_source(r, rt__failed_peer(r->comm, RT_ANY_SOURCE)); /* as if posted before the failure */
    } else {
        queue_append(&ch->posted, &ch->posted_tail, r);
    }
    chan_release(ch);
    return RT_SUCCESS;
}

/* ------------------------------------------------------------ progress */

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

/* Delivers the large messages ch's receives matched during a transport's progress. */
static void deliver_deferred(struct chan *ch)
{
    while (ch->defer) {
        struct rt__umsg *m = ch->defer;
        ch->defer = m->next;
        if (!ch->defer)
            ch->defer_tail = NULL;
        m->next = NULL;
        rt__deliver(m->target, m);
    }
}

/* Sends ch's acknowledgements and sends that waited for room, in order; returns how many. */
static int send_waiting(struct chan *ch)
{
    int n = 0;
    while (ch->ctl) {
        struct ctl *c = ch->ctl;
        if (E.tp_of[c->dst]->send(c->dst, &c->h, NULL, 0, NULL) == RT_TP_AGAIN)
            break;
        ch->ctl = c->next;
        free(c);
        n++;
    }
    while (ch->pending) {
        rt_request *r = ch->pending;
        queue_remove(&ch->pending, &ch->pending_tail, r);
        if (try_send(r) == RT_TP_AGAIN) {
            r->next = ch->pending; /* back at the head: order is kept */
            r->prev = NULL;
            if (ch->pending)
                ch->pending->prev = r;
            else
                ch->pending_tail = r;
            ch->pending = r;
            r->queued = 1;
            break;
        }
        n++;
    }
    return n;
}

/* send_waiting(ch), and ch's bit in `waiting` cleared when nothing is left queued on it. */
static int send_waiting_settle(struct chan *ch)
{
    int n = send_waiting(ch);
    if (!ch->defer && !ch->ctl && !ch->pending)
        WAITING_CLEAR(ch);
    return n;
}

/* The channels with work waiting (bits of `waiting`; their deferred deliveries are done): what
 * waits for room; clears the bits of those left with nothing (sends to this process are
 * matched at once, so sending defers nothing). */
static __attribute__((noinline)) int pass_waiting(void)
{
    int n = 0;
    for (unsigned bits = WAITING(); bits; bits &= bits - 1)
        n += send_waiting_settle(&C[__builtin_ctz(bits)]);
    return n;
}

/* ------------------------------------------------------------ channel waits */

__thread __attribute__((tls_model("initial-exec"))) int rt__on_channel;

static rt_request *later; /* rt__request_later's, linked through next (a lock-free stack) */

int rt__enter_channel(void)
{
    if (rt__on_channel || rt__big_held())
        return 0; /* called back from inside the library: as any call there */
    rt__on_channel = 1;
    return 1;
}

int rt__big_enter_slow(void)
{
    rt__big_lock();
    rt__on_channel = 0;
    rt__finish_later(); /* channel entries may never run a full pass */
    return 1;
}

void rt__big_leave_slow(void)
{
    rt__on_channel = 1;
    rt__big_unlock();
}

int rt__raise_lock_p2p(int take)
{
    if (take)
        return rt__big_enter();
    rt__big_leave(1);
    return 0;
}

void rt__request_later(rt_request *r)
{
    rt_request *head = __atomic_load_n(&later, __ATOMIC_RELAXED);
    do
        r->next = head;
    while (!__atomic_compare_exchange_n(&later, &head, r, 1, __ATOMIC_RELEASE, __ATOMIC_RELAXED));
}

void rt__finish_later(void)
{
    if (!__atomic_load_n(&later, __ATOMIC_RELAXED))
        return;
    for (rt_request *r = __atomic_exchange_n(&later, NULL, __ATOMIC_ACQUIRE), *next; r; r = next) {
        next = r->next;
        r->next = NULL;
        rt__request_finish_shared(r);
    }
}

/* Channel ch's pass (its lock held): its part of each transport's progress, its deferred
 * deliveries, what waits for room on it. */
static int pass_chan(struct chan *ch)
{
    int n = 0, c = (int)(ch - C);
    for (int i = 0; i < E.npolled; i++) {
        cb_tp = E.polled[i];
        n += E.polled[i]->progress_chan(c);
    }
    deliver_deferred(ch);
    if (WAITING() & (1u << c))
        n += send_waiting_settle(ch);
    return n;
}

static void watch_posted(void);

/* The idle-th idle pass of a wait that holds no lock meanwhile: spin briefly, then yield,
 * then nap 50 us (spins: how long a reply takes from a rank that has its own CPU). */
static void back_off(unsigned idle, unsigned spins)
{
    if (idle < spins)
        cpu_relax();
    else if (idle < spins + 1024)
        sched_yield();
    else
        nanosleep(&(struct timespec){0, 50000}, NULL);
}

/* A wait whose requests all travel on channel ch: the library's lock is given back for the
 * whole wait, and each pass holds ch's lock only (done is tested under it); every eighth idle
 * pass, if the library's lock is free, a pass over everything (schedules, windows, the peers'
 * liveness, what a dead peer left in the rings). */
static void wait_chan(struct chan *ch, int (*done)(void *), void *arg)
{
    int entered = rt__on_channel; /* a channel entry: the library's lock is not held */
    int paused = entered ? 0 : rt__big_pause();
    if (!entered && !paused) { /* the biased thread, alone in the library */
        rt__wait_until(done, arg);
        return;
    }
    const unsigned spins = E.env.crowded ? 8 : 64;
    double watch_at = monotonic_seconds() + 1;
    rt__on_channel = 1;
    for (unsigned idle = 0;;) {
        chan_lock_slow(ch);
        int n = pass_chan(ch), d = done(arg);
        chan_unlock_slow(ch);
        if (d)
            break;
        if (n > 0) {
            idle = 0;
            continue;
        }
        if ((++idle & 7) == 0 && rt__big_trylock()) {
            rt__on_channel = 0;
            n = rt__progress();
            if (idle > spins + 1024 && monotonic_seconds() >= watch_at) {
                watch_posted();
                watch_at = monotonic_seconds() + 1;
            }
            rt__big_unlock();
            rt__on_channel = 1;
            if (n > 0) {
                idle = 0;
                continue;
            }
        }
        back_off(idle, spins);
    }
    rt__on_channel = entered;
    rt__big_resume(paused);
}

/* The channel every active, incomplete request of r[0..n) travels on, if they are all sends and
 * receives of one channel and this thread holds no channel's lock; else -1. */
static int requests_chan(int n, rt_request *const *r)
{
    int c = -1;
    if (held_any())
        return -1;
    for (int i = 0; i < n; i++) {
        if (!r[i] || !r[i]->active || rt__request_done(r[i]))
            continue;
        if ((r[i]->kind != RT__REQ_SEND && r[i]->kind != RT__REQ_RECV) || !r[i]->comm)
            return -1;
        int k = rt_tp_chan(r[i]->comm->ctx, nchan);
        if (c >= 0 && k != c)
            return -1;
        c = k;
    }
    return c;
}

/* One pass for a channel entry's test on channel c (-1: none): of c alone, but every eighth
 * call a pass over everything, as a channel wait makes. */
static int progress_chan_or_all(int c)
{
    static __thread __attribute__((tls_model("initial-exec"))) unsigned calls;
    if (c >= 0 && (++calls & 7) != 0) {
        chan_lock_slow(&C[c]);
        int k = pass_chan(&C[c]);
        chan_unlock_slow(&C[c]);
        return k;
    }
    int took = rt__big_enter(), k = rt__progress();
    rt__big_leave(took);
    return k;
}

/* A wait on channel c (-1: on other work too, under the library's lock). */
static void wait_chan_or_all(int c, int (*done)(void *), void *arg)
{
    if (c < 0) {
        int took = rt__big_enter(); /* a channel entry waiting on other work */
        rt__wait_until(done, arg);
        rt__big_leave(took);
    } else {
        wait_chan(&C[c], done, arg);
    }
}

int rt__progress_requests_chan(int n, rt_request *const *r)
{
    return progress_chan_or_all(rt__on_channel ? requests_chan(n, r) : -1); /* a channel entry */
}

void rt__wait_requests_chan(int n, rt_request *const *r, int (*done)(void *), void *arg)
{
    wait_chan_or_all(requests_chan(n, r), done, arg);
}

/* The channel of context ctx for a probe: in a channel entry holding no channel's lock. */
static int ctx_chan(int ctx)
{
    return rt__on_channel && !held_any() ? rt_tp_chan(ctx, nchan) : -1;
}

int rt__progress_ctx_chan(int ctx)
{
    return progress_chan_or_all(ctx_chan(ctx));
}

void rt__wait_ctx_chan(int ctx, int (*done)(void *), void *arg)
{
    wait_chan_or_all(ctx_chan(ctx), done, arg);
}

int rt__progress(void)
{
    int n = 0;
    if (__builtin_expect(rt__chan_waits, 0))
        rt__finish_later();
    all_acquire();
    for (int i = 0; i < E.npolled; i++) {
        cb_tp = E.polled[i];
        n += E.polled[i]->progress();
        for (unsigned bits = WAITING(); bits; bits &= bits - 1) /* large deliveries first */
            deliver_deferred(&C[__builtin_ctz(bits)]);
    }
    if (__builtin_expect(WAITING() != 0, 0))
        n += pass_waiting();
    all_release();
    if (__builtin_expect(rt__needs != 0, 0)) { /* the upper parts' passes, while they have work */
        if (rt__needs & RT__NEED_COLL)
            n += rt__coll_hooks.progress();
        if (rt__needs & RT__NEED_WIN)
            n += rt__win_progress();
        if (rt__needs & RT__NEED_IO)
            n += rt__io_progress();
    }
    return n;
}

int rt__peer_shares_memory(int w)
{
    return w == rt__g.world.rank || (E.tp_of && w >= 0 && w < rt__g.world.size && E.tp_of[w] == &rt_tp_shm);
}

int rt__node_crowded(void)
{
    return E.env.crowded;
}

void rt__watch_peer(int w)
{
    const rt_tp_ops *tp = w >= 0 && E.tp_of && w < rt__g.world.size ? E.tp_of[w] : NULL;
    if (tp && tp->size >= sizeof(rt_tp_ops) && tp->watch)
        tp->watch(w);
}

/* Asks the transports to watch the peers that posted receives wait for (rt_tp_ops.watch). */
static void watch_posted(void)
{
    all_acquire();
    for (struct chan *ch = C; ch < C + nchan; ch++) {
        for (rt_request *r = ch->posted; r; r = r->next) {
            if (r->peer < 0)
                continue; /* MPI_ANY_SOURCE */
            int w = rt__comm_world_rank(r->comm, r->peer);
            const rt_tp_ops *tp = w >= 0 && E.tp_of ? E.tp_of[w] : NULL;
            if (tp && tp->size >= sizeof(rt_tp_ops) && tp->watch)
                tp->watch(w);
        }
    }
    all_release();
}

void rt__wait_until(int (*done)(void *), void *arg)
{
    double watch_at = 0; /* when the peers waited for are watched next */
    /* Crowded (node_crowded), the rank we wait for may need our CPU: spin only as long as a
     * reply from a rank running elsewhere takes, then yield. */
    const unsigned spins = E.env.crowded ? 8 : 64;
    for (unsigned idle = 0; !done(arg);) {
        if (rt__progress() > 0) {
            idle = 0;
            continue;
        }
        idle++;
        int paused = rt__big_pause();
        if (paused) { /* MPI_THREAD_MULTIPLE: the other threads' calls go on meanwhile */
            back_off(idle, spins);
            rt__big_resume(paused);
            continue;
        }
        if (idle < spins) {
            cpu_relax();
        } else if (idle < spins + 64 || E.npolled == 0) {
            if (E.npolled == 0 && idle >= spins + 64) { /* nothing can arrive from outside */
                struct timespec ts = {0, 100000};
                nanosleep(&ts, NULL);
            } else {
                sched_yield();
            }
        } else {
            double t = monotonic_seconds();
            if (watch_at == 0) {
                watch_at = t + 1;
            } else if (t >= watch_at) {
                watch_posted();
                watch_at = t + 1;
            }
            for (int i = 0; i < E.npolled; i++) /* an I/O thread's work rings no doorbell: nap */
                E.polled[i]->wait((rt__needs & RT__NEED_IO) ? 50000 : E.npolled > 1 ? 100000 : 2000000);
        }
    }
}

/* ------------------------------------------------------------ set-up */

/* The node of every world rank from the host names all ranks publish: one PMI get per rank,
 * so O(size^2) requests per node; only when the launcher gave no usable node map. A host is
 * a name and a network namespace: ranks in two namespaces of one machine (`ip netns`,
 * containers) reach each other only over the network, and often see distinct /dev/shm. */
static int exchange_hosts(int size, int rank)
{
    char key[32], host[256], other[256], netns[64] = "";
    if (gethostname(host, sizeof host - sizeof netns) != 0)
        strcpy(host, "localhost");
    host[sizeof host - sizeof netns] = '\0';
    ssize_t n = readlink("/proc/self/ns/net", netns + 1, sizeof netns - 2);
    if (n > 0) {
        netns[0] = '/';
        netns[n + 1] = '\0';
        strcat(host, netns);
    }
    for (char *p = host; *p; p++)
        if (*p == ' ' || *p == '=')
            *p = '_';
    snprintf(key, sizeof key, "sy-host-%d", rank);
    if (rt__pmi_put(key, host) || rt__pmi_barrier())
        return RT_ERR_OTHER;
    char (*names)[256] = calloc((size_t)size, sizeof *names);
    if (!names)
        return RT_ERR_NO_MEM;
    int nodes = 0;
    for (int r = 0; r < size; r++) {
        snprintf(key, sizeof key, "sy-host-%d", r);
        if (rt__pmi_get(key, other, sizeof other)) {
            free(names);
            return RT_ERR_OTHER;
        }
        int n = 0;
        while (n < nodes && strcmp(names[n], other) != 0)
            n++;
        if (n == nodes)
            strcpy(names[nodes++], other);
        E.node_of[r] = n;
    }
    free(names);
    return RT_SUCCESS;
}

/* The node of every world rank: from the launcher's PMI_process_mapping (one get), else by
 * exchanging host names. The value is the same for every rank, so all take the same path
 * (the exchange has a barrier). SWITCHYARD_DEBUG=nodemap: rank 0 says which on stderr. */
static int find_nodes(int size, int rank)
{
    E.node_of = calloc((size_t)size, sizeof *E.node_of);
    if (!E.node_of)
        return RT_ERR_NO_MEM;
    size_t kmax, vmax;
    rt__pmi_limits(&kmax, &vmax);
    char *map = malloc(vmax + 1);
    if (!map)
        return RT_ERR_NO_MEM;
    int from_launcher = rt__pmi_get(RT_NODEMAP_KEY, map, vmax + 1) == 0 &&
                        rt__nodemap_parse(map, size, E.node_of) == 0;
    /* A map naming several nodes, such as Hydra's for -hosts a,b with its fork launcher on
     * this one machine, is settled by the host names (and network namespaces), which put ranks
     * that really share a machine together, on shared memory. Every rank reads the same value,
     * so all of them choose the same path. */
    for (int r = 1; from_launcher && r < size; r++)
        if (E.node_of[r] != E.node_of[0])
            from_launcher = 0;
    const char *dbg = getenv("SWITCHYARD_DEBUG");
    if (rank == 0 && dbg && strstr(dbg, "nodemap"))
        fprintf(stderr, "switchyard: node map of %d ranks %s\n", size,
                from_launcher ? "from " RT_NODEMAP_KEY : "from the host name exchange");
    free(map);
    return from_launcher ? RT_SUCCESS : exchange_hosts(size, rank);
}

int rt__node_of(int w)
{
    return E.node_of && w >= 0 && w < rt__g.world.size ? E.node_of[w] : 0;
}

/* The CPUs this process may run on, or the node's when it is bound to one (by mpiexec). */
static long node_cpus(void)
{
    cpu_set_t mask;
    long cpus = sched_getaffinity(0, sizeof mask, &mask) == 0 ? CPU_COUNT(&mask) : 0;
    return cpus <= 1 ? sysconf(_SC_NPROCESSORS_ONLN) : cpus;
}

/* Whether this node runs more of the job's ranks than there are CPUs for them. The CPUs are
 * those of our affinity mask, or all online ones when a launcher bound us to a single one (it
 * then placed the ranks apart: mpiexec binds only when every rank has a CPU of its own). */
static int node_crowded(int size, int rank)
{
    int here = 0;
    for (int r = 0; r < size; r++)
        here += E.node_of[r] == E.node_of[rank];
    long cpus = node_cpus();
    return cpus > 0 && here > cpus;
}

/* The channels this rank asks for: SWITCHYARD_CHANNELS, else at MPI_THREAD_MULTIPLE one per
 * CPU (a power of two, at most CHAN_MAX), else 1. The ranks of a node settle on their first
 * rank's (the shared-memory transport: tp_settle_chans). A SWITCHYARD_CHANNELS other than 1,
 * 2, 4 or 8 is reported and ignored. */
static int channels_wanted(int rank)
{
    const char *e = getenv("SWITCHYARD_CHANNELS");
    if (!e || !*e) {
        if (rt__g.life.thread_provided != RT_THREAD_MULTIPLE)
            return 1;
        long cpus = node_cpus();
        int n = 1;
        while (n * 2 <= cpus && n * 2 <= CHAN_MAX)
            n *= 2;
        return n;
    }
    char *end;
    long n = strtol(e, &end, 10);
    if (*end || n < 1 || n > CHAN_MAX || (n & (n - 1))) {
        if (rank == 0)
            fprintf(stderr, "switchyard: SWITCHYARD_CHANNELS=%s ignored: 1, 2, 4 or 8\n", e);
        return 1;
    }
    return (int)n;
}

/* rt_tp_env.settle_chans: the channels the ranks of this node agreed on. */
static void tp_settle_chans(int n)
{
    nchan = n;
    E.env.nchan = n;
}

int rt__p2p_init(void)
{
    int size = rt__g.world.size, rank = rt__g.world.rank;
    nchan = channels_wanted(rank);
    if (size == 1)
        return RT_SUCCESS; /* a singleton talks only to itself */
    int err = find_nodes(size, rank);
    if (err)
        return err;
    E.tp_of = calloc((size_t)size, sizeof *E.tp_of);
    E.failed = calloc((size_t)size, 1);
    if (!E.tp_of || !E.failed)
        return RT_ERR_NO_MEM;
    const char *jobid = getenv("SWITCHYARD_JOBID");
    E.env = (rt_tp_env){.world_rank = rank, .world_size = size, .jobid = jobid ? jobid : "nojob",
                        .node_of = E.node_of, .crowded = node_crowded(size, rank), .nchan = nchan,
                        .kvs_put = kvs_put, .kvs_barrier = kvs_barrier, .kvs_get = kvs_get,
                        .incoming = tp_incoming, .send_done = tp_send_done, .recv_done = tp_recv_done,
                        .pack = tp_pack, .unpack = tp_unpack,
                        .peer_failed = tp_peer_failed, .settle_chans = tp_settle_chans};
    static const rt_tp_ops *const candidates[] = {&rt_tp_tcp, &rt_tp_shm}; /* first wins */
    for (size_t i = 0; i < sizeof candidates / sizeof *candidates; i++) {
        const rt_tp_ops *tp = candidates[i];
        if (tp->version < RT_TP_VERSION || tp->size < sizeof(rt_tp_ops))
            continue;
        if (tp->init(&E.env) != 0)
            return RT_ERR_OTHER;
        E.active[E.nactive++] = tp;
        for (int r = 0; r < size; r++)
            if (r != rank && !E.tp_of[r] && tp->reaches(r))
                E.tp_of[r] = tp;
    }
    for (int r = 0; r < size; r++)
        if (r != rank && !E.tp_of[r])
            return RT_ERR_OTHER; /* no transport reaches r */
    const char *dbg = getenv("SWITCHYARD_DEBUG");
    if (dbg && strstr(dbg, "channels"))
        fprintf(stderr, "switchyard: rank %d: channels: %d\n", rank, nchan);
    if (rank == 0 && dbg && strstr(dbg, "transport"))
        for (int r = 1; r < size; r++)
            fprintf(stderr, "switchyard: rank 0 reaches rank %d through %s\n", r, E.tp_of[r]->name);
    for (int i = 0; i < E.nactive; i++) {
        int used = 0;
        for (int r = 0; r < size && !used; r++)
            used = E.tp_of[r] == E.active[i];
        if (used)
            E.polled[E.npolled++] = E.active[i];
    }
    return RT_SUCCESS;
}

static int nothing_pending(void *arg)
{
    (void)arg;
    int idle = 1;
    all_acquire();
    for (struct chan *ch = C; ch < C + nchan && idle; ch++)
        idle = !ch->pending && !ch->ctl;
    all_release();
    return idle;
}

void rt__p2p_finalize(void)
{
    rt__wait_until(nothing_pending, NULL);
    for (int i = 0; i < E.nactive; i++)
        E.active[i]->finalize();
    E.nactive = E.npolled = 0;
    for (struct chan *ch = C; ch < C + nchan; ch++) {
        while (ch->unexp) { /* messages nobody received */
            struct rt__umsg *m = ch->unexp;
            ch->unexp = m->next;
            rt__umsg_free(m);
        }
        ch->unexp_tail = NULL;
    }
    for (struct chan *ch = C; ch < C + nchan; ch++)
        for (struct rt__umsg *m; (m = ch->spares) != NULL; ch->nspares--)
            ch->spares = m->next, free(m);
    rt__requests_give_back(); /* users' handles to them are invalid after MPI_Finalize */
    free(E.tp_of);
    free(E.node_of);
    free(E.failed);
    E.failed = NULL;
    E.nfailed = 0;
    E.tp_of = NULL;
    E.node_of = NULL;
}
