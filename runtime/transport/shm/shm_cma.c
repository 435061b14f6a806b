/* shm_cma.c — cross-memory attach: lets node peers read our buffers (Yama's ptrace scope 1)
 * and copies a sender's buffer with process_vm_readv, unless SWITCHYARD_SHM_NOCMA=1. */
#define _GNU_SOURCE
#include "shm.h"

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
    shm_g.cma = !(v && strcmp(v, "1") == 0);
}

int shm_cma_read(pid_t pid, void *dst, uint64_t addr, size_t n)
{
    size_t done = 0;

    while (done < n) {
        struct iovec l = { (char *)dst + done, n - done };
        struct iovec r = { (void *)(uintptr_t)(addr + done), n - done };
        ssize_t k = process_vm_readv(pid, &l, 1, &r, 1, 0);

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
