/* shm_ring.c — lock-free single-producer single-consumer ring of variable-size records
 * (cache-line aligned; a pad record fills the end when a record would wrap). */
#include "shm.h"

static struct shm_rec *at(const struct shm_ring *r, uint64_t pos)
{
    return (struct shm_rec *)(r->data + (pos & (r->size - 1)));
}

/* Whether `bytes` fit after pos given the cached head; *pad: bytes to skip to the start. */
static int fits(const struct shm_ring *r, uint64_t bytes, uint64_t *pad)
{
    uint64_t free_bytes = r->size - (r->pos - r->seen);
    uint64_t contig = r->size - (r->pos & (r->size - 1));

    *pad = bytes <= contig ? 0 : contig;
    return *pad + bytes <= free_bytes;
}

struct shm_rec *shm_ring_reserve(struct shm_ring *r, uint64_t bytes)
{
    uint64_t pad;
    struct shm_rec *p;

    if (!fits(r, bytes, &pad)) {
        r->seen = atomic_load_explicit(&r->ctl->head, memory_order_acquire);
        if (!fits(r, bytes, &pad)) {
            r->blocked_head = r->seen;
            r->blocked = 1;
            atomic_store_explicit(&r->ctl->want_space, 1, memory_order_relaxed);
            return NULL;
        }
    }
    if (r->blocked) {
        r->blocked = 0;
        atomic_store_explicit(&r->ctl->want_space, 0, memory_order_relaxed);
    }
    if (pad) {
        p = at(r, r->pos);
        p->type = SHM_PAD;
        p->bytes = (uint32_t)pad;
        r->pos += pad;
    }
    r->pending = bytes;
    return at(r, r->pos);
}

void shm_ring_commit(struct shm_ring *r)
{
    r->pos += r->pending;
    r->pending = 0;
    atomic_store_explicit(&r->ctl->tail, r->pos, memory_order_release);
}

uint64_t shm_ring_room(struct shm_ring *r)
{
    uint64_t free_bytes, contig, wrapped;

    r->seen = atomic_load_explicit(&r->ctl->head, memory_order_acquire);
    free_bytes = r->size - (r->pos - r->seen);
    contig = r->size - (r->pos & (r->size - 1));
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
        if (r->pos == r->seen) {
            r->seen = atomic_load_explicit(&r->ctl->tail, memory_order_acquire);
            if (r->pos == r->seen)
                return NULL;
        }
        p = at(r, r->pos);
        bytes = p->bytes;
        contig = r->size - (r->pos & (r->size - 1));
        if (bytes < SHM_LINE || bytes % SHM_LINE || bytes > contig || bytes > r->seen - r->pos ||
            r->seen - r->pos > r->size) {
            r->bad = 1;
            return NULL;
        }
        if (p->type != SHM_PAD)
            return p;
        r->pos += bytes; /* published with the next release */
    }
}

void shm_ring_release(struct shm_ring *r)
{
    r->pos += at(r, r->pos)->bytes;
    atomic_store_explicit(&r->ctl->head, r->pos, memory_order_release);
}

int shm_ring_ready(struct shm_ring *r)
{
    return atomic_load_explicit(&r->ctl->tail, memory_order_acquire) != r->pos;
}

int shm_ring_wants_room(struct shm_ring *r)
{
    atomic_thread_fence(memory_order_seq_cst); /* our head stores before reading the flag */
    return (int)atomic_load_explicit(&r->ctl->want_space, memory_order_relaxed);
}
