/* p2p.h — the point-to-point part's contract: communicators and requests as the parts above
 * see them, message queues and matching, starting and completing requests, progress, waits. */
#ifndef RT_P2P_H
#define RT_P2P_H

#include "rt_internal.h"
#include "attr/attr.h"
#include "transport.h"

/* ------------------------------------------------------------ communicators */

/* A communicator as every part from here up sees it: point-to-point is the lowest part that
 * reads one (its context and ranks); the communicator part (comm/) makes and frees them. */
struct rt_comm {
    rt_obj obj;
    int size;                    /* local group size */
    int rank;                    /* this process's rank in the local group */
    int remote_size;             /* 0 for intra-communicators */
    rt_errhandler *errh;         /* holds a reference (never NULL once set up) */
    char name[RT_MAX_OBJECT_NAME];
    int ctx;                     /* point-to-point context id; collectives use ctx + 1 */
    int *world;                  /* world[r]: world rank of rank r (remote group for inter-
                                    communicators); NULL = the identity (MPI_COMM_WORLD) */
    struct rt__bsend_buf *bbuf;  /* buffer attached to this communicator (MPI-4.1), or NULL */
    int *lworld;                 /* inter-communicators: lworld[r] = world rank of local rank r;
                                    NULL for intra-communicators (their local group is world) */
    struct rt_comm *coll;        /* internal view of the collective context (ctx + 1) over the
                                    remote group (intra: the group); NULL until set up */
    struct rt_comm *lcoll;       /* inter-communicators: the collective context over the local
                                    group (same ctx + 1, own tags); NULL for intra-communicators */
    struct rt__topo *topo;       /* Cartesian, graph or distributed-graph topology, or NULL */
    rt_info *info;               /* hints set by the user (owned), or NULL */
    uint8_t owns_ctx;            /* 1: ctx / 2 was taken from this process's free ids */
    unsigned coll_seq;           /* collectives started on it: each gets its own tags */
    struct rt__coll_shm *cshm;   /* the region of its collectives on one node (coll_shm.c):
                                    NULL until its first one that may use it */
    struct rt__attrs attrs;      /* cached attributes (attr_list.c) */
};

/* The world rank of rank r of comm's local group. */
static inline int rt__comm_local_world(const rt_comm *comm, int r)
{
    return comm->lworld ? comm->lworld[r] : comm->world ? comm->world[r] : r;
}

/* The world rank of rank r of comm's (remote, for inter-communicators) group. */
static inline int rt__comm_world_rank(const rt_comm *comm, int r)
{
    return comm->world ? comm->world[r] : r;
}

struct rt__umsg;

/* A matched message taken off the queue by MPI_Mprobe/MPI_Improbe. */
struct rt_message {
    rt_obj obj;
    struct rt__umsg *msg;    /* NULL: MPI_MESSAGE_NO_PROC */
    rt_comm *comm;           /* holds a reference */
};

enum rt__req_kind { RT__REQ_SEND = 1, RT__REQ_RECV, RT__REQ_COMPOSITE, RT__REQ_COLL, RT__REQ_GREQ, RT__REQ_PART };
enum rt__send_mode { RT__MODE_STD = 0, RT__MODE_SYNC, RT__MODE_READY, RT__MODE_BUFFERED };

/* A request: a send or a receive in flight, a persistent one (created inactive by *_init),
 * a composite one (MPI_Isendrecv: done when its parts are), or a generalized one
 * (MPI_Grequest_start: done when the user says, p2p_greq.c), or a partitioned one
 * (MPI_Psend_init/MPI_Precv_init, p2p_part.c). p2p_*.c own the fields. */
