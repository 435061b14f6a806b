/* p2p_api.c — the point-to-point calls: every send mode blocking, nonblocking and
 * persistent, receives, MPI_Sendrecv(_replace) and MPI_Isendrecv(_replace), probes and
 * matched probes. Arguments were checked by the faces; here they are used. */
#include "p2p.h"
#include "type/type.h"

#include <stdlib.h>

/* A new send or receive request, ready to start; *err set on failure (raised). */
static rt_request *make(int kind, int mode, const void *buf, rt_count count, rt_type *type, int peer, int tag,
                        rt_comm *comm, const char *fn, int *err)
{
    *err = rt__type_check(type, (rt_obj *)comm, fn); /* the face checked the handles */
    if (*err)
        return NULL;
    /* a NULL buffer (MPI_BOTTOM) was checked by the faces (rt_null_buffer_check) */
    rt_request *r = rt__request_new(kind, comm, type);
    if (!r) {
        *err = rt_raise((rt_obj *)comm, RT_ERR_NO_MEM, fn, "out of memory for a request");
        return NULL;
    }
    r->mode = (uint8_t)mode;
    r->buf = (void *)buf;
    r->count = count;
    r->peer = peer;
    r->tag = tag;
    return r;
}

/* Starts a nonblocking send or receive the general way (a send's callers try
 * rt__send_now first); the new request goes to *request. blocking: the call that starts it
 * waits for it (rt_request.blocking, set before a channel's pass may see it). A channel entry
 * (rt.h) starts it under its channel's lock, a buffered send under the library's (its space is
 * the process's). */
static int istart(int kind, int mode, const void *buf, rt_count count, rt_type *type, int peer, int tag,
                  rt_comm *comm, rt_request **request, const char *fn, int blocking)
{
    int err;
    rt_request *r = make(kind, mode, buf, count, type, peer, tag, comm, fn, &err);
    if (!r)
        return err;
    r->blocking = (uint8_t)blocking;
    int took = mode == RT__MODE_BUFFERED ? rt__big_enter() : 0;
    err = kind == RT__REQ_SEND ? rt__send_start(r) : rt__recv_start(r);
    rt__big_leave(took);
    if (err) {
        rt__request_drop(r);
        return rt_raise((rt_obj *)comm, err, fn, "%s", rt__start_failure(err, comm));
    }
    *request = r;
    return RT_SUCCESS;
}

/* A blocking call: start, then wait. Out of line, so that rt_Send stays small enough for its
 * entry point to inline it (issue 19: one call and one set of register saves per message). */
static __attribute__((noinline)) int blocking(int kind, int mode, const void *buf, rt_count count, rt_type *type,
                                              int peer, int tag, rt_comm *comm, rt_status *status, const char *fn)
{
    rt_request *r = NULL;
    int err = istart(kind, mode, buf, count, type, peer, tag, comm, &r, fn, 1);
    if (err)
        return err;
    return rt__request_wait(&r, status, fn);
}

/* A persistent request, created inactive. */
static int init(int kind, int mode, const void *buf, rt_count count, rt_type *type, int peer, int tag,
                rt_comm *comm, rt_request **request, const char *fn)
{
    int err;
    rt_request *r = make(kind, mode, buf, count, type, peer, tag, comm, fn, &err);
    if (!r)
        return err;
    r->persistent = 1;
    r->active = 0;
    *request = r;
    return RT_SUCCESS;
}

/* Whether a send of that mode may complete at once (rt__send_eager): not a synchronous one,
 * which waits for its receive, nor a buffered one, which copies into the attached buffer. */
#define EAGER(MODE) ((MODE) == RT__MODE_STD || (MODE) == RT__MODE_READY)

#define SEND_FAMILY(NAME, INAME, MODE)                                                                           \
    int rt_##NAME(const void *buf, rt_count count, rt_type *datatype, int dest, int tag, rt_comm *comm)          \
    {                                                                                                            \
        if (EAGER(MODE) && rt__send_eager(buf, count, datatype, dest, tag, comm))                                \
            return RT_SUCCESS;                                                                                   \
        return blocking(RT__REQ_SEND, MODE, buf, count, datatype, dest, tag, comm, NULL, __func__);              \
    }                                                                                                            \
    int rt_##INAME(const void *buf, rt_count count, rt_type *datatype, int dest, int tag, rt_comm *comm,         \
                   rt_request **request)                                                                         \
    {                                                                                                            \
        if (EAGER(MODE) && (*request = rt__send_now(buf, count, datatype, dest, tag, comm)))                     \
            return RT_SUCCESS;                                                                                   \
        return istart(RT__REQ_SEND, MODE, buf, count, datatype, dest, tag, comm, request, __func__, 0);          \
    }                                                                                                            \
    int rt_##NAME##_init(const void *buf, rt_count count, rt_type *datatype, int dest, int tag, rt_comm *comm,   \
                         rt_request **request)                                                                   \
    {                                                                                                            \
        return init(RT__REQ_SEND, MODE, buf, count, datatype, dest, tag, comm, request, __func__);               \
    }

