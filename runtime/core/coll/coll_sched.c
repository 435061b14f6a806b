/* coll_sched.c — schedules: the rounds of sends, receives and local steps a collective is
 * made of, run by the progress engine (blocking, nonblocking and persistent collectives). */
#include "coll.h"
#include "type/type.h"
#include "p2p/p2p.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

enum { ST_SEND, ST_RECV, ST_REDUCE, ST_COPY, ST_CALL };

struct step {
    uint8_t kind;
    uint8_t remote;         /* send/recv with the remote group of an inter-communicator */
    int peer;
    const void *src;        /* send: data; reduce: in; copy: source */
    void *dst;              /* recv: buffer; reduce: inout; copy: destination */
    rt_count count, dcount;
    rt_type *type, *dtype;  /* each holds a reference */
    rt_op *op;              /* holds a reference */
    int (*call)(void *arg); /* call: the function, called with dst */
};

struct rt__sched {
    rt_comm *comm;            /* the user's communicator (the request holds the reference) */
    int tag;                  /* its tag on the collective context: RT__TAG_SCHED - 2 * seq (own group) */
    struct step *steps;
    int nsteps, cap;
    int *round_end;           /* round i is steps [round_end[i-1], round_end[i]) */
    int nrounds, rcap;
    void **bufs;              /* scratch memory (owned) */
    int nbufs;
    /* running state */
    int cur;                  /* the round in progress */
    rt_request **reqs;        /* its transfers in flight (sized for the largest round) */
    int nreqs, reqcap;
    rt_request *owner;        /* the collective request; NULL for a blocking call */
    int done, err;            /* finished, and its first error (blocking calls read them) */
    int failed_peer;          /* the rank in comm whose transfer gave err, or -1 */
    int failure, failure_peer; /* this run's first failed transfer's error (0: none) and its peer */
    char why[200];            /* what failed, when a transfer's error says too little ("" if not) */
    rt__sched *next, *prev;   /* the list of running schedules */
};

static rt__sched *running;

int rt__coll_error(rt_comm *comm, int err, int peer, const rt__sched *s, const char *fn)
{
    if (s && s->why[0])
        return rt_raise((rt_obj *)comm, err, fn, "the collective operation failed: %s", s->why);
    const char *why = rt__class_string(err) ? rt__class_string(err) : "unknown error";
    if (peer < 0)
        return rt_raise((rt_obj *)comm, err, fn, "the collective operation failed: %s", why);
    char who[24];
    rt__rank_text(peer, who, sizeof who);
    if (err == RT_X_ERR_PROC_FAILED && rt__failed_peer(comm, peer) == peer)
        return rt_raise((rt_obj *)comm, err, fn,
                        "the collective operation failed: rank %s of the communicator has failed", who);
    if (err == RT_X_ERR_PROC_FAILED) /* a flagged message (RT__MSG_FAILED) */
        return rt_raise((rt_obj *)comm, err, fn,
                        "the collective operation failed: the data from rank %s depend on a process that has failed",
                        who);
    return rt_raise((rt_obj *)comm, err, fn, "the collective operation failed: %s, in the transfer with rank %s",
                    why, who);
}

/* ------------------------------------------------------------ building */

static struct step *add(rt__sched *s)
{
    if (s->nsteps == s->cap) {
        int cap = s->cap ? 2 * s->cap : 8;
        struct step *p = realloc(s->steps, (size_t)cap * sizeof *p);
        if (!p)
            return NULL;
        s->steps = p;
        s->cap = cap;
    }
    struct step *st = &s->steps[s->nsteps++];
    memset(st, 0, sizeof *st);
    return st;
}

int rt__sched_round(rt__sched *s)
{
    int start = s->nrounds ? s->round_end[s->nrounds - 1] : 0;
    if (s->nsteps == start)
        return RT_SUCCESS;
    if (s->nrounds == s->rcap) {
        int cap = s->rcap ? 2 * s->rcap : 8;
        int *p = realloc(s->round_end, (size_t)cap * sizeof *p);
        if (!p)
            return RT_ERR_NO_MEM;
        s->round_end = p;
        s->rcap = cap;
    }
    s->round_end[s->nrounds++] = s->nsteps;
    return RT_SUCCESS;
}

