/* p2p_request.c — requests: creation, completion and release, and the calls that complete
 * them (MPI_Wait/Test and their any/all/some forms, MPI_Request_get_status*, MPI_Cancel,
 * MPI_Request_free, MPI_Start/Startall); a generalized request's callbacks run from here too. */
#include "type/type.h"
#include "p2p.h"

#include <pthread.h>
#include <stdlib.h>
#include <sys/resource.h>

/* Zeroes n bytes at p (n a constant) with 16-byte stores, then 8-byte ones: GCC makes a
 * constant memset of a request's size `rep stos`, whose start-up cost was 72 % of the time
 * of making a request in a message-rate loop (perf). */
static inline void zero_stores(void *p, size_t n)
{
    typedef uint64_t v16 __attribute__((vector_size(16), aligned(8), may_alias));
    typedef uint64_t u8 __attribute__((aligned(8), may_alias));
    v16 *v = p;
#pragma GCC unroll 32
    for (size_t i = 0; i < n / 16; i++)
        v[i] = (v16){0, 0};
    if (n % 16)
        *(u8 *)((char *)p + n - 8) = 0;
}

/* The requests this thread keeps for its next ones (issue 38): each parked (rt__obj_park) in
 * its handle slot, linked through `next`. Making and freeing a request then take no lock and
 * touch no shared table. A thread gives its back when it ends (kept_key's destructor) and at
 * MPI_Finalize. A few words of initial-exec TLS, as the library may be dlopen'ed. */
#define KEPT_MAX 128
static __thread __attribute__((tls_model("initial-exec"))) rt_request *kept;
static __thread __attribute__((tls_model("initial-exec"))) int nkept;
static __thread __attribute__((tls_model("initial-exec"))) int keeping; /* kept_key is set */
static __thread __attribute__((tls_model("initial-exec"))) rt_request *sent; /* rt__request_sent */
static pthread_key_t kept_key;
static int kept_key_made; /* kept_key exists (set once, under kept_once) */
static pthread_once_t kept_once = PTHREAD_ONCE_INIT;

static void give_back_at_exit(void *unused)
{
    (void)unused;
    rt__big_lock();
    rt__requests_give_back();
    rt__big_unlock();
}

static void kept_key_create(void)
{
    kept_key_made = pthread_key_create(&kept_key, give_back_at_exit) == 0;
}

void rt__requests_give_back(void)
{
    rt_request *s = sent;
    sent = NULL;
    if (s && rt__obj_unref(&s->obj) <= 0)
        rt__obj_free(&s->obj);
    for (rt_request *r = kept, *next; r; r = next) {
        next = r->next;
        rt__obj_free(&r->obj); /* parked with nothing owned: the destructor finds NULLs */
    }
    kept = NULL;
    nkept = 0;
}

/* A request made the slow way, when this thread keeps none. */
static __attribute__((noinline)) rt_request *request_made(void)
{
    int took = rt__big_enter(); /* a channel entry: the object tables are the library's */
    rt_request *r = (rt_request *)rt__obj_new_raw(RT_CLASS_REQUEST);
    rt__big_leave(took);
    return r;
}

rt_request *rt__request_new(int kind, rt_comm *comm, rt_type *type)
{
    rt_request *r = kept;
    if (__builtin_expect(r != NULL, 1)) {
        kept = r->next;
        nkept--;
        rt__obj_unpark(&r->obj);
    } else if (!(r = request_made())) {
        return NULL;
    }
    /* every field but the header: the memory may be a freed request's */
    _Static_assert(sizeof(rt_obj) % 8 == 0 && sizeof(rt_request) % 8 == 0, "requests are 8-byte aligned");
    zero_stores((char *)r + sizeof r->obj, sizeof *r - sizeof r->obj);
    r->kind = (uint8_t)kind;
    r->active = 1;
    r->comm = comm;
    r->type = type;
    rt__obj_retain((rt_obj *)comm);
    rt__obj_retain((rt_obj *)type);
    return r;
}

__attribute__((noinline)) void rt__free_locked(rt_obj *o)
{
    int took = rt__big_enter();
    rt__obj_free(o);
    rt__big_leave(took);
}

/* Starts keeping requests in this thread: 1 if it may (its exit will give them back). */
static __attribute__((noinline)) int keep_start(void)
{
    pthread_once(&kept_once, kept_key_create);
    if (!kept_key_made || pthread_setspecific(kept_key, &kept) != 0)
        return 0;
    return keeping = 1;
}

