/* rt_internal.h — declarations shared by the files of runtime/core: object structs,
 * the one global state struct, and the internal (rt__) helpers. Never included by faces. */
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

/* ------------------------------------------------------------ communicators (comm.c) */

/* Sets up MPI_COMM_WORLD / MPI_COMM_SELF (at load; sizes refreshed by rt__comm_init). */
void rt__comm_builtins_init(void);
/* At init: WORLD takes the size/rank of rt__g.world. */
void rt__comm_init(void);
/* At finalize: WORLD and SELF drop user error handlers (back to MPI_ERRORS_ARE_FATAL). */
void rt__comm_finalize(void);
/* Destructor of user communicators (called by rt__obj_release). */
void rt__comm_destroy(rt_obj *o);
/* RT_SUCCESS if comm is a live communicator, else raises RT_ERR_COMM for fn. */
int rt__comm_check(const rt_comm *comm, const char *fn);

/* ------------------------------------------------------------ groups (group.c) */

/* A new group of the n world ranks in ranks, which it adopts (malloc'ed; freed on failure
 * and for n == 0, which gives MPI_GROUP_EMPTY). NULL when out of memory. */
rt_group *rt__group_adopt(int n, int *ranks);
/* Drops a reference to g (NULL and builtins: nothing); the last frees its rank list. */
void rt__group_release(rt_group *g);
/* Destructor of groups (frees the rank list; safe to call twice). */
void rt__group_destroy(rt_obj *o);
/* Compares two ordered lists of world ranks: RT_IDENT (same members, same order),
 * RT_SIMILAR (same members) or RT_UNEQUAL. */
int rt__ranks_compare(int n1, const int *a, int n2, const int *b);
/* The index of world rank w in ranks[0..n), or -1. */
int rt__ranks_find(int n, const int *ranks, int w);
/* A new array over the world ranks: inv[w] = the index of w in ranks[0..n), -1 if absent.
 * NULL when out of memory. */
int *rt__ranks_inverse(int n, const int *ranks);

/* ------------------------------------------------------------ internal collectives
 * (coll_internal.c): communicator management talks over a communicator's collective context
 * (ctx + 1) through the internal views comm->coll / comm->lcoll, with reserved tags. */

#define RT__TAG_COLL (-1000)   /* internal collectives over a (local) group */
#define RT__TAG_INTER (-1001)  /* leader-to-leader traffic across an inter-communicator */
/* Tags <= RT__TAG_RESERVED on a collective context belong to communicator management;
 * Comm_create_group and Intercomm_create use the user's (non-negative) tag there. */
#define RT__TAG_RESERVED (-1000)
/* Collective schedules (coll_sched.c) use the tags from RT__TAG_SCHED down: two per
 * collective started on the communicator (own group, remote group), never a tag above. */
#define RT__TAG_SCHED (-2048)

/* The participants of an internal collective: n processes of view cc. */
typedef struct rt__team {
    rt_comm *cc;        /* an internal view: comm->coll (intra) or comm->lcoll (inter) */
    int n, me;          /* number of participants, this process's index among them */
    const int *rank;    /* rank[i]: participant i's rank in cc; NULL: i itself */
    int tag;
} rt__team;

/* The team of all of comm's local group on its collective context (tag RT__TAG_COLL). */
rt__team rt__team_of(rt_comm *comm);
/* Combines `bytes` bytes at in into inout (an allreduce operation). */
typedef void (*rt__reduce_fn)(void *inout, const void *in, size_t bytes);
/* Bitwise AND of 32-bit words. */
void rt__op_band(void *inout, const void *in, size_t bytes);
/* The internal collectives. Each returns RT_SUCCESS or an error class (nothing raised). */
int rt__coll_barrier(const rt__team *t);
int rt__coll_bcast(const rt__team *t, void *buf, size_t bytes, int root);
int rt__coll_allreduce(const rt__team *t, void *buf, size_t bytes, rt__reduce_fn op);
/* all (t->n * bytes) = every participant's `bytes` bytes at mine, in participant order. */
int rt__coll_allgather(const rt__team *t, const void *mine, void *all, size_t bytes);
/* all = the concatenation of bytes[i] bytes from each participant i (bytes known to all). */
int rt__coll_allgatherv(const rt__team *t, const void *mine, void *all, const size_t *bytes);
/* Sends sbytes at sbuf to rank peer of view cc and receives exactly rbytes from it. */
int rt__coll_exchange(rt_comm *cc, int peer, int tag, const void *sbuf, size_t sbytes, void *rbuf,
                      size_t rbytes);

