/* shm_ops.c — the method table of the shared-memory transport for ranks on the same node
 * (see transport.h for the contract and shm.h for the design constants). */
#include "shm.h"

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
};