struct rt_request {
    rt_obj obj;
    uint8_t kind;          /* enum rt__req_kind */
    uint8_t mode;          /* sends: enum rt__send_mode */
    uint8_t persistent;    /* made by *_init: survives completion, inactive until MPI_Start */
    uint8_t active;        /* started, not yet completed and returned by a wait or test */
    uint8_t complete;
    uint8_t freed;         /* MPI_Request_free'd while active: freed on completion */
    uint8_t need_ack;      /* a synchronous send waiting for the receiver's match */
    uint8_t tp_pending;    /* the transport still reads the send buffer */
    uint8_t queued;        /* on the posted-receive or pending-send queue */
    uint8_t blocking;      /* waited for by the call that started it (MPI_Recv, MPI_Sendrecv):
                              a process failure fails its MPI_ANY_SOURCE receive with
                              RT_X_ERR_PROC_FAILED rather than RT_X_ERR_PROC_FAILED_PENDING */
    uint8_t taint;         /* a collective's send whose data depend on a failed process
                              (RT__MSG_FAILED) or on a failed part of the collective
                              (RT__MSG_TAINTED): the flag it is sent with, which fails its
                              receive (coll_sched.c); a receive: the flag its message bore */
    rt_comm *comm;         /* holds a reference */
    rt_type *type;         /* holds a reference */
    void *buf;
    rt_count count;
    int peer;              /* rank in comm: destination, or source (RT_ANY_SOURCE) */
    int tag;               /* may be RT_ANY_TAG for receives */
    int lost;              /* an MPI_ANY_SOURCE receive failed by a process failure: the rank
                              in comm of the failed process */
    rt_status status;
    void *tmp;             /* owned packed copy of the data (non-contiguous or buffered) */
    rt_count tmp_len;
    struct rt__bsend_buf *bbuf;      /* buffered send: the attached buffer holding tmp */
    struct rt_request *next, *prev;  /* queue links */
    struct rt_request *sub[2];       /* composite: its parts (owned) */
    struct rt_message *mrecv;        /* MPI_Mrecv/Imrecv: the message to receive */
    struct rt__sched *sched;         /* collectives: the schedule it runs (owned) */
    struct rt__greq *greq;           /* generalized requests: the user's callbacks (owned; NULL
                                        once its free function ran) */
    struct rt__part *part;           /* partitioned requests: their partitions' state (owned) */
};


/* The node index of world rank w in the job's node map (p2p_engine.c; 0 for a singleton). */
int rt__node_of(int w);

/* A message that arrived before its receive was posted (or was taken by MPI_Mprobe). */
struct rt__umsg {
    rt_msg_hdr h;
    int src_world;
    void *data;              /* eager or self payload (owned copy), NULL for large */
    uint64_t token;          /* large: the transport's token for recv_large */
    int large;               /* the payload is still with the sender's transport */
    const rt_tp_ops *tp;     /* transport it came through; NULL: this process (self) */
    rt_request *target;      /* a large message matched inside a transport callback: the
                                receive it goes to once the transport's progress returns */
    struct rt__umsg *next;
};

/* ---- engine (p2p_engine.c) */

/* Header flags of the engine's own (transports carry flags verbatim), set from a collective's
 * send rt_request.taint: the sender's data depend on a failed process (RT__MSG_FAILED: the
 * receive that matches it completes with RT_X_ERR_PROC_FAILED), or on a part of the
 * collective that failed otherwise, such as a type-signature mismatch (RT__MSG_TAINTED: the
 * receive completes with RT_ERR_OTHER). The data are delivered all the same. */
#define RT__MSG_FAILED 4u
#define RT__MSG_TAINTED 8u
_Static_assert(!((RT__MSG_FAILED | RT__MSG_TAINTED) & (RT_MSG_SYNC | RT_MSG_ACK)), "the engine's flags are the transports'");

/* Frees an unexpected-message record and its payload (taken off every queue). */
void rt__umsg_free(struct rt__umsg *m);

/* Sets up the transports for the job (after rt__world_init). RT_SUCCESS or an error class. */
int rt__p2p_init(void);
/* Finishes pending sends and leaves the transports (collective over the job). */
void rt__p2p_finalize(void);
/* One pass over the transports and the pending sends; returns the events handled. */
int rt__progress(void);
/* Blocks until done(arg) is true, progressing; spins briefly, then yields, then sleeps on
 * the transports' doorbells, so oversubscribed jobs keep moving. */
