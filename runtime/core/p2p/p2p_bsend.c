/* p2p_bsend.c — buffered sends: buffers attached to the process, to a communicator or to a
 * session (MPI-4.1), or MPI_BUFFER_AUTOMATIC; the data is copied in and sent from there. */
#include "p2p.h"
#include "type/type.h"

#include <stdlib.h>

/* Bytes a buffered message costs beyond its data: at most MPI_BSEND_OVERHEAD in both ABIs
 * (96 for MPICH's, 512 for the standard's). */
#define OVERHEAD 64
#define ALIGN 16

struct chunk {
    rt_count off, len;
    struct chunk *next;
};

/* The buffered-send state of the process, of a communicator (comm->bbuf, made when a buffer
 * is attached or the communicator derives from a session) or of a session (session->bbuf). */
struct rt__bsend_buf {
    int attached;         /* a buffer is attached: the fields below describe it */
    char *base;
    rt_count size;
    int automatic;        /* MPI_BUFFER_AUTOMATIC: each message gets its own allocation */
    int pending;          /* buffered messages still being sent */
    struct chunk *used;   /* by offset */
    rt_session *session;  /* a communicator's: the session it derives from (a reference), or NULL */
};

static struct rt__bsend_buf process_buf; /* MPI_Buffer_attach's */

/* First-fit space for n bytes of data in b, or NULL. */
static void *take(struct rt__bsend_buf *b, rt_count n)
{
    if (b->automatic)
        return malloc(n > 0 ? (size_t)n : 1);
    rt_count need = ((n + ALIGN - 1) / ALIGN) * ALIGN + OVERHEAD, at = 0;
    struct chunk **link = &b->used;
    for (;; link = &(*link)->next) {
        rt_count end = *link ? (*link)->off : b->size;
        if (end - at >= need) {
            struct chunk *c = malloc(sizeof *c);
            if (!c)
                return NULL;
            *c = (struct chunk){at, need, *link};
            *link = c;
            return b->base + at + OVERHEAD;
        }
        if (!*link)
            return NULL;
        at = (*link)->off + (*link)->len;
    }
}

/* Gives back space (from take) in b. */
static void give_back(struct rt__bsend_buf *b, void *space)
{
    if (b->automatic) {
        free(space);
        return;
    }
    rt_count off = (char *)space - b->base - OVERHEAD;
    for (struct chunk **link = &b->used; *link; link = &(*link)->next)
        if ((*link)->off == off) {
            struct chunk *c = *link;
            *link = c->next;
            free(c);
            return;
        }
}

void rt__bsend_release(rt_request *r)
{
    struct rt__bsend_buf *b = r->bbuf;
    r->bbuf = NULL;
    b->pending--;
    give_back(b, r->buf);
}

/* The buffer comm's buffered sends use (MPI-4.1 §3.6): comm's own, else that of the session
 * comm derives from, else the process's; NULL when none is attached. */
static struct rt__bsend_buf *buffer_of(const rt_comm *comm)
{
    struct rt__bsend_buf *c = comm->bbuf;
    if (c && c->attached)
        return c;
    if (c && c->session && c->session->bbuf && c->session->bbuf->attached)
        return c->session->bbuf;
    return process_buf.attached ? &process_buf : NULL;
}

int rt__bsend_start(rt_request *r)
{
    struct rt__bsend_buf *b = buffer_of(r->comm);
    rt_count n = r->count * r->type->size;
    void *space = b ? take(b, n) : NULL;
    if (!space && b) { /* sends completed in channel passes may not have given theirs back yet */
        rt__finish_later();
        space = take(b, n);
    }
    if (!space)
        return RT_ERR_BUFFER;
    rt__type_pack(r->type, r->buf, r->count, space);
    rt_request *s = rt__request_new(RT__REQ_SEND, r->comm, (rt_type *)rt_builtins[RT_B_BYTE]);
    if (!s) {
        give_back(b, space);
        return RT_ERR_NO_MEM;
    }
    s->mode = RT__MODE_STD;
    s->buf = space;
    s->count = n;
    s->peer = r->peer;
    s->tag = r->tag;
    s->bbuf = b;
    s->freed = 1; /* nobody waits for it: it goes when sent */
    b->pending++;
    rt__request_complete(r); /* the user's buffer is free now */
    return rt__send_start(s);
}

