/* comm_create.c — intra-communicator construction: context ids agreed among the members (and
 * claimed by pending idups), dup (with info), split, split_type, create, create_group, free, compare, group, info. */
#include "p2p/p2p.h"
#include "info/info.h"
#include "attr/attr.h"
#include "group/group.h"
#include "coll/coll.h"
#include "comm.h"

#include <stdlib.h>
#include <unistd.h>

struct rt__topo_hooks rt__topo_hooks;

/* ------------------------------------------------------------ context ids */

/* Bit i set: id i is free at this process. Ids 0 and 1 belong to WORLD and SELF. */
static uint32_t free_ids[RT__CTX_WORDS];
/* Bit i set: id i is free but claimed by a pending nonblocking agreement (comm_idup.c), which
 * may still pick it; no other agreement offers it. */
static uint32_t claimed[RT__CTX_WORDS];
static int ids_ready;

static void ids_init(void)
{
    if (ids_ready)
        return;
    memset(free_ids, 0xff, sizeof free_ids);
    free_ids[0] &= ~3u;
    ids_ready = 1;
}

/* mask = this process's free context ids that no pending agreement claims. */
static void ctx_mask(uint32_t *mask)
{
    ids_init();
    for (int w = 0; w < RT__CTX_WORDS; w++)
        mask[w] = free_ids[w] & ~claimed[w];
}

