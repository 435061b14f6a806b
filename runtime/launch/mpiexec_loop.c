/* mpiexec_loop.c — the launcher's single poll() loop: signals (SIGCHLD, SIGINT, SIGTERM,
 * SIGHUP via signalfd), every rank's PMI socket and output pipes, stdin for rank 0, and our
 * own stdout/stderr while output waits for them. */
#define _GNU_SOURCE
#include "mpiexec.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>

enum kind { EV_SIGNAL, EV_STDIN, EV_STDIN_PIPE, EV_PMI, EV_OUT, EV_ERR, EV_OUR_OUT };

struct source {
    enum kind kind;
    struct mx_rank *r;
};

static struct mx_rank *rank_of(struct mx_job *job, pid_t pid)
{
    for (int i = 0; i < job->n; i++)
        if (job->ranks[i].pid == pid && !job->ranks[i].exited)
            return &job->ranks[i];
    return NULL;
}

static void reap(struct mx_job *job)
{
    pid_t pid;
    int status;

    while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
        struct mx_rank *r = rank_of(job, pid);
        if (r)
            mx_rank_exited(job, r, status);
    }
}

static void got_signal(struct mx_job *job, int sig)
{
    if (++job->signals > 1) { /* asked twice: no more patience */
        mx_kill_all(job, SIGKILL);
        job->killed = 1;
        return;
    }
    if (job->ending)
        mx_kill_all(job, sig);
    else
        mx_end(job, 128 + sig, sig, "got signal %d (%s); passed it on to all ranks", sig,
               strsignal(sig));
}

static void read_signals(struct mx_job *job)
{
    struct signalfd_siginfo si;
    int chld = 0;

    for (;;) {
        ssize_t n = read(job->sigfd, &si, sizeof si);
        if (n < 0 && errno == EINTR)
            continue;
        if (n != (ssize_t)sizeof si)
            break;
        if (si.ssi_signo == SIGCHLD)
            chld = 1;
        else
            got_signal(job, (int)si.ssi_signo);
    }
    if (chld)
        reap(job);
}

static int output_open(const struct mx_job *job)
{
    for (int i = 0; i < job->n; i++)
        if (job->ranks[i].out_fd >= 0 || job->ranks[i].err_fd >= 0)
            return 1;
    return 0;
}

static void add(struct pollfd *pfd, struct source *src, int *k, int fd, short events,
                enum kind kind, struct mx_rank *r)
{
    pfd[*k] = (struct pollfd){ .fd = fd, .events = events };
    src[*k] = (struct source){ .kind = kind, .r = r };
    (*k)++;
}

static int collect(struct mx_job *job, struct pollfd *pfd, struct source *src)
{
    int k = 0;

    add(pfd, src, &k, job->sigfd, POLLIN, EV_SIGNAL, NULL);
    if (job->stdin_fd >= 0 && job->stdin_pipe >= 0 && job->stdin_buf.len < MX_STDIN_BUF)
        add(pfd, src, &k, job->stdin_fd, POLLIN, EV_STDIN, NULL);
    if (job->stdin_pipe >= 0 && job->stdin_buf.len)
        add(pfd, src, &k, job->stdin_pipe, POLLOUT, EV_STDIN_PIPE, NULL);
    for (int fd = 1; fd <= 2; fd++)
        if (job->outq[fd].len)
            add(pfd, src, &k, fd, POLLOUT, EV_OUR_OUT, NULL);
    for (int i = 0; i < job->n; i++) {
        struct mx_rank *r = &job->ranks[i];
        if (r->pmi_fd >= 0) {
            short ev = (short)(POLLIN | (r->pmi_out.len ? POLLOUT : 0));
            add(pfd, src, &k, r->pmi_fd, ev, EV_PMI, r);
        }
        if (r->out_fd >= 0 && !mx_out_full(job, 1))
            add(pfd, src, &k, r->out_fd, POLLIN, EV_OUT, r);
        if (r->err_fd >= 0 && !mx_out_full(job, 2))
            add(pfd, src, &k, r->err_fd, POLLIN, EV_ERR, r);
    }
    return k;
}

