/* obj_registry.h — the set of live user-object addresses, so that a pointer a user passed as a
 * handle is known to be an object before anything is read through it (runtime/core only). */
#ifndef RT_OBJ_REGISTRY_H
#define RT_OBJ_REGISTRY_H

#include <stddef.h>
#include <stdint.h>

/* Open addressing, linear probing, key 0 = empty slot; capacity a power of two (mask + 1),
 * at most half full. Written under the library's lock; read without it too (a channel entry
 * of the standard ABI face decodes its handles so, beside threads that make and free
 * objects): a sequence lock (seq odd while a writer changes keys; a reader that saw it change
 * looks again), and a table is never freed before rt__objreg_free, so a reader never faults.
 * The table is replaced only when it grows (tables retired meanwhile sum to less than the
 * current one). */
struct rt__objreg_table {
    struct rt__objreg_table *retired; /* the one it replaced */
    size_t mask;                      /* capacity - 1 */
    uintptr_t keys[];
};
struct rt__objreg {
    struct rt__objreg_table *t; /* NULL until the first object */
    size_t count;               /* live keys */
    unsigned seq;
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
    struct rt__objreg *r = &rt__objreg;
    uintptr_t k = (uintptr_t)p;
    if (!k)
        return 0;
    for (;;) {
        unsigned s = __atomic_load_n(&r->seq, __ATOMIC_ACQUIRE);
        const struct rt__objreg_table *t = __atomic_load_n(&r->t, __ATOMIC_ACQUIRE);
        int found = 0;
        if (!(s & 1) && t) {
            for (size_t i = rt__objreg_hash(k, t->mask);; i = (i + 1) & t->mask) {
                uintptr_t v = __atomic_load_n(&t->keys[i], __ATOMIC_RELAXED);
                if (v == k || v == 0) {
                    found = v == k;
                    break;
                }
            }
        }
        __atomic_thread_fence(__ATOMIC_ACQUIRE);
        if (!(s & 1) && __atomic_load_n(&r->seq, __ATOMIC_RELAXED) == s)
            return found;
    }
}

/* Registers p (non-NULL, not yet registered). 0, or -1 if out of memory (p not registered). */
int rt__objreg_add(const void *p);

/* Unregisters p (nothing if it is not registered). Cannot fail. */
void rt__objreg_remove(const void *p);

/* Frees the registry and every table it retired (at unload, no reader left); it is empty
 * afterwards and may be used again. */
void rt__objreg_free(void);

#endif
