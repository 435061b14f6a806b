/* attr_list.c — attributes cached on objects (struct rt__attrs, embedded in each object that
 * can cache): set, get, delete, copy on duplication, delete-all on free, with the keyvals'
 * copy and delete callbacks called through the face that created the keyval. */
#include "attr.h"

#include <stdlib.h>

/* Where each class keeps its attribute list: a byte offset, 0 for none (the header is there). */
static size_t attrs_offset[RT_CLASS_COUNT];

void rt__attrs_set_offset(int cls, size_t offset)
{
    attrs_offset[cls] = offset;
}

struct rt__attrs *rt__attrs_of(rt_obj *o)
{
    if (!o || o->cls >= RT_CLASS_COUNT || !attrs_offset[o->cls])
        return NULL;
    return (struct rt__attrs *)((char *)o + attrs_offset[o->cls]);
}

/* The link that points at kv's attribute in list l, or at the final NULL. */
static struct rt__attr **find(struct rt__attrs *l, const rt_keyval *kv)
{
    struct rt__attr **p = &l->head;

    while (*p && (*p)->kv != kv)
        p = &(*p)->next;
    return p;
}

/* The kind of the calling thread's next set or get (rt_attr_next_kind). */
static _Thread_local int next_kind;

/* See rt.h. */
void rt_attr_next_kind(int kind)
{
    next_kind = kind;
}

/* The next kind, reset to RT_ATTR_PTR. */
static int take_kind(void)
{
    int k = next_kind;

    next_kind = RT_ATTR_PTR;
    return k;
}

/* Stores val of kind `kind` in a (an RT_ATTR_INT value is kept sign-extended from its int). */
static void store(struct rt__attr *a, rt_aint val, int kind)
{
    a->kind = kind;
    a->ival = (int)val;
    a->val = kind == RT_ATTR_INT ? (rt_aint)a->ival : val;
}

/* a's value as a reader of pointers sees it: a pointer as set; an integer's address. */
static rt_aint pointer_view(struct rt__attr *a)
{
    if (a->kind == RT_ATTR_AINT)
        return (rt_aint)&a->val;
    if (a->kind == RT_ATTR_INT)
        return (rt_aint)&a->ival;
    return a->val;
}

/* a's value as callback cb gets it: Fortran ones (integers) the stored word, C ones the
 * pointer view. */
static rt_aint callback_view(const rt_callback *cb, struct rt__attr *a)
{
    return (cb->flags & RT_CB_FORTRAN) ? a->val : pointer_view(a);
}

/* Runs kv's delete callback for attribute a of o; a runtime error code (0: success). */
static int call_delete(rt_obj *o, rt_keyval *kv, struct rt__attr *a)
{
    const rt_face *f = kv->del.face;

    if (!kv->del.fn)
        return RT_SUCCESS;
    if (!f || f->version < 3 || !f->call_delete)
        return RT_ERR_INTERN;
    return f->call_delete(&kv->del, o, kv, kv->extra_state, callback_view(&kv->del, a));
}

/* Raises a callback's error code on o: the code itself when it is a user code or an
 * instance (rt_raise passes those through), else an instance of its class. */
static int callback_failed(rt_obj *o, int code, const char *what, const char *fn)
{
    return rt_raise(o, code, fn, "the %s callback of an attribute returned error code %d", what, code);
}

/* Unlinks and frees attribute *p, dropping its keyval reference. */
static void unlink_attr(struct rt__attr **p)
{
    struct rt__attr *a = *p;

    *p = a->next;
    rt__obj_release(&a->kv->obj);
    free(a);
}

/* Sets kv's attribute of o to val (o can cache: the caller checked; kv checked). An
 * existing value is first passed to the delete callback; its error fails the call with
 * the old value kept. RT_ERR_NO_MEM raised when out of memory. */
int rt__attr_set(rt_obj *o, rt_keyval *kv, rt_aint val, const char *fn)
{
    struct rt__attrs *l = rt__attrs_of(o);
    struct rt__attr **p = find(l, kv), *a;
    int err, kind = take_kind();

    if (*p) {
        if ((err = call_delete(o, kv, *p)) != RT_SUCCESS)
            return callback_failed(o, err, "delete", fn);
        store(*p, val, kind); /* keeps its place in the set order */
        return RT_SUCCESS;
    }
    if (!(a = malloc(sizeof *a)))
        return rt_raise(o, RT_ERR_NO_MEM, fn, "out of memory for an attribute");
    a->kv = kv;
    store(a, val, kind);
    a->next = l->head;
    l->head = a;
    rt__obj_retain(&kv->obj);
    return RT_SUCCESS;
}

