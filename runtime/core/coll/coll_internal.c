/* coll_internal.c — the internal collectives communicator management needs (barrier, bcast,
 * allreduce, allgather, a pairwise exchange), over the engine's requests on a collective context.
 * Like the schedules (coll_sched.c), each runs to its end after an error, its later sends
 * flagged (rt_request.taint), so that no member is left waiting for a part that never comes. */
#include "p2p/p2p.h"
#include "coll.h"

#include <stdlib.h>

/* ------------------------------------------------------------ point-to-point on a view */

/* The first of two errors. */
static int first(int err, int later)
{
    return err ? err : later;
}

/* Starts a send or receive of `bytes` bytes with rank peer of view cc; a send made after error
 * err of its collective (RT_SUCCESS: none) is flagged, so that its receive fails too. */
static int post(int kind, rt_comm *cc, int peer, int tag, void *buf, size_t bytes, int err, rt_request **out)
{
    *out = NULL;
    rt_request *r = rt__request_new(kind, cc, (rt_type *)rt_builtins[RT_B_BYTE]);
    if (!r)
        return RT_ERR_NO_MEM;
    r->mode = RT__MODE_STD;
    r->buf = buf;
    r->count = (rt_count)bytes;
    r->peer = peer;
    r->tag = tag;
    if (kind == RT__REQ_SEND && err)
        r->taint = err == RT_X_ERR_PROC_FAILED ? RT__MSG_FAILED : RT__MSG_TAINTED;
    err = kind == RT__REQ_SEND ? rt__send_start(r) : rt__recv_start(r);
    if (err) {
        if (r->queued)
            rt__posted_cancel(r);
        rt__obj_release(&r->obj);
        return err;
    }
    *out = r;
    return RT_SUCCESS;
}

static int done(void *arg)
{
    return rt__request_done(arg);
}

/* Waits for r (NULL: nothing) and frees it. A receive must have got exactly `want` bytes
 * (want < 0: any). Returns its error class. */
static int finish(rt_request *r, long long want)
{
    if (!r)
        return RT_SUCCESS;
    rt__wait_until(done, r);
    int err = r->status.error;
    if (!err && r->kind == RT__REQ_RECV && want >= 0 && r->status.count != want)
        err = RT_ERR_INTERN; /* the members disagree about the operation */
    rt__obj_release(&r->obj);
    return err;
}

static int recv_from(const rt__team *t, int i, void *buf, size_t bytes)
{
    rt_request *r;
    int err = post(RT__REQ_RECV, t->cc, t->rank ? t->rank[i] : i, t->tag, buf, bytes, RT_SUCCESS, &r);
    return err ? err : finish(r, (long long)bytes);
}

/* A blocking send (completes once the data left: eager, or matched for large ones), made after
 * error err of its collective (RT_SUCCESS: none). Returns the first of err and its own. */
static int send_wait(const rt__team *t, int i, const void *buf, size_t bytes, int err)
{
    rt_request *r;
    int e = post(RT__REQ_SEND, t->cc, t->rank ? t->rank[i] : i, t->tag, (void *)buf, bytes, err, &r);
    return first(err, e ? e : finish(r, -1));
}

/* ------------------------------------------------------------ teams */

/* All of comm's local group on its collective context. */
rt__team rt__team_of(rt_comm *comm)
{
    if (comm->remote_size > 0)
        return (rt__team){.cc = comm->lcoll, .n = comm->size, .me = comm->rank, .tag = RT__TAG_COLL};
    return (rt__team){.cc = comm->coll, .n = comm->size, .me = comm->rank, .tag = RT__TAG_COLL};
}

/* inout &= in, word by word. */
void rt__op_band(void *inout, const void *in, size_t bytes)
{
    uint32_t *a = inout;
    const uint32_t *b = in;
    for (size_t i = 0; i < bytes / sizeof *a; i++)
        a[i] &= b[i];
}

/* ------------------------------------------------------------ collectives */

/* Binomial tree from root: receive from the parent, then send to the children; err: the
 * collective's error so far. Returns the first error. */
