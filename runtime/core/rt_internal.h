/* rt_internal.h — what every part of runtime/core needs: the object structs, the one global state
 * struct, objects, raising errors and error handlers. Each part's own contract is PART/PART.h. */
#ifndef RT_INTERNAL_H
#define RT_INTERNAL_H

/* POSIX interfaces (clock_gettime, gethostname, strnlen, posix_memalign, pthread_self).
 * Every runtime/core file includes this header first, so this precedes all system headers. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "rt.h"

/* Raise from inside an entry point: the MPI name comes from __func__ (rt_Foo -> MPI_Foo). */
#define RT_ERR(obj, cls, ...) rt_raise((rt_obj *)(obj), (cls), __func__, __VA_ARGS__)

/* User object indices stay below this: the MPICH-ABI face encodes them in the low 22
 * bits of a handle (bits 22-25 carry a keyval's object kind / the message subkind). */
#define RT__MAX_INDEX (1 << 22)

/* ------------------------------------------------------------ object structs */

/* What an error handler does. */
enum rt__eh_kind { RT__EH_FATAL = 0, RT__EH_ABORT, RT__EH_RETURN, RT__EH_USER };

struct rt_errhandler {
    rt_obj obj;
    int kind;        /* enum rt__eh_kind */
    int for_cls;     /* rt_class of the objects it may be set on; RT_CLASS_NONE = any (builtins) */
    rt_callback cb;  /* RT__EH_USER only */
};

/* One cached attribute (attr_list.c). */
struct rt__attr {
    struct rt__attr *next;
    rt_keyval *kv;       /* holds a reference */
    rt_aint val;         /* the address-sized value (docs/internals.md, "Attributes") */
    int kind;            /* how it was set: RT_ATTR_PTR, RT_ATTR_AINT or RT_ATTR_INT */
    int ival;            /* RT_ATTR_INT: the int itself (a pointer reader gets its address) */
};

/* The attributes cached on one object (communicators, datatypes, windows). Newest first: set
 * order reversed, which is the order of deletion. */
struct rt__attrs {
    struct rt__attr *head;
};

struct rt_comm {
    rt_obj obj;
    int size;                    /* local group size */
    int rank;                    /* this process's rank in the local group */
    int remote_size;             /* 0 for intra-communicators */
    rt_errhandler *errh;         /* holds a reference (never NULL once set up) */
    char name[RT_MAX_OBJECT_NAME];
    int ctx;                     /* point-to-point context id; collectives use ctx + 1 */
    int *world;                  /* world[r]: world rank of rank r (remote group for inter-
                                    communicators); NULL = the identity (MPI_COMM_WORLD) */
    struct rt__bsend_buf *bbuf;  /* buffer attached to this communicator (MPI-4.1), or NULL */
    int *lworld;                 /* inter-communicators: lworld[r] = world rank of local rank r;
                                    NULL for intra-communicators (their local group is world) */
    struct rt_comm *coll;        /* internal view of the collective context (ctx + 1) over the
                                    remote group (intra: the group); NULL until set up */
    struct rt_comm *lcoll;       /* inter-communicators: the collective context over the local
                                    group (same ctx + 1, own tags); NULL for intra-communicators */
    struct rt__topo *topo;       /* Cartesian, graph or distributed-graph topology, or NULL */
    rt_info *info;               /* hints set by the user (owned), or NULL */
    uint8_t owns_ctx;            /* 1: ctx / 2 was taken from this process's free ids */
    unsigned coll_seq;           /* collectives started on it: each gets its own tags */
    struct rt__attrs attrs;      /* cached attributes (attr_list.c) */
};

/* The world rank of rank r of comm's local group. */
static inline int rt__comm_local_world(const rt_comm *comm, int r)
{
    return comm->lworld ? comm->lworld[r] : comm->world ? comm->world[r] : r;
}

/* The world rank of rank r of comm's (remote, for inter-communicators) group. */
static inline int rt__comm_world_rank(const rt_comm *comm, int r)
{
    return comm->world ? comm->world[r] : r;
}

