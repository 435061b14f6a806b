/* obj.h — the object part's contract, the lowest part: object headers, handle slots and
 * reference counts, the classes' description (set at load), and the job's global state. */
#ifndef RT_OBJ_H
#define RT_OBJ_H

/* POSIX interfaces (clock_gettime, gethostname, strnlen, posix_memalign, pthread_self).
 * Every runtime/core file includes this header first (itself, or through its part's header
 * or rt_internal.h), so this precedes all system headers. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "rt.h"

/* User object indices stay below this: the MPICH-ABI face encodes them in the low 22
 * bits of a handle (bits 22-25 carry a keyval's object kind / the message subkind). */
#define RT__MAX_INDEX (1 << 22)

/* ------------------------------------------------------------ global state */

/* One table of live user objects per class: slot[i] is the object with index i or NULL. */
struct rt__objtab {
    rt_obj **slot;
    int32_t cap;      /* allocated slots */
    int32_t top;      /* slots ever used: [0, top) */
    int32_t *freel;   /* free slot indices below top (a stack) */
    int32_t nfree, freecap;
};

/* The runtime's global state (the error part keeps its own: err/err.h). Under
 * MPI_THREAD_MULTIPLE the library's one lock guards it (docs/internals.md, "Threads"). The
 * builtin objects (rt_builtins) are set up once at load; their mutable fields are object
 * state. */
struct rt__global {
    /* lifecycle (state.c) */
    struct {
        int state;            /* enum rt_state */
        int thread_required;  /* the level asked for at init */
        int thread_provided;
        pthread_t main_thread;  /* the thread that called init (before: the loading thread) */
    } life;

    /* this process in the job; filled at init (a launcher / PMI client fills it later) */
    struct {
        int size, rank;
        int appnum;
        int universe_size;
    } world;

    /* values behind the predefined communicator attributes (attr.c): the user gets
     * pointers to these */
    struct {
        int tag_ub, host, io, wtime_is_global, universe_size, appnum;
    } attr;

    /* object tables (obj.c) */
    struct rt__objtab tab[RT_CLASS_COUNT];

    /* MPI_Wtime origin (env.c) */
    double wtime_base;
};

extern struct rt__global rt__g;

/* ------------------------------------------------------------ small helpers */

/* Copies src into dst (size dstsize > 0), truncating, always terminated; returns the
 * length copied (without the NUL). */
static inline int rt__copy_str(char *dst, size_t dstsize, const char *src)
{
    size_t n = strlen(src);
    if (n > dstsize - 1)
        n = dstsize - 1;
    memcpy(dst, src, n);
    dst[n] = '\0';
    return (int)n;
}

/* ------------------------------------------------------------ objects (obj.c) */

/* Called once at library load: gives every builtin object its header. The builtins live in
 * `store` (init/load.c, which knows every class's struct): builtin `id` at store + id * stride.
 * The parts that own the classes fill in their defaults after it. */
void rt__objs_load(void *store, size_t stride);
/* Describes class cls, at load (init/load.c): its struct size, and the destructor that
 * releases what an object owns before its memory goes (rt__obj_free; NULL: nothing). Until
 * then no object of the class can be made. */
void rt__obj_set_class(int cls, size_t size, void (*destroy)(rt_obj *o));
/* Called at unload: frees the table arrays (live user objects are the user's leak). */
void rt__objs_unload(void);

/* A new zeroed object of class cls (struct size of the class) with refs = 1 and a slot
 * in the class table (obj.index). NULL if out of memory or out of indices (2^26). */
rt_obj *rt__obj_new(int cls);
/* As rt__obj_new, but only the header (rt_obj) is set: the rest holds stale bytes, and the
 * caller must set every field. */
rt_obj *rt__obj_new_raw(int cls);
/* Whether reference counts change by atomic operations: set once under MPI_THREAD_MULTIPLE
 * with channel entries (before another thread can call), where threads take and drop
 * references to communicators, datatypes and requests without the library's lock (p2p). */
extern int rt__atomic_refs;
/* Adds a reference (no-op for builtins, which live forever). o may be NULL. Inline, as is
 * rt__obj_release: a request holds its communicator and type, mostly builtins (issue 19). */
static inline void rt__obj_retain(rt_obj *o)
{
    if (o && !o->builtin) {
        if (__builtin_expect(rt__atomic_refs, 0))
            __atomic_add_fetch(&o->refs, 1, __ATOMIC_RELAXED);
        else
            o->refs++;
    }
}
/* Drops a reference to user object o (not a builtin); returns how many are left (at 0 the
 * caller frees it: rt__obj_free, under the library's lock). */
static inline int rt__obj_unref(rt_obj *o)
{
    if (__builtin_expect(rt__atomic_refs, 0))
        return __atomic_sub_fetch(&o->refs, 1, __ATOMIC_ACQ_REL);
    return --o->refs;
}
/* Runs the class destructor of o, whose last reference went, and frees its slot and memory. */
void rt__obj_free(rt_obj *o);
/* Drops a reference; the last one runs the class destructor, frees the slot and the
 * memory. No-op for builtins and NULL. */
static inline void rt__obj_release(rt_obj *o)
{
    if (o && !o->builtin && rt__obj_unref(o) <= 0)
        rt__obj_free(o);
}
/* Parks o, whose last reference went, for reuse by the part that owns its class (requests:
 * p2p keeps some per thread): o keeps its memory and its slot, but handle lookups (rt_obj_at,
 * rt_obj_lookup, rt_obj_is) see it dead until rt__obj_unpark gives it one reference again.
 * rt__obj_free frees a parked object as any other. */
static inline void rt__obj_park(rt_obj *o)
{
    __atomic_store_n(&o->magic, 0, __ATOMIC_RELAXED);
}
static inline void rt__obj_unpark(rt_obj *o)
{
    o->refs = 1;
    __atomic_store_n(&o->magic, RT_OBJ_MAGIC, __ATOMIC_RELAXED);
}

#endif
