/* tp_pool.h — pools of pending transport operations named by 64-bit tokens that go stale
 * when the entry is released (generation << 32 | index + 1); entries never move. */
#ifndef RT_TP_POOL_H
#define RT_TP_POOL_H

#include <stddef.h>
#include <stdint.h>

/* Entries of a token pool start with this. */
struct tp_pool_ent {
    uint32_t gen;               /* bumped on release: stale tokens do not match */
    uint32_t next_free;         /* index + 1 of the next free entry, 0 = none */
    uint32_t index;
    int used;
};

/* Pending operations, looked up by 64-bit tokens (generation << 32 | index + 1, never 0).
 * Entries live in fixed chunks: their addresses stay valid while in use. */
struct tp_pool {
    size_t esz;                 /* entry size, a struct starting with tp_pool_ent */
    unsigned char **chunk;
    uint32_t nchunk;
    uint32_t free_head;         /* index + 1 of the first free entry, 0 = none */
};

/* An empty pool of entries of esz bytes. */
void tp_pool_init(struct tp_pool *p, size_t esz);
/* A zeroed entry and its token, or NULL when out of memory. */
void *tp_pool_get(struct tp_pool *p, uint64_t *token);
/* The entry in use named by token, or NULL. */
void *tp_pool_find(struct tp_pool *p, uint64_t token);
/* Releases an entry: its token goes stale. */
void tp_pool_put(struct tp_pool *p, void *e);
/* Entry i (0 <= i < tp_pool_capacity), used or not. */
void *tp_pool_at(struct tp_pool *p, uint32_t i);
/* How many entries exist (used or free). */
uint32_t tp_pool_capacity(const struct tp_pool *p);
/* Frees all memory. */
void tp_pool_destroy(struct tp_pool *p);

#endif
