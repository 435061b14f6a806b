/* win_attr.c — caching on windows: MPI_Win_set/get/delete_attr and the predefined window
 * attributes (MPI_WIN_BASE, _SIZE, _DISP_UNIT, _CREATE_FLAVOR, _MODEL); deletion at MPI_Win_free: win.c. */
#include "win.h"

/* Every window is unified: public and private copies are the same memory (one node, no cache
 * the MPI library keeps). */
static int model = RT_WIN_UNIFIED;

/* Checks kv for a caching call on win (the face checked the window). */
static int check(rt_win *win, rt_keyval *kv, const char *fn)
{
    return rt__keyval_check(kv, RT_CLASS_WIN, &win->obj, fn, "win_keyval");
}

/* Refuses to set or delete a predefined attribute. */
static int predefined(rt_win *win, rt_keyval *kv, const char *fn)
{
    return rt_raise(&win->obj, RT_ERR_KEYVAL, fn, "invalid keyval 'win_keyval' = %s: a predefined attribute cannot be %s",
                    rt_builtin_desc[kv->obj.index].name, strstr(fn, "elete") ? "deleted" : "set");
}

/* The C value of predefined window attribute id of win (MPI-5.0 12.2.6): the base address
 * itself for MPI_WIN_BASE (NULL = MPI_BOTTOM for dynamic windows), else a pointer the
 * runtime owns: to an rt_aint (MPI_WIN_SIZE), to an int (MPI_WIN_DISP_UNIT, and the runtime's
 * RT_WIN_FLAVOR_* / RT_WIN_UNIFIED, which the faces map). *flag = 0 for any other id. */
static void *predefined_value(rt_win *win, int id, int *flag)
{
    *flag = 1;
    switch (id) {
    case RT_B_WIN_BASE: return win->base;
    case RT_B_WIN_SIZE: return &win->size;
    case RT_B_WIN_DISP_UNIT: return &win->disp_unit_int;
    case RT_B_WIN_CREATE_FLAVOR: return &win->flavor;
    case RT_B_WIN_MODEL: return &model;
    default: *flag = 0; return NULL;
    }
}

/* MPI_Win_get_attr, C semantics: *(void **)attribute_val = the stored value and *flag = 1, or
 * *flag = 0 if win has none; predefined keys: see predefined_value. Invalid, gone or
 * non-window keyval: RT_ERR_KEYVAL; NULL pointers: RT_ERR_ARG. */
int rt_Win_get_attr(rt_win *win, rt_keyval *win_keyval, void *attribute_val, int *flag)
{
    int err = check(win, win_keyval, __func__);
    rt_aint v = 0;

    if (err)
        return err;
    if (!attribute_val)
        return rt__null_arg(&win->obj, __func__, "attribute_val");
    if (!flag)
        return rt__null_arg(&win->obj, __func__, "flag");
    if (win_keyval->obj.builtin) {
        void *p = predefined_value(win, win_keyval->obj.index, flag);
        if (*flag)
            *(void **)attribute_val = p;
        return RT_SUCCESS;
    }
    rt__attr_get(&win->obj, win_keyval, &v, flag);
    if (*flag)
        *(void **)attribute_val = (void *)v;
    return RT_SUCCESS;
}

/* MPI_Win_set_attr: win caches attribute_val under win_keyval; a value already there goes to
 * the delete callback first (its error fails the call, the old value stays). Predefined or
 * bad keyval: RT_ERR_KEYVAL. */
int rt_Win_set_attr(rt_win *win, rt_keyval *win_keyval, void *attribute_val)
{
    int err = check(win, win_keyval, __func__);

    if (err)
        return err;
    if (win_keyval->obj.builtin)
        return predefined(win, win_keyval, __func__);
    return rt__attr_set(&win->obj, win_keyval, (rt_aint)attribute_val, __func__);
}

/* MPI_Win_delete_attr: the delete callback, then the attribute is gone (a callback error fails
 * the call and keeps it). No attribute: success. Predefined or bad keyval: RT_ERR_KEYVAL. */
int rt_Win_delete_attr(rt_win *win, rt_keyval *win_keyval)
{
    int err = check(win, win_keyval, __func__);

    if (err)
        return err;
    if (win_keyval->obj.builtin)
        return predefined(win, win_keyval, __func__);
    return rt__attr_delete(&win->obj, win_keyval, __func__);
}

/* MPI_Win_create_keyval: a window keyval with the user's callbacks (NULL functions: the
 * NULL_COPY / NULL_DELETE functions; windows are never duplicated, so the copy callback never
 * runs) and extra_state. */
int rt_Win_create_keyval(rt_callback win_copy_attr_fn, rt_callback win_delete_attr_fn, rt_keyval **win_keyval,
                         void *extra_state)
{
    return rt__keyval_create(RT_CLASS_WIN, win_copy_attr_fn, win_delete_attr_fn, extra_state, win_keyval, __func__);
}

/* MPI_Win_free_keyval: as MPI_Comm_free_keyval, for window keyvals. */
int rt_Win_free_keyval(rt_keyval **win_keyval)
{
    return rt__keyval_free(RT_CLASS_WIN, win_keyval, __func__, "win_keyval");
}