static int transfer(rt__sched *s, int kind, const void *buf, rt_count count, rt_type *type, int peer, int remote)
{
    struct step *st = add(s);
    if (!st)
        return RT_ERR_NO_MEM;
    st->kind = (uint8_t)kind;
    st->remote = (uint8_t)remote;
    st->peer = peer;
    if (kind == ST_SEND)
        st->src = buf;
    else
        st->dst = (void *)buf;
    st->count = count;
    st->type = type;
    rt__obj_retain((rt_obj *)type);
    return RT_SUCCESS;
}

int rt__sched_send(rt__sched *s, const void *buf, rt_count count, rt_type *type, int peer, int remote)
{
    return transfer(s, ST_SEND, buf, count, type, peer, remote);
}

int rt__sched_recv(rt__sched *s, void *buf, rt_count count, rt_type *type, int peer, int remote)
{
    return transfer(s, ST_RECV, buf, count, type, peer, remote);
}

int rt__sched_reduce(rt__sched *s, const void *in, void *inout, rt_count count, rt_type *type, rt_op *op)
{
    struct step *st = add(s);
    if (!st)
        return RT_ERR_NO_MEM;
    *st = (struct step){.kind = ST_REDUCE, .src = in, .dst = inout, .count = count, .type = type, .op = op};
    rt__obj_retain((rt_obj *)type);
    rt__obj_retain((rt_obj *)op);
    return RT_SUCCESS;
}

int rt__sched_copy(rt__sched *s, const void *src, rt_count scount, rt_type *stype, void *dst, rt_count dcount,
                   rt_type *dtype)
{
    struct step *st = add(s);
    if (!st)
        return RT_ERR_NO_MEM;
    *st = (struct step){.kind = ST_COPY, .src = src, .dst = dst, .count = scount, .type = stype,
                        .dcount = dcount, .dtype = dtype};
    rt__obj_retain((rt_obj *)stype);
    rt__obj_retain((rt_obj *)dtype);
    return RT_SUCCESS;
}

int rt__sched_call(rt__sched *s, int (*fn)(void *arg), void *arg)
{
    struct step *st = add(s);
    if (!st)
        return RT_ERR_NO_MEM;
    *st = (struct step){.kind = ST_CALL, .call = fn, .dst = arg};
    return RT_SUCCESS;
}

void *rt__sched_buffer(rt__sched *s, rt_count count, rt_type *type)
{
    rt_count span = count > 0 ? type->true_extent + (count - 1) * type->extent : 0;
    void **p = realloc(s->bufs, (size_t)(s->nbufs + 1) * sizeof *p);
    if (!p)
        return NULL;
    s->bufs = p;
    char *b = malloc((size_t)(span > 0 ? span : 1));
    if (!b)
        return NULL;
    s->bufs[s->nbufs++] = b;
    /* in integers: for a type of absolute addresses (MPI_BOTTOM) true_lb is an address, and
     * b - true_lb wraps around, which pointer arithmetic may not do */
    return (void *)((uintptr_t)b - (uintptr_t)type->true_lb);
}

/* Schedules are recycled: a few finished ones keep their arrays for the next collective. */
#define SPARE_SCHEDS 4
static rt__sched *spare[SPARE_SCHEDS];
static int nspare;

static rt__sched *sched_new(rt_comm *comm)
{
    rt__sched *s = nspare ? spare[--nspare] : calloc(1, sizeof *s);
    if (s)
        s->comm = comm;
    return s;
}