/* MPI_Send, MPI_Isend, MPI_Send_init and the synchronous, ready and buffered modes. A ready
 * send is a standard send: correct whenever the receive is posted, as the mode requires. */
SEND_FAMILY(Send, Isend, RT__MODE_STD)
SEND_FAMILY(Ssend, Issend, RT__MODE_SYNC)
SEND_FAMILY(Rsend, Irsend, RT__MODE_READY)
SEND_FAMILY(Bsend, Ibsend, RT__MODE_BUFFERED)

/* MPI_Recv. */
int rt_Recv(void *buf, rt_count count, rt_type *datatype, int source, int tag, rt_comm *comm, rt_status *status)
{
    return blocking(RT__REQ_RECV, 0, buf, count, datatype, source, tag, comm, status, __func__);
}

/* MPI_Irecv. */
int rt_Irecv(void *buf, rt_count count, rt_type *datatype, int source, int tag, rt_comm *comm, rt_request **request)
{
    return istart(RT__REQ_RECV, 0, buf, count, datatype, source, tag, comm, request, __func__, 0);
}

/* MPI_Recv_init. */
int rt_Recv_init(void *buf, rt_count count, rt_type *datatype, int source, int tag, rt_comm *comm,
                 rt_request **request)
{
    return init(RT__REQ_RECV, 0, buf, count, datatype, source, tag, comm, request, __func__);
}

/* ------------------------------------------------------------ send-receive */

/* A composite request of a send and a receive (the receive may read the send's copy). */
static int isendrecv(const void *sendbuf, rt_count sendcount, rt_type *sendtype, int dest, int sendtag,
                     void *recvbuf, rt_count recvcount, rt_type *recvtype, int source, int recvtag, rt_comm *comm,
                     rt_request **request, void *owned, const char *fn)
{
    rt_request *c = rt__request_new(RT__REQ_COMPOSITE, comm, NULL);
    if (!c) {
        free(owned);
        return rt_raise((rt_obj *)comm, RT_ERR_NO_MEM, fn, "out of memory for a request");
    }
    c->tmp = owned; /* the send's copy for the _replace forms, freed with the request */
    int err = istart(RT__REQ_RECV, 0, recvbuf, recvcount, recvtype, source, recvtag, comm, &c->sub[1], fn, 0);
    if (!err && !(c->sub[0] = rt__send_now(sendbuf, sendcount, sendtype, dest, sendtag, comm)))
        err = istart(RT__REQ_SEND, RT__MODE_STD, sendbuf, sendcount, sendtype, dest, sendtag, comm, &c->sub[0], fn, 0);
    if (err) {
        if (c->sub[1]) { /* take the posted receive back */
            rt__posted_cancel(c->sub[1]);
            c->sub[1]->complete = 1;
        }
        rt__obj_release(&c->obj);
        return err;
    }
    *request = c;
    return RT_SUCCESS;
}

/* A packed copy of count elements of type at buf, for the _replace forms. */
static void *copy_out(const void *buf, rt_count count, rt_type *type)
{
    void *p = malloc(count * type->size > 0 ? (size_t)(count * type->size) : 1);
    if (p)
        rt__type_pack(type, buf, count, p);
    return p;
}

/* The byte type the packed copy of the _replace forms is sent as. */
static rt_type *bytes_type(void)
{
    return (rt_type *)rt_builtins[RT_B_BYTE];
}

/* MPI_Sendrecv. */
int rt_Sendrecv(const void *sendbuf, rt_count sendcount, rt_type *sendtype, int dest, int sendtag, void *recvbuf,
                rt_count recvcount, rt_type *recvtype, int source, int recvtag, rt_comm *comm, rt_status *status)
{
    rt_request *c = NULL;
    int err = isendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source, recvtag,
                        comm, &c, NULL, __func__);
    if (err)
        return err;
    c->blocking = 1;
    return rt__request_wait(&c, status, __func__);
}

