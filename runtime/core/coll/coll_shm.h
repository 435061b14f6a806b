/* coll_shm.h — the region a communicator's processes on one node share for their collectives
 * (coll_shm.c: making it, posting and waiting) and the steps the collectives take through it. */
#ifndef RT_COLL_SHM_H
#define RT_COLL_SHM_H

#include "coll.h"

/* The collectives through a region are steps numbered alike on every member (they call the
 * same collectives in the same order, and a collective takes a number of steps every member
 * derives from data every member sees). Step q uses line lane q % LANES, one header line per
 * rank, and data lane q % DATA_LANES, cs->slot bytes per rank (a reduction's contributions; a
 * broadcast's chunk takes the lane's whole data). A rank posts step q by setting its header
 * line's seq to q, after its writes of step q and once it has finished reading every step
 * before q: so a rank that has seen every member post q - LANES + 1 may write its line of step
 * q (the readers of step q - LANES, its last use, are done), and q - DATA_LANES + 1 its data.
 * A broadcast's root runs up to LANES - 1 steps ahead of the slowest receiver (DATA_LANES - 1
 * when the data do not fit in its line). */
#define LANES 64
#define DATA_LANES 4
#define INLINE_MAX 232   /* data bytes a header line carries itself (40 in its first cache line) */
#define SLOT_MIN 1024    /* data bytes of a rank's slot: SLOT_BYTES / size in these bounds */
#define SLOT_MAX 16384
#define SLOT_BYTES 65536

/* A rank's header line in a lane: a futex word and what a step tells the others. */
struct rt__coll_line {
    uint32_t seq;      /* the last step this rank posted in this lane */
    uint32_t sleepers; /* processes asleep on seq */
    int64_t total;     /* the bytes of the contribution, or of the root's broadcast */
    int64_t mode;      /* a collective's own use (a broadcast: its data go as messages) */
    char data[INLINE_MAX];
};

_Static_assert(sizeof(struct rt__coll_line) == 256, "a header line is four cache lines");

/* A communicator's region (comm->cshm). all: the last step whose posts by every member this
 * process has seen; seq: the last step this process began. */
struct rt__coll_shm {
    struct rt__coll_line *lines; /* LANES * size lines */
    char *data;                  /* DATA_LANES * size slots */
    size_t slot, bytes;
    uint32_t seq, all;
};

/* comm->cshm when the region cannot be used (not one node, disabled, or its making failed). */
#define RT__COLL_SHM_OFF ((struct rt__coll_shm *)1)

/* Rank r's header line in step q's lane. */
static inline struct rt__coll_line *rt__coll_line(const struct rt__coll_shm *cs, int size, uint32_t q, int r)
{
    return &cs->lines[(size_t)(q % LANES) * (size_t)size + (size_t)r];
}

/* Rank r's data slot in step q's lane (a broadcast's chunk: rank 0's, the whole lane). */
static inline char *rt__coll_slot(const struct rt__coll_shm *cs, int size, uint32_t q, int r)
{
    return cs->data + ((size_t)(q % DATA_LANES) * (size_t)size + (size_t)r) * cs->slot;
}

/* Makes comm's region (collective: every member calls it in the same collective). Sets
 * comm->cshm to the region, or to RT__COLL_SHM_OFF on every member where it cannot be used. */
void rt__coll_shm_make(rt_comm *comm);
/* Posts step q of this process (its writes of the step are seen by whoever sees the post). */
void rt__coll_shm_post(rt_comm *comm, uint32_t q);
/* Waits until rank r has posted step q, progressing meanwhile. Returns -1, or the rank of comm
 * that failed. */
int rt__coll_shm_wait(rt_comm *comm, int r, uint32_t q);
/* Waits until every member has posted step q. Returns -1, or the rank of comm that failed. */
int rt__coll_shm_wait_all(rt_comm *comm, uint32_t q);

#endif
