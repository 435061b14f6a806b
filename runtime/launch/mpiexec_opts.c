/* mpiexec_opts.c — mpiexec's command line: -n/-np, -genv, -x, -l/--tag-output, --timeout,
 * -disable-auto-cleanup, -bind-to (and SWITCHYARD_BIND), hosts and -bootstrap-exec, Hydra's and Open MPI's
 * accepted flags, --help, the program and its arguments; MPMD. */
#define _GNU_SOURCE
#include "mpiexec.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "part N: " while parsing an MPMD line's part N (from 1), else empty. */
static char part_label[48];

static int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int usage_error(const char *fmt, ...)
{
    va_list ap;

    fprintf(stderr, "mpiexec: %s", part_label);
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

/* Add NAME=VALUE (given as name, value) to the list (*env, *nenv), replacing an earlier
 * setting of NAME. */
static void add_env(char ***envp, int *nenv, const char *name, size_t nlen, const char *value)
{
    char **env = *envp;
    size_t vlen = strlen(value);
    char *s = mx_xmalloc(nlen + vlen + 2);

    memcpy(s, name, nlen);
    s[nlen] = '=';
    memcpy(s + nlen + 1, value, vlen + 1);
    for (int i = 0; i < *nenv; i++) {
        if (strncmp(env[i], s, nlen + 1) == 0) {
            free(env[i]);
            env[i] = s;
            return;
        }
    }
    env = mx_xrealloc(env, (size_t)(*nenv + 1) * sizeof *env);
    env[(*nenv)++] = s;
    *envp = env;
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

/* "none" or "core" (what -bind-to and SWITCHYARD_BIND take): MX_BIND_*, or -1. */
static int parse_bind(const char *arg)
{
    if (strcmp(arg, "none") == 0)
        return MX_BIND_NONE;
    if (strcmp(arg, "core") == 0)
        return MX_BIND_CORE;
    return -1;
}

static int is_colon(const char *a)
{
    return a && strcmp(a, ":") == 0;
}

/* Parse one part from argv[*pos] (options, then the program and its arguments up to the next
 * ':' or the end) into part; global options go into o. argc stops at the part's end. */
static int parse_part(int argc, char **argv, int *pos, struct mx_opts *o, struct mx_part *part)
{
    int i, start = *pos;

    part->nranks = 1;
    for (i = start; i < argc && !is_colon(argv[i]); i++) {
        const char *a = argv[i];
        const char *next = i + 1 < argc && !is_colon(argv[i + 1]) ? argv[i + 1] : NULL;
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
            if (!next || parse_nranks(next, &part->nranks) < 0)
                return usage_error("%s needs a number of ranks from 1 to %d", a, MX_MAX_RANKS);
            i++;
        } else if (strcmp(a, "-genv") == 0 || strcmp(a, "-env") == 0) {
            if (!next || i + 2 >= argc || is_colon(argv[i + 2]))
                return usage_error("%s needs NAME VALUE", a);
            if (!valid_name(next, strlen(next)))
                return usage_error("%s: invalid variable name '%s'", a, next);
            if (a[1] == 'g')
                add_env(&o->env, &o->nenv, next, strlen(next), argv[i + 2]);
            else
                add_env(&part->env, &part->nenv, next, strlen(next), argv[i + 2]);
            i += 2;
        } else if (strcmp(a, "-x") == 0) {
            if (!next)
                return usage_error("%s needs NAME[=VALUE]", a);
            const char *eq = strchr(next, '=');
            size_t nlen = eq ? (size_t)(eq - next) : strlen(next);
            if (!valid_name(next, nlen))
                return usage_error("-x: invalid variable name in '%s'", next);
            if (eq)
                add_env(&o->env, &o->nenv, next, nlen, eq + 1);
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
        } else if (strcmp(a, "-disable-auto-cleanup") == 0 || strcmp(a, "--disable-auto-cleanup") == 0) {
            o->no_cleanup = 1;
        } else if (strcmp(a, "-bind-to") == 0 || strcmp(a, "--bind-to") == 0) {
            if (!next || (o->bind = parse_bind(next)) < 0)
                return usage_error("%s needs none or core", a);
            i++;
        } else if (strcmp(a, "-genvnone") == 0) {
            o->env_none = 1;
        } else if (strcmp(a, "-host") == 0 || strcmp(a, "-hosts") == 0 || strcmp(a, "--host") == 0) {
            if (!next)
                return usage_error("%s needs a host list", a);
            if (mx_hosts_add(o, next, a) < 0)
                return -1;
            i++;
        } else if (strcmp(a, "-f") == 0 || strcmp(a, "-hostfile") == 0 || strcmp(a, "--hostfile") == 0) {
            if (!next)
                return usage_error("%s needs a host file", a);
            if (mx_hosts_add_file(o, next) < 0)
                return -1;
            i++;
        } else if (strcmp(a, "-bootstrap") == 0 || strcmp(a, "-launcher") == 0) {
            /* Hydra's launcher kinds: fork and exec start ranks here (or through
             * -bootstrap-exec); ssh and rsh would lose the PMI socket the ranks inherit */
            if (!next)
                return usage_error("%s needs a launcher (fork or exec)", a);
            if (strcmp(next, "fork") != 0 && strcmp(next, "exec") != 0)
                return usage_error("%s %s: Switchyard's mpiexec starts ranks itself, keeping their PMI "
                                   "socket, which %s cannot carry; use fork or exec (with "
                                   "-bootstrap-exec for other hosts), or MPICH's mpiexec.hydra",
                                   a, next, next);
            i++;
        } else if (strcmp(a, "-bootstrap-exec") == 0 || strcmp(a, "-launcher-exec") == 0) {
            if (!next)
                return usage_error("%s needs a command", a);
            o->bootstrap = next;
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
    if (i >= argc || is_colon(argv[i]))
        return usage_error(i == start && part_label[0] ? "the part is empty"
                                                        : "no program to run");
    part->argv = argv + i;
    while (i < argc && !is_colon(argv[i]))
        i++;
    if (i < argc)
        argv[i++] = NULL; /* ends this part's argv */
    *pos = i;
    return 0;
}

int mx_parse_opts(int argc, char **argv, struct mx_opts *o)
{
    int i = 1, p, rc;

    memset(o, 0, sizeof *o);
    part_label[0] = 0;
    o->nparts = 1;
    for (int k = 1; k < argc; k++)
        o->nparts += is_colon(argv[k]);
    o->parts = calloc((size_t)o->nparts, sizeof *o->parts);
    if (!o->parts)
        return usage_error("out of memory");
    for (p = 0; p < o->nparts; p++) {
        if (o->nparts > 1)
            snprintf(part_label, sizeof part_label, "part %d of %d: ", p + 1, o->nparts);
        rc = parse_part(argc, argv, &i, o, &o->parts[p]);
        if (rc != 0)
            return rc;
        o->parts[p].first = o->nranks;
        o->nranks += o->parts[p].nranks;
    }
    part_label[0] = 0;
    if (o->nranks > MX_MAX_RANKS)
        return usage_error("%d ranks in all; at most %d", o->nranks, MX_MAX_RANKS);
    if (o->ppn && o->ppn < o->nranks && o->nhosts == 0)
        return usage_error("-ppn %d: this machine is the only node, so it runs all %d ranks", o->ppn, o->nranks);
    if (mx_hosts_place(o) < 0)
        return -1;
    const char *env = getenv("MPIEXEC_TIMEOUT"); /* as Hydra: seconds, --timeout wins */
    if (o->timeout == 0 && env && *env && parse_timeout(env, &o->timeout) < 0)
        return usage_error("MPIEXEC_TIMEOUT='%s' is not a number of seconds > 0", env);
    env = getenv("SWITCHYARD_BIND"); /* -bind-to wins */
    if (o->bind == MX_BIND_UNSET && env && *env && (o->bind = parse_bind(env)) < 0)
        return usage_error("SWITCHYARD_BIND='%s' is neither none nor core", env);
    if (o->bind == MX_BIND_UNSET)
        o->bind = MX_BIND_CORE;
    return 0;
}

static void free_env(char ***env, int *nenv)
{
    for (int i = 0; i < *nenv; i++)
        free((*env)[i]);
    free(*env);
    *env = NULL;
    *nenv = 0;
}

void mx_free_opts(struct mx_opts *o)
{
    free_env(&o->env, &o->nenv);
    for (int p = 0; o->parts && p < o->nparts; p++)
        free_env(&o->parts[p].env, &o->parts[p].nenv);
    free(o->parts);
    o->parts = NULL;
    o->nparts = 0;
    mx_hosts_free(o);
}
