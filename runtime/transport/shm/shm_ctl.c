/* shm_ctl.c — control records (FIN, CTS) to a peer: written at once when the ring has room,
 * else kept in a FIFO per channel and peer that progress() flushes, so a receiver never blocks. */
#include "shm.h"

#include <stdlib.h>
#include <string.h>

#include "rt_consts.h"

/* Writes c into the ring to pe; 1 if written, 0 if there is no room. */
static int put(struct shm_link *pe, const struct shm_ctl *c)
{
    struct shm_rec *r = shm_ring_reserve(&pe->out, SHM_LINE, (uint16_t)c->type);

    if (!r)
        return 0;
    r->a = c->a;
    r->b = c->b;
    r->c = c->c;
    shm_ring_commit(&pe->out);
    return 1;
}

int shm_ctl_send(struct shm_chan *ch, int p, uint32_t type, uint64_t a, uint64_t b, uint64_t c)
{
    struct shm_link *pe = &ch->link[p];
    struct shm_ctl rec = { type, a, b, c };

    if (shm_g.peer[p].dead)
        return 0;
    if (pe->ctl_len == 0 && put(pe, &rec)) {
        shm_ring_wake_owner(&pe->out, shm_g.peer[p].slot);
        return 0;
    }
    if (pe->ctl_head + pe->ctl_len == pe->ctl_cap) {
        if (pe->ctl_head > 0) { /* slide the queue to the front */
            memmove(pe->ctl, pe->ctl + pe->ctl_head, pe->ctl_len * sizeof *pe->ctl);
            pe->ctl_head = 0;
        } else {
            size_t cap = pe->ctl_cap ? 2 * pe->ctl_cap : 16;
            struct shm_ctl *q = realloc(pe->ctl, cap * sizeof *q);

            if (!q)
                return RT_ERR_NO_MEM;
            pe->ctl = q;
            pe->ctl_cap = cap;
        }
    }
    pe->ctl[pe->ctl_head + pe->ctl_len++] = rec;
    shm_work_add(ch, p);
    return 0;
}

int shm_ctl_flush(struct shm_chan *ch, int p)
{
    struct shm_link *pe = &ch->link[p];
    int n = 0;

    while (pe->ctl_len > 0 && put(pe, &pe->ctl[pe->ctl_head])) {
        pe->ctl_head++;
        pe->ctl_len--;
        n++;
    }
    if (pe->ctl_len == 0)
        pe->ctl_head = 0;
    return n;
}

void shm_ctl_drop(struct shm_chan *ch, int p)
{
    struct shm_link *pe = &ch->link[p];

    free(pe->ctl);
    pe->ctl = NULL;
    pe->ctl_head = pe->ctl_len = pe->ctl_cap = 0;
}
