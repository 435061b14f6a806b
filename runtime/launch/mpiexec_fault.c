/* mpiexec_fault.c — how a job ends: judging each rank's exit, reporting the first failure,
 * killing every rank (SIGTERM, then SIGKILL), the timeout and other deadlines. */
#define _GNU_SOURCE
#include "mpiexec.h"
#include "pmi_wire.h"

#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

void mx_kill_all(struct mx_job *job, int sig)
{
    for (int i = 0; i < job->n; i++) {
        struct mx_rank *r = &job->ranks[i];
        if (r->pid <= 0)
            continue;
        /* A rank reaped already: its group may still hold what it started, but if its pid
         * names a live process again, the number was reused (pid_max is 32768 here) and the
         * group of that pid is someone else's: leave it alone. */
        if (r->exited && kill(r->pid, 0) == 0)
            continue;
        /* its process group (the rank and what it started); the pid too, in case the child
         * had not yet made itself a group leader */
        kill(-r->pid, sig);
        if (!r->exited)
            kill(r->pid, sig);
    }
}

void mx_end(struct mx_job *job, int code, int sig, const char *fmt, ...)
{
    va_list ap;
    char msg[1536];

    if (job->ending)
        return;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    mx_say(job, msg);
    job->ending = 1;
    job->exit_code = code;
    job->term_ms = mx_now_ms();
    mx_kill_all(job, sig);
}

void mx_rank_failed(struct mx_job *job, int code, const char *fmt, ...)
{
    va_list ap;
    char msg[1536];

    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (!job->opt.no_cleanup) {
        mx_end(job, code, SIGTERM, "%s", msg);
        return;
    }
    if (job->ending)
        return;
    mx_say(job, msg);
    if (!job->failed) {
        job->failed = 1;
        job->failed_code = code;
    }
    mx_pmi_barrier_check(job);
}

void mx_protocol_fault(struct mx_job *job, struct mx_rank *r, const char *why, const char *line,
                       size_t len)
{
    char shown[256];

    rt__pmiw_escape(line, len, shown, sizeof shown);
    mx_end(job, MX_EXIT_PROTOCOL, SIGTERM, "rank %d (pid %d) broke the PMI protocol (%s): \"%s\"",
           r->rank, (int)r->pid, why, shown);
    mx_pmi_close(r);
}

void mx_rank_exited(struct mx_job *job, struct mx_rank *r, int status)
{
    r->exited = 1;
    r->status = status;
    job->nlive--;
    /* what it sent before dying decides how it ended (abort, finalize) */
    mx_pmi_read(job, r, 1);
    mx_io_read(job, r, 1, 1);
    mx_io_read(job, r, 2, 1);
    if (r->rank == 0)
        mx_stdin_close(job);
    if (r->peer_failed && !WIFSIGNALED(status))
        return; /* it ended the job for a failed peer: reported as such (mx_timers) */
    if (WIFSIGNALED(status)) {
        int sig = WTERMSIG(status);
        mx_rank_failed(job, 128 + sig, "rank %d (pid %d) killed by signal %d (%s)%s", r->rank,
               (int)r->pid, sig, strsignal(sig), WCOREDUMP(status) ? ", core dumped" : "");
    } else if (WEXITSTATUS(status) != 0) {
        mx_rank_failed(job, WEXITSTATUS(status), "rank %d (pid %d) exited with status %d%s",
               r->rank, (int)r->pid, WEXITSTATUS(status),
               r->finalized || !job->any_init ? "" : " before MPI_Finalize");
    } else if (r->initialized && !r->finalized) {
        mx_rank_failed(job, MX_EXIT_PROTOCOL, "rank %d (pid %d) exited with status 0 before MPI_Finalize",
                       r->rank, (int)r->pid);
    } else if (!r->initialized) {
        mx_pmi_check_uninit(job);
    }
}

static int until(long long deadline, long long now, int next)
{
    long long d = deadline - now;

    if (d < 0)
        d = 0;
    if (d > 60000)
        d = 60000;
    return next < 0 || d < next ? (int)d : next;
}

int mx_timers(struct mx_job *job)
{
    long long now = mx_now_ms();
    int next = -1;

    if (job->deadline_ms && !job->ending) {
        if (now >= job->deadline_ms)
            mx_end(job, MX_EXIT_TIMEOUT, SIGTERM, "timed out after %g s; killing all ranks",
                   job->opt.timeout);
        else
            next = until(job->deadline_ms, now, next);
    }
    if (job->blame_rank >= 0 && !job->ending) { /* no other failure showed in time */
        if (now >= job->blame_until || job->nlive == 0)
            mx_end(job, job->blame_status, SIGTERM,
                   "rank %d ended the job because a peer failed: %s", job->blame_rank,
                   job->blame_msg);
        else
            next = until(job->blame_until, now, next);
    }
    for (int i = 0; i < job->n && !job->ending; i++) {
        struct mx_rank *r = &job->ranks[i];
        if (!r->pmi_eof || r->exited || !r->initialized || r->finalized)
            continue;
        if (now >= r->eof_ms + MX_EOF_GRACE_MS)
            mx_end(job, MX_EXIT_PROTOCOL, SIGTERM,
                   "rank %d (pid %d) closed its PMI connection before MPI_Finalize", r->rank,
                   (int)r->pid);
        else
            next = until(r->eof_ms + MX_EOF_GRACE_MS, now, next);
    }
    if (job->ending && !job->killed) {
        if (now >= job->term_ms + MX_KILL_GRACE_MS) {
            mx_kill_all(job, SIGKILL);
            job->killed = 1;
        } else {
            next = until(job->term_ms + MX_KILL_GRACE_MS, now, next);
        }
    }
    if (job->drain_until && now < job->drain_until)
        next = until(job->drain_until, now, next);
    return next;
}