static void sched_free(rt__sched *s)
{
    for (int i = 0; i < s->nsteps; i++) {
        rt__obj_release((rt_obj *)s->steps[i].type);
        rt__obj_release((rt_obj *)s->steps[i].dtype);
        rt__obj_release((rt_obj *)s->steps[i].op);
    }
    for (int i = 0; i < s->nbufs; i++)
        free(s->bufs[i]);
    free(s->bufs);
    if (nspare < SPARE_SCHEDS) { /* keep steps, round_end and reqs with their capacities */
        *s = (rt__sched){.steps = s->steps, .cap = s->cap, .round_end = s->round_end, .rcap = s->rcap,
                         .reqs = s->reqs, .reqcap = s->reqcap};
        spare[nspare++] = s;
        return;
    }
    free(s->steps);
    free(s->round_end);
    free(s->reqs);
    free(s);
}

/* ------------------------------------------------------------ running */

static void copy_typed(const struct step *st)
{
    rt_count bytes = st->count * st->type->size, room = st->dcount * st->dtype->size;
    if (bytes > room)
        bytes = room;
    if (bytes <= 0)
        return;
    if (rt__type_contig(st->type) && rt__type_contig(st->dtype)) {
        memmove((char *)st->dst + st->dtype->true_lb, (const char *)st->src + st->type->true_lb, (size_t)bytes);
        return;
    }
    void *tmp = malloc((size_t)(st->count * st->type->size));
    if (!tmp)
        rt__fatal("out of memory copying collective data");
    rt__type_pack(st->type, st->src, st->count, tmp);
    rt__type_unpack(st->dtype, tmp, bytes, st->dst);
    free(tmp);
}

/* Posts the transfer of step st; NULL with *err set if it could not start. */
static rt_request *post(rt__sched *s, const struct step *st, int *err)
{
    rt_comm *view = st->remote || !s->comm->lcoll ? s->comm->coll : s->comm->lcoll;
    int kind = st->kind == ST_SEND ? RT__REQ_SEND : RT__REQ_RECV;
    rt_request *r = rt__request_new(kind, view, st->type);
    if (!r) {
        *err = RT_ERR_NO_MEM;
        return NULL;
    }
    r->mode = RT__MODE_STD;
    r->buf = kind == RT__REQ_SEND ? (void *)st->src : st->dst;
    r->count = st->count;
    r->peer = st->peer;
    r->tag = s->tag - st->remote;
    if (kind == RT__REQ_SEND && s->failure) /* flagged: the receiver fails too */
        r->taint = s->failure == RT_X_ERR_PROC_FAILED ? RT__MSG_FAILED : RT__MSG_TAINTED;
    *err = kind == RT__REQ_SEND ? rt__send_start(r) : rt__recv_start(r);
    if (*err) {
        rt__obj_release(&r->obj);
        return NULL;
    }
    return r;
}

static void unlink_running(rt__sched *s)
{
    if (s->prev)
        s->prev->next = s->next;
    else if (running == s)
        running = s->next;
    if (s->next)
        s->next->prev = s->prev;
    s->next = s->prev = NULL;
    rt__async_need(RT__NEED_COLL, running != NULL);
}

/* The collective is over (err: the first failure, from a transfer with rank peer of comm, or
 * -1): off the running list, complete. */
static void finish(rt__sched *s, int err, int peer)
{
    unlink_running(s);
    s->done = 1;
    s->err = err;
    s->failed_peer = err ? peer : -1;
    rt_request *r = s->owner;
    if (!r)
        return;
    if (err && !r->status.error) {
        r->status.error = err;
        r->lost = s->failed_peer;
    }
    rt__request_complete(r);
}

/* Runs the local steps of the current round, in order; returns the first error. */
static int run_local(rt__sched *s)
{
    int first = s->cur ? s->round_end[s->cur - 1] : 0;
    for (int i = first; i < s->round_end[s->cur]; i++) {
        const struct step *st = &s->steps[i];
        if (st->kind == ST_REDUCE) {
            int err = rt__op_apply(st->op, st->src, st->dst, st->count, st->type);
            if (err)
                return err;
        } else if (st->kind == ST_COPY) {
            copy_typed(st);
        } else if (st->kind == ST_CALL) {
            int err = st->call(st->dst);
            if (err)
                return err;
        }
    }
    return RT_SUCCESS;
}

