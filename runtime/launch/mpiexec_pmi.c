/* mpiexec_pmi.c — mpiexec's PMI-1 server: reads each rank's request lines from its socket,
 * answers them (init, maxes, kvs put/get, barrier, finalize, abort), rejects anything else. */
#define _GNU_SOURCE
#include "mpiexec.h"
#include "pmi_wire.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

static void reply(struct mx_job *job, struct mx_rank *r, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void reply(struct mx_job *job, struct mx_rank *r, const char *fmt, ...)
{
    char line[MX_VALUE_MAX + 256];
    va_list ap;
    int n;

    if (r->pmi_fd < 0 || r->exited)
        return; /* nobody to answer */
    va_start(ap, fmt);
    n = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= sizeof line)
        return; /* cannot happen: every value sent was checked against MX_VALUE_MAX */
    mx_buf_add(&r->pmi_out, line, (size_t)n);
    mx_pmi_write(job, r);
}

void mx_pmi_write(struct mx_job *job, struct mx_rank *r)
{
    (void)job;
    while (r->pmi_out.len && r->pmi_fd >= 0) {
        ssize_t n = send(r->pmi_fd, r->pmi_out.p, r->pmi_out.len, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return;
        if (n <= 0) { /* the rank closed its end: nobody reads the replies any more */
            r->pmi_out.len = 0;
            return;
        }
        mx_buf_drop(&r->pmi_out, (size_t)n);
    }
}

static int check_kvsname(struct mx_job *job, const struct rt__pmiw_msg *m)
{
    const char *v = rt__pmiw_get(m, "kvsname");

    return !v || strcmp(v, job->kvsname) == 0;
}

void mx_pmi_check_uninit(struct mx_job *job)
{
    if (!job->any_init)
        return;
    for (int i = 0; i < job->n; i++) {
        struct mx_rank *q = &job->ranks[i];
        if (q->exited && !q->initialized && WIFEXITED(q->status) && WEXITSTATUS(q->status) == 0)
            mx_end(job, MX_EXIT_PROTOCOL, SIGTERM,
                   "rank %d (pid %d) exited with status 0 without calling MPI_Init", q->rank,
                   (int)q->pid);
    }
}

static void do_init(struct mx_job *job, struct mx_rank *r, const struct rt__pmiw_msg *m,
                    const char **why)
{
    int ver, sub;

    if (rt__pmiw_int(rt__pmiw_get(m, "pmi_version"), 0, 1000, &ver) < 0 ||
        rt__pmiw_int(rt__pmiw_get(m, "pmi_subversion"), 0, 1000, &sub) < 0) {
        *why = "cmd=init needs pmi_version and pmi_subversion";
        return;
    }
    if (ver != 1) {
        reply(job, r, "cmd=response_to_init pmi_version=1 pmi_subversion=1 rc=-1\n");
        return;
    }
    r->initialized = 1;
    job->any_init = 1;
    reply(job, r, "cmd=response_to_init pmi_version=1 pmi_subversion=1 rc=0\n");
    mx_pmi_check_uninit(job);
}

static void do_put(struct mx_job *job, struct mx_rank *r, const struct rt__pmiw_msg *m,
                   const char **why)
{
    const char *key = rt__pmiw_get(m, "key"), *value = rt__pmiw_get(m, "value");

    if (!key || !value)
        *why = "cmd=put needs key and value";
    else if (!check_kvsname(job, m))
        *why = "cmd=put names another kvsname";
    else if (!rt__pmiw_valid_key(key, MX_KEY_MAX - 1))
        *why = "cmd=put key too long or invalid (at most 63 bytes)";
    else if (!rt__pmiw_valid_value(value, MX_VALUE_MAX - 1))
        *why = "cmd=put value too long (at most 1023 bytes)";
    else if (mx_kvs_put(job->kvs, key, value) < 0)
        *why = "the key/value space is full";
    else
        reply(job, r, "cmd=put_result rc=0 msg=success\n");
}

static void do_get(struct mx_job *job, struct mx_rank *r, const struct rt__pmiw_msg *m,
                   const char **why)
{
    const char *key = rt__pmiw_get(m, "key"), *value;

    if (!key)
        *why = "cmd=get needs key";
    else if (!check_kvsname(job, m))
        *why = "cmd=get names another kvsname";
    else if (!rt__pmiw_valid_key(key, MX_KEY_MAX - 1))
        *why = "cmd=get key too long or invalid (at most 63 bytes)";
    else if ((value = mx_kvs_get(job->kvs, key)))
        reply(job, r, "cmd=get_result rc=0 msg=success value=%s\n", value);
    else
        reply(job, r, "cmd=get_result rc=-1 msg=key_not_found value=unknown\n");
}

static int first_finalized(struct mx_job *job)
{
    for (int i = 0; i < job->n; i++)
        if (job->ranks[i].finalized)
            return i;
    return -1;
}

static void do_barrier(struct mx_job *job, struct mx_rank *r)
{
    int f = first_finalized(job);

    if (f >= 0) {
        mx_end(job, MX_EXIT_PROTOCOL, SIGTERM,
               "rank %d entered a PMI barrier after rank %d finalized: it can never complete",
               r->rank, f);
        return;
    }
    r->in_barrier = 1;
    job->in_barrier++;
    mx_pmi_barrier_check(job);
}

void mx_pmi_barrier_check(struct mx_job *job)
{
    int in = 0, need = 0;

    for (int i = 0; i < job->n; i++) {
        const struct mx_rank *q = &job->ranks[i];
        in += q->in_barrier;
        /* -disable-auto-cleanup: ranks that are gone are not waited for */
        need += q->in_barrier || !(job->opt.no_cleanup && q->exited);
    }
    if (in == 0 || in < need)
        return;
    job->in_barrier = 0;
    for (int i = 0; i < job->n; i++) {
        if (!job->ranks[i].in_barrier)
            continue;
        job->ranks[i].in_barrier = 0;
        reply(job, &job->ranks[i], "cmd=barrier_out\n");
    }
}

static void do_finalize(struct mx_job *job, struct mx_rank *r)
{
    if (job->in_barrier) {
        for (int i = 0; i < job->n; i++) {
            if (job->ranks[i].in_barrier) {
                mx_end(job, MX_EXIT_PROTOCOL, SIGTERM,
                       "rank %d finalized while rank %d waits in a PMI barrier", r->rank, i);
                return;
            }
        }
    }
    r->finalized = 1;
    reply(job, r, "cmd=finalize_ack\n");
}

static void do_abort(struct mx_job *job, struct mx_rank *r, const struct rt__pmiw_msg *m,
                     const char **why)
{
    const char *v = rt__pmiw_get(m, "exitcode");
    const char *msg = rt__pmiw_get(m, "message");
    int code = 1;

    if (!msg)
        msg = rt__pmiw_get(m, "error_msg");
    if (v && rt__pmiw_int(v, -2147483647L - 1, 2147483647L, &code) < 0) {
        *why = "cmd=abort: invalid exitcode";
        return;
    }
    /* relay what the rank printed before it aborted first */
    mx_io_read(job, r, 1, 1);
    mx_io_read(job, r, 2, 1);
    /* an exit status keeps 8 bits: a code that is not 0 must not end the job with 0 */
    int status = (code & 0xff) || !code ? code & 0xff : 1;
    size_t fatal = strlen(RT_FATAL_PREFIX), peer = strlen(RT_PEER_FAILED_PREFIX);
    if (msg && strncmp(msg, RT_PEER_FAILED_PREFIX, peer) == 0) {
        /* the peer's own death usually shows within milliseconds: report that instead */
        r->peer_failed = 1;
        if (job->blame_rank < 0 && !job->ending) {
            job->blame_rank = r->rank;
            job->blame_status = status;
            job->blame_until = mx_now_ms() + MX_BLAME_MS;
            snprintf(job->blame_msg, sizeof job->blame_msg, "%s", msg + peer);
        }
    } else if (msg && strncmp(msg, RT_FATAL_PREFIX, fatal) == 0) /* not the user's MPI_Abort */
        mx_end(job, status, SIGTERM, "rank %d ended the job on a fatal error: %s", r->rank, msg + fatal);
    else
        mx_end(job, status, SIGTERM, "rank %d called MPI_Abort with code %d%s%s", r->rank, code,
               msg && *msg ? ": " : "", msg ? msg : "");
}

/* Serve one request line (NUL-terminated, newline removed, len bytes). */
static void serve(struct mx_job *job, struct mx_rank *r, char *line, size_t len)
{
    static const char *const abort_rest[] = { "message", "error_msg", NULL };
    char copy[MX_PMI_LINE_MAX];
    struct rt__pmiw_msg m;
    const char *why = NULL, *cmd;

    memcpy(copy, line, len); /* parsing cuts line up; keep it to quote it */
    if (memchr(line, '\0', len)) {
        mx_protocol_fault(job, r, "NUL byte in a request", copy, len);
        return;
    }
    if (rt__pmiw_parse(line, &m, strncmp(line, "cmd=abort ", 10) == 0 ? abort_rest : NULL,
                       &why) < 0) {
        mx_protocol_fault(job, r, why, copy, len);
        return;
    }
    cmd = m.f[0].value;
    if (r->finalized)
        why = "request after cmd=finalize";
    else if (r->in_barrier)
        why = "request while waiting in a barrier";
    else if (!r->initialized && strcmp(cmd, "init") != 0)
        why = "request before cmd=init";
    else if (strcmp(cmd, "init") == 0 && r->initialized)
        why = "second cmd=init";
    else if (strcmp(cmd, "init") == 0)
        do_init(job, r, &m, &why);
    else if (strcmp(cmd, "get_maxes") == 0)
        reply(job, r, "cmd=maxes kvsname_max=%d keylen_max=%d vallen_max=%d\n", MX_KVSNAME_MAX,
              MX_KEY_MAX, MX_VALUE_MAX);
    else if (strcmp(cmd, "get_appnum") == 0)
        reply(job, r, "cmd=appnum appnum=%d\n", r->appnum);
    else if (strcmp(cmd, "get_my_kvsname") == 0)
        reply(job, r, "cmd=my_kvsname kvsname=%s\n", job->kvsname);
    else if (strcmp(cmd, "get_universe_size") == 0)
        reply(job, r, "cmd=universe_size size=%d\n", job->n);
    else if (strcmp(cmd, "put") == 0)
        do_put(job, r, &m, &why);
    else if (strcmp(cmd, "get") == 0)
        do_get(job, r, &m, &why);
    else if (strcmp(cmd, "barrier_in") == 0)
        do_barrier(job, r);
    else if (strcmp(cmd, "finalize") == 0)
        do_finalize(job, r);
    else if (strcmp(cmd, "abort") == 0)
        do_abort(job, r, &m, &why);
    else
        why = "unknown or unsupported command";
    if (why)
        mx_protocol_fault(job, r, why, copy, len);
}

void mx_pmi_close(struct mx_rank *r)
{
    if (r->pmi_fd >= 0)
        close(r->pmi_fd);
    r->pmi_fd = -1;
    r->pmi_out.len = 0;
}

void mx_pmi_read(struct mx_job *job, struct mx_rank *r, int drain)
{
    int rounds = drain ? 256 : 1; /* bounded even if someone keeps writing */

    while (rounds-- > 0) {
        if (r->pmi_fd < 0)
            return;
        ssize_t n = read(r->pmi_fd, r->pmi_in + r->pmi_in_len, sizeof r->pmi_in - r->pmi_in_len);
        if (n < 0 && errno == EINTR) {
            rounds++;
            continue;
        }
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return;
        if (n <= 0) { /* EOF (or reset): the rank closed its end or exited */
            mx_pmi_close(r);
            r->pmi_eof = 1;
            r->eof_ms = mx_now_ms();
            return;
        }
        r->pmi_in_len += (size_t)n;
        char *nl;
        while (r->pmi_fd >= 0 && (nl = memchr(r->pmi_in, '\n', r->pmi_in_len))) {
            size_t len = (size_t)(nl - r->pmi_in);
            char line[MX_PMI_LINE_MAX];
            memcpy(line, r->pmi_in, len);
            line[len] = '\0';
            r->pmi_in_len -= len + 1;
            memmove(r->pmi_in, nl + 1, r->pmi_in_len);
            serve(job, r, line, len);
        }
        if (r->pmi_fd >= 0 && r->pmi_out.len > MX_PMI_OUT_HIGH) {
            /* one request, one reply: a client this far ahead does not read its replies */
            mx_protocol_fault(job, r, "requests keep coming but the replies are not read",
                              r->pmi_in, r->pmi_in_len);
        } else if (r->pmi_fd >= 0 && r->pmi_in_len == sizeof r->pmi_in) {
            mx_protocol_fault(job, r, "request line longer than 2048 bytes", r->pmi_in,
                              r->pmi_in_len);
        }
    }
}
