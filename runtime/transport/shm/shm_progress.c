/* shm_progress.c — progress(): per channel, takes records from its inbound ring (bounded),
 * then writes to the peers on its work list (control records, DATA streams); reports peers
 * found gone. */
#include "shm.h"

void shm_work_add(struct shm_chan *ch, int p)
{
    if (ch->link[p].listed)
        return;
    ch->link[p].listed = 1;
    ch->work[ch->nwork++] = p;
}

struct shm_chan *shm_chan_of(int32_t ctx)
{
    return &shm_g.ch[rt_tp_chan(ctx, shm_g.nchan)];
}

/* Reports peers found gone; skips what a dead producer reserved in our rings and never wrote
 * (polled: records were taken from them in this pass). */
static int report_gone(int polled)
{
    int p, c, n = 0;

    if (shm_g.gone_new) {
        shm_g.gone_new = 0;
        for (p = 0; p < shm_g.nlocal; p++)
            if (p != shm_g.me && shm_g.peer[p].gone && !shm_g.peer[p].dead) {
                shm_fail_peer(p);
                n++;
            }
    }
    if (shm_g.ngone && !polled)
        for (c = 0; c < shm_g.nchan; c++)
            for (p = 0; p < shm_g.nlocal; p++)
                if (p != shm_g.me && shm_g.peer[p].gone &&
                    shm_ring_skip_dead(&shm_g.ch[c].in, shm_g.peer[p].slot))
                    n++;
    return n;
}

/* Channel ch's part of progress(): its ring (records taken counted in *polled too), its
 * transfers, its work list. Re-entered from a callback, it does nothing. */
static inline __attribute__((always_inline)) int chan_progress(struct shm_chan *ch, int *polled)
{
    int i, k, p, n;

    if (ch->busy)
        return 0;
    ch->busy = 1;
    n = shm_poll(ch);
    *polled += n;
    if (ch->helping)
        n += shm_xfer_help(ch);
    if (!ch->nwork) {
        ch->busy = 0;
        return n;
    }
    /* Callbacks may list more peers meanwhile: they are appended and visited too. */
    for (i = 0; i < ch->nwork; i++) {
        struct shm_link *l = &ch->link[ch->work[i]];

        p = ch->work[i];
        if (shm_g.peer[p].dead)
            continue;
        n += shm_ctl_flush(ch, p) + shm_stream_advance(ch, p);
        shm_ring_wake_owner(&l->out, shm_g.peer[p].slot);
    }
    for (i = k = 0; i < ch->nwork; i++) { /* keep those with work left */
        struct shm_link *l = &ch->link[ch->work[i]];

        if (!shm_g.peer[ch->work[i]].dead && (l->ctl_len || l->stream || l->out.blocked))
            ch->work[k++] = ch->work[i];
        else
            l->listed = 0;
    }
    ch->nwork = k;
    ch->busy = 0;
    return n;
}

/* rt_tp_ops.progress_chan (transport.h): channel c's part of progress() (what a dead peer
 * left in our rings and its report wait for progress()). */
int shm_progress_chan(int c)
{
    int polled = 0;

    if (!shm_g.active || shm_g.nlocal < 2)
        return 0;
    return chan_progress(&shm_g.ch[c], &polled);
}

/* rt_tp_ops.progress (transport.h): every channel. Re-entered from a callback, it does
 * nothing. */
int shm_progress(void)
{
    int c, n = 0, polled = 0;

    if (!shm_g.active || shm_g.busy || shm_g.nlocal < 2)
        return 0;
    shm_g.busy = 1;
    for (c = 0; c < shm_g.nchan; c++)
        n += chan_progress(&shm_g.ch[c], &polled);
    if (__builtin_expect(shm_g.gone_new || shm_g.ngone, 0))
        n += report_gone(polled);
    shm_g.busy = 0;
    return n;
}
