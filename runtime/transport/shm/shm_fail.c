/* shm_fail.c — a node peer is gone: complete with an error what this transport holds for it
 * (large sends to it, pipelined receives from it), then tell the engine once. */
#include "shm.h"

#include "rt_consts.h"

void shm_fail_peer(int p)
{
    struct shm_peer *pe = &shm_g.peer[p];
    uint32_t i;

    if (pe->dead)
        return;
    if (!pe->gone)
        shm_g.ngone++;
    pe->dead = pe->gone = 1;
    shm_ctl_drop(p);
    pe->stream = pe->stream_last = NULL;
    pe->rts_pending = 0;
    /* Entries do not move, and callbacks may only add entries for other peers. */
    for (i = 0; i < tp_pool_capacity(&shm_g.sends); i++) {
        struct shm_send *s = tp_pool_at(&shm_g.sends, i);
        void *sreq = s->sreq;

        if (!s->ent.used || s->peer != p)
            continue;
        shm_xfer_withdraw(s->ent.index);
        tp_pool_put(&shm_g.sends, s);
        shm_g.env->send_done(sreq, RT_ERR_PROC_ABORTED);
    }
    for (i = 0; i < tp_pool_capacity(&shm_g.recvs); i++) {
        struct shm_recv *m = tp_pool_at(&shm_g.recvs, i);
        void *rreq = m->rreq;

        if (!m->ent.used || m->peer != p || !m->active)
            continue; /* announced only: recv_large will answer with the error */
        tp_pool_put(&shm_g.recvs, m);
        shm_g.env->recv_done(rreq, RT_ERR_PROC_ABORTED);
    }
    shm_g.env->peer_failed(pe->world);
}
