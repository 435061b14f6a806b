/* win_direct.c — one-sided operations done by the origin alone: loads and stores on a window
 * whose memory every member maps (win_shm.c; locks are words there), and large puts and gets
 * by cross-memory attach on MPI_Win_create's. Neither needs messages nor the target. */
#define _GNU_SOURCE
#include "win_rma.h"
#include "coll/coll.h"
#include "p2p/p2p.h"
#include "type/type.h"

#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/statvfs.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

/* The control words of one rank's memory, in the shared segment after the parts. lock: the
 * shared holders (low 32 bits), EXCL while an exclusive holder has it, and WAITER times the
 * exclusive requests waiting (a shared request waits behind them, as the message path's
 * queue makes it). acc: 1 + the rank applying an accumulate there, or 0. broken: 1 + a rank
 * that failed holding or awaiting a lock there, which is then granted no more. holds[r]: what
 * rank r has of the lock (1 shared, 2 exclusive, 3 awaiting exclusive). */
struct ctl {
    uint64_t lock;
    uint32_t acc;
    int32_t broken;
    unsigned char holds[];
};
#define EXCL (1ull << 32)
#define WAITER (1ull << 33)

size_t rt__win_ctl_stride(int n)
{
    return (sizeof(struct ctl) + (size_t)n + 63) / 64 * 64;
}

static struct ctl *ctl_of(const rt_win *w, int rank)
{
    return (struct ctl *)(w->ctl + w->ctl_stride * (size_t)rank);
}


/* Whether /dev/shm has room for MPI_Win_allocate's parts (each on its pages) with half of it
 * to spare: else the memory is private, and operations messages. */
static int room_for(const rt_win *w)
{
    struct statvfs fs;
    double need = 0;
    for (int r = 0; r < w->comm->size; r++)
        need += (double)((w->peers[r].size + 4095) / 4096 * 4096);
    return statvfs("/dev/shm", &fs) == 0 && 2 * need <= (double)fs.f_bavail * (double)fs.f_frsize;
}

int rt__win_direct_agree(rt_win *w, int *err)
{
    const char *e = getenv("SWITCHYARD_RMA_DIRECT");
    int ok = !(e && strcmp(e, "0") == 0) && w->align <= 4096 && (w->flavor != RT_WIN_FLAVOR_ALLOCATE || room_for(w));
    for (int r = 0; ok && r < w->comm->size; r++)
        ok = rt__peer_shares_memory(rt__comm_world_rank(w->comm, r));
    return rt__all_ok(w->comm, ok, err);
}

/* Whether rank's process has failed (looked up only after some process did). */
static int target_failed(const rt_win *w, int rank)
{
    return rt__failures() && rt__failed_peer(w->comm, rank) >= 0;
}

static void relax(unsigned idle)
{
    if (idle < 64) {
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
    } else if (idle < 64 + 256)
        sched_yield();
    else
        nanosleep(&(struct timespec){0, 50000}, NULL);
}

/* The rank that failed holding or awaiting the lock of rank's memory, or -1. */
static int lock_broken(const rt_win *w, int rank)
{
    struct ctl *c = ctl_of(w, rank);
    int b = __atomic_load_n(&c->broken, __ATOMIC_ACQUIRE);
    if (b && rt__failed_peer(w->comm, b - 1) < 0) { /* another process saw it die: see it too */
        rt__watch_peer(rt__comm_world_rank(w->comm, b - 1));
        rt__progress();
    }
    if (b || !rt__failures())
        return b - 1;
    for (int r = 0; r < w->comm->size; r++)
        if (__atomic_load_n(&c->holds[r], __ATOMIC_RELAXED) && rt__failed_peer(w->comm, r) >= 0) {
            __atomic_store_n(&c->broken, r + 1, __ATOMIC_RELEASE);
            return r;
        }
    return -1;
}

