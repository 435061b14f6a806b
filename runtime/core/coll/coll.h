/* coll.h — the collective part's contract: schedules (coll_sched.c) that the algorithms build
 * and the progress engine runs, the builders, and the arguments every collective takes. */
#ifndef RT_COLL_H
#define RT_COLL_H

#include "type/type.h"
#include "p2p/p2p.h"

/* A schedule: rounds of steps. A round starts all its sends and receives at once; when they
 * are complete its local steps (reductions, copies) run in order, then the next round
 * starts. A schedule is built once and may run many times (persistent collectives). */
typedef struct rt__sched rt__sched;

/* Everything a collective procedure passes; each uses the fields its signature has. */
typedef struct rt__coll_args {
    const void *sbuf;       /* RT_IN_PLACE where the user passed MPI_IN_PLACE */
    void *rbuf;
    rt_count scount, rcount;
    rt_type *stype, *rtype;
    rt_counts scounts, sdispls, rcounts, rdispls;
    const rt_aint *sdispls_a, *rdispls_a;  /* neighbour alltoallw: byte displacements */
    rt_handle_array stypes, rtypes;        /* alltoallw */
    rt_op *op;
    int root;
    int varies;             /* a v or w collective: counts and types differ by process */
} rt__coll_args;

/* A builder: appends the steps of one collective on comm to s (arguments checked). Returns
 * RT_SUCCESS or an error code (raised, naming fn). */
typedef int (*rt__coll_build_fn)(rt__sched *s, rt_comm *comm, const rt__coll_args *a, const char *fn);

enum rt__coll_mode { RT__COLL_BLOCKING, RT__COLL_NONBLOCKING, RT__COLL_PERSISTENT };

/* Runs a collective: builds its schedule with build, then (blocking) runs it to completion,
 * (nonblocking) starts it and returns it in *req, or (persistent) returns it inactive in
 * *req. Returns RT_SUCCESS or the error code (raised on comm, naming fn). */
int rt__coll_run(rt_comm *comm, rt__coll_build_fn build, const rt__coll_args *a, int mode, rt_request **req,
                 const char *fn);

/* Runs a blocking barrier, broadcast or reduction to all (of a type whose elements are one run
 * of bytes) through comm's shared region (coll_shm.c) when its processes share a node, every
 * such call whatever its size: returns 1 with *err = RT_SUCCESS or the error code (raised on comm, naming fn), or 0
 * when the collective must run as messages (the same answer on every member).
 * SWITCHYARD_COLL_SHM=0 turns it off. */
int rt__coll_shm_run(rt_comm *comm, rt__coll_build_fn build, const rt__coll_args *a, const char *fn, int *err);
/* Unmaps comm's region (when comm goes). */
void rt__coll_shm_free(rt_comm *comm);
/* What the waits on memory shared between the processes of a node share (coll_shm.c):
 * the first member of comm whose process has failed, or -1; about once a second (watch_at:
 * the caller's clock, 0 at first) it asks the transports to look at every member (one may
 * have died without a word). */
int rt__coll_member_failed(rt_comm *comm, double *watch_at);
/* Sleeps while *word is val, at most ns nanoseconds (a futex shared between processes). */
void rt__futex_wait(uint32_t *word, uint32_t val, long ns);
/* Wakes every process asleep on word. */
void rt__futex_wake(uint32_t *word);
/* A new /dev/shm segment's name: the job id (mpiexec sweeps /dev/shm by it after a crash),
 * `what` (win, coll), this process's pid and a counter. */
void rt__shm_segment_name(char *buf, size_t len, const char *what);

/* With SWITCHYARD_COLL_CHECK=1, on an intra-communicator: an allreduce in which the processes
 * agree that each accepted its arguments (local_err: this one's error code, or 0) and called
 * the same procedure (fn) with the same root (rooted collectives), op and type signature of the
 * data all exchange alike (not a v or w collective's); every process calls it once per
 * collective, whether its own checks passed or not. Returns local_err, else (raised) RT_ERR_OTHER
 * (another refused, or called another collective), RT_ERR_ROOT, RT_ERR_OP, RT_ERR_TYPE or
 * RT_ERR_COUNT when the processes disagree, else RT_SUCCESS. Without the setting it returns
 * local_err. */
