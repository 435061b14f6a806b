/* win.h — the window part's contract: window objects (the memory each process exposes, its
 * shared-memory mapping, dynamic regions), their destructor, and the agreement they use. */
#ifndef RT_WIN_H
#define RT_WIN_H

#include "rt_internal.h"
#include "attr/attr.h"

/* A region attached to a dynamic window. */
struct rt__win_region {
    void *base;
    rt_aint size;
};

/* An operation of the current epoch not complete yet (win_rma.c): a send of an operation or a
 * reply, or the receive of a reply; buf (owned, may be NULL) is freed when it completes. */
struct rt__win_op {
    rt_request *req;
    void *buf;
};

/* An RMA window (win.c, win_shm.c, win_rma.c): its processes are those of `comm`, a private
 * dup of the creating communicator; peers[r] is what rank r exposed. */
struct rt_win {
    rt_obj obj;
    rt_errhandler *errh;
    rt_comm *comm;                   /* owned */
    int flavor;                      /* RT_WIN_FLAVOR_* */
    void *base;                      /* this process's memory (MPI_WIN_BASE) */
    rt_aint size, disp_unit;         /* this process's (MPI_WIN_SIZE, MPI_WIN_DISP_UNIT) */
    int disp_unit_int;               /* disp_unit as the int MPI_WIN_DISP_UNIT points to */
    struct { rt_aint size, disp_unit; } *peers; /* every rank's, by rank */
    void *mem;                       /* MPI_Win_allocate: the memory (owned) */
    void *shm;                       /* MPI_Win_allocate_shared: the whole mapping */
    size_t shm_bytes;
    rt_aint *shm_off;                /* rank r's part starts at shm + shm_off[r] */
    struct rt__win_region *attached; /* dynamic windows */
    int nattached;
    rt_info *info;                   /* hints (owned), or NULL */
    char name[RT_MAX_OBJECT_NAME];
    struct rt__attrs attrs;          /* cached attributes (attr_list.c, win_attr.c) */
    /* one-sided operations (win_rma.c) */
    int epoch;                       /* fences so far */
    int fence_open;                  /* a fence opened an access epoch */
    int *sent_to;                    /* operations sent to each rank in this epoch (comm->size) */
    struct rt__win_op *rma;          /* this epoch's incomplete operations */
    int nrma, caprma;
    unsigned reply_seq;              /* tags of replies */
};
/* Releases what a window holds (memory, mapping, communicator, hints, handler); may run
 * twice (MPI_Win_free, then the object's destructor). */
void rt__win_destroy(rt_obj *o);
/* Maps w's shared segment (the members' sizes known) and sets w->base; raises on
 * w->comm naming fn (RT_ERR_RMA_SHARED when the processes are not all on one node). */
int rt__win_shm_map(rt_win *w, const char *fn);
void rt__win_shm_unmap(rt_win *w);
/* 1 when no one-sided operation of w is pending (none sent since the last fence). */
int rt__win_rma_idle(const rt_win *w);
/* 1 when every member of comm passed ok = 1 (an AND over comm; *err: a communication
 * failure). */
int rt__all_ok(rt_comm *comm, int ok, int *err);

#endif
