/* attr.h — the attribute part's contract: the attribute list any caching object embeds
 * (set, get, delete, copy on duplication, delete-all) and the keyval checks. */
#ifndef RT_ATTR_H
#define RT_ATTR_H

#include "rt_internal.h"

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

/* ------------------------------------------------------------ attributes (attr_list.c) */

/* Objects of class cls embed their attribute list at byte `offset` (registered at load by
 * init/load.c). */
void rt__attrs_set_offset(int cls, size_t offset);
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

/* ------------------------------------------------------------ keyvals (keyval.c) */

/* rt__keyval_check's refusal: raises RT_ERR_KEYVAL on eo naming fn, arg and kv (not a keyval,
 * or one made for another class than cls), and returns the code. */
int rt__keyval_refuse(rt_keyval *kv, int cls, rt_obj *eo, const char *fn, const char *arg);
/* RT_SUCCESS if kv (NULL, or a live keyval as the faces decode it) may be used by the user as
 * argument `arg` of fn on an object of class cls (a keyval, freed or not, made for cls); else
 * raises RT_ERR_KEYVAL on eo naming fn, arg and the keyval, and returns the code. Inline: every
 * caching call makes it. */
static inline int rt__keyval_check(rt_keyval *kv, int cls, rt_obj *eo, const char *fn, const char *arg)
{
    if (__builtin_expect(kv && kv->obj.subkind == cls, 1))
        return RT_SUCCESS;
    return rt__keyval_refuse(kv, cls, eo, fn, arg);
}
/* MPI_*_create_keyval for objects of class cls: a new user keyval in *out. RT_ERR_NO_MEM
 * (raised naming fn) when out of memory. */
int rt__keyval_create(int cls, rt_callback copy, rt_callback del, void *extra_state, rt_keyval **out,
                      const char *fn);
/* MPI_*_free_keyval for class cls: checks *kv (rt__keyval_check; predefined keyvals cannot
 * be freed), marks it freed and drops the user's reference unless it was freed already (a
 * copy of the handle freed again while attributes keep it alive), *kv = NULL
 * (MPI_KEYVAL_INVALID). */
int rt__keyval_free(int cls, rt_keyval **kv, const char *fn, const char *arg);

#endif
