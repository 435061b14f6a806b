/* mpiexec_spawn.c — starting the ranks: the program check, each rank's environment, pipes and
 * PMI socket, its own session, its CPU, PR_SET_PDEATHSIG, nothing else inherited. */
#define _GNU_SOURCE
#include "mpiexec.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#define CHILD_PMI_FD 3

extern char **environ;

/* Variables mpiexec sets or removes in every rank's environment. */
static const char *const owned_vars[] = {
    "PMI_FD", "PMI_RANK", "PMI_SIZE", "PMI_PORT", "PMI_ID", "PMI_SPAWNED",
    "SWITCHYARD_JOBID", "SWITCHYARD_JOB_SECRET", NULL,
};

static int check_file(const char *path)
{
    struct stat st;

    if (stat(path, &st) < 0)
        return errno == ENOENT || errno == ENOTDIR ? MX_EXIT_NOTFOUND : MX_EXIT_NOEXEC;
    if (S_ISDIR(st.st_mode) || access(path, X_OK) < 0)
        return MX_EXIT_NOEXEC;
    return 0;
}

int mx_check_program(const char *prog)
{
    int rc = MX_EXIT_NOTFOUND;

    if (strchr(prog, '/')) {
        rc = check_file(prog);
    } else if (*prog) {
        const char *path = getenv("PATH");
        if (!path)
            path = "/bin:/usr/bin";
        while (rc != 0) {
            const char *colon = strchrnul(path, ':');
            int dlen = (int)(colon - path);
            char *file;
            if (asprintf(&file, "%.*s%s%s", dlen, path, dlen ? "/" : "", prog) < 0)
                return MX_EXIT_LAUNCH;
            int r = check_file(file);
            free(file);
            if (r == 0 || (r == MX_EXIT_NOEXEC && rc == MX_EXIT_NOTFOUND))
                rc = r;
            if (!*colon)
                break;
            path = colon + 1;
        }
    }
    if (rc == MX_EXIT_NOTFOUND)
        fprintf(stderr, "mpiexec: cannot run '%s': command not found\n", prog);
    else if (rc == MX_EXIT_NOEXEC)
        fprintf(stderr, "mpiexec: cannot run '%s': not an executable file\n", prog);
    return rc;
}

static int name_is(const char *entry, const char *name)
{
    size_t n = strlen(name);

    return strncmp(entry, name, n) == 0 && entry[n] == '=';
}

static int owned(const char *entry)
{
    for (int i = 0; owned_vars[i]; i++)
        if (name_is(entry, owned_vars[i]))
            return 1;
    return 0;
}

/* Whether list (n entries NAME=VALUE) sets the variable of entry (NAME=...). */
static int in_list(char *const *list, int n, const char *entry)
{
    for (int i = 0; i < n; i++) {
        size_t len = (size_t)(strchr(list[i], '=') - list[i]) + 1;
        if (strncmp(entry, list[i], len) == 0)
            return 1;
    }
    return 0;
}

/* mpiexec's own variables for every rank (rank is set before each fork). */
struct own_vars {
    char fd[32], size[32], jobid[64], secret[64], rank[32];
};

static void ignoring(const char *entry)
{
    fprintf(stderr, "mpiexec: ignoring %.*s from the command line: mpiexec sets it\n",
            (int)strcspn(entry, "="), entry);
}

/* The environment of part's ranks: ours minus owned, -genv/-x and -env names, then -genv/-x
 * settings not overridden by the part's -env, then those, then mpiexec's (pointing into v).
 * warn: say which command-line settings mpiexec ignores (once per job for -genv). */