struct rt__info_ent {
    char *key;  /* owned, NUL-terminated, 1..RT_MAX_INFO_KEY-1 chars */
    char *val;  /* owned, NUL-terminated, 0..RT_MAX_INFO_VAL chars */
};

struct rt_info {
    rt_obj obj;
    int n, cap;                 /* entries in use / allocated */
    struct rt__info_ent *ent;   /* insertion order */
    int readonly;               /* 1 for MPI_INFO_ENV: users may not modify it */
};

/* A keyval (keyval.c). Predefined keyvals are builtins (obj.index = their rt_builtin_id,
 * obj.subkind = the class they attach to; the other fields unused). User keyvals
 * (MPI_*_create_keyval, MPI_Keyval_create): obj.subkind = the class of the objects they
 * attach to; the user holds one reference until *_free_keyval (then `freed`), every
 * attribute using it holds one more, so it lives, and its handle stays valid for every call,
 * until its last attribute is deleted; its handle value is not reused before. */
struct rt_keyval {
    rt_obj obj;
    rt_callback copy;    /* fn NULL: MPI_*_NULL_COPY_FN (attribute not copied) */
    rt_callback del;     /* fn NULL: MPI_*_NULL_DELETE_FN (nothing called) */
    void *extra_state;
    uint8_t freed;       /* the user's reference is dropped (a second free drops nothing) */
};


/* A region attached to a dynamic window. */
struct rt__win_region {
    void *base;
    rt_aint size;
};

/* An RMA window (win.c, win_shm.c): its processes are those of `comm`, a private dup of the
 * creating communicator; peers[r] is what rank r exposed. */
struct rt_win {
    rt_obj obj;
    rt_errhandler *errh;
    rt_comm *comm;                   /* owned */
    int flavor;                      /* RT_WIN_FLAVOR_* */
    void *base;                      /* this process's memory (MPI_WIN_BASE) */
    rt_aint size, disp_unit;         /* this process's (MPI_WIN_SIZE, MPI_WIN_DISP_UNIT) */
    int disp_unit_int;               /* disp_unit as the int MPI_WIN_DISP_UNIT points to */
    struct { rt_aint size, disp_unit; } *peers; /* every rank's, by rank */
    void *mem;                       /* MPI_Win_allocate: the memory (owned) */
    void *shm;                       /* MPI_Win_allocate_shared: the whole mapping */
    size_t shm_bytes;
    rt_aint *shm_off;                /* rank r's part starts at shm + shm_off[r] */
    struct rt__win_region *attached; /* dynamic windows */
    int nattached;
    rt_info *info;                   /* hints (owned), or NULL */
    char name[RT_MAX_OBJECT_NAME];
    struct rt__attrs attrs;          /* cached attributes (attr_list.c, win_attr.c) */
};
/* Releases what a window holds (memory, mapping, communicator, hints, handler); may run
 * twice (MPI_Win_free, then the object's destructor). */
void rt__win_destroy(rt_obj *o);
/* Maps w's shared segment (the members' sizes known) and sets w->base; raises on
 * w->comm naming fn (RT_ERR_RMA_SHARED when the processes are not all on one node). */
int rt__win_shm_map(rt_win *w, const char *fn);
void rt__win_shm_unmap(rt_win *w);
/* 1 when every member of comm passed ok = 1 (an AND over comm; *err: a communication
 * failure). */
int rt__all_ok(rt_comm *comm, int ok, int *err);
/* *color = a color shared by exactly the processes of comm on this node; *all = 1 when
 * that is every process (comm_create.c, from the node map: no communication). RT_SUCCESS. */
int rt__node_color(rt_comm *comm, int *color, int *all);
/* The node index of world rank w in the job's node map (p2p_engine.c; 0 for a singleton). */
int rt__node_of(int w);

/* Objects that carry an error handler but have no other state yet. */
struct rt_file { rt_obj obj; rt_errhandler *errh; };
struct rt_session { rt_obj obj; rt_errhandler *errh; };

/* A group: an ordered list of world ranks. MPI_GROUP_EMPTY is the builtin of size 0. */
struct rt_group {
    rt_obj obj;
    int size;
    int rank;        /* this process's rank in the group, RT_UNDEFINED if not a member */
    int *ranks;      /* ranks[i]: world rank of group rank i (owned; NULL when size is 0) */
};

