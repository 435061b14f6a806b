/* tp_pool.c — pools of pending transport operations named by 64-bit tokens that go stale when
 * the entry is released (generation << 32 | index + 1); entries never move. */
#include "tp_pool.h"

#include <stdlib.h>
#include <string.h>

#define CHUNK_ENTRIES 64u

static struct tp_pool_ent *ent(struct tp_pool *p, uint32_t i)
{
    return (struct tp_pool_ent *)(p->chunk[i / CHUNK_ENTRIES] + (size_t)(i % CHUNK_ENTRIES) * p->esz);
}

void tp_pool_init(struct tp_pool *p, size_t esz)
{
    memset(p, 0, sizeof *p);
    p->esz = (esz + 15) & ~(size_t)15;
}

/* Adds a chunk of free entries; 0 or -1. */
static int grow(struct tp_pool *p)
{
    unsigned char **chunk;
    uint32_t i, base = p->nchunk * CHUNK_ENTRIES;

    if (p->nchunk >= (UINT32_MAX - 1) / CHUNK_ENTRIES)
        return -1;
    chunk = realloc(p->chunk, (p->nchunk + 1) * sizeof *chunk);
    if (!chunk)
        return -1;
    p->chunk = chunk;
    p->chunk[p->nchunk] = calloc(CHUNK_ENTRIES, p->esz);
    if (!p->chunk[p->nchunk])
        return -1;
    p->nchunk++;
    for (i = CHUNK_ENTRIES; i-- > 0;) {
        ent(p, base + i)->index = base + i;
        ent(p, base + i)->next_free = p->free_head;
        p->free_head = base + i + 1;
    }
    return 0;
}

void *tp_pool_get(struct tp_pool *p, uint64_t *token)
{
    struct tp_pool_ent *e;
    uint32_t i, gen;

    if (!p->free_head && grow(p) < 0)
        return NULL;
    i = p->free_head - 1;
    e = ent(p, i);
    p->free_head = e->next_free;
    gen = e->gen;
    memset(e, 0, p->esz);
    e->gen = gen;
    e->index = i;
    e->used = 1;
    *token = (uint64_t)gen << 32 | (uint64_t)(i + 1);
    return e;
}

void *tp_pool_find(struct tp_pool *p, uint64_t token)
{
    uint32_t i = (uint32_t)token;
    struct tp_pool_ent *e;

    if (i == 0 || i > p->nchunk * CHUNK_ENTRIES)
        return NULL;
    e = ent(p, i - 1);
    return e->used && e->gen == (uint32_t)(token >> 32) ? e : NULL;
}

void tp_pool_put(struct tp_pool *p, void *entry)
{
    struct tp_pool_ent *e = entry;

    e->used = 0;
    e->gen++;
    e->next_free = p->free_head;
    p->free_head = e->index + 1;
}

void *tp_pool_at(struct tp_pool *p, uint32_t i)
{
    return ent(p, i);
}

uint32_t tp_pool_capacity(const struct tp_pool *p)
{
    return p->nchunk * CHUNK_ENTRIES;
}

void tp_pool_destroy(struct tp_pool *p)
{
    uint32_t c;

    for (c = 0; c < p->nchunk; c++)
        free(p->chunk[c]);
    free(p->chunk);
    memset(p, 0, sizeof *p);
}