/* The thread's complete send request, made. */
static __attribute__((noinline, cold)) rt_request *make_sent(void)
{
    if (!keeping && !keep_start()) /* its exit must drop it */
        return NULL;
    rt_request *r = rt__request_new(RT__REQ_SEND, NULL, NULL);
    if (r) {
        r->complete = 1;
        r->status = (rt_status){.source = RT_ANY_SOURCE, .tag = RT_ANY_TAG};
    }
    return sent = r;
}

rt_request *rt__request_sent(void)
{
    return __builtin_expect(sent != NULL, 1) ? sent : make_sent();
}

void rt__request_drop(rt_request *r)
{
    if (rt__obj_unref(&r->obj) > 0)
        return;
    if (nkept < KEPT_MAX && !r->sub[0] && !r->sub[1] && !r->mrecv && !r->sched && !r->greq && !r->part &&
        (keeping || keep_start())) {
        if (r->tmp)
            free(r->tmp);
        rt__drop_ref((rt_obj *)r->comm);
        rt__drop_ref((rt_obj *)r->type);
        r->tmp = NULL;
        r->comm = NULL;
        r->type = NULL;
        rt__obj_park(&r->obj);
        r->next = kept;
        kept = r;
        nkept++;
        return;
    }
    rt__free_locked(&r->obj);
}

void rt__request_complete(rt_request *r)
{
    if (r->complete)
        return;
    if (r->kind == RT__REQ_SEND && r->tmp) {
        free(r->tmp);
        r->tmp = NULL;
    }
    /* Last for a waiter (rt__request_done): a channel wait's pass may complete another
     * thread's request, which its waiter may free at once. After the store r is touched only
     * if nobody waits for it (freed; a buffered send's request is). */
    int shared = r->bbuf || r->freed;
    __atomic_store_n(&r->complete, 1, __ATOMIC_RELEASE);
    if (__builtin_expect(shared, 0)) {
        if (rt__on_channel)
            rt__request_later(r); /* without the library's lock */
        else
            rt__request_finish_shared(r);
    }
}

void rt__request_finish_shared(rt_request *r)
{
    if (r->bbuf)
        rt__bsend_release(r);
    if (r->freed) { /* MPI_Request_free'd while active: nobody waits for it */
        r->freed = 0;
        r->active = 0;
        rt__obj_release(&r->obj);
    }
}

int rt__request_parts_done(const rt_request *r)
{
    return (!r->sub[0] || rt__request_done(r->sub[0])) && (!r->sub[1] || rt__request_done(r->sub[1]));
}

void rt__request_destroy(rt_obj *o)
{
    rt_request *r = (rt_request *)o;
    for (int i = 0; i < 2; i++)
        if (r->sub[i])
            rt__obj_release(&r->sub[i]->obj);
    if (r->mrecv)
        rt__obj_release(&r->mrecv->obj);
    if (r->sched)
        rt__coll_hooks.destroy(r);
    if (r->tmp)
        free(r->tmp);
    if (r->part)
        rt__part_destroy(r);
    free(r->greq); /* a generalized request never waited for nor freed (MPI_Finalize) */
    rt__obj_release((rt_obj *)r->comm);
    rt__obj_release((rt_obj *)r->type);
}

void rt__message_destroy(rt_obj *o)
{
    struct rt_message *m = (struct rt_message *)o;
    if (m->msg)
        rt__umsg_free(m->msg);
    rt__obj_release((rt_obj *)m->comm);
}

/* ------------------------------------------------------------ completion of one request */

/* The status of a null or inactive request: "empty". */
static void empty_status(rt_status *s)
{
    if (s)
        *s = (rt_status){.source = RT_ANY_SOURCE, .tag = RT_ANY_TAG, .error = RT_SUCCESS, .empty = 1};
}

/* The part of completed request r whose error it reports: r itself, or for a composite
 * request (MPI_Sendrecv and the like) the first of its parts, in the order send, receive,
 * that failed (else its receive). */
static const rt_request *failed_part(const rt_request *r)
{
    if (r->kind != RT__REQ_COMPOSITE)
        return r;
    for (int i = 0; i < 2; i++)
        if (r->sub[i] && r->sub[i]->status.error != RT_SUCCESS)
            return r->sub[i];
    return r->sub[1] ? r->sub[1] : r;
}

