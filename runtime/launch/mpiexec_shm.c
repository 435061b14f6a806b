/* mpiexec_shm.c — the /dev/shm sweep after a job: the shared-memory transport names its
 * objects "/switchyard-<jobid>-...", which a crashed rank cannot remove itself. */
#define _GNU_SOURCE
#include "mpiexec.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define SHM_DIR "/dev/shm"

void mx_shm_sweep(const char *jobid)
{
    DIR *d = opendir(SHM_DIR);
    struct dirent *e;

    if (strlen(jobid) < 16 || !d) { /* never sweep with a short (or empty) id */
        if (d)
            closedir(d);
        return;
    }
    while ((e = readdir(d))) {
        if (!strstr(e->d_name, jobid))
            continue;
        if (unlinkat(dirfd(d), e->d_name, 0) < 0 && errno != ENOENT)
            fprintf(stderr, "mpiexec: cannot remove %s/%s: %s\n", SHM_DIR, e->d_name,
                    strerror(errno));
    }
    closedir(d);
}