void rt__wait_until(int (*done)(void *), void *arg);
/* rt__wait_until for a wait on requests r[0..n) (NULL, inactive and complete ones ignored):
 * under MPI_THREAD_MULTIPLE with channel locks, when they are all sends and receives on one
 * channel and every transport keeps channels apart, the wait gives the library's lock back
 * and each of its passes holds that channel's lock only (done is called under it). */
extern int rt__chan_waits; /* set once at MPI_Init_thread (p2p_engine.c) */
void rt__wait_requests_chan(int n, rt_request *const *r, int (*done)(void *), void *arg);
static inline void rt__wait_requests(int n, rt_request *const *r, int (*done)(void *), void *arg)
{
    if (__builtin_expect(rt__chan_waits, 0))
        rt__wait_requests_chan(n, r, done, arg);
    else
        rt__wait_until(done, arg);
}
/* One pass of progress for the tests of requests r[0..n) (MPI_Test*): in a channel entry, of
 * the one channel they all travel on, if they do (but every eighth call a full pass, as a
 * channel wait makes); else a full pass (rt__progress, under the library's lock). Returns
 * what the pass did. */
int rt__progress_requests_chan(int n, rt_request *const *r);
static inline int rt__progress_requests(int n, rt_request *const *r)
{
    if (__builtin_expect(rt__chan_waits, 0))
        return rt__progress_requests_chan(n, r);
    return rt__progress();
}
/* rt__progress_requests and rt__wait_requests for a probe of the messages of context ctx: in a
 * channel entry, ctx's channel's (MPI_Probe, MPI_Mprobe and their nonblocking forms). */
int rt__progress_ctx_chan(int ctx);
void rt__wait_ctx_chan(int ctx, int (*done)(void *), void *arg);
static inline int rt__progress_ctx(int ctx)
{
    if (__builtin_expect(rt__chan_waits, 0))
        return rt__progress_ctx_chan(ctx);
    return rt__progress();
}
static inline void rt__wait_ctx(int ctx, int (*done)(void *), void *arg)
{
    if (__builtin_expect(rt__chan_waits, 0))
        rt__wait_ctx_chan(ctx, done, arg);
    else
        rt__wait_until(done, arg);
}
/* rt__on_channel (rt.h) is set in a thread that runs without the library's lock: a channel
 * entry, or a channel wait's passes (rt__wait_requests). A request completed there whose
 * completion touches shared state (a buffered send's space, a freed request's destruction) is
 * handed to rt__request_later, and rt__request_finish_shared runs for it in the next pass
 * under the library's lock. */
void rt__request_later(rt_request *r);
/* The library's lock held: finishes what rt__request_later queued (rt__progress does; so does
 * taking the lock in a channel entry, and a buffered send that finds no room). */
void rt__finish_later(void);
/* Such a thread takes the library's lock around what needs it: rt__big_enter returns 1 if it
 * took it (rt__on_channel cleared meanwhile), 0 if the thread held it already; rt__big_leave
 * takes that back. */
int rt__big_enter_slow(void);
void rt__big_leave_slow(void);
static inline int rt__big_enter(void)
{
    return __builtin_expect(rt__on_channel, 0) ? rt__big_enter_slow() : 0;
}
static inline void rt__big_leave(int took)
{
    if (__builtin_expect(took, 0))
        rt__big_leave_slow();
}
/* rt__raise_lock (err.h) for the error part: rt__big_enter (take = 1), rt__big_leave(1) (0). */
int rt__raise_lock_p2p(int take);
/* Whether this thread holds the library's lock (big_lock.c). */
int rt__big_held(void);
/* The part of r's completion that touches shared state (its buffered send's space; its
 * destruction if freed while active), under the library's lock. */
void rt__request_finish_shared(rt_request *r);
/* MPI_Request_free of r: if r is active and not complete, marks it to be freed on completion
 * (and no longer persistent) and returns 1; else 0 (the caller releases it). */
int rt__free_when_complete(rt_request *r);
/* What to say when starting a send or receive on comm failed with class err (p2p_request.c):
 * for RT_ERR_BUFFER, which buffer a buffered send used (rt__bsend_no_room). */