/* The error class part x of completed request r reports: an MPI_ANY_SOURCE receive failed
 * by a process failure is MPIX_ERR_PROC_FAILED_PENDING, or MPIX_ERR_PROC_FAILED when r was
 * started by a blocking call (ULFM). */
static int error_of(const rt_request *r, const rt_request *x)
{
    int err = x->status.error;
    return err == RT_X_ERR_PROC_FAILED_PENDING && r->blocking ? RT_X_ERR_PROC_FAILED : err;
}

/* A completed request's status: a composite request's is its receive's (source, tag,
 * count), with the error of the part that failed (failed_part). A generalized request's is
 * what its query function makes (called each time). */
static rt_status status_of(const rt_request *r)
{
    if (__builtin_expect(r->kind == RT__REQ_GREQ, 0))
        rt__greq_query((rt_request *)r);
    rt_status s = r->kind != RT__REQ_COMPOSITE ? r->status : r->sub[1] ? r->sub[1]->status : r->status;
    s.error = error_of(r, failed_part(r));
    return s;
}

/* Error raised for a completed request's failure, or RT_SUCCESS; it names the peer of the
 * part that failed. */
static __attribute__((noinline, cold)) int request_error(const rt_request *r, const char *fn)
{
    const rt_request *x = failed_part(r);
    const rt_status *s = &x->status;
    if (s->error == RT_SUCCESS)
        return RT_SUCCESS;
    if (s->error == RT_X_ERR_PROC_FAILED_PENDING)
        return rt_raise((rt_obj *)r->comm, error_of(r, x), fn,
                        "the MPI_ANY_SOURCE receive %s: rank %d of its communicator has failed",
                        r->blocking ? "failed" : "cannot complete", x->lost);
    if (r->kind == RT__REQ_COLL)
        return rt__coll_hooks.error(r->comm, s->error, x->lost, r->sched, fn);
    if (r->kind == RT__REQ_PART)
        return rt__part_error(r, fn);
    if (s->error == RT_ERR_TRUNCATE)
        return rt_raise((rt_obj *)r->comm, RT_ERR_TRUNCATE, fn,
                        "message truncated: %lld bytes arrived from rank %d (tag %d) for a buffer of %lld bytes",
                        (long long)x->tmp_len, s->source, s->tag, (long long)(x->count * x->type->size));
    const char *why = rt__class_string(s->error);
    char peer[24];
    rt__rank_text(x->peer == RT_ANY_SOURCE && x->kind == RT__REQ_RECV ? s->source : x->peer, peer, sizeof peer);
    if (s->error == RT_X_ERR_PROC_FAILED)
        return rt_raise((rt_obj *)r->comm, s->error, fn, "the %s rank %s failed: that process has failed",
                        x->kind == RT__REQ_SEND ? "send to" : "receive from", peer);
    if (s->error == RT_ERR_NO_SPACE) { /* a transport's socket(): EMFILE or ENFILE */
        struct rlimit rl = {0, 0};
        getrlimit(RLIMIT_NOFILE, &rl);
        return rt_raise((rt_obj *)r->comm, s->error, fn,
                        "the transfer with rank %s failed: no file descriptor left for its connection "
                        "(this process may have %llu open: RLIMIT_NOFILE, hard limit %llu; or the "
                        "system's table is full): raise the limit with `ulimit -n` before mpiexec",
                        peer, (unsigned long long)rl.rlim_cur, (unsigned long long)rl.rlim_max);
    }
    return rt_raise((rt_obj *)r->comm, s->error, fn, "the transfer with rank %s failed: %s", peer,
                    why ? why : "unknown error");
}

/* finish() for a generalized request: its query function makes the status, then its free
 * function runs; the first of their error codes that is not RT_SUCCESS is the status's error. */
static __attribute__((noinline)) int finish_greq(rt_request **rp, rt_status *status, const char *fn, int raise)
{
    rt_request *r = *rp;
    int qerr = rt__greq_query(r), ferr = rt__greq_free(r);
    int err = qerr ? qerr : ferr;
    r->status.error = err;
    if (status)
        *status = r->status;
    if (raise && err != RT_SUCCESS)
        err = rt_raise(NULL, err, fn, "the %s function of a generalized request returned error code %d",
                       qerr ? "query" : "free", err);
    rt__request_drop(r);
    *rp = NULL;
    return err;
}

