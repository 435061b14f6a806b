/* rt.h — the runtime's API, the only header the faces include from runtime/.
 * ABI-neutral: runtime objects, runtime error codes and constants, never a face's handle or value. */
#ifndef RT_H
#define RT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

typedef int64_t rt_count;   /* element counts and byte counts, large-count wide */
typedef intptr_t rt_aint;   /* addresses and displacements */
typedef int64_t rt_offset;  /* file offsets */

/* ------------------------------------------------------------ objects */

enum rt_class {
    RT_CLASS_NONE = 0,
    RT_CLASS_COMM, RT_CLASS_GROUP, RT_CLASS_DATATYPE, RT_CLASS_REQUEST, RT_CLASS_OP,
    RT_CLASS_ERRHANDLER, RT_CLASS_INFO, RT_CLASS_WIN, RT_CLASS_FILE, RT_CLASS_SESSION,
    RT_CLASS_MESSAGE, RT_CLASS_KEYVAL,
    RT_CLASS_COUNT
};

#define RT_OBJ_MAGIC 0x53594f42u /* "SYOB": a live runtime object */

/* Every runtime object starts with this header. The faces read it to encode handles:
 * `index` is the object's slot in the table of its class (stable while it lives). */
typedef struct rt_obj {
    uint32_t magic;    /* RT_OBJ_MAGIC while alive, 0 once destroyed */
    uint8_t cls;       /* enum rt_class */
    uint8_t builtin;   /* 1 for predefined objects (never freed) */
    uint16_t subkind;  /* keyvals: the rt_class of the objects they attach to; else 0 */
    int32_t index;     /* slot in the class table; for builtins, the rt_builtin_id */
    int refs;          /* reference count (see DESIGN: pending operations hold references) */
} rt_obj;

typedef struct rt_comm rt_comm;
typedef struct rt_group rt_group;
typedef struct rt_type rt_type;
typedef struct rt_request rt_request;
typedef struct rt_op rt_op;
typedef struct rt_errhandler rt_errhandler;
typedef struct rt_info rt_info;
typedef struct rt_win rt_win;
typedef struct rt_file rt_file;
typedef struct rt_session rt_session;
typedef struct rt_message rt_message;
typedef struct rt_keyval rt_keyval;

/* A status as the runtime fills it; faces copy it into their own MPI_Status layout. */
typedef struct rt_status {
    int source;
    int tag;
    int error;        /* runtime error code */
    int cancelled;
    int empty;        /* 1: the empty status of a null or inactive request, whose error the
                         faces write (MPI_SUCCESS) even where a call leaves MPI_ERROR alone */
    rt_count count;   /* bytes received */
} rt_status;

/* An array of counts or displacements as the user passed it: C int in the plain call,
 * 64-bit in the large-count (_c) call. No copy is made; read elements with rt_counts_get. */
typedef struct rt_counts {
    const void *p;
    int wide; /* 1: elements are 64-bit */
} rt_counts;

static inline rt_count rt_counts_get(rt_counts a, size_t i)
{
    return a.wide ? ((const int64_t *)a.p)[i] : (rt_count)((const int *)a.p)[i];
}

/* An array of handles whose length only the runtime knows (e.g. MPI_Alltoallw's types:
 * one per process of the communicator): decoded element by element by its face. */
typedef struct rt_handle_array {
    const void *p;
    const struct rt_face *face;
} rt_handle_array;

/* ------------------------------------------------------------ faces and callbacks */

typedef void (*rt_fn)(void);
struct rt_face;

/* A user function together with the face (language and ABI) it was registered through. */
typedef struct rt_callback {
    rt_fn fn;
    const struct rt_face *face;
    unsigned flags;   /* RT_CB_* */
} rt_callback;
#define RT_CB_LARGE 1u    /* registered through a large-count (_c) procedure */
#define RT_CB_FORTRAN 2u  /* a Fortran procedure: arguments by reference, Fortran types */
#define RT_CB_FINT 4u     /* attribute callbacks of a Fortran keyval made by an MPI-1 call
                             (MPI_KEYVAL_CREATE): INTEGER attribute values and extra_state,
                             where the MPI-2 calls use INTEGER(KIND=MPI_ADDRESS_KIND). The
                             runtime reads RT_CB_FORTRAN / RT_CB_FINT of attribute callbacks
                             only to pick the value's view and the copy's kind (RT_ATTR_*);
                             the face does the calling convention. */

