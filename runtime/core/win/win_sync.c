/* win_sync.c — one-sided synchronization: fence epochs (the target applies what the fence
 * counted), passive-target and post/start/complete/wait epochs (applied on arrival by the
 * engine's pass, rt__win_rma_progress, so a target that computes needs no MPI call), the live
 * windows. */
#include "win_rma.h"
#include "coll/coll.h"
#include "comm/comm.h"
#include "group/group.h"
#include "p2p/p2p.h"

#include <stdlib.h>

/* A lock request the target cannot grant yet. */
struct rt__win_waiter {
    int src, type, reply_tag;
    struct rt__win_waiter *next;
};

static rt_win *windows; /* live windows with one-sided state, newest first */
static int lockable;    /* of them, those that serve locks (no no_locks hint) */
static int in_progress; /* rt__win_rma_progress is running (it may be reached again below) */

int rt__win_rma_init(rt_win *w)
{
    int n = w->comm->size;
    if (!(w->sent_to = calloc((size_t)n, sizeof *w->sent_to)) || !(w->locked = calloc((size_t)n, 1)) ||
        !(w->posts = calloc((size_t)n, sizeof *w->posts)) || !(w->completes = calloc((size_t)n, sizeof *w->completes)) ||
        !(w->holds = calloc((size_t)n, 1)))
        return RT_ERR_NO_MEM;
    w->excl = -1;
    return RT_SUCCESS;
}

/* Whether w's targets serve lock requests (messages; not direct windows, not no_locks). */
static int serves_locks(const rt_win *w)
{
    return !w->no_locks && !w->direct;
}

void rt__win_rma_open(rt_win *w)
{
    w->next_win = windows;
    if (windows)
        windows->prev_win = w;
    windows = w;
    rt__async_need(RT__NEED_WIN, 1); /* rt__progress calls rt__win_rma_progress */
    if (serves_locks(w) && lockable++ == 0)
        rt__async_need(RT__NEED_RMA, 1); /* a passive target progresses while its process computes */
}

void rt__win_rma_fini(rt_win *w)
{
    if (!w->sent_to)
        return; /* never set up, or already gone */
    if ((w->prev_win || windows == w) && serves_locks(w) && --lockable == 0)
        rt__async_need(RT__NEED_RMA, 0);
    if (w->prev_win)
        w->prev_win->next_win = w->next_win;
    else if (windows == w)
        windows = w->next_win;
    if (w->next_win)
        w->next_win->prev_win = w->prev_win;
    w->next_win = w->prev_win = NULL;
    rt__async_need(RT__NEED_WIN, windows != NULL);
    free(w->sent_to);
    free(w->locked);
    free(w->posts);
    free(w->completes);
    free(w->holds);
    free(w->exposed);
    free(w->accessing);
    w->sent_to = NULL, w->locked = NULL, w->posts = NULL, w->completes = NULL, w->holds = NULL, w->exposed = NULL,
    w->accessing = NULL;
    while (w->waiting) {
        struct rt__win_waiter *x = w->waiting;
        w->waiting = x->next;
        free(x);
    }
    if (w->rma.n == 0) /* else operations in flight still use them: left (never after MPI_Win_free) */
        free(w->rma.v), w->rma.v = NULL;
    if (w->tgt.n == 0)
        free(w->tgt.v), w->tgt.v = NULL;
}

/* Whether w, as a target, has no operation message half received. */
static int nothing_coming(void *arg)
{
    return ((rt_win *)arg)->in == NULL;
}

int rt__win_rma_settle(rt_win *w)
{
    rt__wait_until(nothing_coming, w);
    return rt__rma_finish(&w->tgt);
}

int rt__win_rma_idle(const rt_win *w)
{
    if (w->rma.n > 0 || w->nlocked > 0 || w->lock_all || w->exposed)
        return 0;
    for (int r = 0; w->sent_to && r < w->comm->size; r++)
        if (w->sent_to[r])
            return 0;
    return 1;
}

int rt__rma_failed(rt_win *w, int err, int rank, const char *fn)
{
    rt_Error_class(err, &err); /* a code raised on the private communicator: its class */
    int failed = rank >= 0 ? rt__failed_peer(w->comm, rank) : -1;
    if (failed < 0)
        failed = rt__failed_peer(w->comm, RT_ANY_SOURCE);
    if (failed >= 0)
        return rt_raise(&w->obj, err, fn, "rank %d of the window has failed", failed);
    if (rank >= 0)
        return rt_raise(&w->obj, err, fn, "the window's communication with rank %d failed (%s)", rank,
                        rt__class_string(err));
    return rt_raise(&w->obj, err, fn, "the window's internal communication failed (%s)", rt__class_string(err));
}