/* MPI_Isendrecv (MPI-4). */
int rt_Isendrecv(const void *sendbuf, rt_count sendcount, rt_type *sendtype, int dest, int sendtag, void *recvbuf,
                 rt_count recvcount, rt_type *recvtype, int source, int recvtag, rt_comm *comm, rt_request **request)
{
    return isendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source, recvtag,
                     comm, request, NULL, __func__);
}

/* MPI_Isendrecv_replace (MPI-4): the send goes from a copy, the receive into buf. */
int rt_Isendrecv_replace(void *buf, rt_count count, rt_type *datatype, int dest, int sendtag, int source, int recvtag,
                         rt_comm *comm, rt_request **request)
{
    int err = rt__type_check(datatype, (rt_obj *)comm, __func__);
    if (err)
        return err;
    void *copy = copy_out(buf, count, datatype);
    if (!copy)
        return RT_ERR(comm, RT_ERR_NO_MEM, "out of memory for the send copy");
    return isendrecv(copy, count * datatype->size, bytes_type(), dest, sendtag, buf, count, datatype, source, recvtag,
                     comm, request, copy, __func__);
}

/* MPI_Sendrecv_replace. */
int rt_Sendrecv_replace(void *buf, rt_count count, rt_type *datatype, int dest, int sendtag, int source, int recvtag,
                        rt_comm *comm, rt_status *status)
{
    rt_request *c = NULL;
    int err = rt_Isendrecv_replace(buf, count, datatype, dest, sendtag, source, recvtag, comm, &c);
    if (err)
        return err;
    c->blocking = 1;
    return rt__request_wait(&c, status, __func__);
}

/* ------------------------------------------------------------ probes */

static void probe_status(const struct rt__umsg *m, rt_status *status)
{
    if (status)
        *status = (rt_status){.source = m->h.src, .tag = m->h.tag, .count = m->h.len};
}

static void proc_null_status(rt_status *status)
{
    if (status)
        *status = (rt_status){.source = RT_PROC_NULL, .tag = RT_ANY_TAG};
}

struct probe { const rt_comm *comm; int source, tag; };

/* A matching message is queued, or none can come for sure: the source (or, for
 * MPI_ANY_SOURCE, a process of the communicator) failed (rt__failed_peer). */
static int probe_found(void *arg)
{
    const struct probe *p = arg;
    return rt__unexpected_find(p->comm->ctx, p->source, p->tag, 0) != NULL ||
           rt__failed_peer(p->comm, p->source) >= 0;
}

/* No message matching source is queued on comm: MPIX_ERR_PROC_FAILED raised naming fn when
 * none can come (the source, or for MPI_ANY_SOURCE a process of comm, failed), else
 * RT_SUCCESS. */
static int probe_lost(rt_comm *comm, int source, const char *fn)
{
    int lost = rt__failed_peer(comm, source);
    if (lost < 0)
        return RT_SUCCESS;
    if (source == RT_ANY_SOURCE)
        return rt_raise((rt_obj *)comm, RT_X_ERR_PROC_FAILED, fn,
                        "no message for the MPI_ANY_SOURCE probe: rank %d of its communicator has failed", lost);
    return rt_raise((rt_obj *)comm, RT_X_ERR_PROC_FAILED, fn,
                    "no message from rank %d can come: that process has failed", lost);
}

/* Blocks until a message matching (source, tag) is queued on comm: RT_SUCCESS, or, when the
 * process it could come from failed first, MPIX_ERR_PROC_FAILED raised naming fn. */
static int probe_wait(rt_comm *comm, int source, int tag, const char *fn)
{
    struct probe p = {comm, source, tag};
    rt__wait_ctx(comm->ctx, probe_found, &p);
    if (rt__unexpected_find(comm->ctx, source, tag, 0))
        return RT_SUCCESS;
    return probe_lost(comm, source, fn);
}

/* MPI_Iprobe: flag 0 while no message matches, or MPIX_ERR_PROC_FAILED once none can come. */
int rt_Iprobe(int source, int tag, rt_comm *comm, int *flag, rt_status *status)
{
    if (source == RT_PROC_NULL) {
        *flag = 1;
        proc_null_status(status);
        return RT_SUCCESS;
    }
    rt__progress_ctx(comm->ctx);
    struct rt__umsg *m = rt__unexpected_find(comm->ctx, source, tag, 0);
    *flag = m != NULL;
    if (m)
        probe_status(m, status);
    return m ? RT_SUCCESS : probe_lost(comm, source, __func__);
}

