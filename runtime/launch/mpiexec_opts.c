/* mpiexec_opts.c — mpiexec's command line: -n/-np, -genv, -x, -l/--tag-output, --timeout,
 * hosts, Hydra's and Open MPI's accepted flags, --help, then the program and its arguments. */
#define _GNU_SOURCE
#include "mpiexec.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void mx_usage(void)
{
    printf(
        "usage: mpiexec [options] program [arguments]   (mpirun is the same command)\n"
        "\n"
        "Runs N copies (ranks) of program on this machine as one MPI job.\n"
        "\n"
        "options:\n"
        "  -n N, -np N            number of ranks (default 1, at most %d)\n"
        "  -genv NAME VALUE       set NAME=VALUE in the ranks' environment\n"
        "  -x NAME[=VALUE]        the same; -x NAME passes NAME on (all of the environment\n"
        "                         is passed on anyway)\n"
        "  -l, --tag-output       prefix each line of output with \"[rank] \"\n"
        "  -host/-hosts LIST, -f FILE   hosts (NAME[:N]); only this machine's names are accepted\n"
        "  -ppn N                 processes per node (must cover -n: there is one node)\n"
        "  -genvall, -genvnone    pass the whole environment (the default), or none of it\n"
        "  --oversubscribe        accepted (never needed)\n"
        "  --version              the version\n"
        "  --timeout SECONDS      kill the job when it runs longer (exit code 124); the\n"
        "                         environment variable MPIEXEC_TIMEOUT sets it too\n"
        "  -h, --help             this text\n"
        "  --                     ends the options\n"
        "\n"
        "Each rank gets PMI_FD, PMI_RANK, PMI_SIZE (PMI-1 on a socket), SWITCHYARD_JOBID and\n"
        "SWITCHYARD_JOB_SECRET; stdin goes to rank 0 only. When a rank fails (non-zero exit,\n"
        "a signal, an exit without finalizing, MPI_Abort, a PMI protocol error) all ranks are\n"
        "killed: SIGTERM, then SIGKILL 0.5 s later. At the end, /dev/shm entries whose name\n"
        "contains the job id are removed.\n"
        "\n"
        "exit status:\n"
        "  0        every rank exited with status 0\n"
        "  N        a rank called MPI_Abort with code N (its low 8 bits; 1 when those are 0\n"
        "           and N is not), or a rank exited\n"
        "           with status N != 0\n"
        "  128+N    a rank was killed by signal N, or mpiexec got signal N (INT, TERM, HUP)\n"
        "  %-3d      a rank broke the PMI protocol or exited 0 before finalizing\n"
        "  %-3d      bad command line\n"
        "  %-3d      --timeout expired\n"
        "  %-3d      mpiexec failed to start the job\n"
        "  %-3d/%-3d  program not executable / not found\n",
        MX_MAX_RANKS, MX_EXIT_PROTOCOL, MX_EXIT_USAGE, MX_EXIT_TIMEOUT, MX_EXIT_LAUNCH,
        MX_EXIT_NOEXEC, MX_EXIT_NOTFOUND);
}

static int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int usage_error(const char *fmt, ...)
{
    va_list ap;

    fprintf(stderr, "mpiexec: ");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, " (mpiexec --help shows the usage)\n");
    return -1;
}