/* Sum of int counters (the fence's count of operations per target). */
static void sum_ints(void *inout, const void *in, size_t bytes)
{
    int *a = inout;
    const int *b = in;
    for (size_t i = 0; i < bytes / sizeof(int); i++)
        a[i] += b[i];
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
    if (win->direct) { /* every operation is done already: a barrier orders the epochs */
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
        if ((err = rt__win_direct_barrier(win, "MPI_Win_fence")))
            return err;
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
        win->epoch++;
        win->fence_open = !(assert & RT_MODE_NOSUCCEED);
        return RT_SUCCESS;
    }
    int *counts = malloc(sizeof *counts * (size_t)n);
    if (!counts)
        return RT_ERR(win, RT_ERR_NO_MEM, "out of memory");
    memcpy(counts, win->sent_to, sizeof *counts * (size_t)n);
    rt__team t = rt__team_of(c);
    if ((err = rt__coll_allreduce(&t, counts, sizeof *counts * (size_t)n, sum_ints))) {
        free(counts); /* a member's failure is named, as on a direct window */
        return rt__rma_failed(win, err, RT_ANY_SOURCE, "MPI_Win_fence");
    }
    int expect = counts[c->rank], first = RT_SUCCESS;
    free(counts);
    for (int i = 0; i < expect; i++) { /* the operations aimed here, from every origin */
        rt_status st;
        if ((err = rt_Probe(RT_ANY_SOURCE, TAG_OP(win->epoch), c, &st)))
            return rt__rma_failed(win, err, RT_ANY_SOURCE, "MPI_Win_fence");
        char *msg = malloc(st.count > 0 ? (size_t)st.count : 1);
        if (!msg)
            return RT_ERR(win, RT_ERR_NO_MEM, "out of memory");
        if ((err = rt_Recv(msg, st.count, (rt_type *)rt_builtins[RT_B_BYTE], st.source, TAG_OP(win->epoch), c, &st)))
            return free(msg), rt__rma_failed(win, err, st.source, "MPI_Win_fence");
        err = rt__rma_apply(win, msg, st.source, "MPI_Win_fence");
        first = first ? first : err;
        free(msg);
    }
    err = rt__rma_finish(&win->rma);
    err = err ? err : rt__rma_finish(&win->tgt);
    if (err && !first)
        first = rt__rma_failed(win, err, RT_ANY_SOURCE, "MPI_Win_fence");
    memset(win->sent_to, 0, sizeof *win->sent_to * (size_t)n);
    win->epoch++;
    win->fence_open = !(assert & RT_MODE_NOSUCCEED);
    return first;
}


/* ------------------------------------------------------------ passive target: the target */

/* Sends the one-int reply v to rank dst with tag (a grant, an acknowledgement). */
static void reply(rt_win *w, int dst, int tag, int v)
{
    int *buf = malloc(sizeof *buf);
    rt_request *r = NULL;
    if (!buf)
        rt__fatal("out of memory answering a one-sided lock request");
    *buf = v;
    if (rt_Isend(buf, (rt_count)sizeof *buf, (rt_type *)rt_builtins[RT_B_BYTE], dst, tag, w->comm, &r)) {
        free(buf);
        if (rt__failed_peer(w->comm, dst) < 0)
            rt__fatal("cannot answer a one-sided lock request");
        return; /* dst has failed: no one waits for the answer */
    }
    if (rt__rma_keep(&w->tgt, r, buf))
        rt__fatal("cannot answer a one-sided lock request");
}

static int grantable(const rt_win *w, int type)
{
    return w->excl < 0 && (type == RT_LOCK_SHARED || w->shared == 0);
}

static void take_lock(rt_win *w, int src, int type, int tag)
{
    if (type == RT_LOCK_EXCLUSIVE)
        w->excl = src;
    else
        w->shared++;
    w->holds[src] = type == RT_LOCK_EXCLUSIVE ? 2 : 1;
    reply(w, src, tag, 1);
}

/* Grants the waiting requests at the head of the queue while they fit (in order: a waiting
 * exclusive request is not overtaken by later shared ones). */