const char *rt__start_failure(int err, const rt_comm *comm);

/* Asynchronous progress (progress_thread.c, rt.h): rt__progress_thread_start/stop mark the
 * span of MPI_Init to MPI_Finalize where the thread may run (=1: it runs all along); a part
 * calls rt__async_need(its bit, 1) while it has work the thread should advance (the
 * collectives: schedules running; the windows: as long as one serves lock requests), (..., 0)
 * when it has none; the thread is wanted while any part says so. RT__NEED_WIN (windows with
 * one-sided state exist) and RT__NEED_IO want no thread: with RT__NEED_COLL, they tell rt__progress which
 * upper parts' passes to call (rt__needs: changed under the library's lock). */
void rt__progress_thread_start(void);
void rt__progress_thread_stop(void);
enum { RT__NEED_COLL = 1, RT__NEED_RMA = 2, RT__NEED_WIN = 4, RT__NEED_IO = 8 };
extern unsigned rt__needs;
void rt__async_need(unsigned who, int on);
/* MPI_THREAD_MULTIPLE (docs/internals.md, "Threads"): from the end of MPI_Init_thread on,
 * every entry takes the library's lock (rt_enter), whatever the asynchronous progress does. */
void rt__threads_multiple(void);
/* Under MPI_THREAD_MULTIPLE with more than one channel (SWITCHYARD_CHANNELS), the engine's
 * entry points lock the channel they touch from now on (p2p_engine.c, after rt__p2p_init). */
void rt__chan_locks_on(void);
/* Under MPI_THREAD_MULTIPLE, a thread that waits lets the others in: rt__big_pause releases the
 * lock the caller holds, every level of it, and returns how many (0: not MULTIPLE, or not
 * held: nothing done); rt__big_resume(n) takes it back n times. */
int rt__big_pause(void);
void rt__big_resume(int n);
/* The lock itself (big_lock.c; rt__big_lock and rt__big_unlock are in rt.h). The calling
 * thread becomes the lock's biased one (MPI_THREAD_MULTIPLE: it enters without atomic
 * read-modify-writes until another thread takes the lock; SWITCHYARD_LOCK_BIAS=0, no
 * membarrier(2) or ThreadSanitizer: no bias). */
void rt__big_bias_here(void);
/* Takes the lock if nobody holds it (1), else 0 at once (the asynchronous progress thread). */
int rt__big_trylock(void);
/* Releases every level of the lock the caller holds and returns how many (0: none, or the
 * biased thread while no other thread wants the lock). */
int rt__big_release(void);
/* pthread_atfork's handlers for the lock. */
void rt__big_fork_prepare(void);
void rt__big_fork_parent(void);
void rt__big_fork_child(void);

/* A standard send of contiguous data that its transport copies at once (an eager message,
 * no send waiting for room before it, not to this process), done now: returns 1, or 0 when
 * nothing was sent and the send must go the general way. A blocking send needs no more. */
int rt__send_eager(const void *buf, rt_count count, rt_type *type, int peer, int tag, rt_comm *comm);
/* rt__send_eager for a nonblocking send: returns this thread's complete send request
 * (rt__request_sent), retained (MPI_Wait and MPI_Request_free release it like any other, in
 * any thread), or NULL when nothing was sent and the send must go the general way
 * (rt__send_start). Saves making and freeing a request per message, as MPICH's lightweight
 * requests do. */
rt_request *rt__send_now(const void *buf, rt_count count, rt_type *type, int peer, int tag, rt_comm *comm);
/* Starts active send request r (its fields set). Returns RT_SUCCESS or an error class
 * (nothing raised). */
int rt__send_start(rt_request *r);
/* Starts active receive request r: matches the unexpected queue or posts it. */
int rt__recv_start(rt_request *r);
/* Delivers unexpected message m (taken off the queue) into receive request r. */
void rt__deliver(rt_request *r, struct rt__umsg *m);
/* The first unexpected message matching (ctx, source, tag) on comm (wildcards allowed);
 * take = 1 removes it from the queue. NULL if none. */
