/* mpiexec_out.c — mpiexec's own stdout/stderr: non-blocking, with a bounded queue per stream,
 * so a reader that stops reading never stalls the event loop (signals, deaths, PMI). */
#define _GNU_SOURCE
#include "mpiexec.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int saved_flags[3] = { -1, -1, -1 };

static void restore_flags(void)
{
    for (int fd = 1; fd <= 2; fd++)
        if (saved_flags[fd] >= 0)
            fcntl(fd, F_SETFL, saved_flags[fd]);
}

void mx_out_init(void)
{
    int any = 0;

    for (int fd = 1; fd <= 2; fd++) {
        int fl = fcntl(fd, F_GETFL);
        /* a terminal is shared with the shell and does not fill up: leave it alone */
        if (fl < 0 || isatty(fd) || (fl & O_NONBLOCK))
            continue;
        if (fcntl(fd, F_SETFL, fl | O_NONBLOCK) == 0) {
            saved_flags[fd] = fl;
            any = 1;
        }
    }
    if (any)
        atexit(restore_flags);
}

/* Write from data as far as fd takes it; returns the bytes taken, or -1 when fd is dead. */
static ssize_t try_write(struct mx_job *job, int fd, const char *data, size_t len)
{
    size_t done = 0;

    while (done < len) {
        ssize_t n = write(fd, data + done, len - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            break;
        if (n <= 0)
            return -1; /* e.g. EPIPE: nobody reads our output any more */
        done += (size_t)n;
    }
    if (done)
        job->out_progress_ms = mx_now_ms();
    return (ssize_t)done;
}

void mx_out_write(struct mx_job *job, int stream, const char *data, size_t len)
{
    struct mx_buf *q = &job->outq[stream];
    ssize_t n = 0;

    if (!len || job->out_dead[stream])
        return;
    if (!q->len)
        n = try_write(job, stream, data, len);
    if (n < 0) {
        job->out_dead[stream] = 1;
        return;
    }
    mx_buf_add(q, data + n, len - (size_t)n);
}

void mx_out_flush(struct mx_job *job, int stream)
{
    struct mx_buf *q = &job->outq[stream];
    ssize_t n;

    if (!q->len)
        return;
    n = job->out_dead[stream] ? -1 : try_write(job, stream, q->p, q->len);
    if (n < 0) {
        job->out_dead[stream] = 1;
        mx_buf_free(q);
        return;
    }
    mx_buf_drop(q, (size_t)n);
}

int mx_out_full(const struct mx_job *job, int stream)
{
    return job->outq[stream].len >= MX_OUT_BUF;
}

int mx_out_queued(const struct mx_job *job)
{
    return job->outq[1].len || job->outq[2].len;
}

void mx_say(struct mx_job *job, const char *msg)
{
    size_t len = strlen(msg);
    char *line = mx_xmalloc(len + 10);

    memcpy(line, "mpiexec: ", 9);
    memcpy(line + 9, msg, len);
    line[len + 9] = '\n';
    mx_out_write(job, 2, line, len + 10);
    free(line);
}