static void grant_waiting(rt_win *w)
{
    while (w->waiting && grantable(w, w->waiting->type)) {
        struct rt__win_waiter *x = w->waiting;
        w->waiting = x->next;
        if (!w->waiting)
            w->waiting_tail = NULL;
        take_lock(w, x->src, x->type, x->reply_tag);
        free(x);
    }
}

/* Handles passive-target message msg from src at w. */
static void handle(rt_win *w, char *msg, int src)
{
    struct rma_hdr h;
    memcpy(&h, msg, sizeof h);
    if (h.kind == RMA_LOCK) {
        if (w->broken) { /* a holder failed: what it protected may be half written */
            reply(w, src, h.reply_tag, -w->broken);
            return;
        }
        if (!w->waiting && grantable(w, h.op)) {
            take_lock(w, src, h.op, h.reply_tag);
            return;
        }
        struct rt__win_waiter *x = malloc(sizeof *x);
        if (!x)
            rt__fatal("out of memory queueing a one-sided lock request");
        *x = (struct rt__win_waiter){src, h.op, h.reply_tag, NULL};
        if (w->waiting_tail)
            w->waiting_tail->next = x;
        else
            w->waiting = x;
        w->waiting_tail = x;
    } else if (h.kind == RMA_UNLOCK) { /* every operation of src came before it */
        if (h.op == RT_LOCK_EXCLUSIVE && w->excl == src)
            w->excl = -1;
        else if (h.op == RT_LOCK_SHARED && w->shared > 0)
            w->shared--;
        if (h.op)
            w->holds[src] = 0;
        reply(w, src, h.reply_tag, 1);
        grant_waiting(w);
    } else if (h.kind == RMA_FLUSH) {
        reply(w, src, h.reply_tag, 1);
    } else if (h.kind == RMA_POST) {
        w->posts[src]++;
    } else if (h.kind == RMA_COMPLETE) { /* after every operation src sent in its epoch */
        w->completes[src]++;
    } else {
        rt__rma_apply(w, msg, src, "MPI_Win_unlock"); /* raised on w: names the epoch's end */
    }
}

/* Takes the passive-target messages that reached w, in arrival order; one being received
 * (a large one) holds back the rest. Returns how many were handled. */
static int drain(rt_win *w)
{
    int n = 0;
    rt_type *byte = (rt_type *)rt_builtins[RT_B_BYTE];
    for (;;) {
        if (w->in) {
            if (!rt__request_done(w->in))
                return n;
            rt__obj_release(&w->in->obj);
            w->in = NULL;
            handle(w, w->in_buf, w->in_src);
            free(w->in_buf);
            w->in_buf = NULL;
            n++;
        }
        struct rt__umsg *m = rt__unexpected_find(w->comm->ctx, RT_ANY_SOURCE, TAG_PASSIVE, 0);
        if (!m)
            return n;
        w->in_src = m->h.src;
        if (!(w->in_buf = malloc(m->h.len > 0 ? (size_t)m->h.len : 1)) ||
            rt_Irecv(w->in_buf, m->h.len, byte, w->in_src, TAG_PASSIVE, w->comm, &w->in))
            rt__fatal("cannot receive a one-sided operation");
    }
}

/* After a process failure: the locks failed processes held at w are released and w takes
 * no more (w->broken); the lock requests waiting are refused (answer -w->broken), those of
 * failed processes dropped. */
static void drop_failed(rt_win *w)
{
    for (int r = 0; r < w->comm->size; r++) {
        if (!w->holds[r] || rt__failed_peer(w->comm, r) < 0)
            continue;
        if (w->holds[r] == 2)
            w->excl = -1;
        else
            w->shared--;
        w->holds[r] = 0;
        w->broken = 1 + r;
    }
    struct rt__win_waiter *keep = NULL, **tail = &keep;
    w->waiting_tail = NULL;
    for (struct rt__win_waiter *x = w->waiting, *next; x; x = next) {
        next = x->next;
        if (rt__failed_peer(w->comm, x->src) >= 0 || w->broken) {
            if (w->broken)
                reply(w, x->src, x->reply_tag, -w->broken);
            free(x);
            continue;
        }
        x->next = NULL;
        *tail = w->waiting_tail = x;
        tail = &x->next;
    }
    w->waiting = keep;
    grant_waiting(w);
}

int rt__win_rma_progress(void)
{
    static int failures_seen;
    if (in_progress || !windows)
        return 0;
    in_progress = 1;
    int n = 0, failures = rt__failures();
    for (rt_win *w = windows; w; w = w->next_win) {
        if (failures != failures_seen)
            drop_failed(w);
        n += drain(w);
        rt__rma_reap(&w->tgt);
    }
    failures_seen = failures;
    in_progress = 0;
    return n;
}

