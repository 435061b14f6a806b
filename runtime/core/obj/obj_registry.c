/* obj_registry.c — the set of live user-object addresses (open-addressing hash set), checked
 * before a user's handle is dereferenced (rt_obj_is). See obj_registry.h. */
#include "obj_registry.h"

#include <stdlib.h>

struct rt__objreg rt__objreg;

/* Puts k into keys (capacity mask + 1, known to have room and not to hold k). */
static void put(uintptr_t *keys, size_t mask, uintptr_t k)
{
    size_t i = rt__objreg_hash(k, mask);

    while (keys[i])
        i = (i + 1) & mask;
    keys[i] = k;
}

int rt__objreg_add(const void *p)
{
    struct rt__objreg *r = &rt__objreg;

    if (!r->keys || 2 * (r->count + 1) > r->mask + 1) { /* keep the load at most 1/2 */
        size_t ncap = r->keys ? 2 * (r->mask + 1) : 256;
        uintptr_t *nk = calloc(ncap, sizeof *nk);

        if (!nk)
            return -1;
        if (r->keys)
            for (size_t i = 0; i <= r->mask; i++)
                if (r->keys[i])
                    put(nk, ncap - 1, r->keys[i]);
        free(r->keys);
        r->keys = nk;
        r->mask = ncap - 1;
    }
    put(r->keys, r->mask, (uintptr_t)p);
    r->count++;
    return 0;
}

void rt__objreg_remove(const void *p)
{
    struct rt__objreg *r = &rt__objreg;
    uintptr_t k = (uintptr_t)p;
    size_t i, j;

    if (!r->keys || !k)
        return;
    for (i = rt__objreg_hash(k, r->mask); r->keys[i] != k; i = (i + 1) & r->mask)
        if (r->keys[i] == 0)
            return;
    /* backward-shift deletion: move later keys of the run into the hole when their home
     * slot allows it, so lookups never need tombstones */
    for (j = (i + 1) & r->mask; r->keys[j]; j = (j + 1) & r->mask) {
        size_t home = rt__objreg_hash(r->keys[j], r->mask);
        /* keys[j] may move to i if its home is not cyclically in (i, j] */
        if (((j - home) & r->mask) >= ((j - i) & r->mask)) {
            r->keys[i] = r->keys[j];
            i = j;
        }
    }
    r->keys[i] = 0;
    r->count--;
}

void rt__objreg_free(void)
{
    free(rt__objreg.keys);
    rt__objreg.keys = NULL;
    rt__objreg.mask = 0;
    rt__objreg.count = 0;
}