int rt__coll_agree(rt_comm *comm, rt__coll_build_fn build, const rt__coll_args *a, int local_err, const char *fn);

/* The checks every collective shares (inter-communicators, MPI_IN_PLACE in the wrong place,
 * uncommitted datatypes), then rt__coll_run. */
int rt__coll_call(rt_comm *comm, rt__coll_build_fn build, const rt__coll_args *a, int mode, rt_request **req,
                  const char *fn);

/* The three forms of collective Name (nonblocking IName) with parameter list P (a macro),
 * building with `build` from the rt__coll_args initializer that follows, through
 * COLLECTIVE_CALL: rt__coll_call, unless a file redefines it (before its COLLECTIVE lines) to
 * a wrapper with more checks and the same signature. */
#define COLLECTIVE_CALL rt__coll_call
#define COLLECTIVE(Name, IName, P, build, ...)                                                                 \
    int rt_##Name(P)                                                                                           \
    {                                                                                                          \
        const rt__coll_args a = {__VA_ARGS__};                                                                 \
        return COLLECTIVE_CALL(comm, build, &a, RT__COLL_BLOCKING, NULL, "MPI_" #Name);                        \
    }                                                                                                          \
    int rt_##IName(P, rt_request **request)                                                                    \
    {                                                                                                          \
        const rt__coll_args a = {__VA_ARGS__};                                                                 \
        return COLLECTIVE_CALL(comm, build, &a, RT__COLL_NONBLOCKING, request, "MPI_" #IName);                 \
    }                                                                                                          \
    int rt_##Name##_init(P, rt_info *info, rt_request **request)                                               \
    {                                                                                                          \
        (void)info;                                                                                            \
        const rt__coll_args a = {__VA_ARGS__};                                                                 \
        return COLLECTIVE_CALL(comm, build, &a, RT__COLL_PERSISTENT, request, "MPI_" #Name "_init");           \
    }

/* Parameter lists (P_) and argument initializers (A_) shared by several collectives. */
#define P_ALLGATHER                                                                                            \
    const void *sendbuf, rt_count sendcount, rt_type *sendtype, void *recvbuf, rt_count recvcount,             \
        rt_type *recvtype, rt_comm *comm
#define A_ALLGATHER                                                                                            \
    .sbuf = sendbuf, .scount = sendcount, .stype = sendtype, .rbuf = recvbuf, .rcount = recvcount,             \
    .rtype = recvtype
#define P_ALLGATHERV                                                                                           \
    const void *sendbuf, rt_count sendcount, rt_type *sendtype, void *recvbuf, rt_counts recvcounts,           \
        rt_counts displs, rt_type *recvtype, rt_comm *comm
#define A_ALLGATHERV                                                                                           \
    .sbuf = sendbuf, .scount = sendcount, .stype = sendtype, .rbuf = recvbuf, .rcounts = recvcounts,           \
    .rdispls = displs, .rtype = recvtype, .varies = 1
#define P_ALLTOALLV                                                                                            \
    const void *sendbuf, rt_counts sendcounts, rt_counts sdispls, rt_type *sendtype, void *recvbuf,            \
        rt_counts recvcounts, rt_counts rdispls, rt_type *recvtype, rt_comm *comm
#define A_ALLTOALLV                                                                                            \
    .sbuf = sendbuf, .scounts = sendcounts, .sdispls = sdispls, .stype = sendtype, .rbuf = recvbuf,            \
    .rcounts = recvcounts, .rdispls = rdispls, .rtype = recvtype, .varies = 1

/* ---- building a schedule (coll_sched.c). Each returns RT_SUCCESS or RT_ERR_NO_MEM. */

/* Ends the current round (a no-op if it is empty). */
int rt__sched_round(rt__sched *s);
/* A send of count elements of type at buf to rank peer of this process's group (remote = 0:
 * the communicator's group, or the local group of an inter-communicator) or of the remote
 * group of an inter-communicator (remote = 1). */
int rt__sched_send(rt__sched *s, const void *buf, rt_count count, rt_type *type, int peer, int remote);
/* A receive of count elements of type into buf from rank peer (as rt__sched_send). */
int rt__sched_recv(rt__sched *s, void *buf, rt_count count, rt_type *type, int peer, int remote);
/* A local step: inout = in op inout over count elements of type (after the round's transfers). */
int rt__sched_reduce(rt__sched *s, const void *in, void *inout, rt_count count, rt_type *type, rt_op *op);
/* A local step: copies scount elements of stype at src into dcount elements of dtype at dst
 * (the same type signature; dst may be smaller: the copy stops at its end). */
int rt__sched_copy(rt__sched *s, const void *src, rt_count scount, rt_type *stype, void *dst, rt_count dcount,
                   rt_type *dtype);
/* A local step: calls fn(arg) (after the round's transfers, in order with the other local
 * steps); a non-zero return (an RT_ERR_* class) fails the collective. */
int rt__sched_call(rt__sched *s, int (*fn)(void *arg), void *arg);
/* Scratch memory owned by the schedule for count elements of type, laid out as type says:
 * returns the address of element 0 (its true lower bound may be below it); NULL when out
 * of memory. */
void *rt__sched_buffer(rt__sched *s, rt_count count, rt_type *type);

/* ---- the engine (coll_sched.c) */

/* Advances every running collective; returns how many steps it completed. Called by
 * rt__progress. */
int rt__coll_progress(void);

/* Raises err on comm for collective fn, naming the rank of comm whose transfer failed (peer),
 * unless peer < 0 (for RT_X_ERR_PROC_FAILED: whether that rank failed, or sent data that depend
 * on a failed process), or saying what schedule s (NULL: unknown) found wrong, such as a type
 * signature that differs from the sender's; returns the error code. */
int rt__coll_error(rt_comm *comm, int err, int peer, const rt__sched *s, const char *fn);
/* Starts persistent collective request r (inactive). RT_SUCCESS or an error class. */
int rt__coll_start(rt_request *r);
/* Frees r's schedule (request destructor). */
void rt__coll_destroy(rt_request *r);

/* ---- argument checks shared by the builders (coll_sched.c) */

/* RT_SUCCESS if the n counts of c are >= 0; else raises RT_ERR_COUNT naming fn and arg. */
int rt__coll_check_counts(rt_comm *comm, rt_counts c, int n, const char *fn, const char *arg);
/* Raises RT_ERR_BUFFER: MPI_IN_PLACE passed as arg where it is not allowed. */
int rt__coll_bad_in_place(rt_comm *comm, const char *fn, const char *arg);

/* ---- the schedule builders of every collective (coll_algo.c, coll_reduce.c, coll_inter.c,
 * topo/topo_neighbor.c) and the helpers they share */

/* Element i of a buffer of type t (i extents from buf). */
void *rt__coll_at(const void *buf, rt_count i, const rt_type *t);
/* The n datatypes of handle array h, decoded and checked (committed, not null): a malloc'd
 * array, or NULL with *err set (raised, naming fn and arg). */
rt_type **rt__coll_types(rt_comm *comm, rt_handle_array h, int n, const char *fn, const char *arg, int *err);
/* Binomial broadcast of count elements of type at buf among n ranks of comm's collective view
 * (me among them), from root. */
int rt__bcast_tree(rt__sched *s, int n, int me, void *buf, rt_count count, rt_type *type, int root);
/* Binomial reduction of count elements of type over the ranks of this process's group (of
 * comm) to rank root (result in res there, res unused elsewhere), combined in rank order;
 * in = this rank's operand. */
int rt__reduce_tree(rt__sched *s, rt_comm *comm, const void *in, void *res, rt_count count, rt_type *type,
                    rt_op *op, int root);
/* The builder for inter-communicators that does what intra-communicator builder b does, or
 * NULL if there is none (coll_inter.c). */
rt__coll_build_fn rt__coll_inter_builder(rt__coll_build_fn b);

/* Builders (rt__coll_build_fn). Each reads the fields of rt__coll_args its procedure has;
 * a v-variant is recognised by its count arrays (rcounts.p / scounts.p non-NULL). */
int rt__build_barrier(rt__sched *s, rt_comm *comm, const rt__coll_args *a, const char *fn);
int rt__build_bcast(rt__sched *s, rt_comm *comm, const rt__coll_args *a, const char *fn);
int rt__build_gather(rt__sched *s, rt_comm *comm, const rt__coll_args *a, const char *fn);
int rt__build_scatter(rt__sched *s, rt_comm *comm, const rt__coll_args *a, const char *fn);
int rt__build_allgather(rt__sched *s, rt_comm *comm, const rt__coll_args *a, const char *fn);
int rt__build_alltoall(rt__sched *s, rt_comm *comm, const rt__coll_args *a, const char *fn);
int rt__build_reduce(rt__sched *s, rt_comm *comm, const rt__coll_args *a, const char *fn);
int rt__build_allreduce(rt__sched *s, rt_comm *comm, const rt__coll_args *a, const char *fn);
int rt__build_reduce_scatter(rt__sched *s, rt_comm *comm, const rt__coll_args *a, const char *fn);
int rt__build_scan(rt__sched *s, rt_comm *comm, const rt__coll_args *a, const char *fn);
int rt__build_exscan(rt__sched *s, rt_comm *comm, const rt__coll_args *a, const char *fn);

/* ------------------------------------------------------------ internal collectives
 * (coll_internal.c): communicator management talks over a communicator's collective context
 * (ctx + 1) through the internal views comm->coll / comm->lcoll, with reserved tags. */

#define RT__TAG_COLL (-1000)   /* internal collectives over a (local) group */
#define RT__TAG_INTER (-1001)  /* leader-to-leader traffic across an inter-communicator */
/* Tags <= RT__TAG_RESERVED on a collective context belong to communicator management;
 * Comm_create_group and Intercomm_create use the user's (non-negative) tag there. */
#define RT__TAG_RESERVED (-1000)
/* Collective schedules (coll_sched.c) use the tags from RT__TAG_SCHED down: two per
 * collective started on the communicator (own group, remote group), never a tag above. */
#define RT__TAG_SCHED (-2048)

/* The participants of an internal collective: n processes of view cc. */
typedef struct rt__team {
    rt_comm *cc;        /* an internal view: comm->coll (intra) or comm->lcoll (inter) */
    int n, me;          /* number of participants, this process's index among them */
    const int *rank;    /* rank[i]: participant i's rank in cc; NULL: i itself */
    int tag;
} rt__team;

/* The team of all of comm's local group on its collective context (tag RT__TAG_COLL). */
rt__team rt__team_of(rt_comm *comm);
/* Combines `bytes` bytes at in into inout (an allreduce operation). */
typedef void (*rt__reduce_fn)(void *inout, const void *in, size_t bytes);
/* Bitwise AND of 32-bit words. */
void rt__op_band(void *inout, const void *in, size_t bytes);
/* The internal collectives. Each returns RT_SUCCESS or an error class (nothing raised). */
int rt__coll_barrier(const rt__team *t);
int rt__coll_bcast(const rt__team *t, void *buf, size_t bytes, int root);
int rt__coll_allreduce(const rt__team *t, void *buf, size_t bytes, rt__reduce_fn op);
/* all (t->n * bytes) = every participant's `bytes` bytes at mine, in participant order. */
int rt__coll_allgather(const rt__team *t, const void *mine, void *all, size_t bytes);
/* all = the concatenation of bytes[i] bytes from each participant i (bytes known to all). */
int rt__coll_allgatherv(const rt__team *t, const void *mine, void *all, const size_t *bytes);
/* Sends sbytes at sbuf to rank peer of view cc and receives exactly rbytes from it. */
int rt__coll_exchange(rt_comm *cc, int peer, int tag, const void *sbuf, size_t sbytes, void *rbuf,
                      size_t rbytes);

#endif
