/* big_lock.c — the library's lock (rt.h, rt_enter): a recursive futex lock that spins first, biased
 * towards the thread that asked for MPI_THREAD_MULTIPLE until another takes it (docs/internals.md). */
#define _GNU_SOURCE /* syscall */
#include "p2p.h"

#include <linux/futex.h>
#include <linux/membarrier.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define TLS __thread __attribute__((tls_model("initial-exec")))

/* The lock: one word taken by compare-and-swap (0 free, 1 taken, 2 taken and a thread may
 * sleep on it: Drepper's futex mutex); each thread counts the levels it holds (a thread-local),
 * which makes it recursive. A thread that finds it taken spins briefly and yields a while
 * before it sleeps in the kernel: waits inside the library give it back and take it again
 * after every idle pass (rt__big_pause), mostly to hand it over for a short while. */
static int word;            /* 0, 1 or 2 (atomic) */
static TLS int held;        /* how many times this thread holds it */

#ifdef RT_HELGRIND /* make check-helgrind: tell Helgrind what the word is */
#include <valgrind/helgrind.h>
#define HG_TAKEN() ANNOTATE_RWLOCK_ACQUIRED(&word, 1)
#define HG_GIVEN() ANNOTATE_RWLOCK_RELEASED(&word, 1)
__attribute__((constructor)) static void hg_create(void)
{
    ANNOTATE_RWLOCK_CREATE(&word);
}
#else
#define HG_TAKEN() ((void)0)
#define HG_GIVEN() ((void)0)
#endif

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

static int try_word(void)
{
    int free_ = 0;
    return __atomic_load_n(&word, __ATOMIC_RELAXED) == 0 &&
           __atomic_compare_exchange_n(&word, &free_, 1, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

static void futex(int op, int val)
{
    syscall(SYS_futex, &word, op | FUTEX_PRIVATE_FLAG, val, NULL, NULL, 0);
}

/* Takes the word for this thread: spins, yields, then sleeps until it is given back. */
static void acquire_word(void)
{
    for (unsigned n = 0; n < 64 + 512; n++) {
        if (try_word())
            return;
        if (n < 64)
            cpu_relax();
        else
            sched_yield();
    }
    while (__atomic_exchange_n(&word, 2, __ATOMIC_ACQUIRE) != 0) /* 2: the giver wakes one */
        futex(FUTEX_WAIT, 2);
}

/* n-th wait for the biased thread to leave: spin, then yield, then nap. */
static void backoff(unsigned n)
{
    if (n < 64)
        cpu_relax();
    else if (n < 64 + 20000)
        sched_yield();
    else
        nanosleep(&(struct timespec){0, 20000}, NULL);
}

/* Takes the word, or one more level of it: returns the levels now held. */
static int take_word(void)
{
    if (held)
        return ++held;
    acquire_word();
    HG_TAKEN();
    return held = 1;
}

/* Gives every level back. */
static void give_word(void)
{
    held = 0;
    HG_GIVEN();
    if (__atomic_exchange_n(&word, 0, __ATOMIC_RELEASE) == 2)
        futex(FUTEX_WAKE, 1);
}

/* The bias: while `rt__bias` is 1, the biased thread enters with two plain stores and a load
 * (rt__bias_in = 1, then rt__bias still 1?; inline in rt_enter) instead of the word's
 * compare-and-swap. Any other thread, once it holds the word, ends the bias for good: bias = 0,
 * then membarrier(2) makes every running thread of the process execute a full memory barrier,
 * so either the biased thread's bias_in = 1 is now visible (the other waits until it is 0
 * again) or that thread will see bias = 0 and take the word (the asymmetric Dekker argument).
 * Only the biased thread writes rt__bias_in; it counts its levels in rt__bias_self. */
int rt__bias;        /* 1: the bias holds (atomic; only ever goes 1 -> 0 after init) */
int rt__bias_in;     /* 1: the biased thread is inside through the bias (atomic) */
TLS int rt__bias_self; /* 0: not the biased thread; else 1 + the levels it holds through the bias */

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
    if (off || __atomic_load_n(&rt__bias, __ATOMIC_SEQ_CST))
        return;
    if (membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED) != 0)
        return; /* no membarrier (an old kernel, a seccomp filter): the word alone */
    rt__bias_self = 1;
    __atomic_store_n(&rt__bias, 1, __ATOMIC_SEQ_CST);
}

/* Called by a holder of the word before it touches what the lock guards: ends the bias (once, for
 * every later holder) and waits until the biased thread is out; wait = 0: returns 0 at once
 * instead if it is still in. */
static int unbias(int wait)
{
    if (__atomic_load_n(&rt__bias, __ATOMIC_SEQ_CST)) {
        __atomic_store_n(&rt__bias, 0, __ATOMIC_SEQ_CST);
        if (membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) != 0)
            rt__fatal("membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) failed after registration");
    }
    for (unsigned n = 0; __atomic_load_n(&rt__bias_in, __ATOMIC_ACQUIRE); n++) {
        if (!wait)
            return 0;
        backoff(n);
    }
    return 1;
}

/* The levels this thread holds through the bias. */
static int bias_levels(void)
{
    return rt__bias_self > 1 ? rt__bias_self - 1 : 0;
}

void rt__big_lock(void)
{
    if (rt__bias_self > 1) { /* inside already: the bias holds until we leave */
        rt__bias_self++;
        return;
    }
    if (rt__bias_self) {
        if (rt__bias_enter())
            return;
        rt__bias_self = 0; /* ended: the word from now on */
    }
    if (take_word() == 1)
        unbias(1);
}

void rt__big_unlock(void)
{
    if (rt__bias_self > 2) {
        rt__bias_self--;
    } else if (rt__bias_self == 2) {
        rt__bias_leave();
    } else if (held == 1) {
        give_word();
    } else {
        held--;
    }
}

int rt__big_held(void)
{
    return held > 0 || bias_levels() > 0;
}

int rt__big_trylock(void)
{
    if (!try_word())
        return 0;
    HG_TAKEN();
    held = 1;
    if (!unbias(0)) {
        give_word();
        return 0;
    }
    return 1;
}

int rt__big_release(void)
{
    int n = bias_levels();
    if (n) { /* only when another thread asks: else waits go as at the other levels */
        if (__atomic_load_n(&rt__bias, __ATOMIC_RELAXED))
            return 0;
        rt__bias_self = 2;
        rt__bias_leave();
        return n;
    }
    n = held;
    if (n)
        give_word();
    return n;
}

void rt__big_resume(int n)
{
    for (int i = 0; i < n; i++)
        rt__big_lock();
}

void rt__big_fork_prepare(void)
{
    take_word();
    if (!rt__bias_self) /* the biased thread may be inside: wait for it to leave */
        unbias(1);
}

void rt__big_fork_parent(void)
{
    rt__big_unlock();
}

/* In the child only the forking thread lives: the lock held as many times as that thread held
 * it before the fork, and no bias (its registration with membarrier is the parent's). */
void rt__big_fork_child(void)
{
    int n = held - 1 + bias_levels(); /* without rt__big_fork_prepare's level */
    rt__bias_self = rt__bias = rt__bias_in = 0;
    if (n > 0) {
        held = n;
    } else {
        held = 1; /* rt__big_fork_prepare's */
        give_word();
    }
}