/* ------------------------------------------------------------ passive target: the origin */

/* Sends control message kind (op: a lock type) to each of ranks[0..n) at once and waits for
 * their one-int replies (answers[i]; 0 where none came); failures raised on w naming fn. */
static int control_many(rt_win *w, int kind, int op, const int *ranks, int n, int *answers, const char *fn)
{
    rt_type *byte = (rt_type *)rt_builtins[RT_B_BYTE];
    struct rma_hdr h1, *h = n <= 1 ? &h1 : malloc(sizeof *h * (size_t)n); /* one rank: no allocation */
    rt_request *r1[2] = {NULL, NULL}, **rr = n <= 1 ? r1 : calloc((size_t)(2 * n), sizeof *rr), **sr = rr + n;
    if (!h || !rr) {
        if (n > 1)
            free(h), free(rr);
        return RT_ERR(w, RT_ERR_NO_MEM, "out of memory");
    }
    int err = RT_SUCCESS, bad = RT_ANY_SOURCE, started = 0;
    for (; started < n; started++) {
        int i = started;
        answers[i] = 0;
        h[i] = (struct rma_hdr){.kind = kind, .op = op, .basic = -1, .reply_tag = rt__rma_reply_tag(w)};
        if ((err = rt_Irecv(&answers[i], (rt_count)sizeof *answers, byte, ranks[i], h[i].reply_tag, w->comm, &rr[i])))
            break;
        if ((err = rt_Isend(&h[i], (rt_count)sizeof h[i], byte, ranks[i], TAG_PASSIVE, w->comm, &sr[i]))) {
            rt_Cancel(rr[i]);
            rt_Wait(&rr[i], NULL);
            break;
        }
    }
    if (err)
        bad = ranks[started];
    for (int i = 0; i < started; i++) { /* the requests sent are answered, even after a failure */
        int e = rt_Wait(&sr[i], NULL), e2 = rt_Wait(&rr[i], NULL);
        if ((e || e2) && !err)
            err = e ? e : e2, bad = ranks[i];
    }
    if (n > 1)
        free(h), free(rr);
    return err ? rt__rma_failed(w, err, bad, fn) : RT_SUCCESS;
}

static int control(rt_win *w, int kind, int op, int rank, int *answer, const char *fn)
{
    return control_many(w, kind, op, &rank, 1, answer, fn);
}

/* Completes w's operations as an origin after a call at rank whose own result is err (raised
 * already if set); a failure among them is raised on w naming fn. */
static int finish_ops(rt_win *w, int err, int rank, const char *fn)
{
    int e2 = w->rma.n ? rt__rma_finish(&w->rma) : RT_SUCCESS; /* none on a direct window */
    return err ? err : e2 ? rt__rma_failed(w, e2, rank, fn) : RT_SUCCESS;
}

static int bad_rank(rt_win *w, int rank, const char *fn)
{
    int n = w->comm->size;
    return rt_raise(&w->obj, RT_ERR_RANK, fn, "invalid rank 'rank' = %s: the window's group has %d process%s",
                    rt__rank_text(rank, (char[16]){0}, 16), n, n == 1 ? "" : "es");
}

/* The checks MPI_Win_lock and MPI_Win_lock_all share: the assertion, the no_locks hint. */
static int lock_refused(rt_win *win, int assert, const char *fn)
{
    if (assert & ~RT_MODE_NOCHECK)
        return rt_raise(&win->obj, RT_ERR_ASSERT, fn, "invalid assertion 'assert': %s knows MPI_MODE_NOCHECK only",
                        fn);
    if (win->no_locks)
        return rt_raise(&win->obj, RT_ERR_RMA_SYNC, fn,
                        "the window was created with the hint no_locks = true: it takes no locks");
    return RT_SUCCESS;
}