/* MPI_Probe. */
int rt_Probe(int source, int tag, rt_comm *comm, rt_status *status)
{
    if (source == RT_PROC_NULL) {
        proc_null_status(status);
        return RT_SUCCESS;
    }
    int err = probe_wait(comm, source, tag, __func__);
    if (err)
        return err;
    probe_status(rt__unexpected_find(comm->ctx, source, tag, 0), status);
    return RT_SUCCESS;
}

/* Takes the first message matching (source, tag) off comm's queue into a new message object
 * *message: 1, or 0 when none is queued (in a channel entry, another thread may have taken
 * the one a probe saw), or minus the error raised naming fn (out of memory). */
static int take_message(rt_comm *comm, int source, int tag, rt_message **message, rt_status *status,
                        const char *fn)
{
    if (source == RT_PROC_NULL) {
        *message = (rt_message *)rt_builtins[RT_B_MESSAGE_NO_PROC];
        proc_null_status(status);
        return 1;
    }
    if (!rt__unexpected_find(comm->ctx, source, tag, 0))
        return 0; /* a polling MPI_Improbe makes no object */
    int took = rt__big_enter(); /* the object tables */
    struct rt_message *msg = (struct rt_message *)rt__obj_new(RT_CLASS_MESSAGE);
    rt__big_leave(took);
    if (!msg)
        return -rt_raise((rt_obj *)comm, RT_ERR_NO_MEM, fn, "out of memory for a message");
    msg->msg = rt__unexpected_find(comm->ctx, source, tag, 1);
    if (!msg->msg) {
        rt__drop_ref(&msg->obj);
        return 0;
    }
    msg->comm = comm;
    rt__obj_retain((rt_obj *)comm);
    probe_status(msg->msg, status);
    *message = msg;
    return 1;
}

/* MPI_Improbe. */
int rt_Improbe(int source, int tag, rt_comm *comm, int *flag, rt_message **message, rt_status *status)
{
    if (source != RT_PROC_NULL)
        rt__progress_ctx(comm->ctx);
    int got = take_message(comm, source, tag, message, status, __func__);
    *flag = got > 0;
    return got < 0 ? -got : got ? RT_SUCCESS : probe_lost(comm, source, __func__);
}

/* MPI_Mprobe: waits until a matching message is queued and takes it (again, if another
 * thread took it first). */
int rt_Mprobe(int source, int tag, rt_comm *comm, rt_message **message, rt_status *status)
{
    for (;;) {
        if (source != RT_PROC_NULL) {
            int err = probe_wait(comm, source, tag, __func__);
            if (err)
                return err;
        }
        int got = take_message(comm, source, tag, message, status, __func__);
        if (got)
            return got < 0 ? -got : RT_SUCCESS;
    }
}

/* MPI_Imrecv: receives matched message *message; *message becomes the null handle. */
int rt_Imrecv(void *buf, rt_count count, rt_type *datatype, rt_message **message, rt_request **request)
{
    struct rt_message *m = *message;
    if (!m)
        return RT_ERR(NULL, RT_ERR_REQUEST, "argument 'message' is MPI_MESSAGE_NULL");
    rt_comm *comm = m->obj.builtin ? (rt_comm *)rt_builtins[RT_B_COMM_SELF] : m->comm;
    int err = rt__type_check(datatype, (rt_obj *)comm, __func__);
    if (err)
        return err;
    rt_request *r = rt__request_new(RT__REQ_RECV, comm, datatype);
    if (!r)
        return RT_ERR(comm, RT_ERR_NO_MEM, "out of memory for a request");
    r->buf = buf;
    r->count = count;
    r->peer = RT_PROC_NULL;
    *message = NULL;
    if (m->obj.builtin) { /* MPI_MESSAGE_NO_PROC */
        r->status = (rt_status){.source = RT_PROC_NULL, .tag = RT_ANY_TAG};
        rt__request_complete(r);
    } else {
        r->peer = m->msg->h.src;
        struct rt__umsg *um = m->msg;
        m->msg = NULL;
        rt__deliver(r, um);
        rt__drop_ref(&m->obj);
    }
    *request = r;
    return RT_SUCCESS;
}

/* MPI_Mrecv. */
int rt_Mrecv(void *buf, rt_count count, rt_type *datatype, rt_message **message, rt_status *status)
{
    rt_request *r = NULL;
    int err = rt_Imrecv(buf, count, datatype, message, &r);
    return err ? err : rt__request_wait(&r, status, __func__);
}
