/* mpiexec_hosts.c — -host/-hosts/-f and -bootstrap-exec: the host of each rank. Ranks on this
 * machine are started directly; a rank on another host through the bootstrap command. */
#define _GNU_SOURCE
#include "mpiexec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Whether name is this machine: its host name (full or up to the first dot), localhost or a
 * loopback address. */
static int this_host(const char *name)
{
    char me[256] = {0};
    if (gethostname(me, sizeof me - 1) != 0)
        me[0] = 0;
    size_t len = strlen(name), short_len = strcspn(me, ".");
    static const char *const local[] = {"localhost", "127.0.0.1", "::1", "localhost.localdomain"};
    for (size_t i = 0; i < sizeof local / sizeof *local; i++)
        if (strcmp(local[i], name) == 0)
            return 1;
    return strcmp(me, name) == 0 || (len == short_len && strncmp(me, name, len) == 0);
}

int mx_hosts_add(struct mx_opts *o, const char *list, const char *what)
{
    for (const char *p = list + strspn(list, ", \t\n"); *p; p += strspn(p, ", \t\n")) {
        size_t n = strcspn(p, ",: \t\n");
        int slots = 1;

        if (n == 0) {
            fprintf(stderr, "mpiexec: %s: a host count ':' without a host name in '%s'\n", what, list);
            return -1;
        }
        if (p[n] == ':') { /* a count of slots: NAME:N */
            char *end;
            long v = strtol(p + n + 1, &end, 10);
            if (end == p + n + 1 || v < 1 || v > MX_MAX_RANKS || !strchr(", \t\n", *end)) {
                fprintf(stderr, "mpiexec: %s: host '%.*s': the count after ':' must be 1..%d\n", what,
                        (int)n, p, MX_MAX_RANKS);
                return -1;
            }
            slots = (int)v;
        }
        o->hosts = mx_xrealloc(o->hosts, (size_t)(o->nhosts + 1) * sizeof *o->hosts);
        char *name = mx_xmalloc(n + 1);
        memcpy(name, p, n);
        name[n] = 0;
        o->hosts[o->nhosts].name = name;
        o->hosts[o->nhosts++].slots = slots;
        p += n;
        if (*p == ':')
            p += 1 + strcspn(p + 1, ", \t\n");
    }
    return 0;
}

int mx_hosts_add_file(struct mx_opts *o, const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "mpiexec: -f: cannot read the host file '%s'\n", path);
        return -1;
    }
    char line[512];
    int err = 0;
    while (!err && fgets(line, sizeof line, f)) {
        line[strcspn(line, "#")] = 0; /* comments */
        err = mx_hosts_add(o, line, path);
    }
    fclose(f);
    return err;
}

int mx_hosts_place(struct mx_opts *o)
{
    int h = 0, used = 0, remote = 0;

    if (o->nhosts == 0)
        return 0;
    o->host_of = mx_xmalloc((size_t)o->nranks * sizeof *o->host_of);
    for (int r = 0; r < o->nranks; r++) { /* fill each host's slots (-ppn's), then the next */
        int slots = o->ppn ? o->ppn : o->hosts[h].slots;
        const char *name = o->hosts[h].name;

        o->host_of[r] = this_host(name) ? NULL : name;
        if (o->host_of[r] && !o->bootstrap) {
            fprintf(stderr, "mpiexec: host '%s' is not this machine; Switchyard's mpiexec starts ranks "
                            "elsewhere only through -bootstrap-exec (MPICH's mpiexec.hydra also "
                            "launches Switchyard programs across hosts)\n", name);
            return -1;
        }
        remote |= o->host_of[r] != NULL;
        if (++used == slots)
            used = 0, h = (h + 1) % o->nhosts;
    }
    if (!remote) { /* every rank here: the ranks are started as without hosts */
        free(o->host_of);
        o->host_of = NULL;
    }
    return 0;
}

char **mx_hosts_argv(const struct mx_opts *o, int rank, char **argv)
{
    size_t n = 0;
    char **full;

    if (!o->host_of || !o->host_of[rank])
        return argv;
    while (argv[n])
        n++;
    full = mx_xmalloc((n + 3) * sizeof *full);
    full[0] = (char *)o->bootstrap;
    full[1] = (char *)o->host_of[rank];
    memcpy(full + 2, argv, (n + 1) * sizeof *full);
    return full;
}

void mx_hosts_free(struct mx_opts *o)
{
    for (int i = 0; i < o->nhosts; i++)
        free(o->hosts[i].name);
    free(o->hosts);
    free(o->host_of);
    o->hosts = NULL;
    o->host_of = NULL;
    o->nhosts = 0;
}