static __attribute__((noinline)) int lock_one(int lock_type, int rank, int assert, rt_win *win, const char *fn)
{
    if (lock_type != RT_LOCK_SHARED && lock_type != RT_LOCK_EXCLUSIVE)
        return rt_raise(&win->obj, RT_ERR_LOCKTYPE, fn,
                        "invalid lock type 'lock_type' = %d: MPI_LOCK_SHARED or MPI_LOCK_EXCLUSIVE", lock_type);
    int err = lock_refused(win, assert, fn);
    if (err)
        return err;
    if (rank == RT_PROC_NULL)
        return RT_SUCCESS;
    if (rank < 0 || rank >= win->comm->size)
        return bad_rank(win, rank, fn);
    if (win->locked[rank] || win->lock_all)
        return rt_raise(&win->obj, RT_ERR_RMA_SYNC, fn, "the window is locked at rank %d already", rank);
    int answer = 1;
    err = assert & RT_MODE_NOCHECK ? RT_SUCCESS
          : win->direct           ? rt__win_direct_lock(win, rank, lock_type, &answer, fn)
                                  : control(win, RMA_LOCK, lock_type, rank, &answer, fn);
    if (err)
        return err;
    if (answer < 0)
        return rt_raise(&win->obj, RT_X_ERR_PROC_FAILED, fn,
                        "rank %d of the window failed holding a lock at rank %d: that lock is granted no more",
                        -answer - 1, rank);
    int code = lock_type == RT_LOCK_EXCLUSIVE ? 2 : 1;
    win->locked[rank] = (signed char)(assert & RT_MODE_NOCHECK ? -code : code);
    win->nlocked++;
    return RT_SUCCESS;
}

/* The lock type held at rank (locked[rank]: 1 shared, 2 exclusive, negative when taken with
 * MPI_MODE_NOCHECK, which *nocheck tells). */
static int held_type(const rt_win *w, int rank, int *nocheck)
{
    int v = w->locked[rank];
    *nocheck = v < 0;
    return v == 2 || v == -2 ? RT_LOCK_EXCLUSIVE : RT_LOCK_SHARED;
}

/* Whether this process holds a lock (a passive-target epoch) at rank. */
static int passive(const rt_win *w, int rank)
{
    return w->locked[rank] != 0 && w->locked[rank] != 3;
}

/* The checks of a call on the passive-target epoch at rank: 1 to go on, 0 for MPI_PROC_NULL
 * (nothing to do), or *err raised naming fn. */
static int epoch_at(rt_win *win, int rank, const char *fn, int *err)
{
    *err = RT_SUCCESS;
    if (rank == RT_PROC_NULL)
        return 0;
    if (rank < 0 || rank >= win->comm->size)
        *err = bad_rank(win, rank, fn);
    else if (!passive(win, rank))
        *err = rt_raise(&win->obj, RT_ERR_RMA_SYNC, fn, "the window is not locked at rank %d (no passive-target epoch)", rank);
    return *err == RT_SUCCESS;
}

static __attribute__((noinline)) int unlock_one(int rank, rt_win *win, const char *fn)
{
    int err;
    if (!epoch_at(win, rank, fn, &err))
        return err;
    int nocheck, type = held_type(win, rank, &nocheck);
    int answer;
    if (win->direct && !nocheck)
        rt__win_direct_unlock(win, rank, type);
    else if (!win->direct)
        err = control(win, RMA_UNLOCK, nocheck ? 0 : type, rank, &answer, fn); /* after every operation sent to it */
    win->locked[rank] = 0;
    win->nlocked--;
    return finish_ops(win, err, rank, fn);
}

int rt_Win_lock(int lock_type, int rank, int assert, rt_win *win)
{
    if (win->direct && !assert && (lock_type == RT_LOCK_SHARED || lock_type == RT_LOCK_EXCLUSIVE) &&
        !win->no_locks && (unsigned)rank < (unsigned)win->comm->size && !win->locked[rank] && !win->lock_all) {
        int answer = 1, err = rt__win_direct_lock(win, rank, lock_type, &answer, "MPI_Win_lock");
        if (err) /* the common case above: lock_one's checks passed */
            return err;
        if (answer < 0)
            return rt_raise(&win->obj, RT_X_ERR_PROC_FAILED, "MPI_Win_lock",
                            "rank %d of the window failed holding a lock at rank %d: that lock is granted no more",
                            -answer - 1, rank);
        win->locked[rank] = (signed char)(lock_type == RT_LOCK_EXCLUSIVE ? 2 : 1);
        win->nlocked++;
        return RT_SUCCESS;
    }
    return lock_one(lock_type, rank, assert, win, "MPI_Win_lock");
}

