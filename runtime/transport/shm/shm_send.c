/* shm_send.c — the sending side: eager records, rendezvous announcements (RTS) for large
 * messages, and the DATA stream of a large send when the receiver asked for the pipeline. */
#include "shm.h"

#include <string.h>

#include "rt_consts.h"

/* rt_tp_ops.send (transport.h): eager copy into the ring of h's channel, or an RTS and
 * RT_TP_PENDING. */
int shm_send(int dst, const rt_msg_hdr *h, const void *data, size_t n, void *sreq)
{
    struct shm_chan *ch;
    struct shm_peer *pe;
    struct shm_link *l;
    struct shm_send *s;
    struct shm_rec *r;
    uint64_t token;
    int p;

    if (!shm_g.active || dst < 0 || dst >= shm_g.env->world_size || h->len != (int64_t)n)
        return RT_ERR_INTERN;
    p = shm_g.local_of[dst];
    if (p < 0 || p == shm_g.me)
        return RT_ERR_INTERN;
    pe = &shm_g.peer[p];
    if (pe->dead)
        return RT_ERR_PROC_ABORTED;
    ch = shm_chan_of(h->ctx);
    l = &ch->link[p];
    if (n <= SHM_EAGER_MAX) {
        /* up to SHM_SHORT_MAX bytes with a bare envelope: one cache line carries it all */
        int one_line = n <= SHM_SHORT_MAX && h->flags == 0 && h->sreq == 0;
        void *payload;

        r = one_line ? shm_ring_reserve_line(&l->out, SHM_SHORT)
                     : shm_ring_reserve(&l->out, shm_rec_bytes(n), SHM_EAGER);
        if (!r) {
            shm_work_add(ch, p); /* progress() watches for room */
            return RT_TP_AGAIN;
        }
        if (one_line) {
            r->s.ctx = h->ctx;
            r->s.src = h->src;
            r->s.tag = h->tag;
            r->s.len = (uint32_t)n;
            payload = r->s.data;
        } else {
            r->a = n;
            r->b = 0;
            r->h = *h;
            payload = r + 1;
        }
        if (n && data)
            memcpy(payload, data, n);
        else if (n)
            shm_g.env->pack(sreq, 0, n, payload);
        shm_ring_commit(&l->out);
        shm_ring_wake_owner(&l->out, pe->slot);
        return 0;
    }
    s = tp_pool_get(&ch->sends, &token);
    if (!s)
        return RT_ERR_NO_MEM;
    r = shm_ring_reserve(&l->out, SHM_LINE, SHM_RTS);
    if (!r) {
        tp_pool_put(&ch->sends, s);
        shm_work_add(ch, p);
        return RT_TP_AGAIN;
    }
    s->peer = p;
    s->sreq = sreq;
    s->buf = data;
    s->len = n;
    r->a = (uint64_t)(uintptr_t)data; /* 0: packed piece by piece, through the pipeline */
    r->b = token;
    r->h = *h;
    if (data)
        shm_xfer_offer(ch, s->ent.index); /* before the RTS is visible */
    shm_ring_commit(&l->out);
    l->rts_pending++;
    l->rts_tail = l->out.end;
    shm_ring_wake_owner(&l->out, pe->slot);
    return RT_TP_PENDING;
}

void shm_stream_start(struct shm_chan *ch, struct shm_send *s)
{
    struct shm_link *l = &ch->link[s->peer];

    s->next = NULL;
    if (l->stream_last)
        l->stream_last->next = s;
    else
        l->stream = s;
    l->stream_last = s;
    shm_work_add(ch, s->peer);
}

/* Writes one DATA record of s if there is room worth using; 1 if written. */
static int chunk(struct shm_link *l, struct shm_send *s)
{
    uint64_t left = s->want - s->off, n = left < SHM_CHUNK ? left : SHM_CHUNK;
    uint64_t room = shm_ring_room(&l->out);
    struct shm_rec *r;

    if (room < shm_rec_bytes(n) && room >= SHM_LINE + SHM_CHUNK_MIN)
        n = room - SHM_LINE; /* a smaller piece keeps the pipe busy */
    r = shm_ring_reserve(&l->out, shm_rec_bytes(n), SHM_DATA);
    if (!r)
        return 0;
    r->a = s->rtoken;
    r->b = s->off;
    r->c = n;
    if (s->buf)
        memcpy(r + 1, s->buf + s->off, n);
    else
        shm_g.env->pack(s->sreq, s->off, n, r + 1);
    shm_ring_commit(&l->out);
    s->off += n;
    return 1;
}

int shm_stream_advance(struct shm_chan *ch, int p)
{
    struct shm_link *l = &ch->link[p];
    struct shm_send *s;
    uint64_t budget = SHM_STREAM_BUDGET;
    int n = 0;
    void *sreq;

    while ((s = l->stream)) {
        while (s->off < s->want) {
            uint64_t off = s->off;

            if (budget == 0 || !chunk(l, s))
                return n;
            budget -= budget < s->off - off ? budget : s->off - off;
            n++;
        }
        l->stream = s->next;
        if (!l->stream)
            l->stream_last = NULL;
        sreq = s->sreq;
        tp_pool_put(&ch->sends, s);
        shm_g.env->send_done(sreq, 0); /* every byte is in the ring: the buffer is free */
    }
    return n;
}
