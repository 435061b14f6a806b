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

/* calloc for n entries of a type aligned to align (shm.h: struct shm_peer, shm_link,
 * shm_chan), freed by free(). NULL when out of memory. */
static void *shm_calloc(size_t n, size_t size, size_t align)
{
    void *p = NULL;
    if (posix_memalign(&p, align, n * size) != 0)
        return NULL;
    return memset(p, 0, n * size);
}

/* Channel c's rings: our inbound one, and the peers' as we produce into them. */
static int setup_chan(int c)
{
    struct shm_chan *ch = &shm_g.ch[c];
    int p;

    ch->link = shm_calloc((size_t)shm_g.nlocal, sizeof *ch->link, _Alignof(struct shm_link));
    ch->work = malloc((size_t)shm_g.nlocal * sizeof *ch->work);
    if (!ch->link || !ch->work)
        return RT_ERR_NO_MEM;
    ch->mine = &shm_g.slot->chan[c];
    shm_region_ring(shm_g.base, shm_g.me, c, NULL, &ch->in);
    for (p = 0; p < shm_g.nlocal; p++)
        if (p != shm_g.me)
            shm_region_ring(shm_g.base, p, c, ch->mine, &ch->link[p].out);
    return 0;
}

/* Our slot filled, the peers' rings and pids; 0, or RT_ERR_OTHER if a peer did not attach. */
static int setup_peers(void)
{
    int p, c, rc;

    shm_g.peer = shm_calloc((size_t)shm_g.nlocal, sizeof *shm_g.peer, _Alignof(struct shm_peer));
    if (!shm_g.peer)
        return RT_ERR_NO_MEM;
    for (c = 0; c < shm_g.nchan; c++)
        if ((rc = setup_chan(c)) != 0)
            return rc;
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
    }
    return 0;
}

static void release_all(void)
{
    int p, c;

    for (c = 0; shm_g.ch && c < shm_g.nchan; c++) {
        struct shm_chan *ch = &shm_g.ch[c];

        for (p = 0; ch->link && p < shm_g.nlocal; p++)
            shm_ctl_drop(ch, p);
        tp_pool_destroy(&ch->sends);
        tp_pool_destroy(&ch->recvs);
        free(ch->link);
        free(ch->work);
    }
    if (shm_g.base)
        munmap(shm_g.base, shm_g.bytes);
    free(shm_g.ch);
    free(shm_g.peer);
    free(shm_g.local_of);
    memset(&shm_g, 0, sizeof shm_g);
}

/* rt_tp_ops.init (transport.h). Collective over the whole job: every rank calls kvs_barrier
 * exactly twice, whatever happens. On failure no rank of the node uses shm; finalize must
 * still be called (it is collective too). The ranks of the node use the channel count of the
 * region's creator, published beside its name, and say so (env->settle_chans). */
int shm_init(const rt_tp_env *env)
{
    char name[200] = "", key[48], ckey[48], chans[16];
    int node = 0, first = -1, created = 0, rc, brc, c, bad, n;

    memset(&shm_g, 0, sizeof shm_g);
    shm_g.env = env;
    shm_g.nchan = env->nchan < 1 ? 1 : env->nchan;
    bad = shm_g.nchan > (int)SHM_CHAN_MAX || (shm_g.nchan & (shm_g.nchan - 1)); /* a power of two */
    if (bad)
        shm_g.nchan = 1;
    rc = bad ? RT_ERR_INTERN : find_local(env, &node, &first);
    snprintf(key, sizeof key, "swy.shm.%d", node);
    snprintf(ckey, sizeof ckey, "swy.shm.%d.chans", node); /* the creator's count: everyone's */
    if (!rc && shm_g.nlocal > 1 && first == env->world_rank) {
        /* The name holds our pid: unique while we live, and once we are gone, the next job's
         * creator on this node removes what a job killed before the unlink below left. */
        shm_region_name(name, sizeof name, env->jobid, node);
        shm_region_sweep();
        rc = shm_region_create(name, shm_g.nlocal, shm_g.nchan, &shm_g.base, &shm_g.bytes);
        created = !rc;
        snprintf(chans, sizeof chans, "%d", shm_g.nchan);
        if ((env->kvs_put(key, rc ? "fail" : name) < 0 || env->kvs_put(ckey, chans) < 0) && !rc)
            rc = RT_ERR_OTHER;
    }
    shm_cma_setup(); /* before any peer may read our memory */
    brc = env->kvs_barrier();
    if (!rc && shm_g.nlocal > 1 && !created) { /* the creator published the name it used */
        if (brc < 0 || env->kvs_get(key, name, sizeof name) < 0 ||
            strncmp(name, "/switchyard-", 12) != 0 || env->kvs_get(ckey, chans, sizeof chans) < 0 ||
            (n = atoi(chans)) < 1 || n > (int)SHM_CHAN_MAX || (n & (n - 1)))
            rc = RT_ERR_OTHER;
        else
            rc = shm_region_open(name, shm_g.nlocal, shm_g.nchan = n, &shm_g.base, &shm_g.bytes);
    }
    if (!rc) {
        shm_g.ch = shm_calloc((size_t)shm_g.nchan, sizeof *shm_g.ch, _Alignof(struct shm_chan));
        rc = shm_g.ch ? 0 : RT_ERR_NO_MEM;
    }
    for (c = 0; shm_g.ch && c < shm_g.nchan; c++) {
        shm_g.ch[c].c = c;
        tp_pool_init(&shm_g.ch[c].sends, sizeof(struct shm_send));
        tp_pool_init(&shm_g.ch[c].recvs, sizeof(struct shm_recv));
    }
    if (!rc && shm_g.nlocal > 1 && env->settle_chans)
        env->settle_chans(shm_g.nchan);
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
    int p, c;

    for (p = 0; shm_g.peer && p < shm_g.nlocal; p++) {
        struct shm_peer *pe = &shm_g.peer[p];

        if (p == shm_g.me || pe->dead || atomic_load_explicit(&pe->slot->left, memory_order_acquire))
            continue;
        for (c = 0; c < shm_g.nchan; c++)
            if (shm_g.ch[c].link[p].ctl_len || shm_g.ch[c].link[p].stream)
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
