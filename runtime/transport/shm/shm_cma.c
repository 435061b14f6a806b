/* shm_cma.c — cross-memory attach: lets node peers read and write our buffers (Yama's ptrace
 * scope 1) and copies from or to a peer's buffer, unless SWITCHYARD_SHM_NOCMA=1. */
#define _GNU_SOURCE
#include "shm.h"

#include "rt_consts.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/uio.h>

#ifndef PR_SET_PTRACER
#define PR_SET_PTRACER 0x59616d61
#endif
#ifndef PR_SET_PTRACER_ANY
#define PR_SET_PTRACER_ANY ((unsigned long)-1)
#endif

void shm_cma_setup(void)
{
    const char *v = getenv("SWITCHYARD_SHM_NOCMA");

    /* Fails with EINVAL without Yama: nothing to allow then. */
    prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY, 0, 0, 0);
    shm_g.cma = shm_g.cma_write = !(v && strcmp(v, "1") == 0);
}

/* Copies n bytes between local and addr in process pid, towards pid if write. */
static int copy(pid_t pid, void *local, uint64_t addr, size_t n, int write)
{
    size_t done = 0;

    while (done < n) {
        struct iovec l = { (char *)local + done, n - done };
        struct iovec r = { (void *)(uintptr_t)(addr + done), n - done };
        ssize_t k = write ? process_vm_writev(pid, &l, 1, &r, 1, 0)
                          : process_vm_readv(pid, &l, 1, &r, 1, 0);

        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0)
            return -errno;
        if (k == 0)
            return -EFAULT;
        done += (size_t)k;
    }
    return 0;
}

int shm_cma_read(pid_t pid, void *dst, uint64_t addr, size_t n)
{
    return copy(pid, dst, addr, n, 0);
}

int shm_cma_write(pid_t pid, uint64_t addr, const void *src, size_t n)
{
    return copy(pid, (void *)src, addr, n, 1);
}

int shm_cma_outcome(int rc)
{
    if (rc == -EPERM || rc == -ENOSYS || rc == -EACCES)
        return 1;
    if (rc == -ESRCH)
        return RT_ERR_PROC_ABORTED;
    return rc < 0 ? RT_ERR_OTHER : 0; /* e.g. EFAULT: the buffer is not accessible */
}