int rt_Win_unlock(int rank, rt_win *win)
{
    int v;
    if (win->direct && !win->lock_all && (unsigned)rank < (unsigned)win->comm->size &&
        ((v = win->locked[rank]) == 1 || v == 2)) { /* the common case: unlock_one's checks passed */
        rt__win_direct_unlock(win, rank, v == 2 ? RT_LOCK_EXCLUSIVE : RT_LOCK_SHARED);
        win->locked[rank] = 0;
        win->nlocked--;
        return finish_ops(win, RT_SUCCESS, rank, "MPI_Win_unlock");
    }
    if (win->lock_all && rank >= 0 && rank < win->comm->size)
        return RT_ERR(win, RT_ERR_RMA_SYNC, "rank %d is in an MPI_Win_lock_all epoch: MPI_Win_unlock_all ends it", rank);
    return unlock_one(rank, win, "MPI_Win_unlock");
}

/* The ranks at which win holds a passive-target epoch, into list (comm->size ints); how many. */
static int passive_ranks(const rt_win *win, int *list)
{
    int n = 0;
    for (int r = 0; r < win->comm->size; r++)
        if (passive(win, r))
            list[n++] = r;
    return n;
}

/* The lock requests of MPI_Win_lock_all go out at once, then their grants are awaited. */
int rt_Win_lock_all(int assert, rt_win *win)
{
    int err = lock_refused(win, assert, "MPI_Win_lock_all");
    if (err)
        return err;
    if (win->lock_all || win->nlocked)
        return RT_ERR(win, RT_ERR_RMA_SYNC, "the window is locked already");
    int n = win->comm->size, *ranks = malloc(sizeof *ranks * 2 * (size_t)n), *answers = ranks + n;
    if (!ranks)
        return RT_ERR(win, RT_ERR_NO_MEM, "out of memory");
    for (int r = 0; r < n; r++)
        ranks[r] = r, answers[r] = assert & RT_MODE_NOCHECK ? 1 : 0;
    if (win->direct && !(assert & RT_MODE_NOCHECK)) /* in rank order: lock_all against lock_all waits for no one */
        for (int r = 0; r < n && !err && (r == 0 || answers[r - 1] == 1); r++)
            err = rt__win_direct_lock(win, r, RT_LOCK_SHARED, &answers[r], "MPI_Win_lock_all");
    else if (!(assert & RT_MODE_NOCHECK))
        err = control_many(win, RMA_LOCK, RT_LOCK_SHARED, ranks, n, answers, "MPI_Win_lock_all");
    for (int r = 0; r < n; r++)
        if (answers[r] == 1) {
            win->locked[r] = (signed char)(assert & RT_MODE_NOCHECK ? -1 : 1);
            win->nlocked++;
        } else if (answers[r] < 0 && !err) {
            err = rt_raise(&win->obj, RT_X_ERR_PROC_FAILED, "MPI_Win_lock_all",
                           "rank %d of the window failed holding a lock at rank %d: that lock is granted no more",
                           -answers[r] - 1, r);
        }
    free(ranks);
    if (!err) {
        win->lock_all = 1;
        return RT_SUCCESS;
    }
    for (int r = 0; r < n; r++) /* the locks granted are given back */
        if (win->locked[r])
            unlock_one(r, win, "MPI_Win_lock_all");
    return err;
}

/* The unlocks of MPI_Win_unlock_all go out at once; then the operations complete. */
int rt_Win_unlock_all(rt_win *win)
{
    if (!win->lock_all)
        return RT_ERR(win, RT_ERR_RMA_SYNC, "no MPI_Win_lock_all epoch is open on the window");
    int n = win->comm->size, *ranks = malloc(sizeof *ranks * 2 * (size_t)n), *answers = ranks + n;
    if (!ranks)
        return RT_ERR(win, RT_ERR_NO_MEM, "out of memory");
    int nocheck = win->locked[0] < 0, k = passive_ranks(win, ranks), err = RT_SUCCESS;
    for (int i = 0; win->direct && !nocheck && i < k; i++)
        rt__win_direct_unlock(win, ranks[i], RT_LOCK_SHARED);
    if (!win->direct)
        err = control_many(win, RMA_UNLOCK, nocheck ? 0 : RT_LOCK_SHARED, ranks, k, answers, "MPI_Win_unlock_all");
    free(ranks);
    memset(win->locked, 0, (size_t)n);
    win->nlocked = 0;
    win->lock_all = 0;
    return finish_ops(win, err, RT_ANY_SOURCE, "MPI_Win_unlock_all");
}

/* MPI_Win_flush: every operation sent to rank is complete there (the target acknowledges
 * after it applied those before), and here. */