static int valid_name(const char *s, size_t len)
{
    if (len == 0 || (s[0] >= '0' && s[0] <= '9'))
        return 0;
    for (size_t i = 0; i < len; i++)
        if (!(s[i] == '_' || (s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
              (s[i] >= '0' && s[i] <= '9')))
            return 0;
    return 1;
}

/* Add NAME=VALUE (given as name, value), replacing an earlier setting of NAME. */
static void add_env(struct mx_opts *o, const char *name, size_t nlen, const char *value)
{
    size_t vlen = strlen(value);
    char *s = mx_xmalloc(nlen + vlen + 2);

    memcpy(s, name, nlen);
    s[nlen] = '=';
    memcpy(s + nlen + 1, value, vlen + 1);
    for (int i = 0; i < o->nenv; i++) {
        if (strncmp(o->env[i], s, nlen + 1) == 0) {
            free(o->env[i]);
            o->env[i] = s;
            return;
        }
    }
    o->env = mx_xrealloc(o->env, (size_t)(o->nenv + 1) * sizeof *o->env);
    o->env[o->nenv++] = s;
}

static int parse_nranks(const char *arg, int *out)
{
    char *end;
    long v;

    errno = 0;
    v = strtol(arg, &end, 10);
    if (errno || end == arg || *end || v < 1 || v > MX_MAX_RANKS)
        return -1;
    *out = (int)v;
    return 0;
}

static int parse_timeout(const char *arg, double *out)
{
    char *end;
    double v;

    errno = 0;
    v = strtod(arg, &end);
    if (errno || end == arg || *end || !(v > 0) || v > 1e7)
        return -1;
    *out = v;
    return 0;
}

int mx_parse_opts(int argc, char **argv, struct mx_opts *o)
{
    int i;

    memset(o, 0, sizeof *o);
    o->nranks = 1;
    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *next = i + 1 < argc ? argv[i + 1] : NULL;
        if (a[0] != '-')
            break;
        if (strcmp(a, "--") == 0) {
            i++;
            break;
        }
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0 || strcmp(a, "-help") == 0) {
            mx_usage();
            return 1;
        } else if (strcmp(a, "-n") == 0 || strcmp(a, "-np") == 0 || strcmp(a, "--np") == 0 ||
                   strcmp(a, "--n") == 0) {
            if (!next || parse_nranks(next, &o->nranks) < 0)
                return usage_error("%s needs a number of ranks from 1 to %d", a, MX_MAX_RANKS);
            i++;
        } else if (strcmp(a, "-genv") == 0) {
            if (!next || i + 2 >= argc)
                return usage_error("%s needs NAME VALUE", a);
            if (!valid_name(next, strlen(next)))
                return usage_error("-genv: invalid variable name '%s'", next);
            add_env(o, next, strlen(next), argv[i + 2]);
            i += 2;
        } else if (strcmp(a, "-x") == 0) {
            if (!next)
                return usage_error("%s needs NAME[=VALUE]", a);
            const char *eq = strchr(next, '=');
            size_t nlen = eq ? (size_t)(eq - next) : strlen(next);
            if (!valid_name(next, nlen))
                return usage_error("-x: invalid variable name in '%s'", next);
            if (eq)
                add_env(o, next, nlen, eq + 1);
            i++;
        } else if (strcmp(a, "-l") == 0 || strcmp(a, "--tag-output") == 0 ||
                   strcmp(a, "-prepend-rank") == 0) {
            o->tag = 1;
        } else if (strcmp(a, "--version") == 0 || strcmp(a, "-version") == 0 || strcmp(a, "-V") == 0) {
            printf("mpiexec (Switchyard %s): launches MPI jobs on this machine, serving PMI-1\n", MX_VERSION);
            return 1;
        } else if (strcmp(a, "--oversubscribe") == 0 || strcmp(a, "-oversubscribe") == 0 ||
                   strcmp(a, "-genvall") == 0) {
            /* accepted: ranks never need more cores than there are; the environment goes
             * to the ranks anyway */
        } else if (strcmp(a, "-genvnone") == 0) {
            o->env_none = 1;
        } else if (strcmp(a, "-host") == 0 || strcmp(a, "-hosts") == 0 || strcmp(a, "--host") == 0) {
            if (!next)
                return usage_error("%s needs a host list", a);
            if (mx_check_hosts(next, a) < 0)
                return -1;
            i++;
        } else if (strcmp(a, "-f") == 0 || strcmp(a, "-hostfile") == 0 || strcmp(a, "--hostfile") == 0) {
            if (!next)
                return usage_error("%s needs a host file", a);
            if (mx_check_hostfile(next) < 0)
                return -1;
            i++;
        } else if (strcmp(a, "-ppn") == 0) {
            if (!next || parse_nranks(next, &o->ppn) < 0)
                return usage_error("%s needs a number of processes per node", a);
            i++;
        } else if (strcmp(a, "--timeout") == 0 || strncmp(a, "--timeout=", 10) == 0) {
            const char *v = a[9] == '=' ? a + 10 : next;
            if (!v || parse_timeout(v, &o->timeout) < 0)
                return usage_error("%s needs a number of seconds > 0", "--timeout");
            if (a[9] != '=')
                i++;
        } else {
            return usage_error("unknown option '%s'", a);
        }
    }
    if (i >= argc)
        return usage_error("no program to run");
    if (o->ppn && o->ppn < o->nranks)
        return usage_error("-ppn %d: this machine is the only node, so it runs all %d ranks", o->ppn, o->nranks);
    const char *env = getenv("MPIEXEC_TIMEOUT"); /* as Hydra: seconds, --timeout wins */
    if (o->timeout == 0 && env && *env && parse_timeout(env, &o->timeout) < 0)
        return usage_error("MPIEXEC_TIMEOUT='%s' is not a number of seconds > 0", env);
    o->argv = argv + i;
    return 0;
}

void mx_free_opts(struct mx_opts *o)
{
    for (int i = 0; i < o->nenv; i++)
        free(o->env[i]);
    free(o->env);
    o->env = NULL;
    o->nenv = 0;
}
