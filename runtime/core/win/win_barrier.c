/* win_barrier.c — MPI_Win_fence on a direct window: a counter barrier in the window's shared
 * segment (after the control words), waited for by spinning, yielding, then sleeping on a futex. */
#define _GNU_SOURCE
#include "win_rma.h"
#include "coll/coll.h"
#include "p2p/p2p.h"

#include <sched.h>

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

/* Sleeps on b->gen while it is g, at most 1 ms (then the caller progresses and looks at the
 * members again). sleepers and gen pair with rt__win_direct_barrier's last arrival, both
 * sequentially consistent: either it sees us asleep and wakes us, or FUTEX_WAIT sees its gen. */
static void sleep_on(struct bar *b, uint32_t g)
{
    __atomic_fetch_add(&b->sleepers, 1, __ATOMIC_SEQ_CST);
    if (__atomic_load_n(&b->gen, __ATOMIC_SEQ_CST) == g)
        rt__futex_wait(&b->gen, g, 1000000);
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
            rt__futex_wake(&b->gen);
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
            int dead = rt__coll_member_failed(w->comm, &watch_at);
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