struct rt__umsg *rt__unexpected_find(int ctx, int source, int tag, int take);
/* For source MPI_ANY_SOURCE, the first rank of comm's group (remote group for inter-
 * communicators) whose process has failed (the transports' peer_failed); for a rank, that
 * rank if its process has failed; else -1. Receives and blocking probes for source on comm
 * that no queued message matches then fail instead of waiting (docs/internals.md). */
int rt__failed_peer(const rt_comm *comm, int source);
/* 1 when world rank w is this process or reached through shared memory (so memory it maps
 * can be shared with it), else 0. */
int rt__peer_shares_memory(int w);
/* 1 when this node runs more of the job's ranks than it has CPUs for (a wait yields soon). */
int rt__node_crowded(void);
/* Asks w's transport to make sure w's death, if it died, is noticed (rt_tp_ops.watch). */
void rt__watch_peer(int w);
/* How many processes of the job are known to have failed (grows when one does). */
int rt__failures(void);
/* Removes receive r from the posted queue (MPI_Cancel): 1 if it was there. */
int rt__posted_cancel(rt_request *r);
/* Removes send r from the queue of sends waiting for room: 1 if it was there. */
int rt__pending_cancel(rt_request *r);

/* ---- requests (p2p_request.c) */

/* A new active request of kind with comm and type retained (type may be NULL). NULL when
 * out of memory. Taken from the requests this thread keeps (rt__request_drop) without any
 * lock; a thread with none left makes one under the library's lock. */
rt_request *rt__request_new(int kind, rt_comm *comm, rt_type *type);
/* Drops the caller's reference to request r, complete or inactive (a wait or test hands it
 * back to the user): the last one keeps r for this thread's next request when r owns nothing
 * but its communicator, type and data copy, without the library's lock; else frees it under
 * the lock. */
void rt__request_drop(rt_request *r);
/* Frees o, whose last reference went, under the library's lock, from any thread. */
void rt__free_locked(rt_obj *o);
/* Drops a reference to o (NULL, a builtin or a user object) from wherever the caller is, a
 * channel entry included: the last one frees o under the library's lock. */
static inline void rt__drop_ref(rt_obj *o)
{
    if (o && !o->builtin && __builtin_expect(rt__obj_unref(o) <= 0, 0))
        rt__free_locked(o);
}
/* Frees the requests the calling thread keeps and drops its complete send request (MPI_Finalize,
 * under the library's lock; a thread's exit does it too). */
void rt__requests_give_back(void);
/* This thread's complete send request (made on first use: complete, holding no communicator or
 * datatype), not retained; NULL when out of memory. The thread holds one reference until it
 * ends; each handle the user gets holds one more. */
rt_request *rt__request_sent(void);
/* MPI_Wait for procedure fn (errors are raised naming fn). */
int rt__request_wait(rt_request **request, rt_status *status, const char *fn);
/* Marks r complete (releasing it if the user freed it). */
void rt__request_complete(rt_request *r);
int rt__part_done(rt_request *r); /* p2p_part.c, below */
/* 1 when r (or every part of a composite r) is complete: complete is read with an acquire
 * load, as a channel wait's pass in another thread may set it (rt__request_complete). */
int rt__request_parts_done(const rt_request *r);
static inline int rt__request_done(const rt_request *r)
{
    if (__builtin_expect(r->kind == RT__REQ_COMPOSITE, 0))
        return rt__request_parts_done(r);
    if (__builtin_expect(r->kind == RT__REQ_PART, 0))
        return rt__part_done((rt_request *)r);
    return __atomic_load_n(&r->complete, __ATOMIC_ACQUIRE);
}
/* ---- partitioned requests (p2p_part.c; MPI_Psend_init, MPI_Precv_init, MPI_Pready*,
 * MPI_Parrived) */

/* Whether active partitioned request r's round is done; advances it (posts a receive's data
 * receives once the sender's hello arrived; completes r when every partition moved). */
