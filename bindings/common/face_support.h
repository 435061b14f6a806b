/* face_support.h — what the two C faces share: handle-decoding results, the messages for
 * bad handles, and the rank and tag checks made before the runtime sees a call. */
#ifndef FACE_SUPPORT_H
#define FACE_SUPPORT_H

#include "rt.h"

#define FACE_API __attribute__((visibility("default")))

/* Results of a face's handle decoder. */
enum { FS_DEC_OK = 0, FS_DEC_NULL, FS_DEC_BAD, FS_DEC_WRONG_CLASS, FS_DEC_FREED };

/* Raises errcls on eo for a handle argument that failed to decode with `status`; `shown`
 * is the handle as the face prints it, `found` the class it really has (RT_CLASS_NONE if
 * unknown). Returns the error code. */
int fs_bad_handle(rt_obj *eo, const char *fn, const char *arg, const char *shown, int cls, int status,
                  int found, int errcls);

/* Arrays of up to this many handles or statuses are converted on the stack of the entry point
 * (MPI_Waitall on a few requests, issue 19); longer ones in memory from malloc. */
#define FS_STACK_N 16

/* Allocates an array of n object pointers for an output handle array (NULL when n <= 0).
 * Returns 0, or an RT_ERR_NO_MEM raised on eo. */
int fs_array_alloc(void ***p, long n, rt_obj *eo, const char *fn);

/* Checks a rank argument (shown: the user's value; rank: mapped to the runtime's values) of
 * a call on comm. any_ok: MPI_ANY_SOURCE is allowed; root_ok: a root argument (MPI_ROOT and
 * MPI_PROC_NULL are allowed on inter-communicators). Returns 0 or the raised error. */
int fs_check_rank_rest(rt_obj *eo, const char *fn, const char *arg, int shown, int rank, const rt_comm *comm,
                       int any_ok, int root_ok);
static inline int fs_check_rank(rt_obj *eo, const char *fn, const char *arg, int shown, int rank,
                                const rt_comm *comm, int any_ok, int root_ok)
{
    /* a rank of the group inline (every send and receive), the rest (special values, errors) not */
    int remote = rt_comm_remote_size_of(comm), size = remote > 0 ? remote : rt_comm_size_of(comm);
    if (__builtin_expect(rank >= 0 && rank < size, 1))
        return 0;
    return fs_check_rank_rest(eo, fn, arg, shown, rank, comm, any_ok, root_ok);
}

/* Checks a target rank (shown, rank: as for fs_check_rank) of an RMA call on win against the
 * window's group; MPI_PROC_NULL is allowed. Returns 0 or the raised error (RT_ERR_RANK). */
int fs_check_win_rank_rest(rt_obj *eo, const char *fn, const char *arg, int shown, int rank, const rt_win *win);
static inline __attribute__((always_inline)) int fs_check_win_rank(rt_obj *eo, const char *fn, const char *arg,
                                                                   int shown, int rank, const rt_win *win)
{
    /* a rank of the group inline (every RMA call; rt_win_size_of is one load under LTO), the
     * rest (MPI_PROC_NULL, errors) not */
    int size = rt_win_size_of(win); /* -1 for NULL */
    if (__builtin_expect(rank >= 0 && rank < size, 1))
        return 0;
    return fs_check_win_rank_rest(eo, fn, arg, shown, rank, win);
}

/* Checks a rank (shown, rank: as for fs_check_rank) of group, the argument `of`, e.g. an
 * inter-communicator's local leader. Returns 0 or the raised error (RT_ERR_RANK). */
int fs_check_group_rank(rt_obj *eo, const char *fn, const char *arg, int shown, int rank, const char *of,
                        rt_group *group);

/* Checks a rank (shown, rank: as for fs_check_rank) is in [0, size), size the argument `of`
 * (MPI_Type_create_darray's). Returns 0 or the raised error (RT_ERR_ARG, MPICH's class). */
int fs_check_rank_below(rt_obj *eo, const char *fn, const char *arg, int shown, int rank, const char *of, int size);

/* The length of a '*'-long array argument of a collective on comm (model.py's extent): the
 * peers (the remote group of an inter-communicator, else the group), or the local group. */
int fs_extent_size(const rt_comm *comm, int local);

/* The length of a '*'-long array argument of a neighbourhood collective on comm: its
 * topology's in-degree (sources) or out-degree; 0 without a topology. */
int fs_degree(rt_comm *comm, int sources);

/* Checks the first n elements of a count array arg (c: a collective's counts, a datatype
 * constructor's blocklengths or sizes) are >= min (0, or 1 for a kind with check positive),
 * naming the element. Returns 0 or errcls raised (RT_ERR_COUNT for a collective's, the
 * kind's element_error_class). */
int fs_check_counts(rt_obj *eo, const char *fn, const char *arg, rt_counts c, int n, int errcls, int min);

/* The arguments of a rooted collective this process uses, by the root argument (runtime
 * value): FS_ROLE_ROOT (it is the root), FS_ROLE_MEMBER (it sends to or receives from the
 * root: every process of an intra-communicator, the non-root group of an inter-communicator). */
#define FS_ROLE_ROOT 1
#define FS_ROLE_MEMBER 2
int fs_coll_role(rt_comm *comm, int root);