/* The error of q, a finished transfer of s's current round, or RT_SUCCESS. A receive that got
 * fewer bytes than its type signature says fails too (the processes' signatures differ): s->why
 * says so, as it does for the other errors of mismatched or tainted data. */
static int transfer_error(rt__sched *s, const rt_request *q)
{
    int err = q->status.error;
    rt_count want = q->count * q->type->size;
    int short_recv = q->kind == RT__REQ_RECV && q->peer != RT_PROC_NULL && !err && q->status.count < want;
    if (!short_recv && err != RT_ERR_TRUNCATE && !(err == RT_ERR_OTHER && (q->taint & RT__MSG_TAINTED)))
        return err; /* the common case, success: nothing to say */
    char who[24];
    rt__rank_text(q->peer, who, sizeof who);
    if (short_recv) {
        snprintf(s->why, sizeof s->why,
                 "%lld bytes arrived from rank %s where this process's type signature expects %lld "
                 "(the processes' type signatures differ)", (long long)q->status.count, who, (long long)want);
        return RT_ERR_OTHER;
    }
    if (err == RT_ERR_TRUNCATE)
        snprintf(s->why, sizeof s->why,
                 "more than the %lld bytes this process's type signature expects arrived from rank %s "
                 "(the processes' type signatures differ)", (long long)want, who);
    else if (err == RT_ERR_OTHER && (q->taint & RT__MSG_TAINTED))
        snprintf(s->why, sizeof s->why,
                 "the data from rank %s depend on a process whose part of the collective failed", who);
    return err;
}

/* Runs s as far as it can go; returns the steps completed. s may be finished (and its
 * request released) on return. */
static int advance(rt__sched *s)
{
    int n = 0;
    for (;;) {
        if (s->nreqs) { /* the round's transfers: all done? */
            for (int i = 0; i < s->nreqs; i++)
                if (!rt__request_done(s->reqs[i]))
                    return n;
            for (int i = 0; i < s->nreqs; i++) {
                rt_request *q = s->reqs[i];
                int err = s->failure ? RT_SUCCESS : transfer_error(s, q);
                if (err) {
                    /* Go on to the end without computing, sending flagged data (post):
                     * leaving now would strand the live peers waiting for this process's part. */
                    s->failure = err;
                    s->failure_peer = q->peer;
                }
                rt__obj_release(&q->obj);
            }
            n += s->nreqs;
            s->nreqs = 0;
            int err;
            if (!s->failure && (err = run_local(s)) != RT_SUCCESS) {
                finish(s, err, -1);
                return n;
            }
            s->cur++;
        }
        if (s->cur == s->nrounds) {
            finish(s, s->failure, s->failure_peer);
            return n;
        }
        /* start the round: receives first, so that messages to ourselves find them */
        int first = s->cur ? s->round_end[s->cur - 1] : 0, last = s->round_end[s->cur];
        for (int pass = 0; pass < 2; pass++)
            for (int i = first; i < last; i++) {
                const struct step *st = &s->steps[i];
                if (st->kind != (pass ? ST_SEND : ST_RECV))
                    continue;
                int err;
                rt_request *q = post(s, st, &err);
                if (!q) { /* take back what this round posted, then fail */
                    for (int j = 0; j < s->nreqs; j++) {
                        rt_request *p = s->reqs[j];
                        if (rt__posted_cancel(p) || rt__request_done(p))
                            rt__obj_release(&p->obj);
                        else
                            p->freed = 1; /* in flight: it goes when complete */
                    }
                    s->nreqs = 0;
                    finish(s, err, st->peer);
                    return n;
                }
                s->reqs[s->nreqs++] = q;
            }
        if (!s->nreqs) { /* only local steps: run them now */
            int err = s->failure ? RT_SUCCESS : run_local(s);
            if (err) {
                finish(s, err, -1);
                return n;
            }
            s->cur++;
        }
    }
}

