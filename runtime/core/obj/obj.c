/* obj.c — runtime objects: per-class tables of live user objects (slot reuse through a free
 * list), reference counting, header checks, and the builtin objects created at load. */
#include "obj.h"
#include "obj_registry.h"

#include <stdlib.h>

rt_obj *rt_builtins[RT_NBUILTINS];
/* Where the builtins live (rt__objs_load): an object header read at any address in
 * [builtin_base, builtin_base + builtin_span) stays inside their static storage. */
static uintptr_t builtin_base;
static size_t builtin_span;
struct rt_objslots rt__objslots[RT_CLASS_COUNT]; /* rt__g.tab's slot and top, for rt_obj_at */
int rt__atomic_refs;

/* Slot arrays a table outgrew: kept until unload, since rt_obj_at may read one without the lock
 * (the fast path of read_only calls, under MPI_THREAD_MULTIPLE too). A table doubles from 64
 * slots up to RT__MAX_INDEX, so it retires at most 16 arrays, together smaller than its last. */
#define RT__RETIRED 24
static rt_obj **retired[RT_CLASS_COUNT][RT__RETIRED];
static int nretired[RT_CLASS_COUNT];

/* Struct size of each class (0: no object of it can be made yet), set at load
 * (rt__obj_set_class). */
static size_t class_size[RT_CLASS_COUNT];

/* Freed objects kept for reuse, per class: a request per nonblocking call would otherwise
 * cost a calloc and a free (a fifth of a small-message rate test's time). Same lock as the
 * tables. A kept object is out of the registry: its old handle stays invalid until reused. */
#define RT__SPARES 64
static rt_obj *spares[RT_CLASS_COUNT][RT__SPARES];
static int nspares[RT_CLASS_COUNT];

/* Releases what an object owns before its memory goes (NULL: nothing to release); each set by
 * the part that owns the class, at load. */
static void (*class_dtor[RT_CLASS_COUNT])(rt_obj *);

void rt__obj_set_class(int cls, size_t size, void (*destroy)(rt_obj *o))
{
    class_size[cls] = size;
    class_dtor[cls] = destroy;
}

/* At load: every builtin gets its header (index = builtin id, keyvals their subkind) and
 * its class defaults. Cannot fail (static storage). */
void rt__objs_load(void *store, size_t stride)
{
    builtin_base = (uintptr_t)store;
    builtin_span = RT_NBUILTINS * stride - sizeof(rt_obj) + 1;
    for (int id = 0; id < RT_NBUILTINS; id++) {
        rt_obj *o = (rt_obj *)((char *)store + (size_t)id * stride);
        int cls = rt_builtin_desc[id].cls;

        o->magic = RT_OBJ_MAGIC;
        o->cls = (uint8_t)cls;
        o->builtin = 1;
        o->index = id;
        o->refs = 1;
        if (cls == RT_CLASS_KEYVAL)
            o->subkind = strncmp(rt_builtin_desc[id].name, "MPI_WIN_", 8) == 0
                             ? RT_CLASS_WIN : RT_CLASS_COMM;
        rt_builtins[id] = o;
    }
}

/* At unload: frees the table arrays; live user objects stay (the user's leak). */
void rt__objs_unload(void)
{
    for (int c = 0; c < RT_CLASS_COUNT; c++) {
        struct rt__objtab *t = &rt__g.tab[c];
        free(t->slot);
        free(t->freel);
        memset(t, 0, sizeof *t);
        rt__objslots[c] = (struct rt_objslots){NULL, 0};
        while (nretired[c] > 0)
            free(retired[c][--nretired[c]]);
        while (nspares[c] > 0)
            free(spares[c][--nspares[c]]);
    }
    rt__objreg_free();
}

/* Publishes table cls's slot array and top for rt_obj_at: the array first, so that a reader
 * that sees the new top (acquire) sees an array that long. */
static void publish(int cls)
{
    const struct rt__objtab *t = &rt__g.tab[cls];
    __atomic_store_n(&rt__objslots[cls].slot, t->slot, __ATOMIC_RELEASE);
    __atomic_store_n(&rt__objslots[cls].top, t->top, __ATOMIC_RELEASE);
}

/* A free slot index of table cls (growing it: the old array is retired, not freed), or -1. */
static int32_t take_slot(int cls)
{
    struct rt__objtab *t = &rt__g.tab[cls];
    if (t->nfree > 0)
        return t->freel[--t->nfree];
    if (t->top == t->cap) {
        int32_t ncap = t->cap ? t->cap * 2 : 64;
        rt_obj **ns;

        if (ncap > RT__MAX_INDEX)
            ncap = RT__MAX_INDEX;
        if (ncap <= t->cap)
            return -1;
        if (nretired[cls] == RT__RETIRED || !(ns = malloc((size_t)ncap * sizeof *ns)))
            return -1;
        if (t->cap)
            memcpy(ns, t->slot, (size_t)t->cap * sizeof *ns);
        if (t->slot)
            retired[cls][nretired[cls]++] = t->slot;
        t->slot = ns;
        t->cap = ncap;
    }
    return t->top++;
}

/* Returns slot i of table t to the free list (dropped if the list cannot grow: the slot
 * is then never reused, which is harmless). */
