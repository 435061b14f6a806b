/* io_async.c — nonblocking independent accesses run on a worker thread of the process while the
 * program computes; the engine's passes (rt__io_progress) complete their requests. */
#define _GNU_SOURCE /* usleep */
#include "io.h"
#include "p2p/p2p.h"
#include "type/type.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* One access handed to the worker. The worker reads and writes only fd, pieces, data, bytes,
 * write and its results (got, err), then sets done; everything else is the library's. */
struct job {
    struct job *next_todo;     /* the worker's queue (under `lock`) */
    struct job *next_flight;   /* the accesses in flight (under the library's lock) */
    int fd, write;
    struct rt__io_piece *pieces;
    int npieces;
    char *data;                /* the packed data (owned unless it is the user's buffer) */
    int own_data;
    rt_offset got;             /* bytes moved (the worker's) */
    int err;                   /* errno (the worker's) */
    int done;                  /* atomic: the worker has finished */
    /* the library's side */
    rt_file *fh;               /* held */
    rt_request *req;
    void *ubuf;                /* a read into a non-contiguous type: unpacked at completion */
    rt_count count;
    rt_type *type;             /* held while ubuf is set */
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t work = PTHREAD_COND_INITIALIZER;
static struct job *todo, *todo_tail; /* under lock */
static int started;                  /* the worker runs (under the library's lock) */
static struct job *flight;           /* under the library's lock */

/* Moves a job's pieces: pwrite until complete, pread up to the end of file. */
static void run(struct job *j)
{
    j->got = 0;
    for (int i = 0; i < j->npieces; i++) {
        const struct rt__io_piece *p = &j->pieces[i];
        rt_offset got = rt__io_pmove(j->fd, j->data + p->at, p->len, p->off, j->write);
        if (got < 0) {
            j->err = (int)-got;
            return;
        }
        j->got += got;
        if (got < p->len)
            return; /* the end of file: a read stops there */
    }
}

static void *worker(void *arg)
{
    (void)arg;
    for (;;) {
        pthread_mutex_lock(&lock);
        while (!todo)
            pthread_cond_wait(&work, &lock);
        struct job *j = todo;
        todo = j->next_todo;
        if (!todo)
            todo_tail = NULL;
        pthread_mutex_unlock(&lock);
        run(j);
        __atomic_store_n(&j->done, 1, __ATOMIC_RELEASE);
    }
    return NULL;
}

int rt__io_async_progress(void)
{
    int n = 0;
    for (struct job **jp = &flight; *jp;) {
        struct job *j = *jp;
        if (!__atomic_load_n(&j->done, __ATOMIC_ACQUIRE)) {
            jp = &j->next_flight;
            continue;
        }
        *jp = j->next_flight;
        if (!j->write && !j->err && j->ubuf)
            rt__type_unpack(j->type, j->data, j->got, j->ubuf);
        j->req->status = (rt_status){.source = RT_ANY_SOURCE, .tag = RT_ANY_TAG, .count = j->err ? 0 : j->got,
                                     .error = j->err ? rt__io_errno_class(j->err) : RT_SUCCESS};
        rt__request_complete(j->req);
        if (j->type)
            rt__obj_release(&j->type->obj);
        rt__obj_release(&j->fh->obj);
        if (j->own_data)
            free(j->data);
        free(j->pieces);
        free(j);
        n++;
    }
    rt__async_need(RT__NEED_IO, flight != NULL);
    return n;
}

int rt__io_async_start(rt_file *fh, rt_offset pos, void *buf, rt_count count, rt_type *type, int write,
                       rt_request **request, const char *fn)
{
    rt_offset bytes = count * type->size;
    int contig = rt__type_contig(type) && buf;
    struct job *j = calloc(1, sizeof *j);
    rt_request *r = j ? rt__request_new(RT__REQ_RECV, fh->comm, NULL) : NULL;
    if (!r || rt__io_view_pieces(fh, pos * fh->esize, bytes, &j->pieces, &j->npieces) ||
        (!contig && bytes && !(j->data = malloc((size_t)bytes)))) {
        if (r) {
            rt__request_complete(r);
            rt__request_drop(r);
        }
        if (j)
            free(j->pieces);
        free(j);
        return rt_raise(&fh->obj, RT_ERR_NO_MEM, fn, "out of memory for a nonblocking access");
    }
    if (!started) {
        pthread_t t;
        pthread_attr_t a;
        pthread_attr_init(&a);
        pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
        int e = pthread_create(&t, &a, worker, NULL);
        pthread_attr_destroy(&a);
        if (e) {
            rt__request_complete(r);
            rt__request_drop(r);
            free(j->data);
            free(j->pieces);
            free(j);
            return rt_raise(&fh->obj, RT_ERR_OTHER, fn, "cannot start the I/O thread: %s", strerror(e));
        }
        started = 1;
    }
    j->fd = fh->fd;
    j->write = write;
    j->own_data = !contig;
    if (contig)
        j->data = buf;
    else if (write && bytes)
        rt__type_pack(type, buf, count, j->data);
    if (!write && !contig) {
        j->ubuf = buf, j->count = count, j->type = type;
        rt__obj_retain(&type->obj);
    }
    j->fh = fh;
    rt__obj_retain(&fh->obj);
    j->req = r;
    r->peer = RT_PROC_NULL;
    j->next_flight = flight;
    flight = j;
    rt__async_need(RT__NEED_IO, 1);
    pthread_mutex_lock(&lock);
    if (todo_tail)
        todo_tail->next_todo = j;
    else
        todo = j;
    todo_tail = j;
    pthread_cond_signal(&work);
    pthread_mutex_unlock(&lock);
    *request = r;
    return RT_SUCCESS;
}

void rt__io_async_drain(rt_file *fh)
{
    for (;;) {
        int mine = 0;
        for (struct job *j = flight; j; j = j->next_flight)
            mine += j->fh == fh;
        if (!mine)
            return;
        if (!rt__io_async_progress())
            usleep(50);
    }
}
