/* win_shm.c — the shared segment of a window on one node (MPI_Win_allocate_shared, and
 * MPI_Win_allocate with direct operations): made by the first process, mapped by the others,
 * unlinked as soon as all have it (nothing stays in /dev/shm). */
#define _GNU_SOURCE
#include "coll/coll.h"
#include "comm/comm.h"
#include "info/info.h"
#include "win.h"

#include <fcntl.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#define PAGE 4096

int rt__win_shm_map(rt_win *w, int apart, const char *fn)
{
    rt_comm *comm = w->comm;
    int n = comm->size, same = 0, color, err;
    if ((err = rt__node_color(comm, &color, &same)) != RT_SUCCESS)
        return rt_raise(&comm->obj, err, fn, "the members could not agree (internal communication failed: %s)",
                rt__class_string(err));
    if (!same)
        return rt_raise(&comm->obj, RT_ERR_RMA_SHARED, fn,
                        "the processes of 'comm' are not all on one node: they cannot share memory");
    if (!(w->shm_off = malloc(sizeof *w->shm_off * (size_t)n)))
        return rt_raise(&comm->obj, RT_ERR_NO_MEM, fn, "out of memory for the window");
    rt_aint total = 0;
    for (int r = 0; r < n; r++) { /* contiguous parts, or each on its own pages */
        if (apart)
            total = (total + PAGE - 1) / PAGE * PAGE;
        w->shm_off[r] = total;
        total += w->peers[r].size;
    }
    rt_aint ctl = (total + 63) / 64 * 64; /* the control words (win_direct.c) */
    w->ctl_stride = rt__win_ctl_stride(n);
    total = ctl + (rt_aint)w->ctl_stride * n + RT__WIN_BAR_BYTES;
    w->shm_bytes = (size_t)((total + PAGE - 1) / PAGE * PAGE);
    char name[128] = {0};
    int fd = -1;
    if (comm->rank == 0) {
        rt__shm_segment_name(name, sizeof name, "win");
        fd = shm_open(name, O_CREAT | O_EXCL | O_RDWR, 0600);
        /* the pages reserved now: a full /dev/shm is an error here, not a SIGBUS at a store */
        if (fd >= 0 && (ftruncate(fd, (off_t)w->shm_bytes) != 0 || posix_fallocate(fd, 0, (off_t)w->shm_bytes) != 0)) {
            close(fd);
            shm_unlink(name);
            fd = -1;
        }
        if (fd < 0)
            name[0] = 0; /* the others see the failure in the name */
    }
    rt__team t = rt__team_of(comm);
    if ((err = rt__coll_bcast(&t, name, sizeof name, 0)) != RT_SUCCESS)
        return rt_raise(&comm->obj, err, fn, "the members could not agree (internal communication failed: %s)",
                rt__class_string(err));
    if (comm->rank != 0 && name[0])
        fd = shm_open(name, O_RDWR, 0600);
    void *p = fd >= 0 ? mmap(NULL, w->shm_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0) : MAP_FAILED;
    if (fd >= 0)
        close(fd);
    int ok = rt__all_ok(comm, p != MAP_FAILED, &err);
    if (comm->rank == 0 && name[0])
        shm_unlink(name); /* everyone has mapped it, or given up */
    if (!ok) {
        if (p != MAP_FAILED)
            munmap(p, w->shm_bytes);
        return rt_raise(&comm->obj, err ? err : RT_ERR_NO_MEM, fn, "cannot make the shared segment of %zu bytes",
                        w->shm_bytes);
    }
    w->shm = p;
    w->ctl = (char *)p + ctl;
    w->base = (char *)p + w->shm_off[comm->rank];
    return RT_SUCCESS;
}

void rt__win_shm_unmap(rt_win *w)
{
    if (w->shm)
        munmap(w->shm, w->shm_bytes);
    free(w->shm_off);
    w->shm = NULL;
    w->shm_off = NULL;
    w->ctl = NULL;
}