/* A reduction operation (op.c). Predefined ops are builtins: which one is obj.index (their
 * rt_builtin_id, RT_B_SUM ...); the other fields are unused. User ops (MPI_Op_create) call
 * cb through the face that created them. */
struct rt_op {
    rt_obj obj;
    rt_callback cb;  /* user ops: the user's function */
    int commute;     /* user ops: 1 if declared commutative */
};

/* The basic elements of a leaf: native size nsz; in external32 each takes xsz bytes (0: no
 * external32 form), swapped in units of `swap` bytes; `sign`: a narrowed integer is signed. */
struct rt__kind {
    uint8_t nsz, xsz, swap, sign;
};

struct rt__layout;

/* One item of a layout: `count` copies, `stride` bytes apart, the first at byte `off` of the
 * element, of either `len` bytes of like basic elements (sub NULL, `kind` says which) or one
 * element of layout `sub` (len = sub->size; the item holds a reference to it). */
struct rt__item {
    rt_aint off, stride;
    rt_count count, len;
    struct rt__layout *sub;
    struct rt__kind kind;
};

/* A datatype's data layout (type_layout.c): one element is its items, in order, in memory and
 * in the packed stream. Its size is proportional to the constructor tree, not to the data
 * (regular strides are one item), so commit and pack cost O(nesting) to describe and O(bytes)
 * to move. Immutable once built; shared by types and enclosing layouts by reference count. */
struct rt__layout {
    int refs;               /* < 0: static (builtin types) */
    int dense;              /* its data are the `size` bytes at offset `dlo`, in order */
    rt_aint dlo;
    rt_count size;          /* bytes of data per element */
    rt_count elements;      /* basic elements per element */
    rt_count xsize;         /* external32 bytes per element, -1 if it has no such form */
    int nitems, cap;
    struct rt__item *items;
};

/* A datatype: its layout, elements `extent` bytes apart. A dense layout at offset 0 whose size
 * is the extent is contiguous: a whole buffer is one memcpy. */
struct rt_type {
    rt_obj obj;
    rt_count size;           /* bytes of data in one element */
    rt_aint lb, extent;      /* lower bound and extent */
    rt_aint true_lb, true_extent;
    struct rt__layout *lay;  /* holds a reference (builtins: a static one) */
    int committed;
    rt_count elem_size;      /* size of its basic element when all are alike, else 0 */
    rt_count pair_first;     /* value-index pairs of mixed types: size of the value part */
    int16_t basic;           /* rt_builtin_id of its basic element when all are alike (a
                                MINLOC/MAXLOC pair type counts as one), else -1 (op.c) */
    char name[RT_MAX_OBJECT_NAME];
    int align;                 /* alignment of its most aligned basic element */
    int explicit_ub;           /* bit 1: lb, bit 2: ub set by resized / MPI_LB / MPI_UB (sticky) */
    /* the constructor call (MPI_Type_get_envelope/get_contents) */
    int combiner;              /* RT_COMBINER_*; RT_COMBINER_NAMED for builtins */
    int nints, naddrs, ntypes;
    int *ints;                 /* owned */
    rt_aint *addrs;            /* owned */
    struct rt_type **types;    /* owned array, each holds a reference */
    struct rt__attrs attrs;    /* cached attributes (attr_list.c, type_attr.c) */
};

struct rt__umsg;

/* A matched message taken off the queue by MPI_Mprobe/MPI_Improbe. */
struct rt_message {
    rt_obj obj;
    struct rt__umsg *msg;    /* NULL: MPI_MESSAGE_NO_PROC */
    rt_comm *comm;           /* holds a reference */
};

enum rt__req_kind { RT__REQ_SEND = 1, RT__REQ_RECV, RT__REQ_COMPOSITE, RT__REQ_COLL };
enum rt__send_mode { RT__MODE_STD = 0, RT__MODE_SYNC, RT__MODE_READY, RT__MODE_BUFFERED };

/* A request: a send or a receive in flight, a persistent one (created inactive by *_init),
 * or a composite one (MPI_Isendrecv: done when its parts are). p2p_*.c own the fields. */