int rt__part_done(rt_request *r);
/* MPI_Start of inactive partitioned request r: a new round. RT_SUCCESS or an error class. */
int rt__part_start(rt_request *r);
/* Raises the error of completed partitioned request r for procedure fn. */
int rt__part_error(const rt_request *r, const char *fn);
/* Frees r->part (r being destroyed). */
void rt__part_destroy(rt_request *r);

/* ---- generalized requests (p2p_greq.c; MPI_Grequest_start, MPI_Grequest_complete) */

/* Calls complete generalized request r's query function (the library's lock taken if this
 * thread is in a channel entry): r->status becomes the status it fills, its error the
 * function's error code (RT_SUCCESS = 0), which is returned. Nothing raised. */
int rt__greq_query(rt_request *r);
/* Calls r's free function once (later calls do nothing) and frees r->greq; returns its error
 * code. Nothing raised. */
int rt__greq_free(rt_request *r);
/* MPI_Cancel of generalized request r: calls its cancel function with complete = whether
 * MPI_Grequest_complete was called; returns its error code. Nothing raised. */
int rt__greq_cancel(rt_request *r);

/* Destructor: releases comm, type, temporary buffers and parts. */
void rt__request_destroy(rt_obj *o);
/* Destructor of message objects from MPI_Mprobe. */
void rt__message_destroy(rt_obj *o);

/* What the collective part (coll/, above this one) does for the engine and the requests of
 * kind RT__REQ_COLL; registered at load (init/load.c), since the engine cannot call up. */
struct rt__coll_hooks {
    int (*progress)(void);          /* advances every running schedule; returns steps done */
    int (*start)(rt_request *r);    /* starts persistent collective request r */
    void (*destroy)(rt_request *r); /* frees r's schedule */
    /* raises err for collective fn on comm: peer, the rank whose transfer failed (or -1);
     * s, the schedule (its account of what failed) */
    int (*error)(rt_comm *comm, int err, int peer, const struct rt__sched *s, const char *fn);
};
extern struct rt__coll_hooks rt__coll_hooks;

/* What the window part (win/) does in each pass of the engine: applies the one-sided
 * operations that reached this process in passive-target epochs (win_rma.c); returns the
 * operations applied. Registered at load; NULL: nothing. */
extern int (*rt__win_progress)(void);
/* What the I/O part (io/) does in each pass while RT__NEED_IO is on (nonblocking accesses in
 * flight on its thread): completes the finished ones' requests (io_async.c); returns how many.
 * Meanwhile waits nap briefly instead of sleeping on the doorbells, which that thread does not
 * ring. Registered at load. */
extern int (*rt__io_progress)(void);

/* ---- buffered sends (p2p_bsend.c) */

/* Copies the data of buffered send r into an attached buffer (comm's, else its session's, else
 * the process's) and starts it as a standard send that frees the space when done. */
int rt__bsend_start(rt_request *r);
/* Gives back the space of a finished buffered send. */
void rt__bsend_release(rt_request *r);
/* New communicator c derives from session s (NULL: from none; then nothing is done): c's
 * buffered sends use s's buffer when c has none. Holds a reference to s. RT_SUCCESS or
 * RT_ERR_NO_MEM (raises nothing). */
int rt__bsend_comm_set_session(rt_comm *c, rt_session *s);
/* The session communicator c derives from (no new reference), or NULL. */
rt_session *rt__bsend_comm_session(const rt_comm *c);
/* Communicator c is being destroyed (no buffered send of it is pending then, since each holds
 * a reference to c): frees its buffer attachment and drops its session reference. */
void rt__bsend_comm_gone(rt_comm *c);
/* Why a buffered send on comm found no room (RT_ERR_BUFFER), naming the buffer it used: the
 * communicator's, its session's, the process's, MPI_BUFFER_AUTOMATIC (out of memory), or none. */
const char *rt__bsend_no_room(const rt_comm *comm);
/* Session s is finalized: waits for the messages buffered in its buffer, then detaches it. */
void rt__bsend_session_gone(rt_session *s);

#endif