const char *rt__bsend_no_room(const rt_comm *comm)
{
    const struct rt__bsend_buf *b = buffer_of(comm);
    if (!b)
        return "no buffer is attached for buffered sends: none to the communicator (MPI_Comm_attach_buffer), "
               "to a session it derives from (MPI_Session_attach_buffer) or to the process (MPI_Buffer_attach)";
    if (b->automatic)
        return "out of memory for the copy of the message in the automatic buffer (MPI_BUFFER_AUTOMATIC)";
    if (b == comm->bbuf)
        return "the buffer attached to the communicator (MPI_Comm_attach_buffer) has no room for the message";
    if (b == &process_buf)
        return "the buffer attached to the process (MPI_Buffer_attach) has no room for the message";
    return "the buffer attached to the communicator's session (MPI_Session_attach_buffer) has no room for the message";
}

/* ------------------------------------------------------------ attach, detach, flush */

/* Attaches buffer (size bytes, or RT_BUFFER_AUTOMATIC) to b, which has none attached. */
static int attach(struct rt__bsend_buf *b, void *buffer, rt_count size)
{
    b->attached = 1;
    b->base = buffer;
    b->size = buffer == RT_BUFFER_AUTOMATIC ? 0 : size;
    b->automatic = buffer == RT_BUFFER_AUTOMATIC;
    b->pending = 0;
    b->used = NULL;
    return RT_SUCCESS;
}

static int flushed(void *arg)
{
    return ((struct rt__bsend_buf *)arg)->pending == 0;
}

/* Waits until the messages buffered in b (may be NULL) are sent. */
static void flush(struct rt__bsend_buf *b)
{
    if (b && b->pending)
        rt__wait_until(flushed, b);
}

/* Waits for b's messages, then hands its memory back: *buffer_addr and *size are what was
 * attached (RT_BUFFER_AUTOMATIC and 0 for an automatic buffer); NULL and 0 when b (may be
 * NULL) has none attached. */
static void detach(struct rt__bsend_buf *b, void *buffer_addr, rt_count *size)
{
    if (!b || !b->attached) {
        *(void **)buffer_addr = NULL;
        *size = 0;
        return;
    }
    flush(b);
    *(void **)buffer_addr = b->base;
    *size = b->size;
    b->attached = 0;
    b->base = NULL;
    b->size = 0;
    b->automatic = 0;
}

/* A request already complete (the nonblocking flushes finish before returning). */
static int done_request(rt_obj *eo, rt_comm *comm, rt_request **request)
{
    rt_request *r = rt__request_new(RT__REQ_SEND, comm, NULL);
    if (!r)
        return RT_ERR(eo, RT_ERR_NO_MEM, "out of memory for a request");
    r->peer = RT_PROC_NULL;
    r->status = (rt_status){.source = RT_ANY_SOURCE, .tag = RT_ANY_TAG};
    rt__request_complete(r);
    *request = r;
    return RT_SUCCESS;
}

/* MPI_Buffer_attach: buffered sends use this buffer when their communicator and its session
 * have none. One attached already: RT_ERR_BUFFER. */
int rt_Buffer_attach(void *buffer, rt_count size)
{
    if (process_buf.attached)
        return RT_ERR(NULL, RT_ERR_BUFFER, "a buffer is already attached to the process (detach it first)");
    return attach(&process_buf, buffer, size);
}

/* MPI_Buffer_detach: waits until the buffered messages are sent. */
int rt_Buffer_detach(void *buffer_addr, rt_count *size)
{
    detach(&process_buf, buffer_addr, size);
    return RT_SUCCESS;
}

/* MPI_Buffer_flush (MPI-4.1): waits until the buffered messages are sent. */
int rt_Buffer_flush(void)
{
    flush(&process_buf);
    return RT_SUCCESS;
}

/* MPI_Buffer_iflush (MPI-4.1): completes before returning. */
int rt_Buffer_iflush(rt_request **request)
{
    flush(&process_buf);
    return done_request(NULL, (rt_comm *)rt_builtins[RT_B_COMM_SELF], request);
}

/* comm's buffered-send state, made if it has none; NULL when out of memory. */
static struct rt__bsend_buf *state_of_comm(rt_comm *comm)
{
    if (!comm->bbuf)
        comm->bbuf = calloc(1, sizeof *comm->bbuf);
    return comm->bbuf;
}