/* Checks a tag argument (inline: on every send and receive); any_ok: MPI_ANY_TAG is allowed. */
int fs_bad_tag(rt_obj *eo, const char *fn, const char *arg, int shown, int any_ok);
static inline int fs_check_tag(rt_obj *eo, const char *fn, const char *arg, int shown, int tag, int any_ok)
{
    if (__builtin_expect((unsigned)tag <= (unsigned)RT_TAG_MAX, 1) || (any_ok && tag == RT_ANY_TAG))
        return 0;
    return fs_bad_tag(eo, fn, arg, shown, any_ok);
}

/* Checks an IN string argument s (may be NULL: not checked here) against the face's limit
 * max (the value of the face's constant `maxname`): at most max - 1 characters, so that it
 * fits with its NUL in a buffer of max characters. Returns 0 or errcls raised on eo. */
int fs_check_strlen(rt_obj *eo, const char *fn, const char *arg, const char *s, int max, const char *maxname,
                    int errcls);

/* Copies the runtime's OUT string src into the user's dst of the face's limit max (the
 * value of the face's MPI_MAX_ constant): at most max - 1 characters and a NUL. Returns the
 * number of characters copied (the face's resultlen). */
int fs_string_out(char *dst, const char *src, int max);

/* Integer handles of user objects, shared by both C faces and Fortran (MPICH's encoding:
 * bits 30-31 kind 3, 26-29 object class, 22-25 subkind, low 22 bits the table index). */
int32_t fs_user_int_handle(const rt_obj *o);
/* Decodes an integer handle of kind 3 into a live user object of class cls: FS_DEC_*. */
int fs_user_from_int(int32_t h, int cls, rt_obj **out);
/* The runtime class an MPICH-encoded integer handle claims to be (RT_CLASS_NONE if none). */
int fs_int_class_of(int32_t h);
/* The MPICH ABI's user handle: KIND_INDIRECT (3) in bits 30-31, the class's code in 26-29, a
 * subkind in 22-25 (a user message's 1, a keyval's object class), the table index below. */
#define FS_KIND_INDIRECT 3u
#define FS_INDEX_BITS 22
#define FS_INDEX_MASK ((1u << FS_INDEX_BITS) - 1)
#define FS_MESSAGE_SUBKIND 1u /* tells user messages from user requests, which share code 11 */
/* MPICH's object-class code (bits 26-29) of a runtime class. */
static inline unsigned fs_mpich_code_of(int cls)
{
    switch (cls) {
    case RT_CLASS_COMM: return 1;
    case RT_CLASS_GROUP: return 2;
    case RT_CLASS_DATATYPE: return 3;
    case RT_CLASS_FILE: return 4;
    case RT_CLASS_ERRHANDLER: return 5;
    case RT_CLASS_OP: return 6;
    case RT_CLASS_INFO: return 7;
    case RT_CLASS_WIN: return 8;
    case RT_CLASS_KEYVAL: return 9;
    case RT_CLASS_REQUEST: case RT_CLASS_MESSAGE: return 11;
    case RT_CLASS_SESSION: return 14;
    default: return 0;
    }
}
/* fs_user_int_handle(o) for o of class cls, not a keyval: inline where cls is a constant. */
static inline int32_t fs_user_int_handle_of(const rt_obj *o, int cls)
{
    return (int32_t)(FS_KIND_INDIRECT << 30 | fs_mpich_code_of(cls) << 26 |
                     (cls == RT_CLASS_MESSAGE ? FS_MESSAGE_SUBKIND << FS_INDEX_BITS : 0) |
                     ((uint32_t)o->index & FS_INDEX_MASK));
}
/* The live object a user handle h of class cls (not a keyval) names, or NULL when h is no such
 * handle (a predefined or null handle, a freed or foreign one): inline, for the common case;
 * fs_user_from_int tells why not. */
static inline __attribute__((always_inline)) rt_obj *fs_user_at(int32_t h, int cls)
{
    uint32_t u = (uint32_t)h, hi = FS_KIND_INDIRECT << 30 | fs_mpich_code_of(cls) << 26 |
                                   (cls == RT_CLASS_MESSAGE ? FS_MESSAGE_SUBKIND << FS_INDEX_BITS : 0);
    return (u & ~FS_INDEX_MASK) == hi ? rt_obj_at(cls, (int32_t)(u & FS_INDEX_MASK)) : NULL;
}

/* The live keyval a user keyval handle h names (its object kind in bits 22-25 must be the
 * keyval's), or NULL (fs_user_from_int tells why): inline, as fs_user_at. */
static inline rt_obj *fs_user_keyval_at(int32_t h)
{
    uint32_t u = (uint32_t)h;
    if ((u >> 26) != (FS_KIND_INDIRECT << 4 | fs_mpich_code_of(RT_CLASS_KEYVAL)))
        return NULL;
    rt_obj *o = rt_obj_at(RT_CLASS_KEYVAL, (int32_t)(u & FS_INDEX_MASK));
    return o && fs_mpich_code_of(o->subkind) == ((u >> FS_INDEX_BITS) & 0xf) ? o : NULL;
}

/* The error class for an invalid handle of class cls (MPI_ERR_COMM, MPI_ERR_TYPE, ...). */
int fs_handle_errclass(int cls);

/* MPI_Type_get_contents: the integers of a subarray or darray combiner hold constants (order,
 * distributions, MPI_DISTRIBUTE_DFLT_DARG), which the runtime keeps in its own values; this
 * turns them into the face's with the face's maps. n: how many integers were returned. */
void fs_contents_ints_out(rt_type *t, int *ints, int n, int (*order_out)(int), int (*darg_out)(int));

/* "communicator", "datatype", ... for messages. */
const char *fs_class_name(int cls);

#endif