/* ------------------------------------------------------------ communicator creation
 * (comm_create.c, comm_inter.c) */

/* Context ids are handed out in pairs: id i gives ctx 2i (point-to-point) and 2i + 1
 * (collective). WORLD has id 0, SELF id 1. Each process keeps a bitmap of its free ids;
 * the members of a new communicator agree on the lowest id free at all of them. */
#define RT__CTX_IDS 8192
#define RT__CTX_WORDS (RT__CTX_IDS / 32)
/* Copies this process's free-id bitmap into mask (RT__CTX_WORDS words), without the ids
 * that pending nonblocking agreements claim. */
void rt__ctx_mask(uint32_t *mask);
/* Claims for a nonblocking agreement: share (RT__CTX_WORDS words) = the free, unclaimed ids
 * of the half of all ids that seed selects (members pass the same seed); until
 * rt__ctx_release(share) no other agreement at this process offers them. */
void rt__ctx_claim(uint64_t seed, uint32_t *share);
void rt__ctx_release(const uint32_t *share);
/* The lowest id set in mask, or -1 when none is. */
int rt__ctx_lowest(const uint32_t *mask);
/* Agrees on a new id over the whole of comm (both groups of an inter-communicator):
 * *id = the lowest id free at every process, or -1 when there is none (the same answer
 * everywhere). Returns RT_SUCCESS or an error class. */
int rt__ctx_agree(rt_comm *comm, int *id);
/* A new communicator with context id `id` (taken from the free ids), error handler inherited
 * from parent (may be NULL: MPI_ERRORS_ARE_FATAL), local group size/rank, remote group
 * world ranks world[0..n) (owned; n = size for intra-communicators), and for
 * inter-communicators (remote_size > 0) the local group's world ranks lworld (owned).
 * NULL when out of memory (the arrays are freed). */
rt_comm *rt__comm_new(rt_comm *parent, int id, int size, int rank, int *world, int remote_size, int *lworld);
/* As rt__comm_new, with no context id yet (a placeholder no other communicator has):
 * rt__comm_set_ctx(c, id) gives it one (taken from the free ids). */
rt_comm *rt__comm_new_pending(rt_comm *parent, int size, int rank, int *world, int remote_size, int *lworld);
void rt__comm_set_ctx(rt_comm *c, int id);
/* Gives back comm's context id and frees what rt__comm_new allocated (comm.c's destructor). */
void rt__comm_free_parts(rt_comm *comm);
/* Sets up the internal views of a builtin communicator (at init). */
void rt__comm_views_init(rt_comm *comm, rt_comm *coll);
/* Copies src's hints into a new info object (src may be NULL: empty); NULL when out of
 * memory. */
rt_info *rt__info_copy(const rt_info *src);
/* RT_SUCCESS if comm is an intra-communicator; else raises RT_ERR_COMM naming fn. */
int rt__comm_check_intra(rt_comm *comm, const char *fn, const char *arg);

/* Of n (color, key) pairs ck[2r], ck[2r + 1] (r: rank in a group whose world ranks are
 * world[]), the world ranks of those with `color` ordered by key then r, into *out (a new
 * array); *count = how many, *pos = the place of r == me (-1: absent). RT_SUCCESS or
 * RT_ERR_NO_MEM. */
int rt__split_members(const int *ck, int n, int color, const int *world, int me, int **out, int *count,
                      int *pos);
/* Returned by the rt__inter_* creation helpers when no context id is free everywhere. */
#define RT__NO_IDS (-1)

/* Inter-communicators (comm_inter.c): the local leader (local rank 0) swaps `mbytes` bytes
 * with the remote leader, which the local group then receives in theirs (tbytes). */
