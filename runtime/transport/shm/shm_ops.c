/* shm_ops.c — the method table of the shared-memory transport for ranks on the same node
 * (see transport.h for the contract and shm.h for the design constants). */
#include "shm.h"

/* rt_tp_ops.watch: looks at every peer's process (a lock holder in a shared window may die
 * while nothing is received from it). */
static void shm_watch(int r)
{
    (void)r;
    shm_check_peers();
}

const rt_tp_ops rt_tp_shm = {
    .version = RT_TP_VERSION,
    .size = sizeof(rt_tp_ops),
    .name = "shm",
    .eager_max = SHM_EAGER_MAX,
    .init = shm_init,
    .reaches = shm_reaches,
    .send = shm_send,
    .recv_large = shm_recv_large,
    .progress = shm_progress,
    .wait = shm_wait,
    .finalize = shm_finalize,
    .watch = shm_watch,
    .progress_chan = shm_progress_chan,
};
