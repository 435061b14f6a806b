/* type_attr.c — caching on datatypes: MPI_Type_set/get/delete_attr, and the predefined
 * datatypes' attributes at finalize (copies on MPI_Type_dup, deletion on MPI_Type_free: type_create.c). */
#include "attr/attr.h"
#include "type.h"

/* Checks kv for a caching call on a datatype (the face checked the datatype). */
static int check(rt_keyval *kv, const char *fn)
{
    return rt__keyval_check(kv, RT_CLASS_DATATYPE, NULL, fn, "type_keyval");
}

/* MPI_Type_get_attr, C semantics: *(void **)attribute_val = the stored value and *flag = 1,
 * or *flag = 0 if datatype has none. Invalid, gone or non-datatype keyval: RT_ERR_KEYVAL;
 * NULL pointers: RT_ERR_ARG. */
int rt_Type_get_attr(rt_type *datatype, rt_keyval *type_keyval, void *attribute_val, int *flag)
{
    int err = check(type_keyval, __func__);
    rt_aint v = 0;

    if (err)
        return err;
    if (!attribute_val)
        return rt__null_arg(NULL, __func__, "attribute_val");
    if (!flag)
        return rt__null_arg(NULL, __func__, "flag");
    rt__attr_get(&datatype->obj, type_keyval, &v, flag);
    if (*flag)
        *(void **)attribute_val = (void *)v;
    return RT_SUCCESS;
}

/* MPI_Type_set_attr: datatype (predefined ones too) caches attribute_val under type_keyval; a
 * value already there goes to the delete callback first (its error fails the call, the old
 * value stays). Bad keyval: RT_ERR_KEYVAL. */
int rt_Type_set_attr(rt_type *datatype, rt_keyval *type_keyval, void *attribute_val)
{
    int err = check(type_keyval, __func__);

    return err ? err : rt__attr_set(&datatype->obj, type_keyval, (rt_aint)attribute_val, __func__);
}

/* MPI_Type_delete_attr: the delete callback, then the attribute is gone (a callback error
 * fails the call and keeps it). No attribute: success. Bad keyval: RT_ERR_KEYVAL. */
int rt_Type_delete_attr(rt_type *datatype, rt_keyval *type_keyval)
{
    int err = check(type_keyval, __func__);

    return err ? err : rt__attr_delete(&datatype->obj, type_keyval, __func__);
}

/* See type.h. */
void rt__type_attrs_finalize(void)
{
    for (int id = 0; id < RT_NBUILTINS; id++)
        if (rt_builtin_desc[id].cls == RT_CLASS_DATATYPE)
            rt__attrs_clear(rt_builtins[id]);
}