int rt__inter_swap(rt_comm *inter, const void *mine, size_t mbytes, void *theirs, size_t tbytes);
/* MPI_Comm_dup / MPI_Comm_split / MPI_Comm_create on an inter-communicator; *newcomm may
 * be NULL (MPI_COMM_NULL). Return RT_SUCCESS, RT__NO_IDS or an error class (nothing
 * raised). */
int rt__inter_dup(rt_comm *comm, rt_comm **newcomm);
int rt__inter_split(rt_comm *comm, int color, int key, rt_comm **newcomm);
int rt__inter_create(rt_comm *comm, rt_group *group, rt_comm **newcomm);
/* What the topology part (above comm) does for the description a communicator carries
 * (rt_comm.topo), registered at load (init/load.c): dup, a deep copy (NULL: NULL; *ok = 0
 * when out of memory); free (NULL: nothing). */
struct rt__topo_hooks {
    struct rt__topo *(*dup)(const struct rt__topo *t, int *ok);
    void (*free)(struct rt__topo *t);
};
extern struct rt__topo_hooks rt__topo_hooks;

/* ------------------------------------------------------------ topologies (topo*.c) */

/* A deep copy of topology t (NULL: NULL); *ok = 0 when out of memory. */
struct rt__topo *rt__topo_dup(const struct rt__topo *t, int *ok);
/* Frees topology t (NULL: nothing). */
void rt__topo_free(struct rt__topo *t);
/* What the weights argument of the distributed-graph calls is: 0 = an array of weights,
 * 1 = MPI_UNWEIGHTED, 2 = MPI_WEIGHTS_EMPTY. */
int rt_weights_kind(const int *weights);

/* ------------------------------------------------------------ attributes (attr.c) */

/* The largest tag value (MPI_TAG_UB): 2^30 - 1. */
int rt__tag_ub(void);
/* At init: fills rt__g.attr from rt__g.world. */
void rt__attr_init(void);

/* The attribute list of a live object that can cache attributes (communicators, datatypes,
 * windows), NULL for any other. */
struct rt__attrs *rt__attrs_of(rt_obj *o);
/* Set, get and delete one attribute of an object that can cache (rt__attrs_of(o) != NULL;
 * kv checked by the caller). set: an existing value goes to the delete callback first, whose
 * error fails the call with the old value kept (raised on o naming fn); RT_ERR_NO_MEM.
 * get: *flag = 1 and *val, or *flag = 0. delete: the delete callback first, whose error
 * fails the call and keeps the attribute; no attribute: RT_SUCCESS. */
int rt__attr_set(rt_obj *o, rt_keyval *kv, rt_aint val, const char *fn);
void rt__attr_get(rt_obj *o, rt_keyval *kv, rt_aint *val, int *flag);
int rt__attr_delete(rt_obj *o, rt_keyval *kv, const char *fn);
/* Copies the attributes of old onto new (a fresh object of the same class, being made by
 * MPI_Comm_dup / dup_with_info, MPI_Type_dup; MPI_Comm_idup's completion: _quiet): calls
 * each keyval's copy callback once per attribute, in old's order; flag 0 or a NULL copy
 * function leaves the attribute out. The hook for every duplication: call it once the new
 * object exists and before the user can see it. A callback error: the attributes copied so
 * far are deleted again from new (their delete callbacks run, errors ignored), so new has
 * none; the error is raised on old naming fn and its code returned; the caller then frees
 * new. RT_ERR_NO_MEM likewise. */
int rt__attrs_copy(rt_obj *old, rt_obj *newobj, const char *fn);
/* As rt__attrs_copy, but raises nothing: returns RT_SUCCESS, RT_ERR_NO_MEM or the failing
 * callback's code (for completions, whose request carries the error: MPI_Comm_idup). */
int rt__attrs_copy_quiet(rt_obj *old, rt_obj *newobj);
/* Deletes every attribute of o, newest first (MPI_Comm_free, finalize for MPI_COMM_SELF),
 * calling the delete callbacks. A callback error: the attribute whose callback failed and
 * those set before it stay, the error is raised on o naming fn and returned. */
