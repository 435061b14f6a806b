/* shm_recv.c — the receiving side: hands envelopes (eager and RTS) from our inbound ring to the
 * engine in ring order, and handles the control records of large transfers (FIN, CTS, DATA,
 * XDONE). */
#include "shm.h"

#include <string.h>

#include "rt_consts.h"

/* FIN: the receiver copied (or dropped) our large send. */
static void on_fin(struct shm_chan *ch, int p, const struct shm_rec *r)
{
    struct shm_send *s = tp_pool_find(&ch->sends, r->a);
    void *sreq;

    if (!s || s->peer != p || s->rtoken) /* stale, or already streaming */
        return;
    ch->link[p].rts_pending--;
    shm_xfer_withdraw(ch, s->ent.index);
    sreq = s->sreq;
    tp_pool_put(&ch->sends, s);
    shm_g.env->send_done(sreq, (int)r->b);
}

/* CTS: the receiver wants r->c bytes of our large send through the ring. */
static void on_cts(struct shm_chan *ch, int p, const struct shm_rec *r)
{
    struct shm_send *s = tp_pool_find(&ch->sends, r->a);

    if (!s || s->rtoken || s->peer != p || r->b == 0)
        return;
    ch->link[p].rts_pending--;
    shm_xfer_withdraw(ch, s->ent.index);
    s->rtoken = r->b;
    s->want = r->c < s->len ? r->c : s->len;
    s->off = 0;
    shm_stream_start(ch, s); /* want > 0: a receiver wanting nothing sends FIN */
}

/* DATA: a piece of a pipelined large message. */
static void on_data(struct shm_chan *ch, int p, const struct shm_rec *r)
{
    struct shm_recv *m = tp_pool_find(&ch->recvs, r->a);
    void *rreq;

    if (!m || m->active != SHM_RECV_PIPE || m->peer != p || r->b > m->n || r->c > m->n - r->b ||
        r->c > r->bytes - SHM_LINE)
        return;
    if (m->buf)
        memcpy(m->buf + r->b, r + 1, r->c);
    else
        shm_g.env->unpack(m->rreq, r->b, r->c, r + 1);
    m->got += r->c;
    if (m->got < m->n)
        return;
    rreq = m->rreq;
    tp_pool_put(&ch->recvs, m);
    shm_g.env->recv_done(rreq, 0);
}

/* XDONE: the sender copied the last piece of a message both sides copied. */
static void on_xdone(struct shm_chan *ch, int p, const struct shm_rec *r)
{
    struct shm_recv *m = tp_pool_find(&ch->recvs, r->a);

    if (m && m->active == SHM_RECV_XFER && m->peer == p)
        shm_xfer_done(ch, m);
}

/* RTS: announces a large message; 0 if out of memory (the record stays for later). The
 * record is released first: the sender then sees that we may be copying (shm_wait.c). */
static int on_rts(struct shm_chan *ch, int p, const struct shm_rec *r)
{
    struct shm_recv *m;
    uint64_t token;
    rt_msg_hdr h = r->h;

    if (shm_chan_of(h.ctx) != ch) { /* its context belongs to another channel (whose pool
                                       recv_large will search): a sender that splits traffic
                                       otherwise; nothing from this ring can be trusted */
        ch->in.bad = 1;
        return 0;
    }
    m = tp_pool_get(&ch->recvs, &token);
    if (!m)
        return 0;
    m->peer = p;
    m->addr = r->a;
    m->len = (uint64_t)h.len;
    m->stoken = r->b;
    shm_ring_release(&ch->in);
    shm_g.env->incoming(shm_g.peer[p].world, &h, NULL, token);
    return 1;
}

/* A record we cannot trust: the ring's framing is lost, so nothing more can be received. */
static void ring_corrupt(void)
{
    int p;

    for (p = 0; p < shm_g.nlocal; p++)
        if (p != shm_g.me && !shm_g.peer[p].dead)
            shm_fail_peer(p);
}

__attribute__((always_inline)) inline int shm_poll(struct shm_chan *ch) /* into progress() (LTO) */
{
    struct shm_ring *in = &ch->in;
    struct shm_rec *r;
    int n = 0, p;

    if (in->bad)
        return 0;
    while (n < SHM_POLL_BATCH && (r = shm_ring_peek(in))) {
        p = r->from;
        if (r->type == SHM_SHORT) {
            rt_msg_hdr h = {.ctx = r->s.ctx, .src = r->s.src, .tag = r->s.tag, .len = r->s.len};

            if (r->s.len > SHM_SHORT_MAX) {
                in->bad = 1;
                break;
            }
            shm_g.env->incoming(shm_g.peer[p].world, &h, r->s.data, 0);
        } else if (r->type == SHM_EAGER) {
            rt_msg_hdr h = r->h;

            if (r->a > r->bytes - SHM_LINE || h.len != (int64_t)r->a) {
                in->bad = 1;
                break;
            }
            shm_g.env->incoming(shm_g.peer[p].world, &h, r + 1, 0);
        } else if (r->type == SHM_RTS) {
            if (!on_rts(ch, p, r))
                break;
            n++;
            continue; /* released already */
        } else if (r->type == SHM_FIN) {
            on_fin(ch, p, r);
        } else if (r->type == SHM_CTS) {
            on_cts(ch, p, r);
        } else if (r->type == SHM_DATA) {
            on_data(ch, p, r);
        } else if (r->type == SHM_XDONE) {
            on_xdone(ch, p, r);
        } else {
            in->bad = 1;
            break;
        }
        shm_ring_release(in);
        n++;
    }
    if (n)
        shm_ring_wake_producers(in);
    if (in->bad)
        ring_corrupt();
    return n;
}