/* Hands back completed request *rp: fills status, frees it (or makes a persistent one
 * inactive) and sets *rp to NULL. Returns the request's error code (raised), if any. */
static inline __attribute__((always_inline)) int finish(rt_request **rp, rt_status *status, const char *fn,
                                                      int raise)
{
    rt_request *r = *rp;
    if (__builtin_expect(r->kind == RT__REQ_GREQ, 0))
        return finish_greq(rp, status, fn, raise);
    int err = error_of(r, failed_part(r));
    if (status)
        *status = status_of(r);
    if (raise && err != RT_SUCCESS)
        err = request_error(r, fn);
    if (r->persistent) {
        r->active = 0;
    } else {
        rt__request_drop(r);
        *rp = NULL;
    }
    return err;
}

static int inactive(const rt_request *r)
{
    return !r || (r->persistent && !r->active);
}

static int one_done(void *arg)
{
    return rt__request_done(arg);
}

int rt__request_wait(rt_request **request, rt_status *status, const char *fn)
{
    if (inactive(*request)) {
        empty_status(status);
        return RT_SUCCESS;
    }
    if (!rt__request_done(*request))
        rt__wait_requests(1, request, one_done, *request);
    return finish(request, status, fn, 1);
}

/* MPI_Wait. */
int rt_Wait(rt_request **request, rt_status *status)
{
    return rt__request_wait(request, status, __func__);
}

/* MPI_Test. */
int rt_Test(rt_request **request, int *flag, rt_status *status)
{
    if (inactive(*request)) {
        *flag = 1;
        empty_status(status);
        return RT_SUCCESS;
    }
    if (!rt__request_done(*request))
        rt__progress_requests(1, request);
    *flag = rt__request_done(*request);
    return *flag ? finish(request, status, __func__, 1) : RT_SUCCESS;
}

/* MPI_Request_get_status: like MPI_Test but leaves the request alone. */
int rt_Request_get_status(rt_request *request, int *flag, rt_status *status)
{
    if (inactive(request)) {
        *flag = 1;
        empty_status(status);
        return RT_SUCCESS;
    }
    if (!rt__request_done(request))
        rt__progress();
    *flag = rt__request_done(request);
    if (*flag && request->kind == RT__REQ_GREQ) { /* its query function says, every time */
        int err = rt__greq_query(request);
        if (status)
            *status = request->status;
        return err ? rt_raise(NULL, err, __func__, "the query function of a generalized request returned error code %d",
                              err)
                   : RT_SUCCESS;
    }
    if (*flag && status)
        *status = status_of(request);
    return RT_SUCCESS;
}

/* ------------------------------------------------------------ many requests */

struct many {
    int n;
    rt_request **r;
    int first; /* all_done: r[0 .. first - 1] are done or inactive (a done request stays done) */
};

static int any_done(void *arg)
{
    const struct many *m = arg;
    int live = 0;
    for (int i = 0; i < m->n; i++)
        if (!inactive(m->r[i])) {
            live = 1;
            if (rt__request_done(m->r[i]))
                return 1;
        }
    return !live;
}

static int all_done(void *arg)
{
    struct many *m = arg;
    int i = m->first;
    while (i < m->n && (inactive(m->r[i]) || rt__request_done(m->r[i])))
        i++;
    m->first = i;
    return i == m->n;
}

/* The index of the first completed active request, RT_UNDEFINED if none is active, -1 if
 * none is complete yet. */
static int first_done(int n, rt_request **r)
{
    int live = 0;
    for (int i = 0; i < n; i++)
        if (!inactive(r[i])) {
            live = 1;
            if (rt__request_done(r[i]))
                return i;
        }
    return live ? -1 : RT_UNDEFINED;
}

/* MPI_Waitany. */
int rt_Waitany(int count, rt_request **array_of_requests, int *index, rt_status *status)
{
    struct many m = {count, array_of_requests, 0};
    rt__wait_requests(count, array_of_requests, any_done, &m);
    *index = first_done(count, array_of_requests);
    if (*index == RT_UNDEFINED) {
        empty_status(status);
        return RT_SUCCESS;
    }
    return finish(&array_of_requests[*index], status, __func__, 1);
}

