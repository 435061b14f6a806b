/* face_support.c — messages for bad handles, and rank and tag checks, shared by the
 * MPICH-ABI and standard-ABI C faces. */
#include <stdlib.h>
#include <string.h>

#include "face_support.h"

static const char *const class_names[RT_CLASS_COUNT] = {
    [RT_CLASS_NONE] = "unknown object", [RT_CLASS_COMM] = "communicator", [RT_CLASS_GROUP] = "group",
    [RT_CLASS_DATATYPE] = "datatype", [RT_CLASS_REQUEST] = "request", [RT_CLASS_OP] = "operation",
    [RT_CLASS_ERRHANDLER] = "error handler", [RT_CLASS_INFO] = "info", [RT_CLASS_WIN] = "window",
    [RT_CLASS_FILE] = "file", [RT_CLASS_SESSION] = "session", [RT_CLASS_MESSAGE] = "message",
    [RT_CLASS_KEYVAL] = "keyval",
};

static unsigned subkind_bits(const rt_obj *o)
{
    if (o->cls == RT_CLASS_KEYVAL)
        return fs_mpich_code_of(o->subkind);
    return o->cls == RT_CLASS_MESSAGE ? FS_MESSAGE_SUBKIND : 0;
}

int32_t fs_user_int_handle(const rt_obj *o)
{
    if (o->cls != RT_CLASS_KEYVAL)
        return fs_user_int_handle_of(o, o->cls);
    return (int32_t)((FS_KIND_INDIRECT << 30) | (fs_mpich_code_of(o->cls) << 26) | (subkind_bits(o) << FS_INDEX_BITS) |
                     ((uint32_t)o->index & FS_INDEX_MASK));
}

int fs_int_class_of(int32_t h)
{
    uint32_t u = (uint32_t)h;
    unsigned code = (u >> 26) & 0xf, sub = (u >> FS_INDEX_BITS) & 0xf;
    if (code == 11)
        return sub == FS_MESSAGE_SUBKIND && (u >> 30) == FS_KIND_INDIRECT ? RT_CLASS_MESSAGE : RT_CLASS_REQUEST;
    for (int c = 1; c < RT_CLASS_COUNT; c++)
        if (fs_mpich_code_of(c) == code && c != RT_CLASS_MESSAGE)
            return c;
    return RT_CLASS_NONE;
}

int fs_user_from_int(int32_t h, int cls, rt_obj **out)
{
    uint32_t u = (uint32_t)h;
    *out = NULL;
    if ((u >> 30) != FS_KIND_INDIRECT)
        return FS_DEC_BAD;
    int found = fs_int_class_of(h);
    if (found != cls)
        return found == RT_CLASS_NONE ? FS_DEC_BAD : FS_DEC_WRONG_CLASS;
    rt_obj *o = rt_obj_lookup(cls, (int32_t)(u & FS_INDEX_MASK));
    if (!o || subkind_bits(o) != ((u >> FS_INDEX_BITS) & 0xf))
        return FS_DEC_FREED;
    *out = o;
    return FS_DEC_OK;
}

int fs_handle_errclass(int cls)
{
    switch (cls) {
    case RT_CLASS_COMM: return RT_ERR_COMM;
    case RT_CLASS_GROUP: return RT_ERR_GROUP;
    case RT_CLASS_DATATYPE: return RT_ERR_TYPE;
    case RT_CLASS_REQUEST: case RT_CLASS_MESSAGE: return RT_ERR_REQUEST;
    case RT_CLASS_OP: return RT_ERR_OP;
    case RT_CLASS_INFO: return RT_ERR_INFO;
    case RT_CLASS_WIN: return RT_ERR_WIN;
    case RT_CLASS_FILE: return RT_ERR_FILE;
    case RT_CLASS_SESSION: return RT_ERR_SESSION;
    case RT_CLASS_KEYVAL: return RT_ERR_KEYVAL;
    default: return RT_ERR_ARG;
    }
}

const char *fs_class_name(int cls)
{
    return (cls >= 0 && cls < RT_CLASS_COUNT) ? class_names[cls] : "unknown object";
}