/* *val = kv's attribute of o and *flag = 1, or *flag = 0 if o has none. The value as the
 * thread's next kind asks (rt_attr_next_kind): the pointer view, or the stored integer. */
void rt__attr_get(rt_obj *o, rt_keyval *kv, rt_aint *val, int *flag)
{
    struct rt__attr **p = find(rt__attrs_of(o), kv);
    int kind = take_kind();

    *flag = *p != NULL;
    if (*p)
        *val = kind == RT_ATTR_PTR ? pointer_view(*p) : (*p)->val;
}

/* Deletes kv's attribute of o, calling the delete callback first (its error fails the call
 * and keeps the attribute). No attribute: RT_SUCCESS, nothing done. */
int rt__attr_delete(rt_obj *o, rt_keyval *kv, const char *fn)
{
    struct rt__attr **p = find(rt__attrs_of(o), kv);
    int err;

    if (!*p)
        return RT_SUCCESS;
    if ((err = call_delete(o, kv, *p)) != RT_SUCCESS)
        return callback_failed(o, err, "delete", fn);
    unlink_attr(p);
    return RT_SUCCESS;
}

/* See attr.h. */
int rt__attrs_delete_all(rt_obj *o, const char *fn)
{
    struct rt__attrs *l = rt__attrs_of(o);
    int err;

    while (l && l->head) {
        if ((err = call_delete(o, l->head->kv, l->head)) != RT_SUCCESS)
            return callback_failed(o, err, "delete", fn);
        unlink_attr(&l->head);
    }
    return RT_SUCCESS;
}

/* See attr.h. */
void rt__attrs_clear(rt_obj *o)
{
    struct rt__attrs *l = rt__attrs_of(o);

    while (l && l->head)
        unlink_attr(&l->head);
}

/* See attr.h. */
int rt__attrs_copy_quiet(rt_obj *old, rt_obj *newobj)
{
    struct rt__attrs *from = rt__attrs_of(old), *to = rt__attrs_of(newobj);
    struct rt__attr **tail, *a, *n;
    int err = RT_SUCCESS;

    if (!from || !to)
        return RT_SUCCESS;
    tail = &to->head;
    for (a = from->head; a; a = a->next) {
        rt_keyval *kv = a->kv;
        const rt_face *f = kv->copy.face;
        rt_aint in = 0, out = 0;
        int flag = 0;
        struct rt__attr tmp;

        if (!kv->copy.fn)
            continue;
        in = callback_view(&kv->copy, a);
        if (!f || f->version < 3 || !f->call_copy)
            err = RT_ERR_INTERN;
        else
            err = f->call_copy(&kv->copy, old, kv, kv->extra_state, in, &out, &flag);
        if (err)
            break;
        if (!flag)
            continue;
        /* The copy's kind: a Fortran callback returns an integer (INTEGER for MPI-1 keyvals);
         * a C one a pointer, except that returning the pointer to a's integer it was given
         * (MPI_*_DUP_FN) copies that integer, which a pointer into a could not outlive. */
        if (kv->copy.flags & RT_CB_FORTRAN)
            store(&tmp, out, (kv->copy.flags & RT_CB_FINT) ? RT_ATTR_INT : RT_ATTR_AINT);
        else if (a->kind != RT_ATTR_PTR && out == in)
            store(&tmp, a->val, a->kind);
        else
            store(&tmp, out, RT_ATTR_PTR);
        if (!(n = malloc(sizeof *n))) {
            /* the user's copy is in tmp: give it to the delete callback, as if it was set */
            call_delete(newobj, kv, &tmp);
            err = RT_ERR_NO_MEM;
            break;
        }
        *n = tmp;
        n->kv = kv;
        n->next = NULL;
        rt__obj_retain(&kv->obj);
        *tail = n; /* same order as old */
        tail = &n->next;
    }
    if (!err)
        return RT_SUCCESS;
    /* undo: the copies made so far go through their delete callbacks (errors ignored) */
    while (to->head) {
        call_delete(newobj, to->head->kv, to->head);
        unlink_attr(&to->head);
    }
    return err;
}

/* See attr.h. */
int rt__attrs_copy(rt_obj *old, rt_obj *newobj, const char *fn)
{
    int err = rt__attrs_copy_quiet(old, newobj);

    if (!err)
        return RT_SUCCESS;
    if (err == RT_ERR_NO_MEM)
        return rt_raise(old, err, fn, "out of memory while copying attributes");
    return callback_failed(old, err, "copy", fn);
}
