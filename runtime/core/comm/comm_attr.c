/* comm_attr.c — caching on communicators: MPI_Comm_set/get/delete_attr and the MPI-1 names, the
 * predefined attributes (MPI_TAG_UB, MPI_HOST, ...), and MPI_COMM_SELF's at finalize. */
#include "attr/attr.h"
#include "comm.h"

/* The largest usable tag (rt.h). */
int rt__tag_ub(void)
{
    return RT_TAG_MAX;
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
    case RT_B_LASTUSEDCODE: return &rt__err.lastused;
    default: return NULL;
    }
}

/* Checks kv for a caching call on comm (a communicator the face decoded); `arg` names the
 * keyval argument. */
static int check(rt_comm *comm, rt_keyval *kv, const char *fn, const char *arg)
{
    return rt__keyval_check(kv, RT_CLASS_COMM, &comm->obj, fn, arg);
}

/* Refuses to set or delete a predefined attribute. */
static int predefined(rt_comm *comm, rt_keyval *kv, const char *fn, const char *arg)
{
    return rt_raise(&comm->obj, RT_ERR_KEYVAL, fn, "invalid keyval '%s' = %s: a predefined attribute cannot be %s",
                    arg, rt_builtin_desc[kv->obj.index].name, strstr(fn, "elete") ? "deleted" : "set");
}

static int get_attr(rt_comm *comm, rt_keyval *kv, void *attribute_val, int *flag, const char *fn, const char *arg)
{
    int err = check(comm, kv, fn, arg);
    rt_aint v = 0;

    if (err)
        return err;
    if (!attribute_val)
        return rt__null_arg(&comm->obj, fn, "attribute_val");
    if (!flag)
        return rt__null_arg(&comm->obj, fn, "flag");
    if (kv->obj.builtin) {
        int *p = value_of(kv->obj.index);
        *flag = p != NULL;
        if (p)
            *(void **)attribute_val = p;
        return RT_SUCCESS;
    }
    rt__attr_get(&comm->obj, kv, &v, flag);
    if (*flag)
        *(void **)attribute_val = (void *)v;
    return RT_SUCCESS;
}

static int set_attr(rt_comm *comm, rt_keyval *kv, void *attribute_val, const char *fn, const char *arg)
{
    int err = check(comm, kv, fn, arg);

    if (err)
        return err;
    if (kv->obj.builtin)
        return predefined(comm, kv, fn, arg);
    return rt__attr_set(&comm->obj, kv, (rt_aint)attribute_val, fn);
}

static int delete_attr(rt_comm *comm, rt_keyval *kv, const char *fn, const char *arg)
{
    int err = check(comm, kv, fn, arg);

    if (err)
        return err;
    if (kv->obj.builtin)
        return predefined(comm, kv, fn, arg);
    return rt__attr_delete(&comm->obj, kv, fn);
}

/* MPI_Comm_get_attr, C semantics: *(void **)attribute_val = the stored value (the pointer C
 * code set) and *flag = 1, or *flag = 0 if comm has none. Predefined keys: a pointer to an
 * int the runtime owns (valid until finalize; the same on every communicator; MPI_LASTUSEDCODE
 * follows MPI_Add_error_*). comm: as the face decoded it; a non-communicator
 * keyval: RT_ERR_KEYVAL; NULL pointers: RT_ERR_ARG. */
int rt_Comm_get_attr(rt_comm *comm, rt_keyval *comm_keyval, void *attribute_val, int *flag)
{
    return get_attr(comm, comm_keyval, attribute_val, flag, __func__, "comm_keyval");
}

/* MPI_Comm_set_attr: comm caches attribute_val under comm_keyval; a value already there goes
 * to the delete callback first (its error fails the call, the old value stays). Predefined
 * keys: RT_ERR_KEYVAL. */
int rt_Comm_set_attr(rt_comm *comm, rt_keyval *comm_keyval, void *attribute_val)
{
    return set_attr(comm, comm_keyval, attribute_val, __func__, "comm_keyval");
}

/* MPI_Comm_delete_attr: the delete callback, then the attribute is gone (a callback error
 * fails the call and keeps it). No attribute: success. Predefined keys: RT_ERR_KEYVAL. */
int rt_Comm_delete_attr(rt_comm *comm, rt_keyval *comm_keyval)
{
    return delete_attr(comm, comm_keyval, __func__, "comm_keyval");
}

/* MPI_Attr_get, MPI_Attr_put, MPI_Attr_delete (MPI-1): as the MPI_Comm_* calls. */
int rt_Attr_get(rt_comm *comm, rt_keyval *keyval, void *attribute_val, int *flag)
{
    return get_attr(comm, keyval, attribute_val, flag, __func__, "keyval");
}

int rt_Attr_put(rt_comm *comm, rt_keyval *keyval, void *attribute_val)
{
    return set_attr(comm, keyval, attribute_val, __func__, "keyval");
}

int rt_Attr_delete(rt_comm *comm, rt_keyval *keyval)
{
    return delete_attr(comm, keyval, __func__, "keyval");
}

/* See comm.h. */
int rt__comm_attrs_finalize(void)
{
    return rt__attrs_delete_all(rt_builtins[RT_B_COMM_SELF], "rt_Finalize");
}
