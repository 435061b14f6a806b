/* p2p_part.c — partitioned communication (MPI_Psend_init, MPI_Precv_init, MPI_Pready*,
 * MPI_Parrived): each send partition travels as its own message on negative tags of the
 * communicator's point-to-point context, which no user receive matches (docs/internals.md). */
#include "type/type.h"
#include "p2p.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Tags: the hello of a pair with user tag t is HELLO_TOP - t; data partition index x (a
 * per-process counter, one index per send partition) goes on DATA_TOP - x % DATA_SPAN. */
#define HELLO_TOP (-16)
#define DATA_TOP (-(1 << 30) - 32)
#define DATA_SPAN ((1 << 30) - 32)

/* A partitioned request's state. The sender's hello, sent at MPI_Psend_init, tells the
 * receiver {first data index, partitions, bytes per partition}. */
struct rt__part {
    int send;             /* 1: MPI_Psend_init */
    int n;                /* this side's partitions */
    rt_count pbytes;      /* bytes per partition on this side */
    int64_t hello[3];     /* sender: what it sent; receiver: what it got */
    rt_request *hreq;     /* the hello's send or receive (NULL once released, or PROC_NULL) */
    int nsub;             /* data messages per round: the sender's partitions */
    rt_count sbytes;      /* bytes per data message (the sender's partition) */
    rt_request **sub;     /* this round's data sends or receives (released when done) */
    uint8_t *mark;        /* sender: partition marked ready; receiver: data message arrived */
    int nmarked;          /* marks this round */
    int posted;           /* receiver: this round's data receives are posted */
    int bad;              /* receiver: the sender's total bytes differ from ours */
    int err;              /* the round's error class (a transfer failed) */
    char *stage;          /* packed copy (non-contiguous types; a mismatch's drain) */
};

static int64_t next_index; /* next send partition's data index (under the library's lock) */

static int data_tag(int64_t x)
{
    return DATA_TOP - (int)(x % DATA_SPAN);
}

/* Starts a byte send or receive of kind on comm; NULL and *err set on failure. */
static rt_request *post(int kind, rt_comm *comm, int peer, int tag, void *buf, rt_count bytes, int *err)
{
    rt_request *r = rt__request_new(kind, comm, (rt_type *)rt_builtins[RT_B_BYTE]);
    if (!r) {
        *err = RT_ERR_NO_MEM;
        return NULL;
    }
    r->mode = RT__MODE_STD;
    r->buf = buf;
    r->count = bytes;
    r->peer = peer;
    r->tag = tag;
    *err = kind == RT__REQ_SEND ? rt__send_start(r) : rt__recv_start(r);
    if (*err) {
        if (r->queued)
            rt__posted_cancel(r);
        rt__obj_release(&r->obj);
        return NULL;
    }
    return r;
}

/* Drops internal request *rp: released if complete, else freed when it completes. */
static void drop(rt_request **rp)
{
    rt_request *s = *rp;
    *rp = NULL;
    if (!s)
        return;
    if (!rt__request_done(s) && rt__free_when_complete(s))
        return;
    rt__obj_release(&s->obj);
}

void rt__part_destroy(rt_request *r)
{
    struct rt__part *p = r->part;
    drop(&p->hreq);
    for (int i = 0; p->sub && i < p->nsub; i++)
        drop(&p->sub[i]);
    free(p->sub);
    free(p->mark);
    free(p->stage);
    free(p);
    r->part = NULL;
}