int rt__attrs_delete_all(rt_obj *o, const char *fn);
/* Drops every attribute of o without callbacks (destructors: memory and keyval references
 * only). */
void rt__attrs_clear(rt_obj *o);
/* At the start of MPI_Finalize: the attributes of MPI_COMM_SELF are deleted, newest first.
 * Returns what rt__attrs_delete_all returns. */
int rt__attrs_finalize(void);

/* ------------------------------------------------------------ keyvals (keyval.c) */

/* RT_SUCCESS if kv may be used by the user as argument `arg` of fn on an object of class
 * cls (a live keyval, freed or not, made for cls); else raises RT_ERR_KEYVAL on eo naming fn,
 * arg and the keyval, and returns the code. */
int rt__keyval_check(rt_keyval *kv, int cls, rt_obj *eo, const char *fn, const char *arg);
/* MPI_*_create_keyval for objects of class cls: a new user keyval in *out. RT_ERR_NO_MEM
 * (raised naming fn) when out of memory. */
int rt__keyval_create(int cls, rt_callback copy, rt_callback del, void *extra_state, rt_keyval **out,
                      const char *fn);
/* MPI_*_free_keyval for class cls: checks *kv (rt__keyval_check; predefined keyvals cannot
 * be freed), marks it freed and drops the user's reference unless it was freed already (a
 * copy of the handle freed again while attributes keep it alive), *kv = NULL
 * (MPI_KEYVAL_INVALID). */
int rt__keyval_free(int cls, rt_keyval **kv, const char *fn, const char *arg);

/* ------------------------------------------------------------ info (info.c, info_env.c) */

/* Sets up MPI_INFO_ENV (empty, read-only) at load. */
void rt__info_builtins_init(void);
/* Destructor of user infos; also used to empty MPI_INFO_ENV. */
void rt__info_destroy(rt_obj *o);
/* Sets key=val in info, ignoring the read-only flag; no argument checks (internal use).
 * Returns RT_SUCCESS or RT_ERR_NO_MEM (nothing raised). */
int rt__info_put(rt_info *info, const char *key, const char *val);
/* Fills info with the MPI_INFO_ENV keys for the given command line (argv may be NULL:
 * then /proc/self/cmdline is used if readable); thread_level < 0 omits "thread_level".
 * Best effort: keys that cannot be determined are left out. */
void rt__info_fill_env(rt_info *info, int argc, char **argv, int thread_level);
/* At init: (re)fills MPI_INFO_ENV. */
void rt__info_env_init(int argc, char **argv, int thread_level);
/* Name of a runtime thread level ("MPI_THREAD_SINGLE" ...), NULL if not one. */
const char *rt__thread_level_name(int level);

/* ------------------------------------------------------------ datatypes (type.c) */

/* Sets up the builtin datatypes' layouts (at load). */
void rt__type_builtins_init(void);
/* 1 if count elements of t are one run of count * size bytes. */
int rt__type_contig(const rt_type *t);
/* Copies count elements of t at buf into dst (count * t->size bytes). */
void rt__type_pack(const rt_type *t, const void *buf, rt_count count, void *dst);
/* Copies `bytes` packed bytes from src into elements of t at buf (a partial last element
 * gets its first bytes). */
void rt__type_unpack(const rt_type *t, const void *src, rt_count bytes, void *buf);
/* Copies bytes [offset, offset + len) of the packed stream of count elements of t at buf to
 * dst (to_stream: pack) or from src into the elements (unpack): a piece of a pipelined transfer. */
void rt__type_part(const rt_type *t, void *buf, rt_count offset, rt_count len, void *stream, int to_stream);
/* A new type sharing old's layout, with its bounds; no constructor record. NULL when out of
 * memory (type_create.c). */
rt_type *rt__type_copy_layout(const rt_type *old);
/* Destructor of user datatypes. */
void rt__type_destroy(rt_obj *o);
/* At finalize: the predefined datatypes drop their attributes (no delete callbacks, as
 * MPI_COMM_WORLD's), releasing the keyvals (type_attr.c). */
