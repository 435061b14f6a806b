/* mpiexec_kvs.c — the job's key/value space served over PMI: a hash table of strings,
 * bounded in total size (MX_KVS_BYTES_MAX). */
#include "mpiexec.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct entry {
    struct entry *next;
    char *value;
    char key[];
};

struct mx_kvs {
    struct entry **slot;
    size_t nslots, count, bytes;
};

static size_t hash(const char *s)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a */

    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return (size_t)h;
}

struct mx_kvs *mx_kvs_new(void)
{
    struct mx_kvs *kvs = calloc(1, sizeof *kvs);

    if (!kvs)
        return NULL;
    kvs->nslots = 64;
    kvs->slot = calloc(kvs->nslots, sizeof *kvs->slot);
    if (!kvs->slot) {
        free(kvs);
        return NULL;
    }
    return kvs;
}

static struct entry *find(const struct mx_kvs *kvs, const char *key)
{
    struct entry *e = kvs->slot[hash(key) & (kvs->nslots - 1)];

    while (e && strcmp(e->key, key) != 0)
        e = e->next;
    return e;
}

static void grow(struct mx_kvs *kvs)
{
    size_t n = kvs->nslots * 2;
    struct entry **slot = calloc(n, sizeof *slot);

    if (!slot)
        return; /* stay with longer chains */
    for (size_t i = 0; i < kvs->nslots; i++) {
        for (struct entry *e = kvs->slot[i], *next; e; e = next) {
            next = e->next;
            size_t h = hash(e->key) & (n - 1);
            e->next = slot[h];
            slot[h] = e;
        }
    }
    free(kvs->slot);
    kvs->slot = slot;
    kvs->nslots = n;
}

int mx_kvs_put(struct mx_kvs *kvs, const char *key, const char *value)
{
    struct entry *e = find(kvs, key);
    size_t vlen = strlen(value), klen = strlen(key);
    char *v;

    if (kvs->bytes + vlen + (e ? 0 : klen) > MX_KVS_BYTES_MAX)
        return -1;
    v = malloc(vlen + 1);
    if (!v)
        return -1;
    memcpy(v, value, vlen + 1);
    if (e) {
        kvs->bytes -= strlen(e->value);
        free(e->value);
        e->value = v;
        kvs->bytes += vlen;
        return 0;
    }
    e = malloc(sizeof *e + klen + 1);
    if (!e) {
        free(v);
        return -1;
    }
    memcpy(e->key, key, klen + 1);
    e->value = v;
    size_t h = hash(key) & (kvs->nslots - 1);
    e->next = kvs->slot[h];
    kvs->slot[h] = e;
    kvs->bytes += klen + vlen;
    if (++kvs->count > kvs->nslots)
        grow(kvs);
    return 0;
}

const char *mx_kvs_get(const struct mx_kvs *kvs, const char *key)
{
    struct entry *e = find(kvs, key);

    return e ? e->value : NULL;
}

void mx_kvs_free(struct mx_kvs *kvs)
{
    if (!kvs)
        return;
    for (size_t i = 0; i < kvs->nslots; i++) {
        for (struct entry *e = kvs->slot[i], *next; e; e = next) {
            next = e->next;
            free(e->value);
            free(e);
        }
    }
    free(kvs->slot);
    free(kvs);
}