static int flush_one(int rank, rt_win *win, const char *fn)
{
    int err;
    if (!epoch_at(win, rank, fn, &err))
        return err;
    int answer;
    if (win->direct) /* the operations are done: only the memory's order is left */
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
    else
        err = control(win, RMA_FLUSH, 0, rank, &answer, fn);
    return finish_ops(win, err, rank, fn);
}

int rt_Win_flush(int rank, rt_win *win)
{
    if (win->direct && (unsigned)rank < (unsigned)win->comm->size && passive(win, rank)) {
        __atomic_thread_fence(__ATOMIC_SEQ_CST); /* the operations are done: only the memory's order is left */
        return finish_ops(win, RT_SUCCESS, rank, "MPI_Win_flush");
    }
    return flush_one(rank, win, "MPI_Win_flush");
}

/* The flushes of MPI_Win_flush_all go out at once. */
int rt_Win_flush_all(rt_win *win)
{
    int n = win->comm->size, *ranks = malloc(sizeof *ranks * 2 * (size_t)n), *answers = ranks + n;
    if (!ranks)
        return RT_ERR(win, RT_ERR_NO_MEM, "out of memory");
    int k = passive_ranks(win, ranks), err = RT_SUCCESS;
    if (win->direct)
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
    else
        err = control_many(win, RMA_FLUSH, 0, ranks, k, answers, "MPI_Win_flush_all");
    free(ranks);
    return finish_ops(win, err, RT_ANY_SOURCE, "MPI_Win_flush_all");
}

/* Local completion: the operations' buffers may be reused (gets have their data). */
int rt_Win_flush_local(int rank, rt_win *win)
{
    int err;
    if (!epoch_at(win, rank, "MPI_Win_flush_local", &err))
        return err;
    return finish_ops(win, RT_SUCCESS, rank, "MPI_Win_flush_local");
}

int rt_Win_flush_local_all(rt_win *win)
{
    if (!win->nlocked)
        return RT_ERR(win, RT_ERR_RMA_SYNC, "no passive-target epoch is open on the window");
    return finish_ops(win, RT_SUCCESS, RT_ANY_SOURCE, "MPI_Win_flush_local_all");
}

/* The window's memory as this process sees it agrees with what other processes stored: a
 * full memory barrier (one copy of the memory: MPI_WIN_UNIFIED). */
int rt_Win_sync(rt_win *win)
{
    (void)win;
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    return RT_SUCCESS;
}

/* ------------------------------------------------------------ post, start, complete, wait */

/* The window ranks of group's members in *out (malloc'ed), or the error raised on w. */
static int group_ranks(rt_win *w, rt_group *g, int **out, const char *fn)
{
    int *r = malloc(sizeof *r * (size_t)(g->size > 0 ? g->size : 1));
    if (!r)
        return rt_raise(&w->obj, RT_ERR_NO_MEM, fn, "out of memory");
    for (int i = 0; i < g->size; i++) {
        int c = 0;
        while (c < w->comm->size && rt__comm_world_rank(w->comm, c) != g->ranks[i])
            c++;
        if (c == w->comm->size) {
            free(r);
            return rt_raise(&w->obj, RT_ERR_GROUP, fn, "rank %d of 'group' is not a process of the window", i);
        }
        r[i] = c;
    }
    *out = r;
    return RT_SUCCESS;
}

/* Sends notice kind (RMA_POST, RMA_COMPLETE) to rank, after everything sent to it before. */
static int notice(rt_win *w, int kind, int rank)
{
    struct rma_hdr *h = malloc(sizeof *h);
    rt_request *r = NULL;
    if (!h)
        return RT_ERR(w, RT_ERR_NO_MEM, "out of memory");
    *h = (struct rma_hdr){.kind = kind, .op = -1, .basic = -1};
    int err = rt_Isend(h, (rt_count)sizeof *h, (rt_type *)rt_builtins[RT_B_BYTE], rank, TAG_PASSIVE, w->comm, &r);
    if (err)
        return free(h), rt__rma_failed(w, err, rank, kind == RMA_POST ? "MPI_Win_post" : "MPI_Win_complete");
    if ((err = rt__rma_keep(&w->tgt, r, h)))
        return RT_ERR(w, err, "out of memory");
    return RT_SUCCESS;
}

/* Whether a notice came from every rank of list[0..n) (counts: w->posts or w->completes). */
struct notices {
    const int *count, *list;
    int n;
};
static int all_noticed(void *arg)
{
    const struct notices *x = arg;
    for (int i = 0; i < x->n; i++)
        if (x->count[x->list[i]] == 0)
            return 0;
    return 1;
}
static void consume(int *count, const int *list, int n)
{
    for (int i = 0; i < n; i++)
        count[list[i]]--;
}