static char **build_env(struct mx_job *job, const struct mx_part *part, struct own_vars *v,
                        int warn)
{
    const struct mx_opts *o = &job->opt;
    size_t n = 0, k = 0;
    char **env;

    while (environ[n])
        n++;
    env = mx_xmalloc((n + (size_t)o->nenv + (size_t)part->nenv + 6) * sizeof *env);
    for (size_t i = 0; i < n && !o->env_none; i++)
        if (!owned(environ[i]) && !in_list(o->env, o->nenv, environ[i]) &&
            !in_list(part->env, part->nenv, environ[i]))
            env[k++] = environ[i];
    for (int i = 0; i < o->nenv; i++) {
        if (owned(o->env[i]))
            warn ? ignoring(o->env[i]) : (void)0;
        else if (!in_list(part->env, part->nenv, o->env[i]))
            env[k++] = o->env[i];
    }
    for (int i = 0; i < part->nenv; i++) {
        if (owned(part->env[i]))
            ignoring(part->env[i]);
        else
            env[k++] = part->env[i];
    }
    snprintf(v->fd, sizeof v->fd, "PMI_FD=%d", CHILD_PMI_FD);
    snprintf(v->size, sizeof v->size, "PMI_SIZE=%d", job->n);
    snprintf(v->jobid, sizeof v->jobid, "SWITCHYARD_JOBID=%s", job->jobid);
    snprintf(v->secret, sizeof v->secret, "SWITCHYARD_JOB_SECRET=%s", job->secret);
    env[k++] = v->fd;
    env[k++] = v->size;
    env[k++] = v->jobid;
    env[k++] = v->secret;
    env[k++] = v->rank;
    env[k] = NULL;
    return env;
}

static void close_from(int lowfd)
{
    if (close_range((unsigned)lowfd, ~0u, 0) == 0)
        return;
    long max = sysconf(_SC_OPEN_MAX);
    if (max < 0 || max > 1 << 20)
        max = 1 << 20;
    for (int fd = lowfd; fd < max; fd++)
        close(fd);
}

struct child_setup {
    int in, out, err, sock;
    char **argv, **envp;
    const sigset_t *mask;
    pid_t parent;
    struct rlimit nofile;
    int cpu;                /* to bind the rank to, -1 for none */
};

static _Noreturn void child(const struct child_setup *c)
{
    /* every source is >= 3 (0-2 are always open in mpiexec), so no move clobbers another */
    if (dup2(c->in, 0) < 0 || dup2(c->out, 1) < 0 || dup2(c->err, 2) < 0)
        _exit(MX_EXIT_LAUNCH);
    if (c->sock == CHILD_PMI_FD ? fcntl(CHILD_PMI_FD, F_SETFD, 0) < 0
                                : dup2(c->sock, CHILD_PMI_FD) < 0)
        _exit(MX_EXIT_LAUNCH);
    close_from(CHILD_PMI_FD + 1);
    signal(SIGPIPE, SIG_DFL);
    sigprocmask(SIG_SETMASK, c->mask, NULL);
    /* Its own session (so its own process group, pid = pgid, for mx_kill_all), as Hydra does
     * for MPICH's ranks: with the kernel's autogroup scheduling (on by default) CPU time is
     * shared between sessions first, so ranks left in the caller's session share one session's
     * weight with each other and every other job of it; on 2 loaded cores an oversubscribed
     * job ran at half MPICH's speed (issue 35, item 7). SWITCHYARD_RANK_SESSION=0: only a
     * process group, in mpiexec's session. The parent never calls setpgid(pid, pid): a rank
     * that is a group leader already could not call setsid. */
    const char *own = getenv("SWITCHYARD_RANK_SESSION");
    if ((own && strcmp(own, "0") == 0) || setsid() < 0)
        setpgid(0, 0);
    /* die with mpiexec, even by SIGKILL; if it is already gone, do not start */
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != c->parent)
        _exit(MX_EXIT_LAUNCH);
    setrlimit(RLIMIT_NOFILE, &c->nofile);
    mx_bind_child(c->cpu);
    execvpe(c->argv[0], c->argv, c->envp);
    int e = errno;
    dprintf(2, "mpiexec: cannot run '%s': %s\n", c->argv[0], strerror(e));
    _exit(e == ENOENT ? MX_EXIT_NOTFOUND : MX_EXIT_NOEXEC);
}