/* The common part of both inits: an inactive request of kind RT__REQ_PART. */
static int make(int send, void *buf, int partitions, rt_count count, rt_type *type, int peer, int tag,
                rt_comm *comm, rt_request **request, const char *fn)
{
    if (partitions < 0)
        return rt_raise((rt_obj *)comm, RT_ERR_ARG, fn, "invalid argument 'partitions' = %d: must be >= 0", partitions);
    if (peer == RT_ANY_SOURCE || tag == RT_ANY_TAG)
        return rt_raise((rt_obj *)comm, peer == RT_ANY_SOURCE ? RT_ERR_RANK : RT_ERR_TAG, fn,
                        "invalid argument '%s' = %s: partitioned communication takes no wildcard",
                        peer == RT_ANY_SOURCE ? "source" : "tag", peer == RT_ANY_SOURCE ? "MPI_ANY_SOURCE" : "MPI_ANY_TAG");
    struct rt__part *p = calloc(1, sizeof *p);
    rt_request *r = p ? rt__request_new(RT__REQ_PART, comm, type) : NULL;
    if (!r) {
        free(p);
        return rt_raise((rt_obj *)comm, RT_ERR_NO_MEM, fn, "out of memory for a partitioned request");
    }
    r->part = p;
    r->persistent = 1;
    r->active = 0;
    r->buf = buf;
    r->count = count;
    r->peer = peer;
    r->tag = tag;
    p->send = send;
    p->n = partitions;
    p->pbytes = count * type->size;
    int err = RT_SUCCESS;
    if (peer != RT_PROC_NULL) {
        if (send) {
            p->nsub = partitions;
            p->sbytes = p->pbytes;
            p->hello[0] = next_index;
            p->hello[1] = partitions;
            p->hello[2] = p->pbytes;
            next_index = (next_index + partitions) % DATA_SPAN;
            p->sub = calloc((size_t)partitions + 1, sizeof *p->sub);
            p->mark = calloc((size_t)partitions + 1, 1);
            if (!rt__type_contig(type) && p->pbytes * partitions > 0)
                p->stage = malloc((size_t)(p->pbytes * partitions));
            if (!p->sub || !p->mark || (!rt__type_contig(type) && p->pbytes * partitions > 0 && !p->stage))
                err = RT_ERR_NO_MEM;
            else
                p->hreq = post(RT__REQ_SEND, comm, peer, HELLO_TOP - tag, p->hello, sizeof p->hello, &err);
        } else {
            p->hreq = post(RT__REQ_RECV, comm, peer, HELLO_TOP - tag, p->hello, sizeof p->hello, &err);
        }
    }
    if (err) {
        rt__obj_release(&r->obj);
        return rt_raise((rt_obj *)comm, err, fn, "cannot set up the partitioned %s: %s", send ? "send" : "receive",
                        rt__start_failure(err, comm));
    }
    *request = r;
    return RT_SUCCESS;
}

/* MPI_Psend_init: the hello goes now, so pairs match in the order of their inits. */
int rt_Psend_init(const void *buf, int partitions, rt_count count, rt_type *datatype, int dest, int tag,
                  rt_comm *comm, rt_info *info, rt_request **request)
{
    (void)info;
    return make(1, (void *)buf, partitions, count, datatype, dest, tag, comm, request, "MPI_Psend_init");
}

/* MPI_Precv_init: its hello receive is posted now, in init order. */
int rt_Precv_init(void *buf, int partitions, rt_count count, rt_type *datatype, int source, int tag, rt_comm *comm,
                  rt_info *info, rt_request **request)
{
    (void)info;
    return make(0, buf, partitions, count, datatype, source, tag, comm, request, "MPI_Precv_init");
}

int rt__part_start(rt_request *r)
{
    struct rt__part *p = r->part;
    p->nmarked = 0;
    p->posted = 0;
    p->err = RT_SUCCESS;
    if (p->mark)
        memset(p->mark, 0, (size_t)p->nsub);
    r->status = (rt_status){.source = r->peer, .tag = r->tag};
    if (r->peer == RT_PROC_NULL) {
        r->status = (rt_status){.source = RT_PROC_NULL, .tag = RT_ANY_TAG};
        rt__request_complete(r);
        return RT_SUCCESS;
    }
    rt__part_done(r); /* a receive whose hello is here posts its data receives now */
    return RT_SUCCESS;
}