/* A hash of (seed, id) (splitmix64's finaliser): the same at every process. */
static uint64_t mix(uint64_t seed, uint64_t id)
{
    uint64_t z = seed * 0x9e3779b97f4a7c15ull + id * 0xbf58476d1ce4e5b9ull + 0x94d049bb133111ebull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* share = the unclaimed free ids in the half of all ids that seed selects (the ids whose
 * hash with seed is even), now claimed. Every member of an agreement passes the same seed, so
 * their shares overlap in about half of the ids free and unclaimed everywhere; two pending
 * agreements (different seeds) at one process never share an id, and a second one still finds
 * about half of what the first left. */
void rt__ctx_claim(uint64_t seed, uint32_t *share)
{
    ids_init();
    for (int w = 0; w < RT__CTX_WORDS; w++) {
        uint32_t half = 0;
        for (int b = 0; b < 32; b++)
            half |= (uint32_t)(~mix(seed, (uint64_t)(w * 32 + b)) & 1u) << b;
        share[w] = free_ids[w] & ~claimed[w] & half;
        claimed[w] |= share[w];
    }
}

/* Gives back the claim of share (from rt__ctx_claim). */
void rt__ctx_release(const uint32_t *share)
{
    for (int w = 0; w < RT__CTX_WORDS; w++)
        claimed[w] &= ~share[w];
}

/* The lowest id in mask, -1 if none. */
int rt__ctx_lowest(const uint32_t *mask)
{
    for (int w = 0; w < RT__CTX_WORDS; w++)
        if (mask[w])
            return w * 32 + __builtin_ctz(mask[w]);
    return -1;
}

void rt__ctx_offer(uint64_t seed, uint32_t *mask, uint32_t *claim)
{
    if (rt__g.life.thread_provided == RT_THREAD_MULTIPLE) {
        rt__ctx_claim(seed, claim);
        memcpy(mask, claim, sizeof *mask * RT__CTX_WORDS);
    } else {
        ctx_mask(mask);
        memset(claim, 0, sizeof *claim * RT__CTX_WORDS);
    }
}

/* The id this thread's last agreement kept claimed for its new communicator, -1 if none or
 * taken. A process that gets no communicator from the agreement (MPI_Comm_split with
 * MPI_UNDEFINED, a non-member of MPI_Comm_create, an error) never takes it: the thread's next
 * agreement gives it back, so each thread holds back at most one id. */
static _Thread_local int kept = -1;

void rt__ctx_settle(uint32_t *claim, int id)
{
    if (kept >= 0)
        claimed[kept / 32] &= ~(1u << (kept % 32));
    kept = -1;
    if (id >= 0 && claim[id / 32] & (1u << (id % 32))) {
        claim[id / 32] &= ~(1u << (id % 32));
        kept = id;
    }
    rt__ctx_release(claim);
}

static void ctx_take(int id)
{
    ids_init();
    free_ids[id / 32] &= ~(1u << (id % 32));
    claimed[id / 32] &= ~(1u << (id % 32)); /* held back since its agreement (rt__ctx_settle) */
    if (id == kept)
        kept = -1;
}

static void ctx_give(int id)
{
    if (id >= 2 && id < RT__CTX_IDS)
        free_ids[id / 32] |= 1u << (id % 32);
}

/* The lowest id free at every process of comm (both groups of an inter-communicator). */
int rt__ctx_agree(rt_comm *comm, int *id)
{
    uint32_t mask[RT__CTX_WORDS], theirs[RT__CTX_WORDS], claim[RT__CTX_WORDS];
    rt__team t = rt__team_of(comm);
    /* the seed: the same at every member (collectives on comm start in one order) */
    rt__ctx_offer((uint64_t)(uint32_t)comm->ctx << 32 | comm->coll_seq, mask, claim);
    int err = rt__coll_allreduce(&t, mask, sizeof mask, rt__op_band);
    if (!err && comm->remote_size > 0) {
        err = rt__inter_swap(comm, mask, sizeof mask, theirs, sizeof theirs);
        if (!err)
            rt__op_band(mask, theirs, sizeof mask);
    }
    *id = err ? -1 : rt__ctx_lowest(mask);
    rt__ctx_settle(claim, *id);
    return err;
}

/* ------------------------------------------------------------ communicator objects */

/* An internal view: a communicator header nobody holds a handle to (builtin flag: never
 * reference-counted; index -1: never a valid handle), used only to carry requests. */
static void view_setup(rt_comm *v, int size, int rank, int remote_size, int *world, int ctx)
{
    memset(v, 0, sizeof *v);
    v->obj = (rt_obj){.magic = RT_OBJ_MAGIC, .cls = RT_CLASS_COMM, .builtin = 1, .index = -1, .refs = 1};
    v->size = size;
    v->rank = rank;
    v->remote_size = remote_size;
    v->world = world;
    v->ctx = ctx;
    v->errh = (rt_errhandler *)rt_builtins[RT_B_ERRORS_RETURN];
}

/* Makes coll the collective-context view of builtin comm. */
void rt__comm_views_init(rt_comm *comm, rt_comm *coll)
{
    ids_init();
    view_setup(coll, comm->size, comm->rank, 0, comm->world, comm->ctx + 1);
    comm->coll = coll;
}

/* A new communicator taking context id `id` and the given rank maps (see comm.h). */
rt_comm *rt__comm_new(rt_comm *parent, int id, int size, int rank, int *world, int remote_size, int *lworld)
{
    rt_comm *c = rt__comm_new_pending(parent, size, rank, world, remote_size, lworld);
    if (c)
        rt__comm_set_ctx(c, id);
    return c;
}

/* Context id placeholder of a communicator whose id is not agreed yet: no other has it. */
#define CTX_PENDING (-2)

/* As rt__comm_new, without a context id yet (see comm.h). */
rt_comm *rt__comm_new_pending(rt_comm *parent, int size, int rank, int *world, int remote_size, int *lworld)
{
    rt_comm *c = (rt_comm *)rt__obj_new(RT_CLASS_COMM);
    rt_comm *views = calloc(remote_size > 0 ? 2 : 1, sizeof *views);
    if (!c || !views) {
        if (c)
            rt__obj_release(&c->obj);
        free(views);
        free(world);
        free(lworld);
        return NULL;
    }
    /* an intra-communicator over the whole world in world order needs no map */
    if (remote_size == 0 && world && size == rt__g.world.size) {
        int identity = 1;
        for (int r = 0; r < size && identity; r++)
            identity = world[r] == r;
        if (identity) {
            free(world);
            world = NULL;
        }
    }
    c->size = size;
    c->rank = rank;
    c->remote_size = remote_size;
    c->world = world;
    c->lworld = remote_size > 0 ? lworld : NULL;
    if (remote_size == 0)
        free(lworld);
    c->ctx = CTX_PENDING;
    c->owns_ctx = 0;
    c->errh = parent ? parent->errh : (rt_errhandler *)rt_builtins[RT_B_ERRORS_ARE_FATAL];
    rt__obj_retain(&c->errh->obj);
    c->coll = &views[0];
    view_setup(c->coll, size, rank, remote_size, world, c->ctx + 1);
    if (remote_size > 0) {
        c->lcoll = &views[1];
        view_setup(c->lcoll, size, rank, 0, lworld, c->ctx + 1);
    }
    if (parent && rt__bsend_comm_set_session(c, rt__bsend_comm_session(parent))) {
        rt__obj_release(&c->obj); /* its destructor frees what it holds */
        return NULL;
    }
    return c;
}

/* Gives c (from rt__comm_new_pending) context id `id`, taken from the free ids. */
void rt__comm_set_ctx(rt_comm *c, int id)
{
    ctx_take(id);
    c->ctx = 2 * id;
    c->owns_ctx = 1;
    c->coll->ctx = c->ctx + 1;
    if (c->lcoll)
        c->lcoll->ctx = c->ctx + 1;
}

/* Gives back c's context id and frees its maps, views, topology, hints and buffer record. */
void rt__comm_free_parts(rt_comm *c)
{
    if (c->owns_ctx)
        ctx_give(c->ctx / 2);
    c->owns_ctx = 0;
    free(c->world);
    free(c->lworld);
    free(c->coll); /* one block with lcoll */
    c->world = c->lworld = NULL;
    c->coll = c->lcoll = NULL;
    rt__topo_hooks.free(c->topo);
    c->topo = NULL;
    rt__obj_release((rt_obj *)c->info);
    c->info = NULL;
    rt__bsend_comm_gone(c);
    rt__coll_shm_free(c);
}

/* A new info object with src's keys (src NULL: empty). */
rt_info *rt__info_copy(const rt_info *src)
{
    rt_info *info = (rt_info *)rt__obj_new(RT_CLASS_INFO);
    if (!info)
        return NULL;
    for (int i = 0; src && i < src->n; i++)
        if (rt__info_put(info, src->ent[i].key, src->ent[i].val) != RT_SUCCESS) {
            rt__obj_release(&info->obj);
            return NULL;
        }
    return info;
}

/* Raises RT_ERR_COMM naming fn when comm is an inter-communicator. */
int rt__comm_check_intra(rt_comm *comm, const char *fn, const char *arg)
{
    if (comm->remote_size == 0)
        return RT_SUCCESS;
    return rt_raise(&comm->obj, RT_ERR_COMM, fn, "invalid communicator '%s': an inter-communicator, where an intra-communicator is required", arg);
}

/* The world ranks of comm's local group (a new array), NULL when out of memory. */
static int *local_ranks(const rt_comm *comm)
{
    int *w = malloc(sizeof *w * (size_t)(comm->size > 0 ? comm->size : 1));
    for (int r = 0; w && r < comm->size; r++)
        w[r] = rt__comm_local_world(comm, r);
    return w;
}

/* The world ranks of comm's remote group (a new array), NULL when out of memory. */
static int *remote_ranks(const rt_comm *comm)
{
    int n = comm->remote_size > 0 ? comm->remote_size : comm->size;
    int *w = malloc(sizeof *w * (size_t)(n > 0 ? n : 1));
    for (int r = 0; w && r < n; r++)
        w[r] = rt__comm_world_rank(comm, r);
    return w;
}

/* Raises the failure of an internal step of a creation call. */
static int failed(rt_comm *comm, int err, const char *fn)
{
    if (err == RT_ERR_NO_MEM)
        return rt_raise(&comm->obj, err, fn, "out of memory");
    return rt_raise(&comm->obj, err, fn, "the members could not agree (internal communication failed: %s)",
            rt__class_string(err));
}

static int out_of_ids(rt_comm *comm, const char *fn)
{
    return rt_raise(&comm->obj, RT_ERR_OTHER, fn,
                    "out of context ids: all %d communicators this process may share are in use", RT__CTX_IDS - 2);
}

/* ------------------------------------------------------------ dup */

/* Duplicates comm (intra or inter) with its topology; hints from info (copied). */
static int dup_common(rt_comm *comm, const rt_info *info, rt_comm **newcomm, const char *fn)
{
    rt_comm *nc = NULL;
    int err, id;
    if (comm->remote_size > 0) {
        err = rt__inter_dup(comm, &nc);
        if (err == RT__NO_IDS)
            return out_of_ids(comm, fn);
    } else {
        err = rt__ctx_agree(comm, &id);
        if (!err && id < 0)
            return out_of_ids(comm, fn);
        if (!err) {
            int *w = local_ranks(comm);
            nc = w ? rt__comm_new(comm, id, comm->size, comm->rank, w, 0, NULL) : NULL;
            if (!nc)
                err = RT_ERR_NO_MEM;
        }
    }
    if (err)
        return failed(comm, err, fn);
    int ok = 1;
    nc->topo = rt__topo_hooks.dup(comm->topo, &ok);
    if (ok && info && info->n > 0 && !(nc->info = rt__info_copy(info)))
        ok = 0;
    if (!ok) {
        rt__obj_release(&nc->obj);
        return failed(comm, RT_ERR_NO_MEM, fn);
    }
    if ((err = rt__attrs_copy(&comm->obj, &nc->obj, fn)) != RT_SUCCESS) { /* caching: copy callbacks */
        rt__obj_release(&nc->obj);
        return err;
    }
    *newcomm = nc;
    return RT_SUCCESS;
}

/* MPI_Comm_dup: same group(s), topology and hints, a new context. */
int rt_Comm_dup(rt_comm *comm, rt_comm **newcomm)
{
    return dup_common(comm, comm->info, newcomm, __func__);
}

/* MPI_Comm_dup_with_info: like MPI_Comm_dup, with the hints of info instead of comm's. */
int rt_Comm_dup_with_info(rt_comm *comm, rt_info *info, rt_comm **newcomm)
{
    return dup_common(comm, info, newcomm, __func__);
}

/* ------------------------------------------------------------ split */

struct ck {
    int color, key, rank;
};

static int by_key(const void *a, const void *b)
{
    const struct ck *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return (x->rank > y->rank) - (x->rank < y->rank);
}

/* The members of one color of a split, ordered by key then rank (see comm.h). */
int rt__split_members(const int *ck, int n, int color, const int *world, int me, int **out, int *count,
                      int *pos)
{
    struct ck *v = malloc(sizeof *v * (size_t)(n > 0 ? n : 1));
    int *w = malloc(sizeof *w * (size_t)(n > 0 ? n : 1));
    if (!v || !w) {
        free(v);
        free(w);
        return RT_ERR_NO_MEM;
    }
    int k = 0;
    for (int r = 0; r < n; r++)
        if (ck[2 * r] == color)
            v[k++] = (struct ck){color, ck[2 * r + 1], r};
    qsort(v, (size_t)k, sizeof *v, by_key);
    *pos = -1;
    for (int i = 0; i < k; i++) {
        w[i] = world[v[i].rank];
        if (v[i].rank == me)
            *pos = i;
    }
    free(v);
    *out = w;
    *count = k;
    return RT_SUCCESS;
}

/* Splits intra-communicator comm by color (RT_UNDEFINED: no new communicator) and key. */
static int split_intra(rt_comm *comm, int color, int key, rt_comm **newcomm, const char *fn)
{
    int id, err = rt__ctx_agree(comm, &id);
    if (err)
        return failed(comm, err, fn);
    int *ck = malloc(sizeof *ck * 2 * (size_t)comm->size), mine[2] = {color, key};
    if (!ck)
        return failed(comm, RT_ERR_NO_MEM, fn);
    rt__team t = rt__team_of(comm);
    err = rt__coll_allgather(&t, mine, ck, sizeof mine);
    if (err) {
        free(ck);
        return failed(comm, err, fn);
    }
    if (id < 0) {
        free(ck);
        return out_of_ids(comm, fn);
    }
    *newcomm = NULL;
    if (color == RT_UNDEFINED) {
        free(ck);
        return RT_SUCCESS;
    }
    int *lw = local_ranks(comm), *w = NULL, n = 0, pos = -1;
    err = lw ? rt__split_members(ck, comm->size, color, lw, comm->rank, &w, &n, &pos) : RT_ERR_NO_MEM;
    free(ck);
    free(lw);
    if (err)
        return failed(comm, err, fn);
    *newcomm = rt__comm_new(comm, id, n, pos, w, 0, NULL);
    return *newcomm ? RT_SUCCESS : failed(comm, RT_ERR_NO_MEM, fn);
}

/* MPI_Comm_split: one new communicator per color (RT_UNDEFINED: MPI_COMM_NULL), ranks
 * ordered by key, then by rank in comm. Inter-communicators split both groups. Negative
 * colors other than MPI_UNDEFINED: RT_ERR_ARG. */
int rt_Comm_split(rt_comm *comm, int color, int key, rt_comm **newcomm)
{
    if (color < 0 && color != RT_UNDEFINED)
        return RT_ERR(comm, RT_ERR_ARG, "invalid argument 'color' = %d: must be >= 0 or MPI_UNDEFINED", color);
    if (comm->remote_size == 0)
        return split_intra(comm, color, key, newcomm, __func__);
    int err = rt__inter_split(comm, color, key, newcomm);
    if (err == RT__NO_IDS)
        return out_of_ids(comm, __func__);
    return err ? failed(comm, err, __func__) : RT_SUCCESS;
}

/* ------------------------------------------------------------ split_type */

int rt__node_color(rt_comm *comm, int *color, int *all)
{
    int node = rt__node_of(rt__comm_world_rank(comm, comm->rank));

    *color = -1;
    *all = 1;
    for (int r = 0; r < comm->size; r++) {
        int same = rt__node_of(rt__comm_world_rank(comm, r)) == node;
        if (same && *color < 0)
            *color = r;
        if (!same)
            *all = 0;
    }
    return RT_SUCCESS;
}

/* The value of key in info (NULL: absent). */
static const char *info_get(const rt_info *info, const char *key)
{
    for (int i = 0; info && i < info->n; i++)
        if (strcmp(info->ent[i].key, key) == 0)
            return info->ent[i].val;
    return NULL;
}

/* MPI_Comm_split_type. RT_COMM_TYPE_SHARED: the processes of each node.
 * RT_COMM_TYPE_HW_GUIDED and RT_COMM_TYPE_RESOURCE_GUIDED: the resource named by info key
 * "mpi_hw_resource_type"; only "mpi_shared_memory" (= a node) is known, anything else (or
 * no key) gives MPI_COMM_NULL. RT_COMM_TYPE_HW_UNGUIDED: the node when that is a strict
 * subset of comm, else MPI_COMM_NULL (no finer level is known). RT_UNDEFINED:
 * MPI_COMM_NULL. RT_X_COMM_TYPE_NEIGHBORHOOD (MPICH's MPIX_COMM_TYPE_NEIGHBORHOOD): as MPICH,
 * MPI_COMM_NULL unless info has "nbhd_common_dirname"; with it, the processes of each node
 * (those certainly sharing that directory; MPICH also joins nodes that share its file system).
 * The new communicator's hints carry "mpi_hw_resource_type". Inter-communicators:
 * RT_ERR_COMM; unknown split_type: RT_ERR_ARG. */
int rt_Comm_split_type(rt_comm *comm, int split_type, int key, rt_info *info, rt_comm **newcomm)
{
    int err;
    if ((err = rt__comm_check_intra(comm, __func__, "comm")) != RT_SUCCESS)
        return err;
    int node = 0; /* 1: split by node */
    switch (split_type) {
    case RT_UNDEFINED:
        break;
    case RT_COMM_TYPE_SHARED:
    case RT_COMM_TYPE_HW_UNGUIDED:
        node = 1;
        break;
    case RT_X_COMM_TYPE_NEIGHBORHOOD:
        node = info_get(info, "nbhd_common_dirname") != NULL;
        break;
    case RT_COMM_TYPE_HW_GUIDED:
    case RT_COMM_TYPE_RESOURCE_GUIDED: {
        const char *v = info_get(info, "mpi_hw_resource_type");
        node = v && strcmp(v, "mpi_shared_memory") == 0;
        break;
    }
    default:
        return RT_ERR(comm, RT_ERR_ARG, "invalid argument 'split_type': not a split type");
    }
    int color = RT_UNDEFINED, all = 0;
    /* every process takes part in the host exchange, even with RT_UNDEFINED */
    if ((err = rt__node_color(comm, &color, &all)) != RT_SUCCESS)
        return failed(comm, err, __func__);
    if (!node || (split_type == RT_COMM_TYPE_HW_UNGUIDED && all))
        color = RT_UNDEFINED;
    if ((err = split_intra(comm, color, key, newcomm, __func__)) != RT_SUCCESS || !*newcomm)
        return err;
    if (split_type != RT_COMM_TYPE_SHARED) {
        rt_comm *nc = *newcomm;
        if (!(nc->info = rt__info_copy(NULL)) ||
            rt__info_put(nc->info, "mpi_hw_resource_type", "mpi_shared_memory") != RT_SUCCESS) {
            rt__obj_release(&nc->obj);
            *newcomm = NULL;
            return failed(comm, RT_ERR_NO_MEM, __func__);
        }
    }
    return RT_SUCCESS;
}

/* ------------------------------------------------------------ create, create_group */

/* Checks that every process of group is in comm's local group (else raises RT_ERR_GROUP);
 * *crank (a new array, if crank) = their ranks in comm. */
static int check_subgroup(rt_comm *comm, const rt_group *group, int **crank, const char *fn)
{
    int *lw = local_ranks(comm), *inv = lw ? rt__ranks_inverse(comm->size, lw) : NULL;
    int *cr = malloc(sizeof *cr * (size_t)(group->size + 1)), err = RT_SUCCESS;
    free(lw);
    if (!inv || !cr) {
        free(inv);
        free(cr);
        return failed(comm, RT_ERR_NO_MEM, fn);
    }
    for (int i = 0; i < group->size && !err; i++) {
        int w = group->ranks[i];
        cr[i] = w >= 0 && w < rt__g.world.size ? inv[w] : -1;
        if (cr[i] < 0)
            err = rt_raise(&comm->obj, RT_ERR_GROUP, fn,
                           "invalid group 'group': its rank %d is not a process of the communicator", i);
    }
    free(inv);
    if (err || !crank)
        free(cr);
    else
        *crank = cr;
    return err;
}

/* MPI_Comm_create: the processes of group (a subgroup of comm's; disjoint groups may be
 * given by different processes, as for a split) get a new communicator ordered as the
 * group; the others MPI_COMM_NULL. On an inter-communicator, group is a subgroup of the
 * local group and the result an inter-communicator. Not a subgroup: RT_ERR_GROUP. */
int rt_Comm_create(rt_comm *comm, rt_group *group, rt_comm **newcomm)
{
    int err = check_subgroup(comm, group, NULL, __func__);
    if (err)
        return err;
    if (comm->remote_size > 0) {
        err = rt__inter_create(comm, group, newcomm);
        if (err == RT__NO_IDS)
            return out_of_ids(comm, __func__);
        return err ? failed(comm, err, __func__) : RT_SUCCESS;
    }
    int id;
    if ((err = rt__ctx_agree(comm, &id)) != RT_SUCCESS)
        return failed(comm, err, __func__);
    if (id < 0)
        return out_of_ids(comm, __func__);
    *newcomm = NULL;
    if (group->obj.builtin || group->rank == RT_UNDEFINED)
        return RT_SUCCESS;
    int *w = malloc(sizeof *w * (size_t)group->size);
    if (w)
        memcpy(w, group->ranks, sizeof *w * (size_t)group->size);
    *newcomm = w ? rt__comm_new(comm, id, group->size, group->rank, w, 0, NULL) : NULL;
    return *newcomm ? RT_SUCCESS : failed(comm, RT_ERR_NO_MEM, __func__);
}

/* MPI_Comm_create_group: collective over the processes of group only (a subgroup of comm's),
 * which agree on a context over comm's collective context with `tag`. Processes outside
 * group get MPI_COMM_NULL at once. Inter-communicators: RT_ERR_COMM; not a subgroup:
 * RT_ERR_GROUP. */
int rt_Comm_create_group(rt_comm *comm, rt_group *group, int tag, rt_comm **newcomm)
{
    int err;
    if ((err = rt__comm_check_intra(comm, __func__, "comm")) != RT_SUCCESS)
        return err;
    *newcomm = NULL;
    int *crank = NULL;
    if ((err = check_subgroup(comm, group, &crank, __func__)) != RT_SUCCESS)
        return err;
    int *w = malloc(sizeof *w * (size_t)(group->size + 1));
    if (!w || group->obj.builtin || group->rank == RT_UNDEFINED) {
        free(crank);
        free(w);
        return w ? RT_SUCCESS : failed(comm, RT_ERR_NO_MEM, __func__);
    }
    memcpy(w, group->ranks, sizeof *w * (size_t)group->size);
    rt__team t = {.cc = comm->coll, .n = group->size, .me = group->rank, .rank = crank, .tag = tag};
    uint32_t mask[RT__CTX_WORDS], claim[RT__CTX_WORDS];
    rt__ctx_offer((uint64_t)(uint32_t)comm->ctx << 32 | (uint32_t)tag, mask, claim);
    err = rt__coll_allreduce(&t, mask, sizeof mask, rt__op_band);
    free(crank);
    int id = err ? -1 : rt__ctx_lowest(mask);
    rt__ctx_settle(claim, id);
    if (err || id < 0) {
        free(w);
        return err ? failed(comm, err, __func__) : out_of_ids(comm, __func__);
    }
    *newcomm = rt__comm_new(comm, id, group->size, group->rank, w, 0, NULL);
    return *newcomm ? RT_SUCCESS : failed(comm, RT_ERR_NO_MEM, __func__);
}

/* ------------------------------------------------------------ free, compare, group, info */

/* MPI_Comm_free: drops the user's reference (operations still pending keep the
 * communicator alive until they complete); *comm becomes MPI_COMM_NULL. The predefined
 * communicators: RT_ERR_COMM. */
int rt_Comm_free(rt_comm **comm)
{
    rt_comm *c = *comm;
    if (c->obj.builtin)
        return RT_ERR(c, RT_ERR_COMM, "invalid communicator 'comm': a predefined communicator (%s) cannot be freed",
                      c->name);
    int err = rt__attrs_delete_all(&c->obj, __func__); /* caching: delete callbacks, newest first */
    if (err)
        return err;
    rt__obj_release(&c->obj);
    *comm = NULL;
    return RT_SUCCESS;
}

/* MPI_Comm_compare: RT_IDENT (the same communicator), RT_CONGRUENT (same groups, same
 * order), RT_SIMILAR (same members) or RT_UNEQUAL; inter-communicators compare both groups;
 * an intra- and an inter-communicator are RT_UNEQUAL. */
int rt_Comm_compare(rt_comm *comm1, rt_comm *comm2, int *result)
{
    if (comm1 == comm2) {
        *result = RT_IDENT;
        return RT_SUCCESS;
    }
    if ((comm1->remote_size > 0) != (comm2->remote_size > 0)) {
        *result = RT_UNEQUAL;
        return RT_SUCCESS;
    }
    int inter = comm1->remote_size > 0;
    int *a = local_ranks(comm1), *b = local_ranks(comm2);
    int *ra = inter ? remote_ranks(comm1) : NULL, *rb = inter ? remote_ranks(comm2) : NULL;
    int res = RT_ERR_NO_MEM;
    if (a && b && (!inter || (ra && rb))) {
        res = rt__ranks_compare(comm1->size, a, comm2->size, b);
        int rem = inter ? rt__ranks_compare(comm1->remote_size, ra, comm2->remote_size, rb) : RT_IDENT;
        if (res == RT_UNEQUAL || rem == RT_UNEQUAL)
            res = RT_UNEQUAL;
        else if (res == RT_SIMILAR || rem == RT_SIMILAR)
            res = RT_SIMILAR;
    }
    free(a);
    free(b);
    free(ra);
    free(rb);
    if (res == RT_ERR_NO_MEM)
        return failed(comm1, RT_ERR_NO_MEM, __func__);
    *result = res == RT_IDENT ? RT_CONGRUENT : res;
    return RT_SUCCESS;
}

/* MPI_Comm_group: a new group of comm's local group. */
int rt_Comm_group(rt_comm *comm, rt_group **group)
{
    int *w = local_ranks(comm);
    rt_group *g = w ? rt__group_adopt(comm->size, w) : NULL;
    if (!g)
        return failed(comm, RT_ERR_NO_MEM, __func__);
    rt_session *s = rt__bsend_comm_session(comm);
    if (s && !g->obj.builtin && !g->session) { /* the group derives from comm's session */
        g->session = s;
        rt__obj_retain(&s->obj);
    }
    *group = g;
    return RT_SUCCESS;
}

/* MPI_Comm_remote_group: a new group of an inter-communicator's remote group.
 * Intra-communicators: RT_ERR_COMM. */
int rt_Comm_remote_group(rt_comm *comm, rt_group **group)
{
    if (comm->remote_size == 0)
        return RT_ERR(comm, RT_ERR_COMM, "invalid communicator 'comm': not an inter-communicator");
    int *w = remote_ranks(comm);
    rt_group *g = w ? rt__group_adopt(comm->remote_size, w) : NULL;
    if (!g)
        return failed(comm, RT_ERR_NO_MEM, __func__);
    *group = g;
    return RT_SUCCESS;
}

/* MPI_Comm_set_info: the keys of info replace or add to comm's hints (all are kept: the
 * hints the standard defines for communicators are assertions Switchyard may ignore). */
int rt_Comm_set_info(rt_comm *comm, rt_info *info)
{
    if (!info || info->n == 0)
        return RT_SUCCESS;
    if (!comm->info && !(comm->info = rt__info_copy(NULL)))
        return failed(comm, RT_ERR_NO_MEM, __func__);
    for (int i = 0; i < info->n; i++)
        if (rt__info_put(comm->info, info->ent[i].key, info->ent[i].val) != RT_SUCCESS)
            return failed(comm, RT_ERR_NO_MEM, __func__);
    return RT_SUCCESS;
}

/* MPI_Comm_get_info: a new info object with comm's hints. */
int rt_Comm_get_info(rt_comm *comm, rt_info **info_used)
{
    rt_info *info = rt__info_copy(comm->info);
    if (!info)
        return failed(comm, RT_ERR_NO_MEM, __func__);
    *info_used = info;
    return RT_SUCCESS;
}
