/* shm_wait.c — wait(): polls (spinning, then yielding; longer while a peer copies our buffer),
 * then sleeps on our futex doorbell; checks now and then that the peers are alive. */
#define _GNU_SOURCE
#include "shm.h"

#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <time.h>

long long shm_now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Whether channel ch's progress has something to do now. */
static int chan_ready(struct shm_chan *ch)
{
    int i;

    if (!ch->in.bad && shm_ring_ready(&ch->in))
        return 1;
    if (ch->helping && shm_xfer_ready(ch))
        return 1; /* a receiver opened a transfer of ours: we copy pieces too */
    for (i = 0; i < ch->nwork; i++) {
        struct shm_link *l = &ch->link[ch->work[i]];

        if (shm_g.peer[ch->work[i]].dead)
            continue;
        if (shm_ring_room_changed(&l->out))
            return 1;
        if ((l->ctl_len || l->stream) && !l->out.blocked)
            return 1; /* local work progress() can do now */
    }
    return 0;
}

int shm_ready(void)
{
    int c;

    if (shm_g.gone_new)
        return 1; /* progress() reports it */
    for (c = 0; c < shm_g.nchan; c++)
        if (chan_ready(&shm_g.ch[c]))
            return 1;
    return 0;
}

void shm_check_peers(void)
{
    int p;

    shm_g.alive_ns = shm_now_ns();
    for (p = 0; p < shm_g.nlocal; p++)
        if (p != shm_g.me && !shm_g.peer[p].gone && kill(shm_g.peer[p].pid, 0) < 0 &&
            errno == ESRCH) {
            shm_g.peer[p].gone = 1;
            shm_g.ngone++;
            shm_g.gone_new = 1;
        }
}

/* Whether a peer has taken in our latest RTS and not answered yet: it is probably copying
 * our buffer, and its FIN comes sooner than a sleep and a wake-up would take. */
static int copy_expected(void)
{
    int p, c;

    for (c = 0; c < shm_g.nchan; c++)
        for (p = 0; p < shm_g.nlocal; p++) {
            struct shm_link *l = &shm_g.ch[c].link[p];

            if (p != shm_g.me && !shm_g.peer[p].dead && l->rts_pending > 0 &&
                atomic_load_explicit(&l->out.ctl->head, memory_order_acquire) >= l->rts_tail)
                return 1;
        }
    return 0;
}

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

/* rt_tp_ops.wait (transport.h). timeout_ns < 0 or above SHM_WAIT_MAX_NS sleeps at most
 * SHM_WAIT_MAX_NS (the caller loops); returning early is always allowed. */
void shm_wait(long timeout_ns)
{
    long long t0, now, left, pause_ns;
    int i;

    if (!shm_g.active || shm_g.nlocal < 2 || timeout_ns == 0 || shm_ready())
        return;
    if (timeout_ns < 0 || timeout_ns > SHM_WAIT_MAX_NS)
        timeout_ns = SHM_WAIT_MAX_NS;
    /* Poll: first with pause only (not when the node is crowded), then yielding, so that a
     * peer sharing our CPU (more ranks than cores, or both woken onto one CPU) runs instead. */
    pause_ns = shm_g.env->crowded ? 0 : SHM_PAUSE_NS;
    t0 = now = shm_now_ns();
    while (now - t0 < timeout_ns &&
           (now - t0 < SHM_SPIN_NS || (now - t0 < SHM_SPIN_COPY_NS && copy_expected()))) {
        for (i = 0; i < 32; i++) {
            if (shm_ready())
                return;
            cpu_relax();
        }
        if (now - t0 >= pause_ns)
            sched_yield();
        now = shm_now_ns();
    }
    left = timeout_ns - (now - t0);
    if (left > 0)
        shm_bell_sleep(shm_g.slot, shm_g.ch, shm_g.nchan, shm_ready, (long)left);
    if (shm_now_ns() - shm_g.alive_ns >= SHM_ALIVE_NS)
        shm_check_peers();
}