/* Receiver: once the hello is here, posts this round's data receives. 0 if not yet. */
static int post_data(rt_request *r)
{
    struct rt__part *p = r->part;
    if (p->hreq) {
        if (!rt__request_done(p->hreq))
            return 0;
        int herr = p->hreq->status.error;
        rt_count got = p->hreq->status.count;
        drop(&p->hreq);
        if (herr || got != (rt_count)sizeof p->hello || p->hello[1] < 0 || p->hello[1] > INT32_MAX) {
            p->nsub = -1;
            p->err = herr ? herr : RT_ERR_INTERN;
        } else {
            p->nsub = (int)p->hello[1];
            p->sbytes = p->hello[2];
            p->bad = p->nsub * p->sbytes != p->n * p->pbytes;
            p->sub = calloc((size_t)p->nsub + 1, sizeof *p->sub);
            p->mark = calloc((size_t)p->nsub + 1, 1);
            rt_count total = p->nsub * p->sbytes;
            if ((p->bad || !rt__type_contig(r->type)) && total > 0)
                p->stage = malloc((size_t)total);
            if (!p->sub || !p->mark || ((p->bad || !rt__type_contig(r->type)) && total > 0 && !p->stage)) {
                p->nsub = -1;
                p->err = RT_ERR_NO_MEM;
            }
        }
    }
    if (p->nsub < 0) { /* the pair is broken: every round fails */
        p->posted = 1;
        return 1;
    }
    for (int i = 0; i < p->nsub; i++) {
        char *at = (p->stage ? p->stage : (char *)r->buf) + (rt_count)i * p->sbytes;
        int err;
        p->sub[i] = post(RT__REQ_RECV, r->comm, r->peer, data_tag(p->hello[0] + i), at, p->sbytes, &err);
        if (!p->sub[i]) {
            p->err = err;
            p->mark[i] = 1;
            p->nmarked++;
        }
    }
    p->posted = 1;
    return 1;
}

/* Receiver: notes the data messages that arrived (unpacking staged ones). */
static void note_arrivals(rt_request *r)
{
    struct rt__part *p = r->part;
    for (int i = 0; i < p->nsub; i++) {
        rt_request *s = p->sub[i];
        if (p->mark[i] || !s || !rt__request_done(s))
            continue;
        if (s->status.error && !p->err)
            p->err = s->status.error;
        else if (s->status.count != p->sbytes && !p->err)
            p->err = RT_ERR_INTERN;
        if (p->stage && !p->bad && p->sbytes > 0)
            rt__type_part(r->type, r->buf, (rt_count)i * p->sbytes, p->sbytes, p->stage + (rt_count)i * p->sbytes, 0);
        drop(&p->sub[i]);
        p->mark[i] = 1;
        p->nmarked++;
    }
}

int rt__part_done(rt_request *r)
{
    if (__atomic_load_n(&r->complete, __ATOMIC_ACQUIRE))
        return 1;
    if (!r->active)
        return 0;
    struct rt__part *p = r->part;
    if (p->send) {
        if (p->nmarked < p->n)
            return 0;
        for (int i = 0; i < p->n; i++) {
            rt_request *s = p->sub[i];
            if (!s)
                continue;
            if (!rt__request_done(s))
                return 0;
            if (s->status.error && !p->err)
                p->err = s->status.error;
            drop(&p->sub[i]);
        }
        r->status.count = p->n * p->pbytes;
    } else {
        if (!p->posted && !post_data(r))
            return 0;
        if (p->nsub >= 0) {
            note_arrivals(r);
            if (p->nmarked < p->nsub)
                return 0;
        }
        r->status.count = p->bad ? 0 : p->n * p->pbytes;
        if (p->bad && !p->err)
            p->err = RT_ERR_TRUNCATE;
    }
    r->status.error = p->err;
    rt__request_complete(r);
    return 1;
}

int rt__part_error(const rt_request *r, const char *fn)
{
    const struct rt__part *p = r->part;
    char peer[24];
    rt__rank_text(r->peer, peer, sizeof peer);
    if (r->status.error == RT_ERR_TRUNCATE && p->bad)
        return rt_raise((rt_obj *)r->comm, RT_ERR_TRUNCATE, fn,
                        "partitioned receive from rank %s (tag %d): the sender sends %d partitions of %lld bytes "
                        "(%lld bytes), this receive takes %d partitions of %lld bytes (%lld bytes)",
                        peer, r->tag, p->nsub, (long long)p->sbytes, (long long)(p->nsub * p->sbytes), p->n,
                        (long long)p->pbytes, (long long)(p->n * p->pbytes));
    const char *why = rt__class_string(r->status.error);
    return rt_raise((rt_obj *)r->comm, r->status.error, fn, "the partitioned %s rank %s (tag %d) failed: %s",
                    p->send ? "send to" : "receive from", peer, r->tag, why ? why : "unknown error");
}