static void launch(rt__sched *s)
{
    s->cur = 0;
    s->nreqs = 0;
    s->done = 0;
    s->err = RT_SUCCESS;
    s->failure = 0;
    s->failure_peer = -1;
    s->why[0] = '\0';
    s->next = running;
    s->prev = NULL;
    if (running)
        running->prev = s;
    running = s;
    rt__async_need(RT__NEED_COLL, 1);
    advance(s);
}

int rt__coll_progress(void)
{
    int n = 0;
    for (rt__sched *s = running, *next; s; s = next) {
        next = s->next;
        n += advance(s);
    }
    return n;
}

int rt__coll_start(rt_request *r)
{
    r->status = (rt_status){.source = RT_ANY_SOURCE, .tag = RT_ANY_TAG};
    launch(r->sched);
    return RT_SUCCESS;
}

void rt__coll_destroy(rt_request *r)
{
    if (r->sched)
        sched_free(r->sched);
    r->sched = NULL;
}

static int sched_done(void *arg)
{
    return ((rt__sched *)arg)->done;
}

int rt__coll_run(rt_comm *comm, rt__coll_build_fn build, const rt__coll_args *a, int mode, rt_request **req,
                 const char *fn)
{
    int err;
    if (mode == RT__COLL_BLOCKING && rt__coll_shm_run(comm, build, a, fn, &err))
        return err;
    rt__sched *s = sched_new(comm);
    if (!s)
        return rt_raise((rt_obj *)comm, RT_ERR_NO_MEM, fn, "out of memory for the collective's schedule");
    err = rt__coll_agree(comm, build, a, build(s, comm, a, fn), fn);
    if (err) {
        sched_free(s);
        return err;
    }
    int widest = 1;
    if (!rt__sched_round(s)) {
        for (int i = 0, first = 0; i < s->nrounds; first = s->round_end[i++])
            if (s->round_end[i] - first > widest)
                widest = s->round_end[i] - first;
        if (widest > s->reqcap) {
            rt_request **p = realloc(s->reqs, (size_t)widest * sizeof *p);
            if (p)
                s->reqs = p, s->reqcap = widest;
        }
    }
    rt_request *r = NULL;
    if (widest > s->reqcap || (mode != RT__COLL_BLOCKING && !(r = rt__request_new(RT__REQ_COLL, comm, NULL)))) {
        sched_free(s);
        return rt_raise((rt_obj *)comm, RT_ERR_NO_MEM, fn, "out of memory for the collective's schedule");
    }
    /* the sequence number only counts collectives that run: a call refused here on some
     * ranks only (an argument error) does not shift the tags of the ones that follow */
    s->tag = RT__TAG_SCHED - (int)((comm->coll_seq++ & 0x1fffffffu) << 1);
    if (mode == RT__COLL_BLOCKING) { /* no request: run it here, to the end */
        launch(s);
        rt__wait_until(sched_done, s);
        err = s->err;
        if (err)
            err = rt__coll_error(comm, err, s->failed_peer, s, fn);
        sched_free(s);
        return err;
    }
    r->sched = s;
    s->owner = r;
    r->peer = RT_PROC_NULL;
    r->lost = -1;
    if (mode == RT__COLL_PERSISTENT) {
        r->persistent = 1;
        r->active = 0;
        r->complete = 1;
    } else {
        rt__coll_start(r);
    }
    *req = r;
    return RT_SUCCESS;
}

/* ------------------------------------------------------------ argument checks */

int rt__coll_check_counts(rt_comm *comm, rt_counts c, int n, const char *fn, const char *arg)
{
    for (int i = 0; i < n; i++)
        if (rt_counts_get(c, (size_t)i) < 0)
            return rt_raise((rt_obj *)comm, RT_ERR_COUNT, fn, "invalid count '%s[%d]' = %lld: must be >= 0", arg, i,
                            (long long)rt_counts_get(c, (size_t)i));
    return RT_SUCCESS;
}

int rt__coll_bad_in_place(rt_comm *comm, const char *fn, const char *arg)
{
    return rt_raise((rt_obj *)comm, RT_ERR_BUFFER, fn, "MPI_IN_PLACE is not allowed for '%s' here", arg);
}
