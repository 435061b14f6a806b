/* keyval.c — user keyvals (MPI_*_create_keyval, MPI_Keyval_create): creation, freeing with
 * reference counts, and the checks every caching call makes on its keyval argument. */
#include "attr.h"

#include <stdio.h>

/* What objects of class cls are called in messages. */
static const char *kind_name(int cls)
{
    switch (cls) {
    case RT_CLASS_COMM: return "communicator";
    case RT_CLASS_DATATYPE: return "datatype";
    case RT_CLASS_WIN: return "window";
    default: return "unknown";
    }
}

/* kv described for a message: its predefined name, or its handle value in the face that
 * created it. */
static void describe(const rt_keyval *kv, char *buf, size_t n)
{
    const rt_face *f = kv->copy.face;

    if (kv->obj.builtin)
        snprintf(buf, n, "%s", rt_builtin_desc[kv->obj.index].name);
    else if (f && f->version >= 3 && f->handle_value)
        snprintf(buf, n, "0x%08lx", (unsigned long)(uint32_t)f->handle_value(&kv->obj, RT_CLASS_KEYVAL));
    else
        snprintf(buf, n, "(user keyval %d)", (int)kv->obj.index);
}

/* See attr.h. */
int rt__keyval_refuse(rt_keyval *kv, int cls, rt_obj *eo, const char *fn, const char *arg)
{
    char d[64];

    if (!rt_obj_is(kv, RT_CLASS_KEYVAL))
        return rt_raise(eo, RT_ERR_KEYVAL, fn, "invalid keyval '%s'%s", arg, kv ? "" : " = MPI_KEYVAL_INVALID");
    describe(kv, d, sizeof d);
    return rt_raise(eo, RT_ERR_KEYVAL, fn, "invalid keyval '%s' = %s: a %s keyval, not a %s keyval", arg, d,
                    kind_name(kv->obj.subkind), kind_name(cls));
}

/* See attr.h. */
int rt__keyval_create(int cls, rt_callback copy, rt_callback del, void *extra_state, rt_keyval **out,
                      const char *fn)
{
    rt_keyval *kv = (rt_keyval *)rt__obj_new(RT_CLASS_KEYVAL);

    if (!kv)
        return rt_raise(NULL, RT_ERR_NO_MEM, fn, "out of memory (or of keyval handles)");
    kv->obj.subkind = (uint16_t)cls;
    kv->copy = copy;
    kv->del = del;
    kv->extra_state = extra_state;
    *out = kv;
    return RT_SUCCESS;
}

/* See rt.h. */
void rt_keyval_set_callback_flags(rt_keyval *kv, unsigned flags)
{
    kv->copy.flags |= flags;
    kv->del.flags |= flags;
}

/* See attr.h. */
int rt__keyval_free(int cls, rt_keyval **kv, const char *fn, const char *arg)
{
    int err = rt__keyval_check(*kv, cls, NULL, fn, arg);

    if (err)
        return err;
    if ((*kv)->obj.builtin)
        return rt_raise(NULL, RT_ERR_KEYVAL, fn, "invalid keyval '%s' = %s: a predefined keyval cannot be freed",
                        arg, rt_builtin_desc[(*kv)->obj.index].name);
    if (!(*kv)->freed) { /* a second free while attributes keep it alive: nothing more (MPICH) */
        (*kv)->freed = 1;
        rt__obj_release(&(*kv)->obj);
    }
    *kv = NULL;
    return RT_SUCCESS;
}

/* MPI_Comm_create_keyval: a communicator keyval with the user's callbacks (NULL functions:
 * the NULL_COPY / NULL_DELETE functions) and extra_state. */
int rt_Comm_create_keyval(rt_callback comm_copy_attr_fn, rt_callback comm_delete_attr_fn, rt_keyval **comm_keyval,
                          void *extra_state)
{
    return rt__keyval_create(RT_CLASS_COMM, comm_copy_attr_fn, comm_delete_attr_fn, extra_state, comm_keyval,
                             __func__);
}

/* MPI_Keyval_create (MPI-1): the same as MPI_Comm_create_keyval. */
int rt_Keyval_create(rt_callback copy_fn, rt_callback delete_fn, rt_keyval **keyval, void *extra_state)
{
    return rt__keyval_create(RT_CLASS_COMM, copy_fn, delete_fn, extra_state, keyval, __func__);
}

/* MPI_Comm_free_keyval: *comm_keyval = MPI_KEYVAL_INVALID; the keyval lives on, valid, while
 * attributes use it (freeing it again then does nothing more). Not a communicator keyval,
 * gone, predefined: RT_ERR_KEYVAL. */
int rt_Comm_free_keyval(rt_keyval **comm_keyval)
{
    return rt__keyval_free(RT_CLASS_COMM, comm_keyval, __func__, "comm_keyval");
}

/* MPI_Keyval_free (MPI-1): the same as MPI_Comm_free_keyval. */
int rt_Keyval_free(rt_keyval **keyval)
{
    return rt__keyval_free(RT_CLASS_COMM, keyval, __func__, "keyval");
}

/* MPI_Type_create_keyval: a datatype keyval (attributes on datatypes come with the rest of
 * issue 5; the keyval is already refused on other objects). */
int rt_Type_create_keyval(rt_callback type_copy_attr_fn, rt_callback type_delete_attr_fn, rt_keyval **type_keyval,
                          void *extra_state)
{
    return rt__keyval_create(RT_CLASS_DATATYPE, type_copy_attr_fn, type_delete_attr_fn, extra_state, type_keyval,
                             __func__);
}

/* MPI_Type_free_keyval: as MPI_Comm_free_keyval, for datatype keyvals. */
int rt_Type_free_keyval(rt_keyval **type_keyval)
{
    return rt__keyval_free(RT_CLASS_DATATYPE, type_keyval, __func__, "type_keyval");
}
