/* shm_progress.c — progress(): takes records from our inbound ring (bounded), reports peers
 * found gone, then writes to the peers on the work list (control records, DATA streams). */
#include "shm.h"

void shm_work_add(int p)
{
    if (shm_g.peer[p].listed)
        return;
    shm_g.peer[p].listed = 1;
    shm_g.work[shm_g.nwork++] = p;
}

/* Reports peers found gone; skips what a dead producer reserved in our ring and never wrote. */
static int report_gone(int polled)
{
    int p, n = 0;

    if (shm_g.gone_new) {
        shm_g.gone_new = 0;
        for (p = 0; p < shm_g.nlocal; p++)
            if (p != shm_g.me && shm_g.peer[p].gone && !shm_g.peer[p].dead) {
                shm_fail_peer(p);
                n++;
            }
    }
    if (shm_g.ngone && !polled)
        for (p = 0; p < shm_g.nlocal; p++)
            if (p != shm_g.me && shm_g.peer[p].gone && shm_ring_skip_dead(&shm_g.in, shm_g.peer[p].slot))
                n++;
    return n;
}

/* rt_tp_ops.progress (transport.h). Re-entered from a callback, it does nothing. */
int shm_progress(void)
{
    int i, k, p, w, n;

    if (!shm_g.active || shm_g.busy || shm_g.nlocal < 2)
        return 0;
    shm_g.busy = 1;
    n = shm_poll();
    n += report_gone(n);
    if (shm_g.helping)
        n += shm_xfer_help();
    /* Callbacks may list more peers meanwhile: they are appended and visited too. */
    for (i = 0; i < shm_g.nwork; i++) {
        struct shm_peer *pe = &shm_g.peer[shm_g.work[i]];

        p = shm_g.work[i];
        if (pe->dead)
            continue;
        w = shm_ctl_flush(p) + shm_stream_advance(p);
        shm_ring_wake_owner(&pe->out, pe->slot);
        n += w;
    }
    for (i = k = 0; i < shm_g.nwork; i++) { /* keep those with work left */
        struct shm_peer *pe = &shm_g.peer[shm_g.work[i]];

        if (!pe->dead && (pe->ctl_len || pe->stream || pe->out.blocked))
            shm_g.work[k++] = shm_g.work[i];
        else
            pe->listed = 0;
    }
    shm_g.nwork = k;
    shm_g.busy = 0;
    return n;
}
