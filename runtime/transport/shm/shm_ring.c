/* shm_ring.c — a rank's inbound ring: lock-free multi-producer single-consumer, records of
 * variable size (cache-line aligned; a pad record fills the end when a record would wrap). */
#include "shm.h"

static struct shm_rec *at(const struct shm_ring *r, uint64_t pos)
{
    return (struct shm_rec *)(r->data + (pos & (r->size - 1)));
}

/* Registers us (local index shm_g.me) to be woken when the consumer frees room. */
static void wait_for_room(struct shm_ring *r)
{
    r->blocked_head = r->seen;
    r->blocked = 1;
    atomic_fetch_or(&r->ctl->waiters[shm_g.me / 64], 1ull << (shm_g.me % 64));
    atomic_store(&r->ctl->want_space, 1);
}

/* Says in our slot (its part for r's channel) what we are about to take, [t, end) of r: a
 * consumer that finds us dead skips it. */
static inline void say_reservation(const struct shm_ring *r, uint64_t t, uint64_t end)
{
    atomic_store_explicit(&r->res->res_ring, r->id + 1, memory_order_relaxed);
    atomic_store_explicit(&r->res->res_pos, t, memory_order_relaxed);
    atomic_store_explicit(&r->res->res_end, end, memory_order_relaxed);
}

/* After the compare-and-swap that took [t, t + pad + bytes) from tail word tword: writes the
 * pad record if any, sets our positions and the record's header, and returns the record. */
static inline struct shm_rec *took(struct shm_ring *r, uint64_t tword, uint64_t t, uint64_t pad,
                                   uint64_t bytes, uint16_t type)
{
    struct shm_rec *p;

    /* Taking the tail also took the owner's sleep bit: we then owe it a wake-up. */
    r->wake |= (int)(tword & SHM_TAIL_SLEEP);
    r->blocked = 0;
    if (pad) {
        p = at(r, t);
        p->type = SHM_PAD;
        p->from = (uint16_t)shm_g.me;
        p->bytes = (uint32_t)pad;
        atomic_store_explicit(&p->stamp, t | 1, memory_order_release);
    }
    r->pos = t + pad;
    r->end = t + pad + bytes;
    p = at(r, r->pos);
    p->type = type;
    p->from = (uint16_t)shm_g.me;
    p->bytes = (uint32_t)bytes;
    return p;
}

struct shm_rec *shm_ring_reserve(struct shm_ring *r, uint64_t bytes, uint16_t type)
{
    uint64_t tword = atomic_load_explicit(&r->ctl->tail, memory_order_relaxed), t, pad, need;
    int fresh = 0;

    for (;;) {
        uint64_t contig;

        t = tword & ~SHM_TAIL_SLEEP;
        contig = r->size - (t & (r->size - 1));

        pad = bytes <= contig ? 0 : contig;
        need = pad + bytes;
        if (t < r->seen || t + need - r->seen > r->size) { /* (t < seen: t is stale) */
            if (fresh) {
                wait_for_room(r);
                return NULL;
            }
            r->seen = atomic_load_explicit(&r->ctl->head, memory_order_acquire);
            tword = atomic_load_explicit(&r->ctl->tail, memory_order_relaxed); /* >= head */
            fresh = 1;
            continue;
        }
        say_reservation(r, t, t + need);
        if (atomic_compare_exchange_weak_explicit(&r->ctl->tail, &tword, t + need,
                                                  memory_order_acq_rel, memory_order_relaxed))
            return took(r, tword, t, pad, bytes, type);
        fresh = 0;
    }
}

struct shm_rec *shm_ring_reserve_line(struct shm_ring *r, uint16_t type)
{
    uint64_t tword = atomic_load_explicit(&r->ctl->tail, memory_order_relaxed);
    uint64_t t = tword & ~SHM_TAIL_SLEEP;

    /* Positions are multiples of SHM_LINE and the size a power of two: one line never needs
     * a pad. Anything but room at once and an uncontended tail goes the general way. */
    if (t < r->seen || t + SHM_LINE - r->seen > r->size)
        return shm_ring_reserve(r, SHM_LINE, type);
    say_reservation(r, t, t + SHM_LINE);
    if (!atomic_compare_exchange_strong_explicit(&r->ctl->tail, &tword, t + SHM_LINE,
                                                 memory_order_acq_rel, memory_order_relaxed))
        return shm_ring_reserve(r, SHM_LINE, type);
    return took(r, tword, t, 0, SHM_LINE, type);
}

