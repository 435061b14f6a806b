/* shm_large.c — recv_large: one copy from the sender's memory with process_vm_readv and a
 * FIN back, or (CMA not permitted or disabled, or a side not contiguous) a CTS asking the
 * sender to pipeline DATA. */
#include "shm.h"

#include <errno.h>

#include "rt_consts.h"

/* rt_tp_ops.recv_large (transport.h). */
int shm_recv_large(int src, uint64_t token, void *buf, size_t n, void *rreq)
{
    struct shm_recv *m = shm_g.active ? tp_pool_find(&shm_g.recvs, token) : NULL;
    struct shm_peer *pe;
    int p, rc, err = 0;

    if (!m || m->active || src < 0 || src >= shm_g.env->world_size ||
        shm_g.local_of[src] != m->peer)
        return RT_ERR_INTERN;
    p = m->peer;
    pe = &shm_g.peer[p];
    if (n > m->len)
        n = m->len;
    if (pe->dead) {
        tp_pool_put(&shm_g.recvs, m);
        return RT_ERR_PROC_ABORTED;
    }
    if (n > 0 && shm_g.cma && m->addr && buf) { /* else a side packs or unpacks: the pipeline */
        rc = shm_cma_read(pe->pid, buf, m->addr, n);
        if (rc == -EPERM || rc == -ENOSYS || rc == -EACCES)
            shm_g.cma = 0; /* not permitted here: the pipeline from now on */
        else if (rc == -ESRCH)
            err = RT_ERR_PROC_ABORTED;
        else if (rc < 0)
            err = RT_ERR_OTHER; /* e.g. EFAULT: the sender's buffer is not readable */
        else
            n = 0; /* copied: just tell the sender */
    }
    if (n == 0 || err) {
        rc = shm_ctl_send(p, SHM_FIN, m->stoken, (uint64_t)err, 0);
        tp_pool_put(&shm_g.recvs, m);
        return err ? err : rc;
    }
    m->active = 1;
    m->buf = buf;
    m->n = n;
    m->got = 0;
    m->rreq = rreq;
    rc = shm_ctl_send(p, SHM_CTS, m->stoken, token, n);
    if (rc) {
        tp_pool_put(&shm_g.recvs, m);
        return rc;
    }
    return RT_TP_PENDING;
}