void rt__type_attrs_finalize(void);
/* RT_SUCCESS if t may be used to communicate, else raises RT_ERR_TYPE on eo for fn. */
int rt__type_check(const rt_type *t, rt_obj *eo, const char *fn);
/* Bytes of the external32 form of one element of t; -1 if some basic element has none. */
rt_count rt__type_ext_size(const rt_type *t);

/* ------------------------------------------------------------ layouts (type_layout.c) */

/* A new empty layout (one reference), NULL when out of memory. */
struct rt__layout *rt__lay_new(void);
/* One more reference to l (static layouts are not counted). */
void rt__lay_retain(struct rt__layout *l);
/* One reference less; the last frees l and releases its sub-layouts. NULL is ignored. */
void rt__lay_release(struct rt__layout *l);
/* Appends `count` copies, `stride` bytes apart from byte `off`, of one element of sub to l,
 * as a single item where the copies are regular (merged with the last item where they continue
 * it). Returns 0, or -1 when out of memory. */
int rt__lay_add_copies(struct rt__layout *l, rt_aint off, rt_count count, rt_aint stride, struct rt__layout *sub);
/* Appends a leaf of len bytes of basic elements of kind k at byte off. 0, or -1 (no memory). */
int rt__lay_add_leaf(struct rt__layout *l, rt_aint off, rt_count len, struct rt__kind k);
/* Computes l's totals (size, elements, xsize, density) once its items are added; -1 if its
 * size overflows an MPI_Count. */
int rt__lay_finish(struct rt__layout *l);
/* Packs one element of l at base into out; returns the end of what it wrote. */
char *rt__lay_pack(const struct rt__layout *l, const char *base, char *out);
/* Unpacks at most *left bytes from *in into one element of l at base, advancing both. */
void rt__lay_unpack(const struct rt__layout *l, char *base, const char **in, rt_count *left);
/* Copies bytes [*skip, *skip + *len) of the packed stream of one element of l at base (*skip <
 * l->size) to *buf (to_stream: pack) or from it (unpack), advancing *buf and consuming *skip and
 * *len (what is left of *len continues in the next element). */
void rt__lay_part(const struct rt__layout *l, char *base, rt_count *skip, rt_count *len, char **buf, int to_stream);
/* Basic elements in the first `bytes` bytes (< l->size) of an element; -1 if they end inside
 * a basic element. */
rt_count rt__lay_elements_in(const struct rt__layout *l, rt_count bytes);
/* Bytes of the first `elems` basic elements (< l->elements) of an element. */
rt_count rt__lay_bytes_of(const struct rt__layout *l, rt_count elems);
/* Converts one element of l between the native packed stream (*nat) and external32 (*ext),
 * advancing both; to_ext: the direction. */
void rt__lay_convert(const struct rt__layout *l, unsigned char **nat, unsigned char **ext, int to_ext);

/* ------------------------------------------------------------ lifecycle (state.c, world.c) */

/* At load: the loading thread is the main thread until init says otherwise. */
void rt__state_load(void);
/* At init: fills rt__g.world (singleton: size 1, rank 0; a launcher client fills it later).
 * Returns RT_SUCCESS or an error class (nothing raised). */
int rt__world_init(void);
/* At finalize: leaves the job (the launcher then knows this rank finished cleanly). */
void rt__world_finalize(void);
/* Destructors of requests and matched-probe messages (p2p_request.c). */
void rt__request_destroy(rt_obj *o);
void rt__message_destroy(rt_obj *o);
/* The point-to-point engine (p2p_engine.c): transports up at init, down at finalize. */
int rt__p2p_init(void);
void rt__p2p_finalize(void);

/* ------------------------------------------------------------ env (env.c) */

/* At load: takes the MPI_Wtime origin. */
void rt__env_load(void);

/* MPI_Aint_add: the face implements it inline today (its return kind has no runtime
 * prototype in rt_procs.h); provided for faces that prefer to call the runtime. */
rt_aint rt_Aint_add(rt_aint base, rt_aint disp);

#endif
