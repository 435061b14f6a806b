/* obj_registry.h — the set of live user-object addresses, so that a pointer a user passed as a
 * handle is known to be an object before anything is read through it (runtime/core only). */
#ifndef RT_OBJ_REGISTRY_H
#define RT_OBJ_REGISTRY_H

#include <stddef.h>
#include <stdint.h>

/* Open addressing, linear probing, key 0 = empty slot; capacity a power of two (mask + 1),
 * at most half full. Guarded as the object tables are: by the caller holding the library
 * (rt_enter/rt_leave, the big lock when the progress thread runs). */
struct rt__objreg {
    uintptr_t *keys;
    size_t mask;   /* capacity - 1 (0 while keys is NULL) */
    size_t count;  /* live keys */
};
extern struct rt__objreg rt__objreg;

static inline size_t rt__objreg_hash(uintptr_t p, size_t mask)
{
    uint64_t h = (uint64_t)(p >> 4) * 0x9e3779b97f4a7c15ull; /* objects are 16-byte aligned */
    return (size_t)(h >> 32) & mask;
}

/* 1 if p is registered (a live user object's address), else 0. Reads only the registry. */
static inline int rt__objreg_has(const void *p)
{
    const struct rt__objreg *r = &rt__objreg;
    uintptr_t k = (uintptr_t)p;

    if (!r->keys || !k)
        return 0;
    for (size_t i = rt__objreg_hash(k, r->mask);; i = (i + 1) & r->mask) {
        if (r->keys[i] == k)
            return 1;
        if (r->keys[i] == 0)
            return 0;
    }
}

/* Registers p (non-NULL, not yet registered). 0, or -1 if out of memory (p not registered). */
int rt__objreg_add(const void *p);

/* Unregisters p (nothing if it is not registered). Cannot fail. */
void rt__objreg_remove(const void *p);

/* Frees the registry (at unload); it is empty afterwards and may be used again. */
void rt__objreg_free(void);

#endif
