/* shm_bell.c — the per-rank doorbell: a futex word in the region that writers bump (and
 * FUTEX_WAKE) only when its owner announced it sleeps; the owner rechecks after announcing. */
#define _GNU_SOURCE
#include "shm.h"

#include <errno.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* A process-shared futex operation (the word is in a MAP_SHARED mapping). */
static long futex(_Atomic uint32_t *word, int op, uint32_t val, const struct timespec *ts)
{
    return syscall(SYS_futex, (uint32_t *)word, op, val, ts, NULL, 0);
}

void shm_bell_ring(struct shm_slot *s)
{
    /* Pairs with the fence in shm_bell_sleep: either the sleeper sees what we published
     * before calling us, or we see its `sleeping`. */
    atomic_thread_fence(memory_order_seq_cst);
    if (!atomic_load_explicit(&s->sleeping, memory_order_relaxed))
        return;
    /* Only the writer that takes the flag wakes it (one syscall, not one per message): the
     * owner polls everything once awake and announces itself again before sleeping again. */
    if (!atomic_exchange_explicit(&s->sleeping, 0, memory_order_acq_rel))
        return;
    shm_bell_wake(s);
}

void shm_bell_wake(struct shm_slot *s)
{
    atomic_fetch_add_explicit(&s->bell, 1, memory_order_release);
    futex(&s->bell, FUTEX_WAKE, 1, NULL);
}

/* Records reach us through our rings, whose producers see the sleep bit when they reserve
 * (no fence on their side); room freed in another ring comes through `sleeping`. */
int shm_bell_sleep(struct shm_slot *s, struct shm_chan *ch, int nin, int (*ready)(void), long ns)
{
    uint32_t seq = atomic_load_explicit(&s->bell, memory_order_acquire);
    struct timespec ts = { ns / 1000000000L, ns % 1000000000L };
    int timedout = 0, idle = 1, c;

    atomic_store_explicit(&s->sleeping, 1, memory_order_relaxed);
    for (c = 0; c < nin && idle; c++) /* every ring, or up to the first with a record */
        idle = shm_ring_sleep_mark(&ch[c].in);
    /* A wake-up after seq was read changes the word: FUTEX_WAIT then returns at once. */
    if (idle && !ready() && futex(&s->bell, FUTEX_WAIT, seq, &ts) < 0 && errno == ETIMEDOUT)
        timedout = 1;
    atomic_store_explicit(&s->sleeping, 0, memory_order_relaxed);
    for (c = 0; c < nin; c++)
        shm_ring_sleep_unmark(&ch[c].in);
    return timedout;
}