int fs_bad_handle(rt_obj *eo, const char *fn, const char *arg, const char *shown, int cls, int status,
                  int found, int errcls)
{
    const char *what = fs_class_name(cls);
    if (!eo && cls == RT_CLASS_FILE) /* the standard: an invalid file handle is MPI_FILE_NULL's error */
        eo = rt_file_null();
    switch (status) {
    case FS_DEC_NULL:
        return rt_raise(eo, errcls, fn, "invalid %s '%s' = %s: the null handle is not allowed here", what, arg,
                        shown);
    case FS_DEC_WRONG_CLASS:
        return rt_raise(eo, errcls, fn, "invalid %s '%s' = %s: it is a %s handle, not a %s", what, arg, shown,
                        fs_class_name(found), what);
    case FS_DEC_FREED:
        return rt_raise(eo, errcls, fn, "invalid %s '%s' = %s: the object has been freed", what, arg, shown);
    default:
        return rt_raise(eo, errcls, fn, "invalid %s '%s' = %s: not a %s handle", what, arg, shown, what);
    }
}

int fs_array_alloc(void ***p, long n, rt_obj *eo, const char *fn)
{
    *p = NULL;
    if (n <= 0)
        return 0;
    *p = calloc((size_t)n, sizeof **p);
    return *p ? 0 : rt_raise(eo, RT_ERR_NO_MEM, fn, "out of memory for %ld handles", n);
}

int fs_check_rank_rest(rt_obj *eo, const char *fn, const char *arg, int shown, int rank, const rt_comm *comm,
                       int any_ok, int root_ok)
{
    int remote = rt_comm_remote_size_of(comm);
    int size = remote > 0 ? remote : rt_comm_size_of(comm);
    int errcls = root_ok ? RT_ERR_ROOT : RT_ERR_RANK;
    if (root_ok) {
        if (remote > 0 && (rank == RT_ROOT || rank == RT_PROC_NULL))
            return 0;
    } else if (rank == RT_PROC_NULL || (any_ok && rank == RT_ANY_SOURCE)) {
        return 0;
    }
    if (rank >= 0 && rank < size)
        return 0;
    return rt_raise(eo, errcls, fn, "invalid rank '%s' = %d: the %s group has %d process%s", arg, shown,
                    remote > 0 ? "remote" : "communicator's", size, size == 1 ? "" : "es");
}

int fs_check_win_rank_rest(rt_obj *eo, const char *fn, const char *arg, int shown, int rank, const rt_win *win)
{
    int size = rt_win_size_of(win);
    if (rank == RT_PROC_NULL || (rank >= 0 && rank < size))
        return 0;
    return rt_raise(eo, RT_ERR_RANK, fn, "invalid rank '%s' = %d: the window's group has %d process%s", arg, shown,
                    size, size == 1 ? "" : "es");
}

int fs_check_group_rank(rt_obj *eo, const char *fn, const char *arg, int shown, int rank, const char *of,
                        rt_group *group)
{
    int size = 0;
    rt_Group_size(group, &size);
    if (rank >= 0 && rank < size)
        return 0;
    return rt_raise(eo, RT_ERR_RANK, fn, "invalid rank '%s' = %d: %s has %d process%s", arg, shown, of,
                    size, size == 1 ? "" : "es");
}

int fs_check_rank_below(rt_obj *eo, const char *fn, const char *arg, int shown, int rank, const char *of, int size)
{
    if (rank >= 0 && rank < size)
        return 0;
    return rt_raise(eo, RT_ERR_ARG, fn, "invalid argument '%s' = %d: must be >= 0 and < '%s' = %d", arg, shown, of,
                    size);
}

int fs_extent_size(const rt_comm *comm, int local)
{
    int remote = rt_comm_remote_size_of(comm);
    return !local && remote > 0 ? remote : rt_comm_size_of(comm);
}