static int bcast_after(const rt__team *t, void *buf, size_t bytes, int root, int err)
{
    int n = t->n, rel = (t->me - root + n) % n, mask = 1;
    while (mask < n) {
        if (rel & mask) {
            err = first(err, recv_from(t, (rel - mask + root) % n, buf, bytes));
            break;
        }
        mask <<= 1;
    }
    for (mask >>= 1; mask > 0; mask >>= 1)
        if (rel + mask < n)
            err = send_wait(t, (rel + mask + root) % n, buf, bytes, err);
    return err;
}

int rt__coll_bcast(const rt__team *t, void *buf, size_t bytes, int root)
{
    return bcast_after(t, buf, bytes, root, RT_SUCCESS);
}

/* Binomial reduction to participant 0, then a broadcast from it. */
int rt__coll_allreduce(const rt__team *t, void *buf, size_t bytes, rt__reduce_fn op)
{
    if (t->n <= 1)
        return RT_SUCCESS;
    void *tmp = malloc(bytes ? bytes : 1);
    if (!tmp)
        return RT_ERR_NO_MEM;
    int err = RT_SUCCESS;
    for (int mask = 1; mask < t->n; mask <<= 1) {
        if (t->me & mask) {
            err = send_wait(t, t->me - mask, buf, bytes, err);
            break;
        }
        if (t->me + mask < t->n) {
            int e = recv_from(t, t->me + mask, tmp, bytes);
            if (!e && !err)
                op(buf, tmp, bytes);
            err = first(err, e);
        }
    }
    free(tmp);
    return bcast_after(t, buf, bytes, 0, err);
}

/* Returns once every participant has entered. */
int rt__coll_barrier(const rt__team *t)
{
    uint32_t x = 0;
    return rt__coll_allreduce(t, &x, sizeof x, rt__op_band);
}

/* Everyone sends its part to participant 0, which broadcasts the whole. */
int rt__coll_allgather(const rt__team *t, const void *mine, void *all, size_t bytes)
{
    char *a = all;
    int err = RT_SUCCESS;
    if (t->me == 0) {
        memmove(a, mine, bytes);
        for (int i = 1; i < t->n; i++)
            err = first(err, recv_from(t, i, a + (size_t)i * bytes, bytes));
    } else {
        err = send_wait(t, 0, mine, bytes, RT_SUCCESS);
    }
    return bcast_after(t, all, (size_t)t->n * bytes, 0, err);
}

/* Like rt__coll_allgather with bytes[i] bytes from participant i (known everywhere). */
int rt__coll_allgatherv(const rt__team *t, const void *mine, void *all, const size_t *bytes)
{
    char *a = all;
    size_t total = 0, off = 0;
    int err = RT_SUCCESS;
    for (int i = 0; i < t->n; i++)
        total += bytes[i];
    if (t->me == 0) {
        for (int i = 0; i < t->n; off += bytes[i], i++)
            if (i == 0)
                memmove(a, mine, bytes[0]);
            else
                err = first(err, recv_from(t, i, a + off, bytes[i]));
    } else {
        err = send_wait(t, 0, mine, bytes[t->me], RT_SUCCESS);
    }
    return bcast_after(t, all, total, 0, err);
}

/* A send to and a receive from peer, both posted before either is waited for. */
int rt__coll_exchange(rt_comm *cc, int peer, int tag, const void *sbuf, size_t sbytes, void *rbuf, size_t rbytes)
{
    rt_request *s, *r;
    int err = post(RT__REQ_RECV, cc, peer, tag, rbuf, rbytes, RT_SUCCESS, &r);
    if (err)
        return err;
    err = post(RT__REQ_SEND, cc, peer, tag, (void *)sbuf, sbytes, RT_SUCCESS, &s);
    if (err) { /* take the receive back */
        rt__posted_cancel(r);
        rt__obj_release(&r->obj);
        return err;
    }
    int e2 = finish(r, (long long)rbytes), e1 = finish(s, -1);
    return e1 ? e1 : e2;
}
