/* mpiexec_io.c — relaying the ranks' stdout/stderr line by line (so lines of different ranks
 * never mix; optionally tagged "[rank] ") into mpiexec_out.c's queues, and forwarding mpiexec's
 * stdin to rank 0. */
#define _GNU_SOURCE
#include "mpiexec.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static void out(struct mx_job *job, int stream, const char *data, size_t len)
{
    mx_out_write(job, stream, data, len);
}

static void add_tagged(struct mx_job *job, struct mx_rank *r, const char *line, size_t len,
                       int newline)
{
    char tag[24];
    int n = snprintf(tag, sizeof tag, "[%d] ", r->rank);

    mx_buf_add(&job->scratch, tag, (size_t)n);
    mx_buf_add(&job->scratch, line, len);
    if (newline)
        mx_buf_add(&job->scratch, "\n", 1);
}

/* Write the complete lines of b (and, with force or when too long, the rest too). */
static void emit(struct mx_job *job, struct mx_rank *r, int stream, struct mx_buf *b, int force)
{
    size_t done = 0;
    char *nl;

    if (!b->len) /* nothing to relay; b->p may be NULL (a rank that never wrote) */
        return;
    if (!job->opt.tag) {
        for (size_t i = b->len; i > 0; i--) {
            if (b->p[i - 1] == '\n') {
                done = i;
                break;
            }
        }
    } else {
        job->scratch.len = 0;
        while ((nl = memchr(b->p + done, '\n', b->len - done))) {
            size_t len = (size_t)(nl - (b->p + done)) + 1;
            add_tagged(job, r, b->p + done, len, 0);
            done += len;
        }
    }
    if (done < b->len && (force || b->len - done >= MX_OUT_LINE_MAX)) {
        if (job->opt.tag)
            add_tagged(job, r, b->p + done, b->len - done, 1);
        done = b->len;
    }
    if (job->opt.tag)
        out(job, stream, job->scratch.p, job->scratch.len);
    else
        out(job, stream, b->p, done);
    mx_buf_drop(b, done);
}

void mx_io_read(struct mx_job *job, struct mx_rank *r, int stream, int drain)
{
    int *fd = stream == 1 ? &r->out_fd : &r->err_fd;
    struct mx_buf *b = stream == 1 ? &r->out_line : &r->err_line;
    int rounds = drain ? 64 : 1; /* bounded even if someone keeps writing */
    char chunk[16384];

    /* back-pressure: while our own output is stuck, the rest waits in the rank's pipe */
    while (rounds-- > 0 && *fd >= 0 && !mx_out_full(job, stream)) {
        ssize_t n = read(*fd, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR) {
            rounds++;
            continue;
        }
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return;
        if (n <= 0) { /* EOF: relay the unfinished last line too */
            emit(job, r, stream, b, 1);
            mx_buf_free(b);
            close(*fd);
            *fd = -1;
            return;
        }
        mx_buf_add(b, chunk, (size_t)n);
        emit(job, r, stream, b, 0);
    }
}

void mx_stdin_close(struct mx_job *job)
{
    if (job->stdin_pipe >= 0)
        close(job->stdin_pipe);
    job->stdin_pipe = -1;
    job->stdin_fd = -1;
    mx_buf_free(&job->stdin_buf);
}

void mx_stdin_write(struct mx_job *job)
{
    while (job->stdin_buf.len && job->stdin_pipe >= 0) {
        ssize_t n = write(job->stdin_pipe, job->stdin_buf.p, job->stdin_buf.len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return;
        if (n <= 0) { /* EPIPE: rank 0 closed its stdin */
            mx_stdin_close(job);
            return;
        }
        mx_buf_drop(&job->stdin_buf, (size_t)n);
    }
    if (!job->stdin_buf.len && job->stdin_fd < 0)
        mx_stdin_close(job);
}

void mx_stdin_read(struct mx_job *job)
{
    char chunk[16384];
    size_t room = MX_STDIN_BUF - job->stdin_buf.len;
    ssize_t n;

    if (job->stdin_fd < 0 || room == 0)
        return;
    n = read(job->stdin_fd, chunk, room < sizeof chunk ? room : sizeof chunk);
    if (n < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK))
        return;
    if (n <= 0) { /* EOF (or an unreadable stdin): rank 0 gets EOF after the rest */
        job->stdin_fd = -1;
        mx_stdin_write(job);
        return;
    }
    mx_buf_add(&job->stdin_buf, chunk, (size_t)n);
    mx_stdin_write(job);
}