struct rt_request {
    rt_obj obj;
    uint8_t kind;          /* enum rt__req_kind */
    uint8_t mode;          /* sends: enum rt__send_mode */
    uint8_t persistent;    /* made by *_init: survives completion, inactive until MPI_Start */
    uint8_t active;        /* started, not yet completed and returned by a wait or test */
    uint8_t complete;
    uint8_t freed;         /* MPI_Request_free'd while active: freed on completion */
    uint8_t need_ack;      /* a synchronous send waiting for the receiver's match */
    uint8_t tp_pending;    /* the transport still reads the send buffer */
    uint8_t queued;        /* on the posted-receive or pending-send queue */
    uint8_t blocking;      /* waited for by the call that started it (MPI_Recv, MPI_Sendrecv):
                              a process failure fails its MPI_ANY_SOURCE receive with
                              RT_X_ERR_PROC_FAILED rather than RT_X_ERR_PROC_FAILED_PENDING */
    uint8_t taint;         /* a collective's send whose data depend on a failed process
                              (RT__MSG_FAILED) or on a failed part of the collective
                              (RT__MSG_TAINTED): the flag it is sent with, which fails its
                              receive (coll_sched.c); a receive: the flag its message bore */
    rt_comm *comm;         /* holds a reference */
    rt_type *type;         /* holds a reference */
    void *buf;
    rt_count count;
    int peer;              /* rank in comm: destination, or source (RT_ANY_SOURCE) */
    int tag;               /* may be RT_ANY_TAG for receives */
    int lost;              /* an MPI_ANY_SOURCE receive failed by a process failure: the rank
                              in comm of the failed process */
    rt_status status;
    void *tmp;             /* owned packed copy of the data (non-contiguous or buffered) */
    rt_count tmp_len;
    struct rt__bsend_buf *bbuf;      /* buffered send: the attached buffer holding tmp */
    struct rt_request *next, *prev;  /* queue links */
    struct rt_request *sub[2];       /* composite: its parts (owned) */
    struct rt_message *mrecv;        /* MPI_Mrecv/Imrecv: the message to receive */
    struct rt__sched *sched;         /* collectives: the schedule it runs (owned) */
};

/* ------------------------------------------------------------ global state */

/* One table of live user objects per class: slot[i] is the object with index i or NULL. */
struct rt__objtab {
    rt_obj **slot;
    int32_t cap;      /* allocated slots */
    int32_t top;      /* slots ever used: [0, top) */
    int32_t *freel;   /* free slot indices below top (a stack) */
    int32_t nfree, freecap;
};

#define RT__ERR_RING 256  /* messages of the last 256 raised errors are kept */

struct rt__errmsg {
    int code;                         /* instance code, 0 if the entry is unused */
    char msg[RT_MAX_ERROR_STRING];
};

/* A user error class or code (MPI_Add_error_class/code); its code is DYNAMIC_BASE + index. */
struct rt__usererr {
    int cls;         /* its class (itself for a class) */
    uint8_t is_class;
    uint8_t live;    /* 0 once removed */
    char *str;       /* MPI_Add_error_string text (owned) or NULL */
};

/* All mutable state of the runtime. A lock guarding it goes here when MPI_THREAD_MULTIPLE
 * comes; until then MPI_Init_thread provides at most MPI_THREAD_SERIALIZED. The builtin
 * objects (rt_builtins) are set up once at load; their mutable fields are object state. */
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

    /* errors (errors.c, errcodes.c) */
    struct {
        uint32_t seq;                            /* instances raised so far */
        struct rt__errmsg ring[RT__ERR_RING];
        struct rt__usererr *user;                /* user classes and codes */
        int nuser, capuser;
        int lastused;                            /* MPI_LASTUSEDCODE value */
        int aborting;                            /* set once the process is going down */
        int self_errh_set;                       /* the program set MPI_COMM_SELF's handler */
    } err;

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

/* Called once at library load: gives every builtin object its header (the parts that own the
 * classes fill in their defaults after it, init/load.c). */
void rt__objs_load(void);
/* Makes destroy the destructor of class cls: it releases what an object owns before its
 * memory goes (rt__obj_free). Set at load by the part that owns the class (init/load.c). */