/* MPI_Comm_attach_buffer (MPI-4.1): buffered sends on comm use this buffer. One attached
 * already: RT_ERR_BUFFER. */
int rt_Comm_attach_buffer(rt_comm *comm, void *buffer, rt_count size)
{
    struct rt__bsend_buf *b = state_of_comm(comm);
    if (!b)
        return RT_ERR(comm, RT_ERR_NO_MEM, "out of memory");
    if (b->attached)
        return RT_ERR(comm, RT_ERR_BUFFER, "communicator %s already has a buffer attached (detach it first)",
                      comm->name[0] ? comm->name : "'comm'");
    return attach(b, buffer, size);
}

/* MPI_Comm_detach_buffer (MPI-4.1): waits until the messages buffered in comm's buffer are
 * sent; *buffer_addr, *size = what was attached (NULL, 0 when nothing is). */
int rt_Comm_detach_buffer(rt_comm *comm, void *buffer_addr, rt_count *size)
{
    detach(comm->bbuf, buffer_addr, size);
    return RT_SUCCESS;
}

/* MPI_Comm_flush_buffer (MPI-4.1): waits until the messages buffered in comm's buffer are sent. */
int rt_Comm_flush_buffer(rt_comm *comm)
{
    flush(comm->bbuf);
    return RT_SUCCESS;
}

/* MPI_Comm_iflush_buffer (MPI-4.1): completes before returning. */
int rt_Comm_iflush_buffer(rt_comm *comm, rt_request **request)
{
    flush(comm->bbuf);
    return done_request(&comm->obj, comm, request);
}

/* MPI_Session_attach_buffer (MPI-4.1): buffered sends on the communicators derived from
 * session that have no buffer of their own use this one. One attached already: RT_ERR_BUFFER. */
int rt_Session_attach_buffer(rt_session *session, void *buffer, rt_count size)
{
    if (!session->bbuf && !(session->bbuf = calloc(1, sizeof *session->bbuf)))
        return RT_ERR(session, RT_ERR_NO_MEM, "out of memory");
    if (session->bbuf->attached)
        return RT_ERR(session, RT_ERR_BUFFER, "the session already has a buffer attached (detach it first)");
    return attach(session->bbuf, buffer, size);
}

/* MPI_Session_detach_buffer (MPI-4.1): as rt_Comm_detach_buffer, for session's buffer. */
int rt_Session_detach_buffer(rt_session *session, void *buffer_addr, rt_count *size)
{
    detach(session->bbuf, buffer_addr, size);
    return RT_SUCCESS;
}

/* MPI_Session_flush_buffer (MPI-4.1): waits until the messages buffered in session's buffer
 * are sent. */
int rt_Session_flush_buffer(rt_session *session)
{
    flush(session->bbuf);
    return RT_SUCCESS;
}

/* MPI_Session_iflush_buffer (MPI-4.1): completes before returning. */
int rt_Session_iflush_buffer(rt_session *session, rt_request **request)
{
    flush(session->bbuf);
    return done_request(&session->obj, (rt_comm *)rt_builtins[RT_B_COMM_SELF], request);
}

/* ------------------------------------------------------------ links with the parts above (p2p.h) */

int rt__bsend_comm_set_session(rt_comm *c, rt_session *s)
{
    if (!s)
        return RT_SUCCESS;
    struct rt__bsend_buf *b = state_of_comm(c);
    if (!b)
        return RT_ERR_NO_MEM;
    rt__obj_retain(&s->obj);
    if (b->session)
        rt__obj_release(&b->session->obj);
    b->session = s;
    return RT_SUCCESS;
}

rt_session *rt__bsend_comm_session(const rt_comm *c)
{
    return c->bbuf ? c->bbuf->session : NULL;
}

void rt__bsend_comm_gone(rt_comm *c)
{
    struct rt__bsend_buf *b = c->bbuf;
    if (!b)
        return;
    c->bbuf = NULL;
    if (b->session)
        rt__obj_release(&b->session->obj);
    free(b);
}

void rt__bsend_session_gone(rt_session *s)
{
    struct rt__bsend_buf *b = s->bbuf;
    if (!b)
        return;
    flush(b);
    s->bbuf = NULL;
    free(b);
}