/* Make room for the descriptors n ranks need; remembers the old limit for the ranks. */
static int raise_nofile(int n, struct rlimit *old)
{
    struct rlimit rl;
    rlim_t need = (rlim_t)n * 4 + 32;

    if (getrlimit(RLIMIT_NOFILE, old) < 0)
        return 0;
    if (old->rlim_cur != RLIM_INFINITY && old->rlim_cur < need) {
        rl = *old;
        rl.rlim_cur = old->rlim_max == RLIM_INFINITY || old->rlim_max > need ? need
                                                                              : old->rlim_max;
        if (rl.rlim_cur < need || setrlimit(RLIMIT_NOFILE, &rl) < 0) {
            fprintf(stderr, "mpiexec: %d ranks need %lu open descriptors; the limit is %lu\n",
                    n, (unsigned long)need, (unsigned long)old->rlim_max);
            return -1;
        }
    }
    return 0;
}

static int start_rank(struct mx_job *job, struct mx_rank *r, struct child_setup *c)
{
    int sv[2], outp[2] = { -1, -1 }, errp[2] = { -1, -1 }, inp[2] = { -1, -1 };
    pid_t pid;

    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
        return -1;
    if (pipe2(outp, O_CLOEXEC) < 0 || pipe2(errp, O_CLOEXEC) < 0 ||
        (r->rank == 0 && pipe2(inp, O_CLOEXEC) < 0))
        goto fail;
    c->in = r->rank == 0 ? inp[0] : job->devnull;
    c->out = outp[1];
    c->err = errp[1];
    c->sock = sv[1];
    pid = fork();
    if (pid < 0)
        goto fail;
    if (pid == 0)
        child(c);
    /* the child makes itself a session (and group) leader; until it does, mx_kill_all signals
     * its pid too */
    r->pid = pid;
    job->nlive++;
    close(sv[1]);
    close(outp[1]);
    close(errp[1]);
    r->pmi_fd = sv[0];
    r->out_fd = outp[0];
    r->err_fd = errp[0];
    mx_nonblock(r->pmi_fd);
    mx_nonblock(r->out_fd);
    mx_nonblock(r->err_fd);
    if (r->rank == 0) {
        close(inp[0]);
        job->stdin_pipe = inp[1];
        job->stdin_fd = 0;
        mx_nonblock(job->stdin_pipe);
    }
    return 0;
fail:;
    int e = errno;
    for (int i = 0; i < 2; i++) {
        close(sv[i]);
        if (outp[i] >= 0)
            close(outp[i]);
        if (errp[i] >= 0)
            close(errp[i]);
        if (inp[i] >= 0)
            close(inp[i]);
    }
    errno = e;
    return -1;
}

int mx_spawn(struct mx_job *job, const void *child_sigmask)
{
    struct child_setup c = { .mask = child_sigmask, .parent = getpid() };
    struct own_vars v;
    int rc = 0;

    if (raise_nofile(job->n, &c.nofile) < 0)
        return -1;
    mx_bind_plan(job);
    for (int p = 0; p < job->opt.nparts && rc == 0; p++) {
        const struct mx_part *part = &job->opt.parts[p];
        c.envp = build_env(job, part, &v, p == 0);
        for (int i = part->first; i < part->first + part->nranks; i++) {
            snprintf(v.rank, sizeof v.rank, "PMI_RANK=%d", i);
            job->ranks[i].appnum = p;
            c.cpu = job->ranks[i].cpu;
            c.argv = mx_hosts_argv(&job->opt, i, part->argv);
            if (start_rank(job, &job->ranks[i], &c) < 0) {
                fprintf(stderr, "mpiexec: cannot start rank %d: %s\n", i, strerror(errno));
                rc = -1;
            }
            if (c.argv != part->argv)
                free(c.argv);
            if (rc < 0)
                break;
        }
        free(c.envp);
    }
    explicit_bzero(v.secret, sizeof v.secret);
    return rc;
}