static void dispatch(struct mx_job *job, const struct pollfd *p, const struct source *s)
{
    struct mx_rank *r = s->r;
    int in = p->revents & (POLLIN | POLLHUP | POLLERR);

    switch (s->kind) {
    case EV_SIGNAL:
        read_signals(job);
        break;
    case EV_STDIN:
        if (job->stdin_fd == p->fd)
            mx_stdin_read(job);
        break;
    case EV_STDIN_PIPE:
        if (job->stdin_pipe == p->fd)
            mx_stdin_write(job);
        break;
    case EV_PMI: /* the descriptor may have been closed (and reused) since collect() */
        if (r->pmi_fd == p->fd && (p->revents & POLLOUT))
            mx_pmi_write(job, r);
        if (r->pmi_fd == p->fd && in)
            mx_pmi_read(job, r, 0);
        break;
    case EV_OUT:
        if (r->out_fd == p->fd)
            mx_io_read(job, r, 1, 0);
        break;
    case EV_ERR:
        if (r->err_fd == p->fd)
            mx_io_read(job, r, 2, 0);
        break;
    case EV_OUR_OUT:
        mx_out_flush(job, p->fd);
        break;
    }
}

static void close_output(struct mx_job *job)
{
    for (int i = 0; i < job->n; i++) {
        struct mx_rank *r = &job->ranks[i];
        if (r->out_fd >= 0)
            close(r->out_fd);
        if (r->err_fd >= 0)
            close(r->err_fd);
        r->out_fd = r->err_fd = -1;
    }
}

static void close_all(struct mx_job *job)
{
    for (int i = 0; i < job->n; i++)
        mx_pmi_close(&job->ranks[i]);
    close_output(job);
    mx_stdin_close(job);
    /* what our readers did not take by now is dropped (the loop waited for them) */
    for (int fd = 1; fd <= 2; fd++) {
        mx_out_flush(job, fd);
        mx_buf_free(&job->outq[fd]);
    }
}

/* After the last rank exited: 1 when the loop is done. Output is relayed until nothing is
 * left. Pipes held open by others are given up MX_DRAIN_MS after the last exit (or after our
 * readers last took something, while they hold the ranks back). When the job failed or was
 * signalled, what our readers have not taken MX_DRAIN_MS after that is dropped; after a clean
 * run it waits for them (a signal ends the wait). */
static int drained(struct mx_job *job)
{
    long long now = mx_now_ms();

    if (job->out_progress_ms + MX_DRAIN_MS > job->drain_until)
        job->drain_until = job->out_progress_ms + MX_DRAIN_MS;
    if (!job->ending && (mx_out_full(job, 1) || mx_out_full(job, 2)))
        job->drain_until = now + MX_DRAIN_MS; /* a slow reader: the ranks' output waits */
    if (!output_open(job) && !mx_out_queued(job))
        return 1;
    if (now < job->drain_until)
        return 0;
    close_output(job);
    return job->ending || !mx_out_queued(job);
}

void mx_run(struct mx_job *job)
{
    size_t cap = 5 + 3 * (size_t)job->n;
    struct pollfd *pfd = mx_xmalloc(cap * sizeof *pfd);
    struct source *src = mx_xmalloc(cap * sizeof *src);

    mx_out_init();
    for (;;) {
        int timeout = mx_timers(job);
        if (job->nlive == 0) {
            if (!job->swept) {
                /* whatever the ranks left behind in their process groups goes too */
                mx_kill_all(job, SIGKILL);
                job->swept = 1;
                job->drain_until = mx_now_ms() + MX_DRAIN_MS;
                mx_stdin_close(job);
                continue;
            }
            if (drained(job))
                break;
        }
        int k = collect(job, pfd, src);
        int n = poll(pfd, (nfds_t)k, timeout);
        if (n < 0 && errno != EINTR) {
            mx_end(job, MX_EXIT_LAUNCH, SIGKILL, "poll: %s", strerror(errno));
            break;
        }
        for (int i = 0; n > 0 && i < k; i++)
            if (pfd[i].revents)
                dispatch(job, &pfd[i], &src[i]);
    }
    close_all(job);
    free(pfd);
    free(src);
}