/* MPI_Win_post: opens an exposure epoch to the processes of group and tells each. */
int rt_Win_post(rt_group *group, int assert, rt_win *win)
{
    if (assert & ~(RT_MODE_NOCHECK | RT_MODE_NOSTORE | RT_MODE_NOPUT))
        return RT_ERR(win, RT_ERR_ASSERT,
                      "invalid assertion 'assert': MPI_Win_post knows MPI_MODE_NOCHECK, MPI_MODE_NOSTORE and "
                      "MPI_MODE_NOPUT");
    if (win->exposed)
        return RT_ERR(win, RT_ERR_RMA_SYNC, "an exposure epoch (MPI_Win_post) is open on the window already");
    int err = group_ranks(win, group, &win->exposed, "MPI_Win_post");
    if (err)
        return err;
    win->nexposed = group->size;
    for (int i = 0; i < win->nexposed && !(assert & RT_MODE_NOCHECK); i++)
        if ((err = notice(win, RMA_POST, win->exposed[i])))
            return err;
    return RT_SUCCESS;
}

/* MPI_Win_start: opens an access epoch to the processes of group, once each posted. */
int rt_Win_start(rt_group *group, int assert, rt_win *win)
{
    if (assert & ~RT_MODE_NOCHECK)
        return RT_ERR(win, RT_ERR_ASSERT, "invalid assertion 'assert': MPI_Win_start knows MPI_MODE_NOCHECK only");
    if (win->accessing)
        return RT_ERR(win, RT_ERR_RMA_SYNC, "an access epoch (MPI_Win_start) is open on the window already");
    int *list, err = group_ranks(win, group, &list, "MPI_Win_start");
    if (err)
        return err;
    for (int i = 0; i < group->size; i++)
        if (win->locked[list[i]] || win->lock_all) {
            free(list);
            return RT_ERR(win, RT_ERR_RMA_SYNC, "the window is locked at rank %d", list[i]);
        }
    if (!(assert & RT_MODE_NOCHECK)) {
        struct notices x = {win->posts, list, group->size};
        rt__wait_until(all_noticed, &x);
        consume(win->posts, list, group->size);
    }
    for (int i = 0; i < group->size; i++)
        win->locked[list[i]] = 3, win->nlocked++;
    win->accessing = list;
    win->naccessing = group->size;
    return RT_SUCCESS;
}

/* MPI_Win_complete: ends the access epoch; each target learns it after the operations. */
int rt_Win_complete(rt_win *win)
{
    if (!win->accessing)
        return RT_ERR(win, RT_ERR_RMA_SYNC, "no access epoch (MPI_Win_start) is open on the window");
    int first = RT_SUCCESS;
    for (int i = 0; i < win->naccessing; i++) {
        int r = win->accessing[i], err = notice(win, RMA_COMPLETE, r);
        first = first ? first : err;
        win->locked[r] = 0, win->nlocked--;
    }
    free(win->accessing);
    win->accessing = NULL;
    return finish_ops(win, first, RT_ANY_SOURCE, "MPI_Win_complete");
}

static void end_exposure(rt_win *win)
{
    consume(win->completes, win->exposed, win->nexposed);
    free(win->exposed);
    win->exposed = NULL;
}

/* MPI_Win_wait: ends the exposure epoch once every origin of its group completed. */
int rt_Win_wait(rt_win *win)
{
    if (!win->exposed)
        return RT_ERR(win, RT_ERR_RMA_SYNC, "no exposure epoch (MPI_Win_post) is open on the window");
    struct notices x = {win->completes, win->exposed, win->nexposed};
    rt__wait_until(all_noticed, &x);
    end_exposure(win);
    return RT_SUCCESS;
}

/* MPI_Win_test: MPI_Win_wait if it would not wait (*flag = 1), else *flag = 0. */
int rt_Win_test(rt_win *win, int *flag)
{
    if (!win->exposed)
        return RT_ERR(win, RT_ERR_RMA_SYNC, "no exposure epoch (MPI_Win_post) is open on the window");
    struct notices x = {win->completes, win->exposed, win->nexposed};
    if (!all_noticed(&x))
        rt__progress();
    if ((*flag = all_noticed(&x)))
        end_exposure(win);
    return RT_SUCCESS;
}