void rt__obj_set_destructor(int cls, void (*destroy)(rt_obj *o));
/* Called at unload: frees the table arrays (live user objects are the user's leak). */
void rt__objs_unload(void);

/* A new zeroed object of class cls (struct size of the class) with refs = 1 and a slot
 * in the class table (obj.index). NULL if out of memory or out of indices (2^26). */
rt_obj *rt__obj_new(int cls);
/* As rt__obj_new, but only the header (rt_obj) is set: the rest holds stale bytes, and the
 * caller must set every field. */
rt_obj *rt__obj_new_raw(int cls);
/* Adds a reference (no-op for builtins, which live forever). o may be NULL. Inline, as is
 * rt__obj_release: a request holds its communicator and type, mostly builtins (issue 19). */
static inline void rt__obj_retain(rt_obj *o)
{
    if (o && !o->builtin)
        o->refs++;
}
/* Runs the class destructor of o, whose last reference went, and frees its slot and memory. */
void rt__obj_free(rt_obj *o);
/* Drops a reference; the last one runs the class destructor, frees the slot and the
 * memory. No-op for builtins and NULL. */
static inline void rt__obj_release(rt_obj *o)
{
    if (o && !o->builtin && --o->refs <= 0)
        rt__obj_free(o);
}

/* ------------------------------------------------------------ errors (errors.c) */

/* Writes the MPI name of fn ("rt_Comm_rank" -> "MPI_Comm_rank"; other names as they are)
 * into buf (size n); returns buf. */
const char *rt__mpi_name(const char *fn, char *buf, size_t n);
/* A rank value as a message shows it: the constant's name for the runtime's special values
 * (MPI_PROC_NULL, ...: each face maps its own to them, so the number would be the runtime's, not
 * the user's), else the number; in buf (at least 16 bytes). */
const char *rt__rank_text(int r, char *buf, size_t n);
/* Ends the whole job with exit status `status` (singleton: the process). Never returns. */
_Noreturn void rt__abort_job(int status);
/* Prints "Switchyard: fatal error: <msg>" to stderr and ends the job with status 1. */
_Noreturn void rt__fatal(const char *msg);
/* errors.c: rt__fatal for an error code; a peer failure is reported to the launcher as one. */
_Noreturn void rt__fatal_code(int code, const char *msg);
/* Raises RT_ERR_ARG "invalid argument '<arg>': NULL pointer" on obj for procedure fn. */
int rt__null_arg(rt_obj *obj, const char *fn, const char *arg);
/* The recorded message of instance code `code`, or NULL if it was recycled or never was. */
const char *rt__instance_msg(int code);

/* ------------------------------------------------------------ error codes (errcodes.c) */

/* The predefined text of a predefined class, or NULL if cls is not one. */
const char *rt__class_string(int cls);
/* The text MPI_Error_string gives for code into buf (size n); -1 if code is invalid. */
int rt__error_text(int code, char *buf, size_t n);
/* Called at unload: frees the user error table. */
void rt__errcodes_unload(void);

/* ------------------------------------------------------------ error handlers (errhandler.c) */

/* Sets up the builtin MPI_ERRORS_* objects (at load). */
void rt__errhandler_builtins_init(void);
/* The error-handler slot of a live communicator, window, file or session; NULL for
 * anything else. */
rt_errhandler **rt__errhandler_slot(rt_obj *o);
/* Runs handler eh for error `code` on object target (msg: the text fatal handlers print).
 * Returns code unless the handler ends the process. */
int rt__errhandler_invoke(rt_errhandler *eh, rt_obj *target, int code, const char *msg);
/* Replaces the handler in *slot by eh (reference moved: retains eh, releases the old). */
void rt__errhandler_replace(rt_errhandler **slot, rt_errhandler *eh);
/* What handlers made for objects of class cls are for ("windows (MPI_Win_create_errhandler)"). */
const char *rt__errhandler_class_noun(int cls);
/* Makes fn run before each call of a user's error handler (the attribute part's reset of the
 * calling thread's attribute view, registered at load: init/load.c). */
void rt__errhandler_on_user_call(void (*fn)(void));

#endif