void shm_ring_commit(struct shm_ring *r)
{
    atomic_store_explicit(&at(r, r->pos)->stamp, r->pos | 1, memory_order_release);
}

uint64_t shm_ring_room(struct shm_ring *r)
{
    uint64_t t, free_bytes, contig, wrapped;

    r->seen = atomic_load_explicit(&r->ctl->head, memory_order_acquire);
    t = atomic_load_explicit(&r->ctl->tail, memory_order_relaxed) & ~SHM_TAIL_SLEEP; /* >= head */
    free_bytes = t - r->seen >= r->size ? 0 : r->size - (t - r->seen);
    contig = r->size - (t & (r->size - 1));
    if (free_bytes <= contig)
        return free_bytes;
    wrapped = free_bytes - contig;
    return contig > wrapped ? contig : wrapped;
}

int shm_ring_room_changed(struct shm_ring *r)
{
    return r->blocked &&
           atomic_load_explicit(&r->ctl->head, memory_order_acquire) != r->blocked_head;
}

struct shm_rec *shm_ring_peek(struct shm_ring *r)
{
    struct shm_rec *p;
    uint64_t bytes, contig;

    for (;;) {
        p = at(r, r->pos);
        if (atomic_load_explicit(&p->stamp, memory_order_acquire) != (r->pos | 1))
            return NULL;
        bytes = p->bytes;
        contig = r->size - (r->pos & (r->size - 1));
        if (bytes < SHM_LINE || bytes % SHM_LINE || bytes > contig || p->from >= shm_g.nlocal ||
            p->from == shm_g.me) {
            r->bad = 1;
            return NULL;
        }
        if (p->type != SHM_PAD)
            return p;
        r->pos += bytes;
        atomic_store_explicit(&r->ctl->head, r->pos, memory_order_release);
    }
}

void shm_ring_release(struct shm_ring *r)
{
    r->pos += at(r, r->pos)->bytes;
    atomic_store_explicit(&r->ctl->head, r->pos, memory_order_release);
}

int shm_ring_ready(struct shm_ring *r)
{
    return atomic_load_explicit(&at(r, r->pos)->stamp, memory_order_acquire) == (r->pos | 1);
}

void shm_ring_wake_producers(struct shm_ring *r)
{
    int w, b;

    atomic_thread_fence(memory_order_seq_cst); /* our head stores before reading the flag */
    if (!atomic_load_explicit(&r->ctl->want_space, memory_order_relaxed) ||
        !atomic_exchange(&r->ctl->want_space, 0))
        return;
    for (w = 0; w < (shm_g.nlocal + 63) / 64; w++) {
        uint64_t bits = atomic_load_explicit(&r->ctl->waiters[w], memory_order_relaxed);

        if (!bits)
            continue;
        bits = atomic_exchange(&r->ctl->waiters[w], 0);
        for (b = 0; b < 64; b++)
            if (bits >> b & 1 && w * 64 + b < shm_g.nlocal && w * 64 + b != shm_g.me)
                shm_bell_ring(shm_g.peer[w * 64 + b].slot);
    }
}

int shm_ring_skip_dead(struct shm_ring *r, const struct shm_slot *dead)
{
    const struct shm_chan_slot *res = &dead->chan[r->chan];
    uint64_t end;

    if (shm_ring_ready(r) || (atomic_load(&r->ctl->tail) & ~SHM_TAIL_SLEEP) == r->pos ||
        atomic_load(&res->res_ring) != r->id + 1 || atomic_load(&res->res_pos) != r->pos)
        return 0;
    end = atomic_load(&res->res_end);
    if (end <= r->pos || end - r->pos > r->size)
        return 0;
    r->pos = end;
    atomic_store_explicit(&r->ctl->head, r->pos, memory_order_release);
    return 1;
}

void shm_ring_wake_owner(struct shm_ring *r, struct shm_slot *owner)
{
    if (!r->wake)
        return;
    r->wake = 0;
    shm_bell_wake(owner);
}

int shm_ring_sleep_mark(struct shm_ring *r)
{
    uint64_t old = atomic_fetch_or(&r->ctl->tail, SHM_TAIL_SLEEP); /* a full fence */

    return (old & ~SHM_TAIL_SLEEP) == r->pos && !shm_ring_ready(r);
}

void shm_ring_sleep_unmark(struct shm_ring *r)
{
    if (atomic_load_explicit(&r->ctl->tail, memory_order_relaxed) & SHM_TAIL_SLEEP)
        atomic_fetch_and(&r->ctl->tail, ~SHM_TAIL_SLEEP);
}
