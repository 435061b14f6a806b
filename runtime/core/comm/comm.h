/* comm.h — the communicator part's contract: communicators (builtins, checks, destructor),
 * their creation (context ids, split, inter-communicators), and their predefined attributes. */
#ifndef RT_COMM_H
#define RT_COMM_H

#include "rt_internal.h"
#include "p2p/p2p.h"

/* struct rt_comm is in p2p/p2p.h: point-to-point, a part below this one, reads it. */

/* *color = a color shared by exactly the processes of comm on this node; *all = 1 when
 * that is every process (comm_create.c, from the node map: no communication). RT_SUCCESS. */
int rt__node_color(rt_comm *comm, int *color, int *all);

/* ------------------------------------------------------------ communicators (comm.c) */

/* Sets up MPI_COMM_WORLD / MPI_COMM_SELF (at load; sizes refreshed by rt__comm_init). */
void rt__comm_builtins_init(void);
/* At init: WORLD takes the size/rank of rt__g.world. */
void rt__comm_init(void);
/* At the start of MPI_Finalize: the attributes of MPI_COMM_SELF are deleted, newest first.
 * Returns what rt__attrs_delete_all returns. */
int rt__comm_attrs_finalize(void);
/* At finalize: WORLD and SELF drop user error handlers (back to MPI_ERRORS_ARE_FATAL). */
void rt__comm_finalize(void);
/* Destructor of user communicators (called by rt__obj_release). */
void rt__comm_destroy(rt_obj *o);
/* RT_SUCCESS if comm is a live communicator, else raises RT_ERR_COMM for fn. */
int rt__comm_check(const rt_comm *comm, const char *fn);

/* ------------------------------------------------------------ predefined attributes (comm_attr.c) */

/* The largest tag value (MPI_TAG_UB): 2^30 - 1. */
int rt__tag_ub(void);
/* At init: fills rt__g.attr from rt__g.world. */
void rt__attr_init(void);

/* ------------------------------------------------------------ communicator creation
 * (comm_create.c, comm_inter.c) */

/* Context ids are handed out in pairs: id i gives ctx 2i (point-to-point) and 2i + 1
 * (collective). WORLD has id 0, SELF id 1. Each process keeps a bitmap of its free ids;
 * the members of a new communicator agree on the lowest id free at all of them. */
#define RT__CTX_IDS 8192
#define RT__CTX_WORDS (RT__CTX_IDS / 32)
/* Claims for a nonblocking agreement: share (RT__CTX_WORDS words) = the free, unclaimed ids
 * of the half of all ids that seed selects (members pass the same seed); until
 * rt__ctx_release(share) no other agreement at this process offers them. */
void rt__ctx_claim(uint64_t seed, uint32_t *share);
void rt__ctx_release(const uint32_t *share);
/* The ids this process offers one blocking agreement (seed: the same at every member):
 * mask = the free ids no other agreement claims; claim = those it holds back from other
 * agreements until rt__ctx_settle. Under MPI_THREAD_MULTIPLE another thread's agreement may
 * run meanwhile (a waiting thread lets the others in), so the offer is rt__ctx_claim's share
 * for seed, claimed; otherwise nothing is claimed. */
void rt__ctx_offer(uint64_t seed, uint32_t *mask, uint32_t *claim);
/* Ends an agreement on id (-1: none): gives back claim but id, which stays held back until a
 * communicator takes it (rt__comm_new, rt__comm_set_ctx) or, if this process takes none, until
 * the calling thread's next agreement. */
void rt__ctx_settle(uint32_t *claim, int id);
/* The lowest id set in mask, or -1 when none is. */
int rt__ctx_lowest(const uint32_t *mask);
/* Agrees on a new id over the whole of comm (both groups of an inter-communicator):
 * *id = the lowest id free at every process, or -1 when there is none (the same answer
 * everywhere). Returns RT_SUCCESS or an error class. */
int rt__ctx_agree(rt_comm *comm, int *id);
/* A new communicator with context id `id` (taken from the free ids), error handler inherited
 * from parent (may be NULL: MPI_ERRORS_ARE_FATAL), local group size/rank, remote group
 * world ranks world[0..n) (owned; n = size for intra-communicators), and for
 * inter-communicators (remote_size > 0) the local group's world ranks lworld (owned).
 * NULL when out of memory (the arrays are freed). */
rt_comm *rt__comm_new(rt_comm *parent, int id, int size, int rank, int *world, int remote_size, int *lworld);
/* As rt__comm_new, with no context id yet (a placeholder no other communicator has):
 * rt__comm_set_ctx(c, id) gives it one (taken from the free ids). */
rt_comm *rt__comm_new_pending(rt_comm *parent, int size, int rank, int *world, int remote_size, int *lworld);
void rt__comm_set_ctx(rt_comm *c, int id);
/* Gives back comm's context id and frees what rt__comm_new allocated (comm.c's destructor). */
void rt__comm_free_parts(rt_comm *comm);
/* Sets up the internal views of a builtin communicator (at init). */
void rt__comm_views_init(rt_comm *comm, rt_comm *coll);
/* Copies src's hints into a new info object (src may be NULL: empty); NULL when out of
 * memory. */
rt_info *rt__info_copy(const rt_info *src);
/* RT_SUCCESS if comm is an intra-communicator; else raises RT_ERR_COMM naming fn. */
int rt__comm_check_intra(rt_comm *comm, const char *fn, const char *arg);

/* Of n (color, key) pairs ck[2r], ck[2r + 1] (r: rank in a group whose world ranks are
 * world[]), the world ranks of those with `color` ordered by key then r, into *out (a new
 * array); *count = how many, *pos = the place of r == me (-1: absent). RT_SUCCESS or
 * RT_ERR_NO_MEM. */
int rt__split_members(const int *ck, int n, int color, const int *world, int me, int **out, int *count,
                      int *pos);
/* Returned by the rt__inter_* creation helpers when no context id is free everywhere. */
#define RT__NO_IDS (-1)

/* Inter-communicators (comm_inter.c): the local leader (local rank 0) swaps `mbytes` bytes
 * with the remote leader, which the local group then receives in theirs (tbytes). */
int rt__inter_swap(rt_comm *inter, const void *mine, size_t mbytes, void *theirs, size_t tbytes);
/* MPI_Comm_dup / MPI_Comm_split / MPI_Comm_create on an inter-communicator; *newcomm may
 * be NULL (MPI_COMM_NULL). Return RT_SUCCESS, RT__NO_IDS or an error class (nothing
 * raised). */
int rt__inter_dup(rt_comm *comm, rt_comm **newcomm);
int rt__inter_split(rt_comm *comm, int color, int key, rt_comm **newcomm);
int rt__inter_create(rt_comm *comm, rt_group *group, rt_comm **newcomm);
/* What the topology part (above comm) does for the description a communicator carries
 * (rt_comm.topo), registered at load (init/load.c): dup, a deep copy (NULL: NULL; *ok = 0
 * when out of memory); free (NULL: nothing). */
struct rt__topo_hooks {
    struct rt__topo *(*dup)(const struct rt__topo *t, int *ok);
    void (*free)(struct rt__topo *t);
};
extern struct rt__topo_hooks rt__topo_hooks;

#endif