static void give_slot(struct rt__objtab *t, int32_t i)
{
    if (i < 0 || i >= t->top)
        return;
    __atomic_store_n(&t->slot[i], NULL, __ATOMIC_RELAXED);
    if (t->nfree == t->freecap) {
        int32_t ncap = t->freecap ? t->freecap * 2 : 64;
        int32_t *nf = realloc(t->freel, (size_t)ncap * sizeof *nf);

        if (!nf)
            return;
        t->freel = nf;
        t->freecap = ncap;
    }
    t->freel[t->nfree++] = i;
}

/* Whether requests go in the registry of live addresses (obj_registry.h): only when a face
 * takes objects' addresses for handles (rt_handles_are_addresses); the runtime itself never
 * asks whether a pointer is a request, and a request is made and freed per message. */
static int register_requests;

void rt_handles_are_addresses(void)
{
    register_requests = 1;
}

static int registered(int cls)
{
    return cls != RT_CLASS_REQUEST || register_requests;
}

/* New zeroed object of class cls, refs = 1, registered in its table (obj.index).
 * The caller owns the reference. NULL if out of memory or out of indices. */
rt_obj *rt__obj_new(int cls)
{
    struct rt__objtab *t;
    rt_obj *o;
    int32_t i;

    if (cls <= RT_CLASS_NONE || cls >= RT_CLASS_COUNT || !class_size[cls])
        return NULL;
    t = &rt__g.tab[cls];
    if (nspares[cls] > 0) {
        o = spares[cls][--nspares[cls]];
        memset(o, 0, class_size[cls]);
    } else if (!(o = calloc(1, class_size[cls]))) {
        return NULL;
    }
    if (registered(cls) && rt__objreg_add(o)) {
        free(o);
        return NULL;
    }
    i = take_slot(cls);
    publish(cls);
    if (i < 0) {
        if (registered(cls))
            rt__objreg_remove(o);
        free(o);
        return NULL;
    }
    __atomic_store_n(&t->slot[i], o, __ATOMIC_RELAXED);
    o->magic = RT_OBJ_MAGIC;
    o->cls = (uint8_t)cls;
    o->index = i;
    o->refs = 1;
    return o;
}

/* Like rt__obj_new, but only the header is set: the caller sets every other field (a request
 * is made per message, and zeroing all of it cost a fifth of making it: issue 19). The common
 * case, a kept object and a free slot of an unregistered class, takes a few loads and stores. */
rt_obj *rt__obj_new_raw(int cls)
{
    struct rt__objtab *t = &rt__g.tab[cls];
    rt_obj *o;
    int32_t i;

    if (nspares[cls] == 0 || t->nfree == 0 || registered(cls))
        return rt__obj_new(cls);
    o = spares[cls][--nspares[cls]];
    i = t->freel[--t->nfree];
    __atomic_store_n(&t->slot[i], o, __ATOMIC_RELAXED);
    o->magic = RT_OBJ_MAGIC;
    o->cls = (uint8_t)cls;
    o->builtin = 0;
    o->subkind = 0;
    o->index = i;
    o->refs = 1;
    return o;
}

/* The last reference to o dropped (rt__obj_release): runs the class destructor and frees o
 * (its handle value becomes invalid, its slot reusable). */
void rt__obj_free(rt_obj *o)
{
    int cls = o->cls;
    int32_t i = o->index;
    struct rt__objtab *t = &rt__g.tab[cls];

    if (class_dtor[cls])
        class_dtor[cls](o);
    if (i < t->top && t->slot[i] == o) {
        if (t->nfree < t->freecap) { /* give_slot without its growth */
            __atomic_store_n(&t->slot[i], NULL, __ATOMIC_RELAXED);
            t->freel[t->nfree++] = i;
        } else {
            give_slot(t, i);
        }
    }
    if (registered(cls))
        rt__objreg_remove(o);
    o->magic = 0;
    if (nspares[cls] < RT__SPARES)
        spares[cls][nspares[cls]++] = o;
    else
        free(o);
}

/* The live user object of class cls at slot index, or NULL (bad class, index out of range,
 * free slot, parked object). Builtins are not in the tables: use rt_builtins[id]. */
rt_obj *rt_obj_lookup(int cls, int32_t index)
{
    const struct rt__objtab *t;

    if (cls <= RT_CLASS_NONE || cls >= RT_CLASS_COUNT)
        return NULL;
    t = &rt__g.tab[cls];
    if (index < 0 || index >= t->top)
        return NULL;
    rt_obj *o = t->slot[index];
    return o && __atomic_load_n(&o->magic, __ATOMIC_RELAXED) == RT_OBJ_MAGIC ? o : NULL; /* parked */
}

/* 1 if p is a live object of class cls, else 0. p may be any value a user passed as a
 * handle: nothing is read through it unless it is the address of a builtin (static storage)
 * or of a registered user object (obj_registry.h), so garbage never faults. Never writes. */
int rt_obj_is(const void *p, int cls)
{
    uintptr_t a = (uintptr_t)p;
    const rt_obj *o = p;

    /* a builtin: any address in the store may be read; it is one when rt_builtins says so */
    if (a - builtin_base < builtin_span)
        return o->index >= 0 && o->index < RT_NBUILTINS && rt_builtins[o->index] == o &&
               o->magic == RT_OBJ_MAGIC && o->cls == cls;
    /* a user object is registered from creation to destruction; only then is its header read */
    return rt__objreg_has(p) && o->magic == RT_OBJ_MAGIC && o->cls == cls;
}