/* Checks that r is an active partitioned send for fn. */
static int check_send(rt_request *r, const char *fn)
{
    if (!r)
        return rt_raise(NULL, RT_ERR_REQUEST, fn, "argument 'request' is MPI_REQUEST_NULL");
    if (r->kind != RT__REQ_PART)
        return rt_raise((rt_obj *)r->comm, RT_ERR_REQUEST, fn,
                        "argument 'request' is not a partitioned request (made by MPI_Psend_init)");
    if (!r->part->send)
        return rt_raise((rt_obj *)r->comm, RT_ERR_ARG, fn,
                        "argument 'request' is a partitioned receive (made by MPI_Precv_init): only send "
                        "partitions are marked ready");
    if (!r->active)
        return rt_raise((rt_obj *)r->comm, RT_ERR_REQUEST, fn,
                        "argument 'request' is inactive: MPI_Start it before marking partitions ready");
    return RT_SUCCESS;
}

/* Checks partition i of send r for fn (arg names the argument, `at` its index or -1). */
static int check_partition(rt_request *r, int i, const char *fn, const char *arg, int at)
{
    char name[64];
    if (at >= 0)
        snprintf(name, sizeof name, "%s[%d]", arg, at);
    else
        snprintf(name, sizeof name, "%s", arg);
    if (i < 0 || i >= r->part->n)
        return rt_raise((rt_obj *)r->comm, RT_ERR_ARG, fn,
                        "invalid argument '%s' = %d: the request has %d partitions (0 to %d)", name, i, r->part->n,
                        r->part->n - 1);
    if (r->peer != RT_PROC_NULL && r->part->mark[i])
        return rt_raise((rt_obj *)r->comm, RT_ERR_ARG, fn,
                        "invalid argument '%s' = %d: that partition is already marked ready in this round", name, i);
    return RT_SUCCESS;
}

/* Partition i of send r (checked) is ready: its data go now. */
static int ready(rt_request *r, int i, const char *fn)
{
    struct rt__part *p = r->part;
    if (r->peer == RT_PROC_NULL)
        return RT_SUCCESS;
    p->mark[i] = 1;
    p->nmarked++;
    rt_count off = (rt_count)i * p->pbytes;
    char *from = (char *)r->buf + off;
    if (p->stage) {
        from = p->stage + off;
        if (p->pbytes > 0)
            rt__type_part(r->type, r->buf, off, p->pbytes, from, 1);
    }
    int err;
    p->sub[i] = post(RT__REQ_SEND, r->comm, r->peer, data_tag(p->hello[0] + i), from, p->pbytes, &err);
    if (!p->sub[i]) {
        p->err = err;
        return rt_raise((rt_obj *)r->comm, err, fn, "cannot send partition %d: %s", i, rt__start_failure(err, r->comm));
    }
    return RT_SUCCESS;
}

/* MPI_Pready. */
int rt_Pready(int partition, rt_request *request)
{
    static const char fn[] = "MPI_Pready";
    int err = check_send(request, fn);
    if (!err)
        err = check_partition(request, partition, fn, "partition", -1);
    return err ? err : ready(request, partition, fn);
}