#define RT_FACE_VERSION 5
/* What the runtime needs from a face to call user code. Methods valid for version >= 1:
 * call_errhandler: call cb (an error handler for objects of class obj->cls) with the face's
 *   handle for obj and the face's value of the runtime error code `code`.
 * handle_at: decode element i of a handle array of class cls; NULL with *err set (an error
 *   already raised on eo, naming fn and arg) if it is invalid, NULL with *err = 0 for the
 *   null handle.
 * Methods valid for version >= 2:
 * call_op: call cb (a user reduction function, MPI_Op_create) as f(in, inout, &len, &dt)
 *   with dt the face's handle for type; the length argument is a C int unless
 *   cb->flags & RT_CB_LARGE (MPI_Count). The runtime never passes len > INT_MAX to an
 *   int-length callback (it calls in chunks).
 * Methods valid for version >= 3 (caching; cb->fn is never NULL: the runtime treats a NULL
 * function as MPI_*_NULL_COPY_FN / MPI_*_NULL_DELETE_FN itself):
 * call_copy: call cb (a copy callback of keyval kv, which attaches to objects of obj's
 *   class) for attribute value `in` of obj (as cb's language reads it: RT_ATTR_* above; so
 *   is `val` of call_delete), which is being duplicated, with the face's
 *   handles for obj and kv and the keyval's extra_state; *out = the value for the copy and
 *   *flag = 1 to copy it, 0 to leave it out. Returns the callback's error code translated to
 *   a runtime code (RT_SUCCESS = 0). The face also recognises its own predefined copy
 *   functions (MPI_*_DUP_FN) if they are not plain functions in its ABI.
 * call_delete: call cb (a delete callback of kv) for attribute value `val` of obj; returns
 *   the callback's error code translated to a runtime code.
 * handle_value: the face's handle value of o (class cls; NULL: the null handle), for
 *   error messages about objects the runtime holds (e.g. a keyval of the wrong kind).
 * Methods valid for version >= 4 (data representations, MPI_Register_datarep; cb->fn is never
 * NULL):
 * call_conversion: call cb (a conversion function) as f(userbuf, dt, count, filebuf, position,
 *   extra_state) with dt the face's handle for type; count a C int unless cb->flags &
 *   RT_CB_LARGE (MPI_Count; the runtime never passes more than INT_MAX to an int one). Returns
 *   the callback's error code translated to a runtime code.
 * call_extent: call cb (an extent function) as f(dt, &extent, extra_state); the same code.
 * Methods valid for version >= 5 (generalized requests, MPI_Grequest_start; cb->fn is never
 * NULL):
 * call_query: call cb (a query function) as f(extra_state, &status), the face's status made
 *   from *st; then *st = the status it filled, but for its error field (left as it was: the
 *   function's return code is the request's error). Returns that code translated to a
 *   runtime code.
 * call_free: call cb (a free function) as f(extra_state); the same code.
 * call_cancel: call cb (a cancel function) as f(extra_state, complete); the same code. */
