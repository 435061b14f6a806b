/* p2p_bsend.c — buffered sends: buffers attached to the process or to a communicator
 * (MPI-4.1), or MPI_BUFFER_AUTOMATIC; the data is copied in and sent from there. */
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

struct rt__bsend_buf {
    char *base;
    rt_count size;
    int automatic;        /* MPI_BUFFER_AUTOMATIC: each message gets its own allocation */
    int pending;          /* buffered messages still being sent */
    struct chunk *used;   /* by offset */
};

static struct rt__bsend_buf process_buf; /* MPI_Buffer_attach's; base == NULL: none */
static int process_attached;

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

void rt__bsend_release(rt_request *r)
{
    struct rt__bsend_buf *b = r->bbuf;
    r->bbuf = NULL;
    b->pending--;
    if (b->automatic) {
        free(r->buf);
        return;
    }
    rt_count off = (char *)r->buf - b->base - OVERHEAD;
    for (struct chunk **link = &b->used; *link; link = &(*link)->next)
        if ((*link)->off == off) {
            struct chunk *c = *link;
            *link = c->next;
            free(c);
            return;
        }
}

int rt__bsend_start(rt_request *r)
{
    struct rt__bsend_buf *b = r->comm->bbuf ? r->comm->bbuf : process_attached ? &process_buf : NULL;
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
        if (b->automatic)
            free(space);
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

/* ------------------------------------------------------------ attach, detach, flush */

static int attach(struct rt__bsend_buf *b, void *buffer, rt_count size)
{
    *b = (struct rt__bsend_buf){.base = buffer, .size = size, .automatic = buffer == RT_BUFFER_AUTOMATIC};
    return RT_SUCCESS;
}

static int flushed(void *arg)
{
    return ((struct rt__bsend_buf *)arg)->pending == 0;
}

/* Waits for b's messages, then hands its memory back. */
static void detach(struct rt__bsend_buf *b, void *buffer_addr, rt_count *size)
{
    rt__wait_until(flushed, b);
    *(void **)buffer_addr = b->base;
    *size = b->automatic ? 0 : b->size;
}

/* MPI_Buffer_attach. */
int rt_Buffer_attach(void *buffer, rt_count size)
{
    if (process_attached)
        return RT_ERR(NULL, RT_ERR_BUFFER, "a buffer is already attached (detach it first)");
    if (size < 0)
        return RT_ERR(NULL, RT_ERR_ARG, "invalid buffer size %lld", (long long)size);
    process_attached = 1;
    return attach(&process_buf, buffer, size);
}

/* MPI_Buffer_detach: waits until the buffered messages are sent. */
int rt_Buffer_detach(void *buffer_addr, rt_count *size)
{
    if (!process_attached) {
        *(void **)buffer_addr = NULL;
        *size = 0;
        return RT_SUCCESS;
    }
    detach(&process_buf, buffer_addr, size);
    process_attached = 0;
    return RT_SUCCESS;
}

/* MPI_Buffer_flush (MPI-4.1): waits until the buffered messages are sent. */
int rt_Buffer_flush(void)
{
    rt__wait_until(flushed, &process_buf);
    return RT_SUCCESS;
}

/* A request already complete (the nonblocking flushes finish before returning). */
static int done_request(rt_comm *comm, rt_request **request)
{
    rt_request *r = rt__request_new(RT__REQ_SEND, comm, NULL);
    if (!r)
        return RT_ERR(comm, RT_ERR_NO_MEM, "out of memory for a request");
    r->peer = RT_PROC_NULL;
    r->status = (rt_status){.source = RT_ANY_SOURCE, .tag = RT_ANY_TAG};
    rt__request_complete(r);
    *request = r;
    return RT_SUCCESS;
}

/* MPI_Buffer_iflush (MPI-4.1): completes before returning. */
int rt_Buffer_iflush(rt_request **request)
{
    rt_Buffer_flush();
    return done_request((rt_comm *)rt_builtins[RT_B_COMM_SELF], request);
}

/* MPI_Comm_attach_buffer (MPI-4.1): buffered sends on comm use this buffer. */
int rt_Comm_attach_buffer(rt_comm *comm, void *buffer, rt_count size)
{
    if (comm->bbuf)
        return RT_ERR(comm, RT_ERR_BUFFER, "communicator %s already has a buffer attached", comm->name);
    comm->bbuf = malloc(sizeof *comm->bbuf);
    if (!comm->bbuf)
        return RT_ERR(comm, RT_ERR_NO_MEM, "out of memory");
    return attach(comm->bbuf, buffer, size);
}

/* MPI_Comm_detach_buffer (MPI-4.1). */
int rt_Comm_detach_buffer(rt_comm *comm, void *buffer_addr, rt_count *size)
{
    if (!comm->bbuf) {
        *(void **)buffer_addr = NULL;
        *size = 0;
        return RT_SUCCESS;
    }
    detach(comm->bbuf, buffer_addr, size);
    free(comm->bbuf);
    comm->bbuf = NULL;
    return RT_SUCCESS;
}

/* MPI_Comm_flush_buffer (MPI-4.1). */
int rt_Comm_flush_buffer(rt_comm *comm)
{
    if (comm->bbuf)
        rt__wait_until(flushed, comm->bbuf);
    return RT_SUCCESS;
}

/* MPI_Comm_iflush_buffer (MPI-4.1): completes before returning. */
int rt_Comm_iflush_buffer(rt_comm *comm, rt_request **request)
{
    rt_Comm_flush_buffer(comm);
    return done_request(comm, request);
}
