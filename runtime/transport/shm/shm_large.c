/* shm_large.c — recv_large: one copy from the sender's memory with process_vm_readv and a
 * FIN back (by both sides at once for larger messages: shm_xfer.c), or (CMA not permitted or
 * disabled, or a side not contiguous) a CTS asking the sender to pipeline DATA. */
#include "shm.h"

#include "rt_consts.h"

/* rt_tp_ops.recv_large (transport.h). */
int shm_recv_large(int src, int32_t ctx, uint64_t token, void *buf, size_t n, void *rreq)
{
    struct shm_chan *ch = shm_g.active ? shm_chan_of(ctx) : NULL;
    struct shm_recv *m = ch ? tp_pool_find(&ch->recvs, token) : NULL;
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
        tp_pool_put(&ch->recvs, m);
        return RT_ERR_PROC_ABORTED;
    }
    m->token = token;
    if (n > 0 && shm_g.cma && m->addr && buf) { /* else a side packs or unpacks: the pipeline */
        if (n >= 2 * SHM_XFER_MIN && (uint32_t)m->stoken - 1 < SHM_XFERS)
            return shm_xfer_recv(ch, m, buf, n, rreq); /* the sender's token names its entry */
        err = shm_cma_outcome(shm_cma_read(pe->pid, buf, m->addr, n));
        if (err == 1)
            shm_g.cma = err = 0; /* not permitted here: the pipeline from now on */
        else if (!err)
            n = 0; /* copied: just tell the sender */
    }
    if (n == 0 || err) {
        rc = shm_ctl_send(ch, p, SHM_FIN, m->stoken, (uint64_t)err, 0);
        tp_pool_put(&ch->recvs, m);
        return err ? err : rc;
    }
    m->buf = buf;
    m->n = n;
    m->rreq = rreq;
    return shm_recv_pipe(ch, m);
}

int shm_recv_pipe(struct shm_chan *ch, struct shm_recv *m)
{
    int rc;

    m->active = SHM_RECV_PIPE;
    m->got = 0;
    rc = shm_ctl_send(ch, m->peer, SHM_CTS, m->stoken, m->token, m->n);
    if (rc) {
        tp_pool_put(&ch->recvs, m);
        return rc;
    }
    return RT_TP_PENDING;
}