typedef struct rt_face {
    int version;
    const char *name;
    void (*call_errhandler)(const rt_callback *cb, rt_obj *obj, int code);
    rt_obj *(*handle_at)(const void *array, size_t i, int cls, rt_obj *eo, const char *fn, const char *arg,
                         int *err);
    /* version >= 2 */
    void (*call_op)(const rt_callback *cb, const void *in, void *inout, rt_count len, rt_type *type);
    /* version >= 3 */
    int (*call_copy)(const rt_callback *cb, rt_obj *obj, rt_keyval *kv, void *extra_state, rt_aint in,
                     rt_aint *out, int *flag);
    int (*call_delete)(const rt_callback *cb, rt_obj *obj, rt_keyval *kv, void *extra_state, rt_aint val);
    intptr_t (*handle_value)(const rt_obj *o, int cls);
    /* version >= 4 */
    int (*call_conversion)(const rt_callback *cb, void *userbuf, rt_type *type, rt_count count, void *filebuf,
                           rt_offset position, void *extra_state);
    int (*call_extent)(const rt_callback *cb, rt_type *type, rt_aint *extent, void *extra_state);
    /* version >= 5 */
    int (*call_query)(const rt_callback *cb, void *extra_state, rt_status *st);
    int (*call_free)(const rt_callback *cb, void *extra_state);
    int (*call_cancel)(const rt_callback *cb, void *extra_state, int complete);
} rt_face;

/* Lets the predefined ops apply to the op/type pairs MPICH 4.0.2 accepts beyond the standard
 * (MPI_CHAR and MPI_CHARACTER with every op; MPI_LAND, MPI_LOR and MPI_LXOR on Fortran
 * integers, MPI_AINT, MPI_OFFSET and MPI_COUNT): the MPICH face calls it when it loads, so that programs
 * built for MPICH keep working; the standard-ABI face does not. */
void rt_op_allow_mpich_pairs(void);

/* ------------------------------------------------------------ builtins and tables */

#include "rt_consts.h" /* generated from the spec: RT_ERR_*, RT_ANY_SOURCE, enum rt_builtin_id */

/* rt_builtins[id] is the predefined object `id` (enum rt_builtin_id); valid from library
 * load on, before MPI_Init and after MPI_Finalize. Null handles have no object (NULL). */
extern rt_obj *rt_builtins[RT_NBUILTINS];

/* The live object of class `cls` at table slot `index`, or NULL if there is none. */
rt_obj *rt_obj_lookup(int cls, int32_t index);
/* The same, inline, for a class known to be valid: the tables' slots as obj.c keeps them.
 * Safe without the library's lock (the fast path of read_only calls): obj.c publishes the
 * array before the top (release) and keeps outgrown arrays until unload, so a slot below the
 * top read here is in an array that is still allocated. */
struct rt_objslots {
    rt_obj **slot;
    int32_t top; /* slots ever used: [0, top) */
};
extern struct rt_objslots rt__objslots[RT_CLASS_COUNT];
static inline rt_obj *rt_obj_at(int cls, int32_t index)
{
    struct rt_objslots *t = &rt__objslots[cls];
    if ((uint32_t)index >= (uint32_t)__atomic_load_n(&t->top, __ATOMIC_ACQUIRE))
        return NULL;
    /* acquire: a top read from before the array grew is no licence to read the new array (its
     * copied slots are written before it is published) */
    rt_obj *o = __atomic_load_n(&__atomic_load_n(&t->slot, __ATOMIC_ACQUIRE)[index], __ATOMIC_RELAXED);
    /* a parked object (a request kept for reuse) keeps its slot but is no live object */
    return o && __atomic_load_n(&o->magic, __ATOMIC_RELAXED) == RT_OBJ_MAGIC ? o : NULL;
}

/* 1 if p points at a live runtime object of class cls (p may be any non-NULL pointer
 * that a user passed as a handle: only the header is read). */
int rt_obj_is(const void *p, int cls);
/* The object behind MPI_FILE_NULL (io_file.c), which the faces show as the null handle: its
 * error handler reports the errors with no file (an invalid file handle, MPI_File_open,
 * MPI_File_delete) and is the one new files start with. */
rt_obj *rt_file_null(void);
/* Called once by a face whose handles are objects' addresses (the standard ABI's), before any
 * object is made: rt_obj_is then knows requests too (without it, it answers 0 for them). */
void rt_handles_are_addresses(void);

/* ------------------------------------------------------------ lifecycle and errors */

enum rt_state { RT_STATE_PRE_INIT = 0, RT_STATE_INITIALIZED, RT_STATE_FINALIZED };
int rt_state(void);

