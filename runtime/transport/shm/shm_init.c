/* shm_init.c — joining and leaving the job: the node's ranks, the region's creation and
 * attachment between two key/value barriers (then it is unlinked), and finalize. */
#define _GNU_SOURCE
#include "shm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "rt_consts.h"

struct shm_state shm_g;

/* Finds the ranks of our node; sets me, nlocal, local_of. 0, RT_ERR_NO_MEM, or RT_ERR_OTHER
 * beyond SHM_LOCAL_MAX ranks. */
static int find_local(const rt_tp_env *env, int *node, int *first)
{
    int r, n = 0;

    *node = env->node_of ? env->node_of[env->world_rank] : 0;
    shm_g.local_of = malloc((size_t)env->world_size * sizeof *shm_g.local_of);
    if (!shm_g.local_of)
        return RT_ERR_NO_MEM;
    *first = -1;
    for (r = 0; r < env->world_size; r++) {
        int same = !env->node_of || env->node_of[r] == *node;

        shm_g.local_of[r] = same ? n : -1;
        if (same && *first < 0)
            *first = r;
        if (r == env->world_rank)
            shm_g.me = n;
        n += same;
    }
    shm_g.nlocal = n;
    return n > SHM_LOCAL_MAX ? RT_ERR_OTHER : 0;
}

/* Our slot filled, the peers' rings and pids; 0, or RT_ERR_OTHER if a peer did not attach. */
static int setup_peers(void)
{
    int p;

    shm_g.peer = calloc((size_t)shm_g.nlocal, sizeof *shm_g.peer);
    shm_g.work = malloc((size_t)shm_g.nlocal * sizeof *shm_g.work);
    if (!shm_g.peer || !shm_g.work)
        return RT_ERR_NO_MEM;
    shm_region_ring(shm_g.base, shm_g.me, &shm_g.in);
    for (p = 0; p < shm_g.nlocal; p++) {
        struct shm_peer *pe = &shm_g.peer[p];

        pe->slot = shm_region_slot(shm_g.base, p);
        if (p == shm_g.me)
            continue;
        if (!atomic_load_explicit(&pe->slot->attached, memory_order_acquire))
            return RT_ERR_OTHER;
        pe->world = pe->slot->world_rank;
        pe->pid = atomic_load_explicit(&pe->slot->pid, memory_order_relaxed);
        if (pe->world < 0 || pe->world >= shm_g.env->world_size || shm_g.local_of[pe->world] != p)
            return RT_ERR_OTHER;
        shm_region_ring(shm_g.base, p, &pe->out);
    }
    return 0;
}

static void release_all(void)
{
    int p;

    if (shm_g.peer)
        for (p = 0; p < shm_g.nlocal; p++)
            shm_ctl_drop(p);
    if (shm_g.base)
        munmap(shm_g.base, shm_g.bytes);
    tp_pool_destroy(&shm_g.sends);
    tp_pool_destroy(&shm_g.recvs);
    free(shm_g.peer);
    free(shm_g.work);
    free(shm_g.local_of);
    memset(&shm_g, 0, sizeof shm_g);
}

/* rt_tp_ops.init (transport.h). Collective over the whole job: every rank calls kvs_barrier
 * exactly twice, whatever happens. On failure no rank of the node uses shm; finalize must
 * still be called (it is collective too). */
int shm_init(const rt_tp_env *env)
{
    char name[200] = "", key[48];
    int node, first, created = 0, rc, brc;

    memset(&shm_g, 0, sizeof shm_g);
    shm_g.env = env;
    tp_pool_init(&shm_g.sends, sizeof(struct shm_send));
    tp_pool_init(&shm_g.recvs, sizeof(struct shm_recv));
    rc = find_local(env, &node, &first);
    snprintf(key, sizeof key, "swy.shm.%d", node);
    if (!rc && shm_g.nlocal > 1 && first == env->world_rank) {
        /* The name holds our pid: unique while we live, and once we are gone, the next job's
         * creator on this node removes what a job killed before the unlink below left. */
        shm_region_name(name, sizeof name, env->jobid, node);
        shm_region_sweep();
        rc = shm_region_create(name, shm_g.nlocal, &shm_g.base, &shm_g.bytes);
        created = !rc;
        if (env->kvs_put(key, rc ? "fail" : name) < 0 && !rc)
            rc = RT_ERR_OTHER;
    }
    shm_cma_setup(); /* before any peer may read our memory */
    brc = env->kvs_barrier();
    if (!rc && shm_g.nlocal > 1 && !created) { /* the creator published the name it used */
        if (brc < 0 || env->kvs_get(key, name, sizeof name) < 0 ||
            strncmp(name, "/switchyard-", 12) != 0)
            rc = RT_ERR_OTHER;
        else
            rc = shm_region_open(name, shm_g.nlocal, &shm_g.base, &shm_g.bytes);
    }
    if (shm_g.base) {
        shm_g.slot = shm_region_slot(shm_g.base, shm_g.me);
        shm_g.slot->world_rank = env->world_rank;
        atomic_store_explicit(&shm_g.slot->pid, (int32_t)getpid(), memory_order_relaxed);
        atomic_store_explicit(&shm_g.slot->attached, 1, memory_order_release);
    }
    if (env->kvs_barrier() < 0 || brc < 0)
        rc = rc ? rc : RT_ERR_OTHER;
    if (created)
        shm_unlink(name); /* everyone attached (or failed): nothing stays in /dev/shm (if we are
                           * killed before, the next job's sweep removes it) */
    if (!rc && shm_g.nlocal > 1)
        rc = setup_peers();
    if (rc) {
        release_all();
        shm_g.env = env; /* finalize still owes the job its barrier */
        return rc;
    }
    shm_g.alive_ns = shm_now_ns();
    shm_g.active = 1;
    return 0;
}

/* rt_tp_ops.reaches (transport.h): the other ranks of our node, once init succeeded. */
int shm_reaches(int r)
{
    return shm_g.active && shm_g.nlocal > 1 && r >= 0 && r < shm_g.env->world_size &&
           shm_g.local_of[r] >= 0 && shm_g.local_of[r] != shm_g.me;
}

/* Whether control records or streams to a live peer still in the job wait for room. */
static int owed(void)
{
    int p;

    for (p = 0; shm_g.peer && p < shm_g.nlocal; p++) {
        struct shm_peer *pe = &shm_g.peer[p];

        if (p != shm_g.me && !pe->dead && (pe->ctl_len || pe->stream) &&
            !atomic_load_explicit(&pe->slot->left, memory_order_acquire))
            return 1;
    }
    return 0;
}

/* rt_tp_ops.finalize (transport.h): delivers what is owed to peers still progressing (a FIN
 * can be queued after the receive completed), then the job-wide barrier, then unmaps. */
void shm_finalize(void)
{
    const rt_tp_env *env = shm_g.env;

    if (!env)
        return;
    if (shm_g.active) {
        while (owed()) {
            if (!shm_progress())
                shm_wait(1000000L);
        }
        if (shm_g.slot)
            atomic_store_explicit(&shm_g.slot->left, 1, memory_order_release);
        shm_g.active = 0;
    }
    env->kvs_barrier();
    release_all();
}
