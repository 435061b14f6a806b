/* obj_registry.c — the set of live user-object addresses (open-addressing hash set), checked
 * before a user's handle is dereferenced (rt_obj_is). See obj_registry.h. */
#include "obj_registry.h"

#include <stdlib.h>

struct rt__objreg rt__objreg;

/* Writers (under the library's lock) make seq odd around every change of keys. */
static void write_begin(void)
{
    __atomic_store_n(&rt__objreg.seq, rt__objreg.seq + 1, __ATOMIC_RELAXED);
    __atomic_thread_fence(__ATOMIC_RELEASE);
}

static void write_end(void)
{
    __atomic_store_n(&rt__objreg.seq, rt__objreg.seq + 1, __ATOMIC_RELEASE);
}

static void set_key(struct rt__objreg_table *t, size_t i, uintptr_t k)
{
    __atomic_store_n(&t->keys[i], k, __ATOMIC_RELAXED);
}

/* Puts k into t (known to have room and not to hold k). */
static void put(struct rt__objreg_table *t, uintptr_t k)
{
    size_t i = rt__objreg_hash(k, t->mask);

    while (t->keys[i])
        i = (i + 1) & t->mask;
    set_key(t, i, k);
}

int rt__objreg_add(const void *p)
{
    struct rt__objreg *r = &rt__objreg;
    struct rt__objreg_table *t = r->t;

    if (!t || 2 * (r->count + 1) > t->mask + 1) { /* keep the load at most 1/2 */
        size_t ncap = t ? 2 * (t->mask + 1) : 256;
        struct rt__objreg_table *nt = calloc(1, sizeof *nt + ncap * sizeof nt->keys[0]);

        if (!nt)
            return -1;
        nt->mask = ncap - 1;
        nt->retired = t; /* readers may still be in it: freed by rt__objreg_free */
        for (size_t i = 0; t && i <= t->mask; i++)
            if (t->keys[i])
                put(nt, t->keys[i]);
        __atomic_store_n(&r->t, nt, __ATOMIC_RELEASE); /* filled before it is seen */
        t = nt;
    }
    write_begin();
    put(t, (uintptr_t)p);
    write_end();
    r->count++;
    return 0;
}

void rt__objreg_remove(const void *p)
{
    struct rt__objreg *r = &rt__objreg;
    struct rt__objreg_table *t = r->t;
    uintptr_t k = (uintptr_t)p;
    size_t i, j;

    if (!t || !k)
        return;
    for (i = rt__objreg_hash(k, t->mask); t->keys[i] != k; i = (i + 1) & t->mask)
        if (t->keys[i] == 0)
            return;
    /* backward-shift deletion: move later keys of the run into the hole when their home
     * slot allows it, so lookups never need tombstones (a reader meanwhile looks again) */
    write_begin();
    for (j = (i + 1) & t->mask; t->keys[j]; j = (j + 1) & t->mask) {
        size_t home = rt__objreg_hash(t->keys[j], t->mask);
        /* keys[j] may move to i if its home is not cyclically in (i, j] */
        if (((j - home) & t->mask) >= ((j - i) & t->mask)) {
            set_key(t, i, t->keys[j]);
            i = j;
        }
    }
    set_key(t, i, 0);
    write_end();
    r->count--;
}

void rt__objreg_free(void)
{
    struct rt__objreg_table *t = rt__objreg.t, *next;

    for (; t; t = next) {
        next = t->retired;
        free(t);
    }
    rt__objreg.t = NULL;
    rt__objreg.count = 0;
}