/* MPI_Testany. */
int rt_Testany(int count, rt_request **array_of_requests, int *index, int *flag, rt_status *status)
{
    rt__progress_requests(count, array_of_requests);
    *index = first_done(count, array_of_requests);
    if (*index == -1) {
        *flag = 0;
        *index = RT_UNDEFINED;
        return RT_SUCCESS;
    }
    *flag = 1;
    if (*index == RT_UNDEFINED) {
        empty_status(status);
        return RT_SUCCESS;
    }
    return finish(&array_of_requests[*index], status, __func__, 1);
}

/* Completes every done active request of the array, each status in statuses (may be
 * NULL). Returns RT_ERR_IN_STATUS (raised once) if any failed. */
static int finish_all(int count, rt_request **r, rt_status *statuses, const char *fn)
{
    int failed = 0;
    rt_comm *comm = NULL;
    for (int i = 0; i < count; i++) {
        rt_status *s = statuses ? &statuses[i] : NULL;
        if (inactive(r[i])) {
            empty_status(s);
            continue;
        }
        comm = r[i]->comm;
        if (finish(&r[i], s, fn, 0) != RT_SUCCESS)
            failed = 1;
    }
    if (failed)
        return rt_raise((rt_obj *)comm, RT_ERR_IN_STATUS, fn, "some requests failed: see the error field of their statuses");
    return RT_SUCCESS;
}

/* MPI_Waitall. */
int rt_Waitall(int count, rt_request **array_of_requests, rt_status *array_of_statuses)
{
    struct many m = {count, array_of_requests, 0};
    rt__wait_requests(count, array_of_requests, all_done, &m);
    return finish_all(count, array_of_requests, array_of_statuses, __func__);
}

/* MPI_Testall: all or nothing. */
int rt_Testall(int count, rt_request **array_of_requests, int *flag, rt_status *array_of_statuses)
{
    struct many m = {count, array_of_requests, 0};
    rt__progress_requests(count, array_of_requests);
    *flag = all_done(&m);
    return *flag ? finish_all(count, array_of_requests, array_of_statuses, __func__) : RT_SUCCESS;
}

/* Completes the done requests of the array into indices/statuses; *outcount = how many
 * (RT_UNDEFINED when none is active). */
static int finish_some(int count, rt_request **r, int *outcount, int *indices, rt_status *statuses, const char *fn,
                       int keep)
{
    int n = 0, live = 0, failed = 0;
    rt_comm *comm = NULL;
    for (int i = 0; i < count; i++) {
        if (inactive(r[i]))
            continue;
        live = 1;
        if (!rt__request_done(r[i]))
            continue;
        rt_status *s = statuses ? &statuses[n] : NULL;
        indices[n++] = i;
        comm = r[i]->comm;
        if (keep) {
            if (s)
                *s = status_of(r[i]);
        } else if (finish(&r[i], s, fn, 0) != RT_SUCCESS) {
            failed = 1;
        }
    }
    *outcount = live ? n : RT_UNDEFINED;
    if (failed)
        return rt_raise((rt_obj *)comm, RT_ERR_IN_STATUS, fn, "some requests failed: see the error field of their statuses");
    return RT_SUCCESS;
}

/* MPI_Waitsome. */
int rt_Waitsome(int incount, rt_request **array_of_requests, int *outcount, int *array_of_indices,
                rt_status *array_of_statuses)
{
    struct many m = {incount, array_of_requests, 0};
    rt__wait_requests(incount, array_of_requests, any_done, &m);
    return finish_some(incount, array_of_requests, outcount, array_of_indices, array_of_statuses, __func__, 0);
}

/* MPI_Testsome. */
int rt_Testsome(int incount, rt_request **array_of_requests, int *outcount, int *array_of_indices,
                rt_status *array_of_statuses)
{
    rt__progress_requests(incount, array_of_requests);
    return finish_some(incount, array_of_requests, outcount, array_of_indices, array_of_statuses, __func__, 0);
}

/* MPI_Request_get_status_any (MPI-4.1): MPI_Testany without completing. */
int rt_Request_get_status_any(int count, rt_request *const *array_of_requests, int *index, int *flag,
                              rt_status *status)
{
    rt__progress();
    int i = first_done(count, (rt_request **)array_of_requests);
    *flag = i != -1;
    *index = i >= 0 ? i : RT_UNDEFINED;
    if (i >= 0 && status)
        *status = status_of(array_of_requests[i]);
    else if (*flag)
        empty_status(status);
    return RT_SUCCESS;
}

