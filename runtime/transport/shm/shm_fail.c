/* shm_fail.c — a node peer is gone: complete with an error what this transport holds for it
 * (large sends to it, pipelined receives from it), then tell the engine once. */
#include "shm.h"

#include "rt_consts.h"

/* Fails what channel ch holds for peer p. */
static void fail_chan(struct shm_chan *ch, int p)
{
    struct shm_link *l = &ch->link[p];
    uint32_t i;

    shm_ctl_drop(ch, p);
    l->stream = l->stream_last = NULL;
    l->rts_pending = 0;
    /* Entries do not move, and callbacks may only add entries for other peers. */
    for (i = 0; i < tp_pool_capacity(&ch->sends); i++) {
        struct shm_send *s = tp_pool_at(&ch->sends, i);
        void *sreq = s->sreq;

        if (!s->ent.used || s->peer != p)
            continue;
        shm_xfer_withdraw(ch, s->ent.index);
        tp_pool_put(&ch->sends, s);
        shm_g.env->send_done(sreq, RT_ERR_PROC_ABORTED);
    }
    for (i = 0; i < tp_pool_capacity(&ch->recvs); i++) {
        struct shm_recv *m = tp_pool_at(&ch->recvs, i);
        void *rreq = m->rreq;

        if (!m->ent.used || m->peer != p || !m->active)
            continue; /* announced only: recv_large will answer with the error */
        tp_pool_put(&ch->recvs, m);
        shm_g.env->recv_done(rreq, RT_ERR_PROC_ABORTED);
    }
}

void shm_fail_peer(int p)
{
    struct shm_peer *pe = &shm_g.peer[p];
    int c;

    if (pe->dead)
        return;
    if (!pe->gone)
        shm_g.ngone++;
    pe->dead = pe->gone = 1;
    for (c = 0; c < shm_g.nchan; c++)
        fail_chan(&shm_g.ch[c], p);
    shm_g.env->peer_failed(pe->world);
}
