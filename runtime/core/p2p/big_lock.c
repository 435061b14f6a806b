/* big_lock.c — the library's lock (rt.h, rt_enter): a recursive mutex, biased towards the
 * thread that asked for MPI_THREAD_MULTIPLE until another thread takes it (docs/internals.md). */
#define _GNU_SOURCE /* syscall */
#include "p2p.h"

#include <linux/membarrier.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define TLS __thread __attribute__((tls_model("initial-exec")))

static pthread_mutex_t big = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
static int held;            /* how many times the holder of `big` holds it (the holder's) */

/* The bias: while `bias` is 1, the biased thread (bias_mine) enters with two plain stores and a
 * load (bias_in = 1, then bias still 1?) instead of the mutex's atomic read-modify-writes. Any
 * other thread, once it holds the mutex, ends the bias for good: bias = 0, then membarrier(2)
 * makes every running thread of the process execute a full memory barrier, so either the
 * biased thread's bias_in = 1 is now visible (the other waits until it is 0 again) or that
 * thread will see bias = 0 and take the mutex (the asymmetric Dekker argument). */
static int bias;             /* 1: the bias holds (atomic; only ever goes 1 -> 0 after init) */
static int bias_in;          /* the biased thread is inside through the bias (atomic) */
static TLS int bias_mine;    /* this thread is the biased one */
static TLS int bias_levels;  /* the biased thread's levels taken through the bias */

static void make_big(void)
{
    pthread_mutexattr_t a;
    pthread_mutexattr_init(&a);
    pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&big, &a);
    pthread_mutexattr_destroy(&a);
}

static long membarrier(int cmd)
{
    return syscall(__NR_membarrier, cmd, 0, 0);
}

void rt__big_bias_here(void)
{
    const char *e = getenv("SWITCHYARD_LOCK_BIAS");
    int off = e && (e[0] == '0' || e[0] == 'n' || e[0] == 'f');
#ifdef __SANITIZE_THREAD__
    off = 1; /* ThreadSanitizer cannot see membarrier's barriers */
#endif
    if (off || __atomic_load_n(&bias, __ATOMIC_SEQ_CST))
        return;
    if (membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED) != 0)
        return; /* no membarrier (an old kernel, a seccomp filter): the mutex alone */
    bias_mine = 1;
    __atomic_store_n(&bias, 1, __ATOMIC_SEQ_CST);
}

/* Called by a holder of `big` before it touches what the lock guards: ends the bias (once, for
 * every later holder) and waits until the biased thread is out; wait = 0: returns 0 at once
 * instead if it is still in. */
static int unbias(int wait)
{
    if (__atomic_load_n(&bias, __ATOMIC_SEQ_CST)) {
        __atomic_store_n(&bias, 0, __ATOMIC_SEQ_CST);
        if (membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) != 0)
            rt__fatal("membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) failed after registration");
    }
    for (unsigned n = 0; __atomic_load_n(&bias_in, __ATOMIC_ACQUIRE); n++) {
        if (!wait)
            return 0;
        if (n < 64)
            sched_yield();
        else
            nanosleep(&(struct timespec){0, 50000}, NULL);
    }
    return 1;
}

void rt__big_lock(void)
{
    if (bias_mine) {
        if (bias_levels) { /* inside already: the bias holds until we leave */
            bias_levels++;
            return;
        }
        __atomic_store_n(&bias_in, 1, __ATOMIC_RELAXED);
        __atomic_signal_fence(__ATOMIC_SEQ_CST); /* the other side's membarrier does the rest */
        if (__builtin_expect(__atomic_load_n(&bias, __ATOMIC_RELAXED), 1)) {
            bias_levels = 1;
            return;
        }
        __atomic_store_n(&bias_in, 0, __ATOMIC_RELEASE); /* ended: the mutex from now on */
        bias_mine = 0;
    }
    pthread_mutex_lock(&big);
    if (held++ == 0)
        unbias(1);
}

void rt__big_unlock(void)
{
    if (bias_levels) {
        if (--bias_levels == 0)
            __atomic_store_n(&bias_in, 0, __ATOMIC_RELEASE);
        return;
    }
    held--;
    pthread_mutex_unlock(&big);
}

int rt__big_trylock(void)
{
    if (pthread_mutex_trylock(&big) != 0)
        return 0;
    if (held == 0 && !unbias(0)) {
        pthread_mutex_unlock(&big);
        return 0;
    }
    held++;
    return 1;
}

int rt__big_release(void)
{
    int n = bias_levels;
    if (n) { /* only when another thread asks: else waits go as at the other levels */
        if (__atomic_load_n(&bias, __ATOMIC_RELAXED))
            return 0;
        bias_levels = 0;
        __atomic_store_n(&bias_in, 0, __ATOMIC_RELEASE);
        return n;
    }
    n = held;
    held = 0;
    for (int i = 0; i < n; i++)
        pthread_mutex_unlock(&big);
    return n;
}

void rt__big_resume(int n)
{
    for (int i = 0; i < n; i++)
        rt__big_lock();
}

void rt__big_fork_prepare(void)
{
    pthread_mutex_lock(&big);
    if (!bias_mine) /* the biased thread may be inside: wait for it to leave */
        unbias(1);
}

void rt__big_fork_parent(void)
{
    pthread_mutex_unlock(&big);
}

/* In the child only the forking thread lives: a new mutex, held as many times as the forking
 * thread held the lock, and no bias (its registration with membarrier is the parent's). */
void rt__big_fork_child(void)
{
    int n = held + bias_levels;
    make_big();
    bias_levels = bias_mine = bias = bias_in = 0;
    for (int i = 0; i < n; i++)
        pthread_mutex_lock(&big);
    held = n;
}