/* MPI_Request_get_status_all (MPI-4.1). */
int rt_Request_get_status_all(int count, rt_request *const *array_of_requests, int *flag,
                              rt_status *array_of_statuses)
{
    struct many m = {count, (rt_request **)array_of_requests, 0};
    rt__progress();
    *flag = all_done(&m);
    if (*flag && array_of_statuses)
        for (int i = 0; i < count; i++) {
            if (inactive(array_of_requests[i]))
                empty_status(&array_of_statuses[i]);
            else
                array_of_statuses[i] = status_of(array_of_requests[i]);
        }
    return RT_SUCCESS;
}

/* MPI_Request_get_status_some (MPI-4.1). */
int rt_Request_get_status_some(int incount, rt_request *const *array_of_requests, int *outcount,
                               int *array_of_indices, rt_status *array_of_statuses)
{
    rt__progress();
    return finish_some(incount, (rt_request **)array_of_requests, outcount, array_of_indices, array_of_statuses,
                       __func__, 1);
}

/* ------------------------------------------------------------ cancel, free, start */

/* MPI_Cancel: a receive not yet matched, or a send not yet handed to a transport, is
 * cancelled; anything further along completes normally (MPI_Test_cancelled says no). */
int rt_Cancel(rt_request *request)
{
    if (inactive(request))
        return RT_ERR(request ? request->comm : NULL, RT_ERR_REQUEST, "request is not active");
    if (request->kind == RT__REQ_COLL)
        return RT_ERR(request->comm, RT_ERR_REQUEST, "a collective operation cannot be cancelled");
    if (request->kind == RT__REQ_GREQ) { /* its cancel function decides; it completes as ever */
        int err = rt__greq_cancel(request);
        return err ? RT_ERR(NULL, err, "the cancel function of a generalized request returned error code %d", err)
                   : RT_SUCCESS;
    }
    if (rt__request_done(request))
        return RT_SUCCESS;
    if (rt__posted_cancel(request) || rt__pending_cancel(request)) {
        request->status.cancelled = 1;
        request->status.count = 0;
        rt__request_complete(request);
    }
    return RT_SUCCESS;
}

/* MPI_Request_free: the request goes once complete; *request becomes the null handle. */
int rt_Request_free(rt_request **request)
{
    rt_request *r = *request;
    if (!r)
        return RT_ERR(NULL, RT_ERR_REQUEST, "argument 'request' is MPI_REQUEST_NULL");
    *request = NULL;
    if (rt__free_when_complete(r)) /* still running: it goes when complete */
        return RT_SUCCESS;
    int err = r->kind == RT__REQ_GREQ ? rt__greq_free(r) : RT_SUCCESS; /* completed, never waited for */
    rt__request_drop(r);
    return err ? RT_ERR(NULL, err, "the free function of a generalized request returned error code %d", err)
               : RT_SUCCESS;
}

const char *rt__start_failure(int err, const rt_comm *comm)
{
    return err == RT_ERR_BUFFER ? rt__bsend_no_room(comm) : "cannot start the operation";
}

/* Starts persistent request r (inactive); errors are raised naming fn. */
static int start(rt_request *r, const char *fn)
{
    if (!r || !r->persistent)
        return rt_raise(r ? (rt_obj *)r->comm : NULL, RT_ERR_REQUEST, fn, "request is not a persistent request");
    if (r->active)
        return rt_raise((rt_obj *)r->comm, RT_ERR_REQUEST, fn, "persistent request is already active");
    r->active = 1;
    r->complete = 0;
    r->need_ack = 0;
    r->tp_pending = 0;
    int err = r->kind == RT__REQ_COLL ? rt__coll_hooks.start(r)
              : r->kind == RT__REQ_PART ? rt__part_start(r)
              : r->kind == RT__REQ_SEND ? rt__send_start(r) : rt__recv_start(r);
    return err ? rt_raise((rt_obj *)r->comm, err, fn, "%s", rt__start_failure(err, r->comm)) : RT_SUCCESS;
}

/* MPI_Start. */
int rt_Start(rt_request **request)
{
    return start(*request, "MPI_Start");
}

/* MPI_Startall. */
int rt_Startall(int count, rt_request **array_of_requests)
{
    for (int i = 0; i < count; i++) {
        int err = start(array_of_requests[i], "MPI_Startall");
        if (err)
            return err;
    }
    return RT_SUCCESS;
}