/* Sentinel buffer values the faces map MPI_IN_PLACE / MPI_BUFFER_AUTOMATIC to. */
#define RT_IN_PLACE ((void *)(intptr_t)-1)
#define RT_BUFFER_AUTOMATIC ((void *)(intptr_t)-2)
/* Sentinel weight arrays the faces map MPI_UNWEIGHTED / MPI_WEIGHTS_EMPTY to. */
#define RT_UNWEIGHTED ((int *)(intptr_t)10)
#define RT_WEIGHTS_EMPTY ((int *)(intptr_t)11)

/* Error codes the faces pass through unchanged: instances of raised errors
 * (RT_ERRINST_BIT | seq << 8 | class byte, in 0x10000000..0x1fffffff; the byte is the class,
 * or RT_ERRINST_X + n for the MPIX class RT_X_ERR_PROC_FAILED - 1 + n) and user classes and codes
 * (RT_ERR_DYNAMIC_BASE + n: above MPI_ERR_LASTCODE in both ABIs, 0x3fff and 0x3fffffff). */
#define RT_ERR_DYNAMIC_BASE 0x40000000
#define RT_ERRINST_BIT 0x10000000
#define RT_ERRINST_X 0xF0

/* Raise an error of class `cls` on `obj` (NULL: not tied to a live object, so MPI_COMM_SELF
 * once the program set SELF's handler, else MPI_COMM_WORLD (docs/internals.md, "Errors with
 * no object"); before MPI_Init or after MPI_Finalize: fatal). `fn` names the MPI procedure; the message
 * is formatted from fmt. Records the message, calls the object's error handler (which may
 * not return) and returns the error code to hand back to the user. */