static int try_lock(struct ctl *c, int type)
{
    uint64_t v = __atomic_load_n(&c->lock, __ATOMIC_RELAXED);
    if (type == RT_LOCK_SHARED)
        return !(v & EXCL) && v < WAITER &&
               __atomic_compare_exchange_n(&c->lock, &v, v + 1, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
    return (v & (EXCL | 0xffffffffu)) == 0 &&
           __atomic_compare_exchange_n(&c->lock, &v, (v - WAITER) | EXCL, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

/* Asks the transports to look at the processes holding rank's lock, and rank's own. */
static void watch_holders(const rt_win *w, int rank)
{
    struct ctl *c = ctl_of(w, rank);
    rt__watch_peer(rt__comm_world_rank(w->comm, rank));
    for (int r = 0; r < w->comm->size; r++)
        if (__atomic_load_n(&c->holds[r], __ATOMIC_RELAXED))
            rt__watch_peer(rt__comm_world_rank(w->comm, r));
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int lock_wait(rt_win *w, int rank, int type, int *answer, const char *fn);

int rt__win_direct_lock(rt_win *w, int rank, int type, int *answer, const char *fn)
{
    struct ctl *c = ctl_of(w, rank);
    int me = w->comm->rank;
    if (__builtin_expect(!rt__failures() && !__atomic_load_n(&c->broken, __ATOMIC_ACQUIRE), 1)) {
        /* no failure known, the lock not broken: a free lock is one compare-and-swap (an
         * exclusive request counts itself a waiter only when it must wait) */
        if (type == RT_LOCK_EXCLUSIVE) {
            uint64_t v = 0;
            __atomic_store_n(&c->holds[me], 2, __ATOMIC_RELAXED); /* before the lock: seen if this process dies */
            if (__atomic_compare_exchange_n(&c->lock, &v, EXCL, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
                *answer = 1;
                return RT_SUCCESS;
            }
        } else if (try_lock(c, type)) {
            __atomic_store_n(&c->holds[me], 1, __ATOMIC_RELAXED);
            *answer = 1;
            return RT_SUCCESS;
        }
    }
    return lock_wait(w, rank, type, answer, fn);
}

/* rt__win_direct_lock when the lock is not free at once (or a failure is known). */
static __attribute__((noinline)) int lock_wait(rt_win *w, int rank, int type, int *answer, const char *fn)
{
    struct ctl *c = ctl_of(w, rank);
    int me = w->comm->rank, dead;
    if (target_failed(w, rank))
        return rt__rma_failed(w, RT_X_ERR_PROC_FAILED, rank, fn);
    if ((dead = lock_broken(w, rank)) >= 0) {
        *answer = -1 - dead;
        return RT_SUCCESS;
    }
    if (type == RT_LOCK_EXCLUSIVE) {
        __atomic_store_n(&c->holds[me], 3, __ATOMIC_RELAXED);
        __atomic_fetch_add(&c->lock, WAITER, __ATOMIC_RELAXED);
    }
    double watch_at = 0;
    for (unsigned idle = 0; !try_lock(c, type);) {
        if (rt__progress() > 0) { /* others may wait for this process meanwhile */
            idle = 0;
            continue;
        }
        if (++idle % 256 == 0) { /* about once a second, make sure a dead holder is seen */
            double t = now();
            if (watch_at == 0)
                watch_at = t + 1;
            else if (t >= watch_at)
                watch_holders(w, rank), watch_at = t + 1;
            if (target_failed(w, rank) || (dead = lock_broken(w, rank)) >= 0) {
                __atomic_store_n(&c->holds[me], 0, __ATOMIC_RELAXED);
                if (target_failed(w, rank))
                    return rt__rma_failed(w, RT_X_ERR_PROC_FAILED, rank, fn);
                *answer = -1 - dead;
                return RT_SUCCESS;
            }
        }
        int paused = rt__big_pause(); /* MPI_THREAD_MULTIPLE: other threads go on */
        relax(idle);
        rt__big_resume(paused);
    }
    __atomic_store_n(&c->holds[me], type == RT_LOCK_EXCLUSIVE ? 2 : 1, __ATOMIC_RELAXED);
    *answer = 1;
    return RT_SUCCESS;
}

void rt__win_direct_unlock(rt_win *w, int rank, int type)
{
    struct ctl *c = ctl_of(w, rank);
    __atomic_store_n(&c->holds[w->comm->rank], 0, __ATOMIC_RELAXED);
    if (type == RT_LOCK_EXCLUSIVE)
        __atomic_fetch_and(&c->lock, ~EXCL, __ATOMIC_RELEASE);
    else
        __atomic_fetch_sub(&c->lock, 1, __ATOMIC_RELEASE);
}

/* Takes the accumulate lock of rank's memory; -1 when its holder failed (its process died
 * inside an accumulate: what it wrote there may be half done). */
static __attribute__((noinline)) int acc_lock(const rt_win *w, int rank)
{
    struct ctl *c = ctl_of(w, rank);
    uint32_t me = (uint32_t)w->comm->rank + 1;
    for (unsigned idle = 0;; idle++) {
        uint32_t free_ = 0;
        if (__atomic_compare_exchange_n(&c->acc, &free_, me, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
            return 0;
        if (idle % 4096 == 4095) { /* held long: is its holder alive? */
            rt__watch_peer(rt__comm_world_rank(w->comm, (int)free_ - 1));
            if (target_failed(w, (int)free_ - 1))
                return -1;
        }
        relax(idle < 64 ? idle : 64 + idle % 256); /* held briefly: never sleep */
    }
}

int rt__win_direct_op(rt_win *w, int rank, const char *msg, void *rbuf, rt_type *rtype, const char *fn)
{
    if (target_failed(w, rank))
        return rt__rma_failed(w, RT_X_ERR_PROC_FAILED, rank, fn);
    struct rma_hdr h;
    int64_t total = rt__rma_msg_bytes(msg, &h);
    char small[256], *old = NULL;
    if (rtype) /* the target's bytes before the operation, packed */
        old = rt__type_contig(rtype) ? rbuf : total <= (int64_t)sizeof small ? small : malloc((size_t)total);
    if (rtype && !old)
        return RT_ERR(w, RT_ERR_NO_MEM, "out of memory");
    int atomic = h.kind != RMA_PUT && h.kind != RMA_GET, err;
    if (atomic && acc_lock(w, rank) < 0) {
        if (old != rbuf && old != small)
            free(old);
        return rt_raise(&w->obj, RT_X_ERR_PROC_FAILED, fn,
                        "a process of the window failed inside an accumulate at rank %d", rank);
    }
    struct rma_mem m = {rt__win_direct_at(w, rank, 0), 0, rank};
    err = rt__rma_apply_to(w, &m, msg, w->comm->rank, old, fn);
    if (atomic)
        __atomic_store_n(&ctl_of(w, rank)->acc, 0, __ATOMIC_RELEASE);
    if (!err && old != rbuf && old)
        rt__type_unpack(rtype, old, total, rbuf);
    if (old != rbuf && old != small)
        free(old);
    return err;
}

int rt__win_direct_copy(rt_win *w, int rank, int64_t off, void *buf, int64_t len, int put, const char *fn)
{
    if (target_failed(w, rank))
        return rt__rma_failed(w, RT_X_ERR_PROC_FAILED, rank, fn);
    char *at = rt__win_direct_at(w, rank, off);
    if (put)
        rt__win_copy(at, buf, (size_t)len);
    else
        rt__win_copy(buf, at, (size_t)len);
    return RT_SUCCESS;
}

static const char cma_probe = 1; /* what a peer reads to learn whether cross-memory attach works */

int rt__win_cma_setup(rt_win *w, const char *fn)
{
    int n = w->comm->size, me = w->comm->rank, right = (me + 1) % n, err;
    const char *off = getenv("SWITCHYARD_SHM_NOCMA");
    if (!rt__win_direct_agree(w, &err))
        return err ? rt_raise(&w->comm->obj, err, fn, "the members could not agree (internal communication failed: %s)",
                              rt__class_string(err))
                   : RT_SUCCESS;
    struct who { int64_t pid; uint64_t base, probe; } mine = {getpid(), (uintptr_t)w->base, (uintptr_t)&cma_probe};
    struct who *all = malloc(sizeof *all * (size_t)n);
    if (!all)
        return rt_raise(&w->comm->obj, RT_ERR_NO_MEM, fn, "out of memory for the window");
    rt__team t = rt__team_of(w->comm);
    if ((err = rt__coll_allgather(&t, &mine, all, sizeof mine)) != RT_SUCCESS) {
        free(all);
        return rt_raise(&w->comm->obj, err, fn, "the members could not agree (internal communication failed: %s)",
                        rt__class_string(err));
    }
    char got = 0; /* can this process read its right neighbour's memory? */
    struct iovec l = {&got, 1}, r = {(void *)(uintptr_t)all[right].probe, 1};
    int ok = !(off && strcmp(off, "1") == 0) &&
             (right == me || (process_vm_readv((pid_t)all[right].pid, &l, 1, &r, 1, 0) == 1 && got == 1));
    if (ok && !(w->cma = malloc(sizeof *w->cma * (size_t)n)))
        ok = 0;
    for (int i = 0; ok && i < n; i++)
        w->cma[i] = (struct rt__win_cma){(int)all[i].pid, (char *)(uintptr_t)all[i].base};
    free(all);
    if (!rt__all_ok(w->comm, ok, &err) || err) {
        free(w->cma);
        w->cma = NULL;
        if (err)
            return rt_raise(&w->comm->obj, err, fn, "the members could not agree (internal communication failed: %s)",
                            rt__class_string(err));
    }
    return RT_SUCCESS;
}

int rt__win_cma_min(void)
{
    static int min = -1; /* set once; two threads may both set it, to the same value */
    if (min < 0) {
        const char *v = getenv("SWITCHYARD_RMA_CMA_MIN");
        min = v && *v ? atoi(v) : 16384;
        if (min < 0)
            min = 0;
    }
    return min;
}

/* *at += *in for one element of the predefined type id, when it is one of the common
 * integer types (summed in the unsigned type of its size: wraps, as op.c does) or double:
 * 1, else 0 (rt__op_apply does it). */
static int sum_one(char *at, const void *in, int id)
{
#define SUM_AS(T)                                                                                  \
    do {                                                                                           \
        T a_, b_;                                                                                  \
        memcpy(&a_, at, sizeof a_);                                                                \
        memcpy(&b_, in, sizeof b_);                                                                \
        a_ += b_;                                                                                  \
        memcpy(at, &a_, sizeof a_);                                                                \
        return 1;                                                                                  \
    } while (0)
    switch (id) {
    case RT_B_INT: case RT_B_UNSIGNED: SUM_AS(unsigned);
    case RT_B_LONG: case RT_B_UNSIGNED_LONG: SUM_AS(unsigned long);
    case RT_B_LONG_LONG: case RT_B_UNSIGNED_LONG_LONG: SUM_AS(unsigned long long);
    case RT_B_INT32_T: case RT_B_UINT32_T: SUM_AS(uint32_t);
    case RT_B_INT64_T: case RT_B_UINT64_T: SUM_AS(uint64_t);
    case RT_B_DOUBLE: SUM_AS(double);
    default: return 0;
    }
#undef SUM_AS
}

/* The general combine of rt__win_direct_acc (at: the target's bytes, under the accumulate
 * lock; swap: a compare-and-swap's comparison held): an error class, or RT_SUCCESS. */
static __attribute__((noinline)) int combine(char *at, const void *in, const void *cmp, int swap, int64_t bytes,
                                              rt_op *op, rt_type *basic)
{
    if (cmp) {
        if (swap)
            memcpy(at, in, (size_t)bytes);
    } else if (in && op->obj.index == RT_B_REPLACE)
        rt__copy(at, in, (size_t)bytes);
    else if (in && op->obj.index != RT_B_NO_OP)
        return rt__op_apply(op, in, at, bytes == basic->size ? 1 : bytes / basic->size, basic);
    return RT_SUCCESS;
}

/* rt__win_direct_acc's errors (cold): rank's failure, a failure inside another's accumulate,
 * err from the combine. */
static __attribute__((noinline, cold)) int acc_error(rt_win *w, int rank, int err, const char *fn)
{
    if (err == RT_X_ERR_PROC_FAILED)
        return rt_raise(&w->obj, RT_X_ERR_PROC_FAILED, fn,
                        "a process of the window failed inside an accumulate at rank %d", rank);
    if (err)
        return RT_ERR(w, err, "out of memory");
    return rt__rma_failed(w, RT_X_ERR_PROC_FAILED, rank, fn);
}

int rt__win_direct_acc(rt_win *w, int rank, int64_t off, const void *in, const void *cmp, void *result,
                       int64_t bytes, rt_op *op, rt_type *basic, const char *fn)
{
    if (target_failed(w, rank))
        return acc_error(w, rank, RT_SUCCESS, fn);
    char *at = rt__win_direct_at(w, rank, off);
    struct ctl *c = ctl_of(w, rank);
    uint32_t free_ = 0;
    if (!__atomic_compare_exchange_n(&c->acc, &free_, (uint32_t)w->comm->rank + 1, 0, __ATOMIC_ACQUIRE,
                                     __ATOMIC_RELAXED) && acc_lock(w, rank) < 0)
        return acc_error(w, rank, RT_X_ERR_PROC_FAILED, fn);
    int err = RT_SUCCESS;
    int swap = cmp && memcmp(at, cmp, (size_t)bytes) == 0; /* bit for bit, as the message path */
    if (result)
        rt__win_copy(result, at, (size_t)bytes);
    if (cmp || !in || bytes != basic->size || op->obj.index != RT_B_SUM || !sum_one(at, in, basic->obj.index))
        err = combine(at, in, cmp, swap, bytes, op, basic); /* else one element summed here (a counter) */
    __atomic_store_n(&c->acc, 0, __ATOMIC_RELEASE);
    return err ? acc_error(w, rank, err, fn) : RT_SUCCESS;
}
