/* mpiexec_hosts.c — -host/-hosts/-f: Switchyard's mpiexec runs a job on this machine, so it
 * accepts this machine's names (with Hydra's NAME[:N] counts) and refuses any other clearly. */
#define _GNU_SOURCE
#include "mpiexec.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Whether name is this machine: its host name (full or up to the first dot), localhost or a
 * loopback address. */
static int this_host(const char *name, size_t len)
{
    char me[256] = {0};
    if (gethostname(me, sizeof me - 1) != 0)
        me[0] = 0;
    size_t short_len = strcspn(me, ".");
    static const char *const local[] = {"localhost", "127.0.0.1", "::1", "localhost.localdomain"};
    for (size_t i = 0; i < sizeof local / sizeof *local; i++)
        if (strlen(local[i]) == len && strncmp(local[i], name, len) == 0)
            return 1;
    if (len == strlen(me) && strncmp(me, name, len) == 0)
        return 1;
    return len == short_len && strncmp(me, name, len) == 0;
}

int mx_check_hosts(const char *list, const char *what)
{
    for (const char *p = list; *p;) {
        size_t n = strcspn(p, ",: \t\n");
        if (n > 0 && !this_host(p, n)) {
            fprintf(stderr, "mpiexec: %s: host '%.*s' is not this machine; Switchyard's mpiexec runs jobs on "
                            "one node (MPICH's mpiexec.hydra launches Switchyard programs across hosts)\n",
                    what, (int)n, p);
            return -1;
        }
        p += n;
        if (*p == ':') /* a count of slots: NAME:N */
            p += 1 + strspn(p + 1, "0123456789");
        p += strspn(p, ", \t\n");
    }
    return 0;
}

int mx_check_hostfile(const char *path)
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
        err = mx_check_hosts(line, path);
    }
    fclose(f);
    return err;
}
