/* shm_progress.c — progress(): polls the rings from each peer (round robin, bounded), then
 * flushes queued control records and advances pipelined sends. */
#include "shm.h"

/* rt_tp_ops.progress (transport.h). Re-entered from a callback, it does nothing. */
int shm_progress(void)
{
    int k, p, w, n = 0;

    if (!shm_g.active || shm_g.busy || shm_g.nlocal < 2)
        return 0;
    shm_g.busy = 1;
    for (k = 0; k < shm_g.nlocal; k++) {
        p = (shm_g.rr + k) % shm_g.nlocal;
        if (p != shm_g.me)
            n += shm_poll_peer(p);
    }
    shm_g.rr = (shm_g.rr + 1) % shm_g.nlocal;
    for (p = 0; p < shm_g.nlocal; p++) {
        if (p != shm_g.me && shm_g.peer[p].gone && !shm_g.peer[p].dead) {
            shm_fail_peer(p);
            n++;
        }
        if (p == shm_g.me || shm_g.peer[p].dead)
            continue;
        w = shm_ctl_flush(p) + shm_stream_advance(p);
        if (w)
            shm_bell_ring(shm_g.peer[p].slot);
        n += w;
    }
    shm_g.busy = 0;
    return n;
}