int rt_raise(rt_obj *obj, int cls, const char *fn, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Raises RT_ERR_UNSUPPORTED_OPERATION on obj (as rt_raise): "<fn>: not implemented by Switchyard
 * yet" (errors.c; declared again by the generated rt_stubs.c; also a face's for the procedures
 * it offers that the runtime has not, such as MPIR_Err_unsupported's). Returns the error code. */
int rt__unsupported(rt_obj *obj, const char *fn);
/* While a large-count procedure (MPI_X_c) runs rt_X, this thread's rt__large_call names MPI_X
 * (the generated rt_X_c sets it): errors raised under that name say MPI_X_c, the procedure
 * the program called. NULL otherwise. */
extern _Thread_local const char *rt__large_call;

/* Checks that MPI is initialized and not finalized; otherwise a fatal error naming fn. The
 * test is inline (every entry point makes it); the error is rt__require_init_failed's. */
extern int rt_ready; /* 1 while the state is initialized (end of MPI_Init to end of MPI_Finalize) */
int rt__require_init_failed(const char *fn);
static inline int rt_require_init(const char *fn)
{
    return __builtin_expect(rt_ready, 1) ? 0 : rt__require_init_failed(fn);
}

/* Asynchronous progress (progress_thread.c). While nonblocking work is outstanding (a started
 * nonblocking or persistent collective), a thread advances it whenever the program is not
 * inside the library, and every entry holds one recursive lock from rt_enter to rt_leave.
 * Otherwise an entry costs a flag test and a counter. SWITCHYARD_ASYNC_PROGRESS=0 turns the
 * thread off, =1 keeps it (and the lock) on from MPI_Init to MPI_Finalize. */
extern int rt__lock_on;    /* entries take the lock (atomic; changed only at depth 0 or under the lock) */
extern int rt__depth;      /* library calls in progress (changed under the lock when it is on) */
extern int rt__async_want; /* outstanding work wants the thread (rt__async_need) */
void rt__big_lock(void);
void rt__big_unlock(void);
/* The lock's bias towards one thread (big_lock.c): inline here, the outermost entry and exit of
 * the biased thread while the bias holds; rt__big_lock and rt__big_unlock do all the rest. */
extern int rt__bias;    /* 1: the bias holds (atomic) */
extern int rt__bias_in; /* 1: the biased thread is inside through it (atomic; written by it only) */
/* 0: this thread is not the biased one; else 1 + the levels it holds through the bias. */
extern __thread __attribute__((tls_model("initial-exec"))) int rt__bias_self;
/* 1: the biased thread, outside, entered through the bias; 0: it must take the lock (the bias
 * has ended, or this is not the biased thread, or it is inside already). */
static inline int rt__bias_enter(void)
{
    if (rt__bias_self != 1)
        return 0;
    __atomic_store_n(&rt__bias_in, 1, __ATOMIC_RELAXED);
    __atomic_signal_fence(__ATOMIC_SEQ_CST); /* the other side's membarrier does the rest */
    if (__builtin_expect(__atomic_load_n(&rt__bias, __ATOMIC_RELAXED), 1)) {
        rt__bias_self = 2;
        return 1;
    }
    __atomic_store_n(&rt__bias_in, 0, __ATOMIC_RELEASE);
    return 0;
}
/* The biased thread leaves its outermost level taken through the bias (rt__bias_self is 2). */
static inline void rt__bias_leave(void)
{
    rt__bias_self = 1;
    __atomic_store_n(&rt__bias_in, 0, __ATOMIC_RELEASE);
}
/* Called by rt_leave when the outermost call ends and the lock should go on or off. */
void rt__async_switch(int locked);
/* Enters the library; returns what to hand to rt_leave. */
static inline int rt_enter(void)
{
    int locked = __atomic_load_n(&rt__lock_on, __ATOMIC_ACQUIRE);
    if (__builtin_expect(locked, 0) && !rt__bias_enter())
        rt__big_lock();
    rt__depth++;
    return locked;
}
static inline void rt_leave(int locked)
{
    if (--rt__depth == 0 && __builtin_expect(rt__async_want != locked, 0))
        rt__async_switch(locked);
    if (!locked)
        return;
    if (rt__bias_self == 2)
        rt__bias_leave();
    else
        rt__big_unlock();
}
/* Channel entries (spec `channel`; docs/internals.md, "Threads"). Under MPI_THREAD_MULTIPLE
 * with channel waits on (rt__chan_entries, set once in MPI_Init_thread), a point-to-point call
 * enters without the library's lock: the thread is marked (rt__on_channel), and the runtime
 * takes the lock itself for what needs it (making and freeing requests, raising an error,
 * anything but one channel's sends, receives and waits). A thread that holds the lock already
 * (a call from a callback) enters as rt_enter does. rt_leave_channel takes what
 * rt_enter_channel returned. */
extern int rt__chan_entries;
extern __thread __attribute__((tls_model("initial-exec"))) int rt__on_channel;
int rt__enter_channel(void); /* 1: entered without the lock (rt__on_channel set) */
static inline int rt_enter_channel(void)
{
    if (__builtin_expect(__atomic_load_n(&rt__chan_entries, __ATOMIC_RELAXED), 0) && rt__enter_channel())
        return 2;
    return rt_enter();
}
static inline void rt_leave_channel(int locked)
{
    if (__builtin_expect(locked == 2, 0))
        rt__on_channel = 0;
    else
        rt_leave(locked);
}

/* Whether a read_only call (spec) may run without rt_enter/rt_leave: MPI is initialized. Such
 * a call only decodes handles (rt_obj_at, safe beside the lock's holder) and reads fields that
 * never change while the object lives, and changes nothing that rt_leave would act upon; so it
 * runs beside asynchronous progress and other threads (MPI_THREAD_MULTIPLE) alike. */
static inline int rt_fast_ok(void)
{
    return __atomic_load_n(&rt_ready, __ATOMIC_RELAXED);
}

/* A NULL buffer argument `arg` (MPI_BOTTOM) holding `count` elements (argument `count_arg`) of
 * type (NULL: unused here): RT_SUCCESS when count is 0, the type holds no data, or the type's
 * data start at an absolute address (true lower bound >= 4096); otherwise the first byte
 * would be read or written in page zero, which is never mapped: RT_ERR_BUFFER raised on eo,
 * naming fn, the argument, the count and the type's size. The faces call it only for a NULL
 * buffer of a BUFFER parameter the spec gives `elements`. */
int rt_null_buffer_check(rt_obj *eo, const char *fn, const char *arg, const char *count_arg, rt_count count,
                         const rt_type *type);

/* Datatype argument `arg` of fn, describing a buffer's elements (the spec's `elements`): RT_SUCCESS
 * if type is committed, else RT_ERR_TYPE raised on eo naming fn and the argument. The faces call
 * it wherever the datatype is used, before the runtime (which checks again, without the name). */
int rt_type_commit_check_user(rt_obj *eo, const char *fn, const char *arg, const rt_type *type);
static inline int rt_type_commit_check(rt_obj *eo, const char *fn, const char *arg, const rt_type *type)
{
    /* inline for the predefined types, all committed (issue 19: a call per send and receive) */
    if (__builtin_expect(!type || ((const rt_obj *)type)->builtin, 1))
        return 0; /* RT_SUCCESS */
    return rt_type_commit_check_user(eo, fn, arg, type);
}

/* A collective procedure on comm (may be NULL) refused its arguments with error code err
 * before calling the runtime: under SWITCHYARD_COLL_CHECK=1 the other processes learn it
 * (coll_check.c). Returns err. */
int rt_coll_refused(rt_comm *comm, int err, const char *fn);

/* The class of any runtime error code (predefined, user-defined or instance). */
int rt_error_class_of(int code);

/* The largest tag (the MPI_TAG_UB attribute): 2^30 - 1 leaves room for internal tags. */
#define RT_TAG_MAX ((1 << 30) - 1)
int rt_tag_ub(void);

/* Size of comm's local group, for the faces' rank checks on a communicator they decoded
 * (the hot path checks once: comm is not validated again); -1 for NULL. */
struct rt_comm_sizes { /* the first members of every communicator (comm.c asserts it) */
    rt_obj obj;
    int size;        /* local group size */
    int rank;        /* this process's rank in it */
    int remote_size; /* 0 for intra-communicators */
};
static inline int rt_comm_size_of(const rt_comm *comm)
{
    return comm ? ((const struct rt_comm_sizes *)(const void *)comm)->size : -1;
}
static inline int rt_comm_remote_size_of(const rt_comm *comm) /* 0 for intra-communicators */
{
    return comm ? ((const struct rt_comm_sizes *)(const void *)comm)->remote_size : -1;
}
int rt_win_size_of(const rt_win *win); /* its group's size (win validated: not checked again); -1 for NULL */

/* How an attribute value was set (docs/internals.md, "Attributes"): a pointer (C), an
 * address-sized integer or an int (sign-extended). A get that reads pointers (C) returns a
 * pointer as set, and for the integer kinds the address of the stored integer (an rt_aint or
 * an int; valid while the attribute keeps its value); a get that reads integers returns the
 * stored word (a pointer as an integer). */
#define RT_ATTR_PTR 0
#define RT_ATTR_AINT 1
#define RT_ATTR_INT 2
/* For the calling thread's next attribute set or get of a user keyval: RT_ATTR_AINT or
 * RT_ATTR_INT make it set an integer of that kind, or get the value as an integer. That
 * set/get resets it to RT_ATTR_PTR (so callbacks it runs read as C); a face calls
 * rt_attr_next_kind(RT_ATTR_PTR) after its call in case the call failed before. */
void rt_attr_next_kind(int kind);

/* Adds RT_CB_* flags to both callbacks of user keyval kv, for a face whose other language
 * (Fortran) registers keyvals through its C entry points; call it before the keyval's
 * handle reaches the user. */
void rt_keyval_set_callback_flags(rt_keyval *kv, unsigned flags);

/* ------------------------------------------------------------ entry points */

#include "rt_procs.h" /* generated: one rt_<Name>() per MPI procedure of the spec */

#endif
