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

/* Requests of one-sided operations not complete yet (win_rma.c): sends of operations or
 * replies, receives of replies; buf[i] (owned, may be NULL) is freed when req[i] completes. */
struct rt__win_ops {
    struct rt__win_op {
        rt_request *req;
        void *buf;
    } *v;
    int n, cap;
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
    int direct;                      /* operations are loads and stores (win_direct.c) */
    char *ctl;                       /* direct: each rank's lock words (win_direct.c) */
    size_t ctl_stride;
    struct rt__win_cma { int pid; char *base; } *cma; /* MPI_Win_create on one node: each rank's
                                                           process and memory (win_direct.c) */
    struct rt__win_region *attached; /* dynamic windows */
    int nattached;
    rt_info *info;                   /* the hints in force (owned; win_info.c) */
    int no_locks;                    /* the no_locks hint: no passive-target epochs */
    int noncontig;                   /* the alloc_shared_noncontig hint */
    size_t align;                    /* MPI_Win_allocate(_shared): the memory's alignment */
    char name[RT_MAX_OBJECT_NAME];
    struct rt__attrs attrs;          /* cached attributes (attr_list.c, win_attr.c) */
    /* one-sided operations (win_rma.c, win_target.c, win_sync.c) */
    int epoch;                       /* fences so far */
    int fence_open;                  /* a fence opened an access epoch */
    int *sent_to;                    /* operations sent to each rank in this epoch (comm->size) */
    struct rt__win_ops rma;          /* this process's operations, incomplete */
    unsigned reply_seq;              /* tags of replies */
    signed char *locked;             /* as origin: the lock held at each rank (0: none; 3: in the
                                        access epoch of MPI_Win_start; win_sync.c's held_type) */
    int nlocked;                     /* ranks with locked[r] != 0 */
    int lock_all;                    /* in an MPI_Win_lock_all epoch */
    /* passive target, as target */
    int excl;                        /* rank holding the exclusive lock, or -1 */
    int shared;                      /* shared locks held */
    signed char *holds;              /* the lock each rank holds here (1 shared, 2 exclusive) */
    int broken;                      /* 1 + a rank that failed holding a lock here: no more locks */
    struct rt__win_waiter *waiting, *waiting_tail; /* lock requests not granted yet, in order */
    struct rt__win_ops tgt;          /* replies in flight */
    rt_request *in;                  /* an operation message being received (large) */
    void *in_buf;
    int in_src;
    /* post/start/complete/wait */
    int *posts, *completes;          /* notices received from each rank, not consumed yet */
    int *exposed, nexposed;          /* as target: the origins of the exposure epoch (MPI_Win_post) */
    int *accessing, naccessing;      /* as origin: the targets of the access epoch (MPI_Win_start) */
    struct rt_win *next_win, *prev_win; /* the live windows (win_sync.c) */
};
/* Releases what a window holds (memory, mapping, communicator, hints, handler); may run
 * twice (MPI_Win_free, then the object's destructor). */
void rt__win_destroy(rt_obj *o);
/* Sets w->info to the window hints in force for a new window of w->flavor: info's valid
 * values, the standard's defaults for the others (unknown keys are dropped), and what they
 * decide (no_locks, align). RT_SUCCESS or RT_ERR_NO_MEM. */
int rt__win_hints_init(rt_win *w, const rt_info *info);
/* Maps w's shared segment: the members' parts (their sizes known; apart: each on pages of its
 * own, as alloc_shared_noncontig asks, else one after the other), then the control words of
 * direct operations (w->ctl), and sets w->base; raises on w->comm naming fn
 * (RT_ERR_RMA_SHARED when the processes are not all on one node). */
int rt__win_shm_map(rt_win *w, int apart, const char *fn);
void rt__win_shm_unmap(rt_win *w);
/* Once every process ended its epochs on w (MPI_Win_free's agreement): completes what w's
 * process still does as a target (a message half received, replies in flight). */
int rt__win_rma_settle(rt_win *w);
/* 1 when this process, as an origin, has no one-sided operation of w pending (none sent since
 * the last fence, no passive-target epoch open). */
int rt__win_rma_idle(const rt_win *w);
/* Whether w's operations may be loads and stores (win_direct.c): an agreement over w->comm,
 * 1 when every member shares memory with every other, SWITCHYARD_RMA_DIRECT is not 0, w->align
 * fits a page and (MPI_Win_allocate) /dev/shm has twice the room its parts need. *err: a
 * communication failure. */
int rt__win_direct_agree(rt_win *w, int *err);
/* MPI_Win_create on one node: when every member reaches every other's memory by cross-memory
 * attach (an agreement over w->comm, after w->base is set), sets w->cma. RT_SUCCESS (also
 * when not) or an error raised on w->comm naming fn. */
int rt__win_cma_setup(rt_win *w, const char *fn);
/* The smallest put or get done by cross-memory attach on such a window, in bytes
 * (SWITCHYARD_RMA_CMA_MIN, default 16384): below, a message costs less than the system call. */
int rt__win_cma_min(void);
/* The bytes of one rank's control words in a shared segment of n ranks (win_direct.c). */
size_t rt__win_ctl_stride(int n);
/* The bytes of the fence's barrier, after the n ranks' control words (win_barrier.c). */
#define RT__WIN_BAR_BYTES 128
/* One-sided state of a new window w (its comm set): RT_SUCCESS or RT_ERR_NO_MEM. */
int rt__win_rma_init(rt_win *w);
/* w is whole (memory, flavour): from now until rt__win_rma_fini (from its destructor) it
 * takes part in passive-target progress. Before, what other processes send it waits: they
 * may leave the creating call while this one is still inside it. */
void rt__win_rma_open(rt_win *w);
void rt__win_rma_fini(rt_win *w);
/* The engine's pass for the windows (rt__win_progress): applies what passive-target epochs
 * sent here; returns the messages handled. */
int rt__win_rma_progress(void);
/* 1 when every member of comm passed ok = 1 (an AND over comm; *err: a communication
 * failure). */
int rt__all_ok(rt_comm *comm, int ok, int *err);

#endif