int fs_degree(rt_comm *comm, int sources)
{
    int kind = RT_UNDEFINED, n = 0, in = 0, out = 0, weighted = 0;
    if (rt_Topo_test(comm, &kind) != RT_SUCCESS)
        return 0;
    if (kind == RT_CART)
        return rt_Cartdim_get(comm, &n) == RT_SUCCESS ? 2 * n : 0;
    if (kind == RT_GRAPH) {
        int me = 0;
        return rt_Comm_rank(comm, &me) == RT_SUCCESS && rt_Graph_neighbors_count(comm, me, &n) == RT_SUCCESS ? n : 0;
    }
    if (kind == RT_DIST_GRAPH && rt_Dist_graph_neighbors_count(comm, &in, &out, &weighted) == RT_SUCCESS)
        return sources ? in : out;
    return 0;
}

int fs_check_counts(rt_obj *eo, const char *fn, const char *arg, rt_counts c, int n, int errcls, int min)
{
    for (int i = 0; i < n; i++)
        if (rt_counts_get(c, (size_t)i) < min)
            return rt_raise(eo, errcls, fn, "invalid %s '%s[%d]' = %lld: must be %s",
                            errcls == RT_ERR_COUNT ? "count" : "argument", arg, i,
                            (long long)rt_counts_get(c, (size_t)i), min > 0 ? "> 0" : ">= 0");
    return 0;
}

int fs_coll_role(rt_comm *comm, int root)
{
    if (rt_comm_remote_size_of(comm) > 0)
        return root == RT_ROOT ? FS_ROLE_ROOT : root == RT_PROC_NULL ? 0 : FS_ROLE_MEMBER;
    int me = -1;
    rt_Comm_rank(comm, &me);
    return me == root ? FS_ROLE_ROOT | FS_ROLE_MEMBER : FS_ROLE_MEMBER;
}

int fs_bad_tag(rt_obj *eo, const char *fn, const char *arg, int shown, int any_ok)
{
    return rt_raise(eo, RT_ERR_TAG, fn, "invalid tag '%s' = %d: must be in 0..%d%s", arg, shown, rt_tag_ub(),
                    any_ok ? " or MPI_ANY_TAG" : "");
}

int fs_check_strlen(rt_obj *eo, const char *fn, const char *arg, const char *s, int max, const char *maxname,
                    int errcls)
{
    if (!s || max <= 0 || strnlen(s, (size_t)max) < (size_t)max)
        return 0;
    return rt_raise(eo, errcls, fn, "invalid argument '%s' = '%.32s...': %zu characters, more than %s - 1 = %d",
                    arg, s, strlen(s), maxname, max - 1);
}

int fs_string_out(char *dst, const char *src, int max)
{
    size_t n = max > 0 ? strnlen(src, (size_t)max - 1) : 0;
    memcpy(dst, src, n);
    if (max > 0)
        dst[n] = '\0';
    return (int)n;
}

void fs_contents_ints_out(rt_type *t, int *ints, int n, int (*order_out)(int), int (*darg_out)(int))
{
    rt_count ni = 0, na = 0, nl = 0, nd = 0;
    int combiner = 0;
    if (rt_Type_get_envelope(t, &ni, &na, &nl, &nd, &combiner) != RT_SUCCESS || ni > n || ni < 1)
        return;
    int nd_ = combiner == RT_COMBINER_SUBARRAY ? ints[0] : combiner == RT_COMBINER_DARRAY && ni > 2 ? ints[2] : 0;
    if (combiner == RT_COMBINER_SUBARRAY && 3 * nd_ + 1 < ni) {
        ints[3 * nd_ + 1] = order_out(ints[3 * nd_ + 1]);
    } else if (combiner == RT_COMBINER_DARRAY && 4 * nd_ + 3 < ni) {
        for (int i = 0; i < nd_; i++) {
            ints[3 + nd_ + i] = order_out(ints[3 + nd_ + i]);   /* the distributions share that map */
            ints[3 + 2 * nd_ + i] = darg_out(ints[3 + 2 * nd_ + i]);
        }
        ints[3 + 4 * nd_] = order_out(ints[3 + 4 * nd_]);
    }
}
