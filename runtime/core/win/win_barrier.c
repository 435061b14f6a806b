/* win_barrier.c — MPI_Win_fence on a direct window: a counter barrier in the window's shared
 * segment (after the control words), waited for by spinning, yielding, then sleeping on a futex. */
#define _GNU_SOURCE
#include "win_rma.h"
#include "p2p/p2p.h"

#include <limits.h>
#include <linux/futex.h>
#include <sched.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* arrived: members in the current barrier; gen: barriers completed (a futex word, the
 * segment is shared between processes); sleepers: members asleep on gen. */
struct bar {
    uint32_t arrived;
    char pad0[60];
    uint32_t gen;
    uint32_t sleepers;
    char pad1[56];
};
_Static_assert(sizeof(struct bar) <= RT__WIN_BAR_BYTES, "the barrier fits its place");

static struct bar *bar_of(const rt_win *w)
{
    return (struct bar *)(w->ctl + w->ctl_stride * (size_t)w->comm->size);
}

static long futex(uint32_t *word, int op, uint32_t val, const struct timespec *ts)
{
    return syscall(SYS_futex, word, op, val, ts, NULL, 0);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The first member of w's group whose process has failed, or -1; about once a second asks
 * the transports to look at every member (one may have died without a word). */
static int member_failed(const rt_win *w, double *watch_at)
{
    double t = now();
    if (*watch_at == 0) {
        *watch_at = t + 1;
    } else if (t >= *watch_at) {
        *watch_at = t + 1;
        for (int r = 0; r < w->comm->size; r++)
            if (r != w->comm->rank)
                rt__watch_peer(rt__comm_world_rank(w->comm, r));
        rt__progress();
    }
    return rt__failures() ? rt__failed_peer(w->comm, RT_ANY_SOURCE) : -1;
}

/* Sleeps on b->gen while it is g, at most 1 ms (then the caller progresses and looks at the
 * members again). sleepers and gen pair with rt__win_direct_barrier's last arrival, both
 * sequentially consistent: either it sees us asleep and wakes us, or FUTEX_WAIT sees its gen. */
static void sleep_on(struct bar *b, uint32_t g)
{
    struct timespec ts = {0, 1000000};
    __atomic_fetch_add(&b->sleepers, 1, __ATOMIC_SEQ_CST);
    if (__atomic_load_n(&b->gen, __ATOMIC_SEQ_CST) == g)
        futex(&b->gen, FUTEX_WAIT, g, &ts);
    __atomic_fetch_sub(&b->sleepers, 1, __ATOMIC_RELAXED);
}

int rt__win_direct_barrier(rt_win *w, const char *fn)
{
    struct bar *b = bar_of(w);
    int n = w->comm->size;
    uint32_t g = __atomic_load_n(&b->gen, __ATOMIC_ACQUIRE);
    /* the last to arrive resets the count, then opens the next generation (release: a member
     * that sees the new gen sees arrived at 0 and every store made before the barrier) */
    if (__atomic_add_fetch(&b->arrived, 1, __ATOMIC_ACQ_REL) == (uint32_t)n) {
        __atomic_store_n(&b->arrived, 0, __ATOMIC_RELAXED);
        __atomic_store_n(&b->gen, g + 1, __ATOMIC_SEQ_CST);
        if (__atomic_load_n(&b->sleepers, __ATOMIC_SEQ_CST))
            futex(&b->gen, FUTEX_WAKE, INT_MAX, NULL);
        return RT_SUCCESS;
    }
    double watch_at = 0;
    for (unsigned idle = 0; __atomic_load_n(&b->gen, __ATOMIC_ACQUIRE) == g;) {
        if (rt__progress() > 0) { /* others may wait for this process meanwhile */
            idle = 0;
            continue;
        }
        idle++;
        if (idle % 64 == 0) {
            int dead = member_failed(w, &watch_at);
            if (dead >= 0)
                return rt__rma_failed(w, RT_X_ERR_PROC_FAILED, dead, fn);
        }
        int paused = rt__big_pause(); /* MPI_THREAD_MULTIPLE: other threads go on */
        if (idle < 16) {
#if defined(__x86_64__) || defined(__i386__)
            __builtin_ia32_pause();
#endif
        } else if (idle < 16 + 16) {
            sched_yield();
        } else {
            sleep_on(b, g);
        }
        rt__big_resume(paused);
    }
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    return RT_SUCCESS;
}