/* MPI_Pready_range: every partition is checked before any is marked. */
int rt_Pready_range(int partition_low, int partition_high, rt_request *request)
{
    static const char fn[] = "MPI_Pready_range";
    int err = check_send(request, fn);
    if (err)
        return err;
    if (partition_low > partition_high)
        return rt_raise((rt_obj *)request->comm, RT_ERR_ARG, fn,
                        "invalid arguments 'partition_low' = %d and 'partition_high' = %d: low is above high",
                        partition_low, partition_high);
    for (int i = partition_low; i <= partition_high; i++)
        if ((err = check_partition(request, i, fn, i == partition_low ? "partition_low" : "partition_high", -1)))
            return err;
    for (int i = partition_low; i <= partition_high; i++)
        if ((err = ready(request, i, fn)))
            return err;
    return RT_SUCCESS;
}

/* MPI_Pready_list: every partition is checked (duplicates too) before any is marked. */
int rt_Pready_list(int length, const int *array_of_partitions, rt_request *request)
{
    static const char fn[] = "MPI_Pready_list";
    int err = check_send(request, fn);
    if (err)
        return err;
    if (length < 0)
        return rt_raise((rt_obj *)request->comm, RT_ERR_ARG, fn, "invalid argument 'length' = %d: must be >= 0", length);
    if (length > 0 && !array_of_partitions)
        return rt_raise((rt_obj *)request->comm, RT_ERR_ARG, fn, "argument 'array_of_partitions' is a null pointer");
    for (int k = 0; k < length; k++) {
        if ((err = check_partition(request, array_of_partitions[k], fn, "array_of_partitions", k)))
            return err;
        for (int j = 0; j < k; j++)
            if (array_of_partitions[j] == array_of_partitions[k])
                return rt_raise((rt_obj *)request->comm, RT_ERR_ARG, fn,
                                "invalid argument 'array_of_partitions[%d]' = %d: the same partition as "
                                "array_of_partitions[%d]",
                                k, array_of_partitions[k], j);
    }
    for (int k = 0; k < length; k++)
        if ((err = ready(request, array_of_partitions[k], fn)))
            return err;
    return RT_SUCCESS;
}

/* MPI_Parrived: true once every byte of receive partition `partition` is in the buffer (the
 * data messages covering it arrived); true on an inactive request. */
int rt_Parrived(rt_request *request, int partition, int *flag)
{
    static const char fn[] = "MPI_Parrived";
    rt_request *r = request;
    if (!r)
        return rt_raise(NULL, RT_ERR_REQUEST, fn, "argument 'request' is MPI_REQUEST_NULL");
    if (r->kind != RT__REQ_PART)
        return rt_raise((rt_obj *)r->comm, RT_ERR_REQUEST, fn,
                        "argument 'request' is not a partitioned request (made by MPI_Precv_init)");
    struct rt__part *p = r->part;
    if (p->send)
        return rt_raise((rt_obj *)r->comm, RT_ERR_ARG, fn,
                        "argument 'request' is a partitioned send (made by MPI_Psend_init): only receive "
                        "partitions arrive");
    if (partition < 0 || partition >= p->n)
        return rt_raise((rt_obj *)r->comm, RT_ERR_ARG, fn,
                        "invalid argument 'partition' = %d: the request has %d partitions (0 to %d)", partition, p->n,
                        p->n - 1);
    if (!r->active || rt__part_done(r)) {
        *flag = 1;
        return RT_SUCCESS;
    }
    rt__progress();
    if (rt__part_done(r) || p->pbytes == 0) {
        *flag = 1;
        return RT_SUCCESS;
    }
    *flag = 0;
    if (!p->posted || p->nsub <= 0 || p->sbytes <= 0)
        return RT_SUCCESS;
    if (p->bad)
        return rt_raise((rt_obj *)r->comm, RT_ERR_TRUNCATE, fn,
                        "partitioned receive from rank %d (tag %d): the sender sends %lld bytes, this receive takes %lld",
                        r->peer, r->tag, (long long)(p->nsub * p->sbytes), (long long)(p->n * p->pbytes));
    note_arrivals(r);
    rt_count lo = (rt_count)partition * p->pbytes, hi = lo + p->pbytes; /* bytes [lo, hi) */
    for (rt_count i = lo / p->sbytes; i < p->nsub && i * p->sbytes < hi; i++)
        if (!p->mark[i])
            return RT_SUCCESS;
    *flag = 1;
    return RT_SUCCESS;
}
