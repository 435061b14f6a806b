/* attr.c — the predefined communicator attributes (MPI_TAG_UB, MPI_HOST, MPI_IO, ...)
 * read through MPI_Comm_get_attr. User keyvals and caching come with a later issue. */
#include "rt_internal.h"

/* The largest usable tag: 2^30 - 1 (leaves room for internal tags). */
int rt__tag_ub(void)
{
    return (1 << 30) - 1;
}

/* See rt.h: the largest usable tag, for the faces (the MPI_TAG_UB attribute's value). */
int rt_tag_ub(void)
{
    return rt__tag_ub();
}

/* At init: the attribute values from rt__g.world. */
void rt__attr_init(void)
{
    rt__g.attr.tag_ub = rt__tag_ub();
    rt__g.attr.host = RT_PROC_NULL;        /* no host process */
    rt__g.attr.io = RT_ANY_SOURCE;         /* every process can do I/O */
    rt__g.attr.wtime_is_global = 0;
    rt__g.attr.universe_size = rt__g.world.universe_size;
    rt__g.attr.appnum = rt__g.world.appnum;
}

/* The int behind predefined keyval id (a communicator keyval), NULL if none. */
static int *value_of(int id)
{
    switch (id) {
    case RT_B_TAG_UB: return &rt__g.attr.tag_ub;
    case RT_B_HOST: return &rt__g.attr.host;
    case RT_B_IO: return &rt__g.attr.io;
    case RT_B_WTIME_IS_GLOBAL: return &rt__g.attr.wtime_is_global;
    case RT_B_UNIVERSE_SIZE: return &rt__g.attr.universe_size;
    case RT_B_APPNUM: return &rt__g.attr.appnum;
    case RT_B_LASTUSEDCODE: return &rt__g.err.lastused;
    default: return NULL;
    }
}

/* MPI_Comm_get_attr, predefined keys only, C semantics: *(void **)attribute_val = a
 * pointer to an int the runtime owns (valid until finalize; MPI_LASTUSEDCODE follows
 * MPI_Add_error_*), *flag = 1. The values are the same on every communicator.
 * Bad comm: RT_ERR_COMM; NULL/invalid/user/window keyval: RT_ERR_KEYVAL; NULL pointers:
 * RT_ERR_ARG. */
int rt_Comm_get_attr(rt_comm *comm, rt_keyval *comm_keyval, void *attribute_val, int *flag)
{
    int err, *val;

    rt_require_init(__func__);
    if ((err = rt__comm_check(comm, __func__)) != RT_SUCCESS)
        return err;
    if (!rt_obj_is(comm_keyval, RT_CLASS_KEYVAL))
        return RT_ERR(comm, RT_ERR_KEYVAL, "invalid keyval 'comm_keyval'%s",
                      comm_keyval ? "" : " (MPI_KEYVAL_INVALID)");
    if (comm_keyval->obj.subkind != RT_CLASS_COMM)
        return RT_ERR(comm, RT_ERR_KEYVAL, "keyval 'comm_keyval' = %s is not a communicator "
                      "keyval", comm_keyval->obj.builtin
                      ? rt_builtin_desc[comm_keyval->obj.index].name : "(user keyval)");
    val = comm_keyval->obj.builtin ? value_of(comm_keyval->obj.index) : NULL;
    if (!val)
        return RT_ERR(comm, RT_ERR_KEYVAL, "invalid keyval 'comm_keyval'");
    if (!attribute_val)
        return rt__null_arg(&comm->obj, __func__, "attribute_val");
    if (!flag)
        return rt__null_arg(&comm->obj, __func__, "flag");
    *(void **)attribute_val = val;
    *flag = 1;
    return RT_SUCCESS;
}
