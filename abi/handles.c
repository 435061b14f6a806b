/* handles.c — standard-ABI handles <-> runtime objects, statuses, and the face's table of
 * methods the runtime calls back (error handlers, handle arrays). */
#include <stdio.h>
#include <string.h>

#include "conv.h"

/* This face's handles are objects' addresses: the runtime registers every object it makes,
 * requests too, so that af_decode can tell any pointer from a live object (rt_obj_is). */
__attribute__((constructor)) static void af_handles_init(void)
{
    rt_handles_are_addresses();
}

int af_decode(intptr_t h, int cls, rt_obj **out)
{
    *out = NULL;
    if (h == af_null_value[cls])
        return FS_DEC_NULL;
    if (cls == RT_CLASS_KEYVAL) { /* keyvals are integers in every ABI */
        int id = af_builtin_keyval_id(h);
        if (id >= 0) {
            *out = rt_builtins[id];
            return FS_DEC_OK;
        }
        return fs_user_from_int((int32_t)h, cls, out);
    }
    if ((uintptr_t)h < AF_PREDEFINED_LIMIT) {
        int id = af_builtin_id(h);
        if (id < 0)
            return FS_DEC_BAD;
        if (rt_builtins[id]->cls != cls)
            return FS_DEC_WRONG_CLASS;
        *out = rt_builtins[id];
        return FS_DEC_OK;
    }
    /* a user handle is an address; rt_obj_is reads through it only once it is known to be a
     * live object (the runtime's registry of object addresses), so garbage cannot fault */
    if (rt_obj_is((const void *)h, cls)) {
        *out = (rt_obj *)h;
        return FS_DEC_OK;
    }
    for (int c = 1; c < RT_CLASS_COUNT; c++)
        if (c != cls && c != RT_CLASS_KEYVAL && rt_obj_is((const void *)h, c))
            return FS_DEC_WRONG_CLASS;
    return FS_DEC_BAD;
}

intptr_t af_encode(const rt_obj *o, int cls)
{
    if (!o || (o->builtin && cls == RT_CLASS_FILE)) /* the predefined file: MPI_FILE_NULL */
        return af_null_value[cls];
    if (o->builtin)
        return af_builtin_value[o->index];
    if (cls == RT_CLASS_KEYVAL)
        return fs_user_int_handle(o);
    return (intptr_t)o;
}

int af_to_int(intptr_t h, int cls)
{
    rt_obj *o;
    if ((uintptr_t)h < AF_PREDEFINED_LIMIT || af_decode(h, cls, &o) != FS_DEC_OK)
        return (int)h;
    return fs_user_int_handle(o);
}

intptr_t af_from_int(int v, int cls)
{
    rt_obj *o;
    if (v >= 0 && v < AF_PREDEFINED_LIMIT)
        return v;
    return fs_user_from_int(v, cls, &o) == FS_DEC_OK ? (intptr_t)o : af_null_value[cls];
}

int af_bad_handle(rt_obj *eo, const char *fn, const char *arg, intptr_t h, int cls, int status, int errcls)
{
    char shown[32];
    snprintf(shown, sizeof shown, "%p", (void *)h);
    int found = RT_CLASS_NONE;
    if (status == FS_DEC_WRONG_CLASS) {
        int id = (uintptr_t)h < AF_PREDEFINED_LIMIT ? af_builtin_id(h) : -1;
        if (id >= 0)
            found = rt_builtins[id]->cls;
        else
            for (int c = 1; c < RT_CLASS_COUNT; c++)
                if (c != RT_CLASS_KEYVAL && rt_obj_is((const void *)h, c))
                    found = c;
    }
    return fs_bad_handle(eo, fn, arg, shown, cls, status, found, errcls);
}

/* The five reserved slots hold the byte count (two ints), the cancelled flag and two spares. */
void af_status_in(const MPI_Status *s, rt_status *r, int with_error)
{
    int64_t count;
    memcpy(&count, &s->mpi_abi_slot[0], sizeof count);
    r->source = af_rank_in(s->MPI_SOURCE);
    r->tag = af_tag_in(s->MPI_TAG);
    r->error = with_error ? af_error_code_in(s->MPI_ERROR) : RT_SUCCESS;
    r->count = count;
    r->cancelled = s->mpi_abi_slot[2];
}

void af_status_out(const rt_status *r, MPI_Status *s, int with_error)
{
    int64_t count = r->count;
    s->MPI_SOURCE = af_rank_out(r->source);
    s->MPI_TAG = af_tag_out(r->tag);
    if (with_error || r->empty) /* an empty status's error is MPI_SUCCESS (MPI-5.0 3.7.3) */
        s->MPI_ERROR = af_error_code_out(r->error);
    memcpy(&s->mpi_abi_slot[0], &count, sizeof count);
    s->mpi_abi_slot[2] = r->cancelled;
}

/* ------------------------------------------------------------ methods for the runtime */

static void call_errhandler(const rt_callback *cb, rt_obj *obj, int code)
{
    int c = af_error_code_out(code);
    switch (obj ? obj->cls : RT_CLASS_COMM) {
    case RT_CLASS_WIN: {
        MPI_Win h = (MPI_Win)af_encode(obj, RT_CLASS_WIN);
        ((MPI_Win_errhandler_function *)(void (*)(void))cb->fn)(&h, &c);
        break;
    }
    case RT_CLASS_FILE: {
        MPI_File h = (MPI_File)af_encode(obj, RT_CLASS_FILE);
        ((MPI_File_errhandler_function *)(void (*)(void))cb->fn)(&h, &c);
        break;
    }
    case RT_CLASS_SESSION: {
        MPI_Session h = (MPI_Session)af_encode(obj, RT_CLASS_SESSION);
        ((MPI_Session_errhandler_function *)(void (*)(void))cb->fn)(&h, &c);
        break;
    }
    default: {
        MPI_Comm h = (MPI_Comm)af_encode(obj, RT_CLASS_COMM);
        ((MPI_Comm_errhandler_function *)(void (*)(void))cb->fn)(&h, &c);
        break;
    }
    }
}

static rt_obj *handle_at(const void *array, size_t i, int cls, rt_obj *eo, const char *fn, const char *arg, int *err)
{
    intptr_t h = (intptr_t)((void *const *)array)[i];
    rt_obj *o;
    int st = af_decode(h, cls, &o);
    *err = 0;
    if (st == FS_DEC_OK || st == FS_DEC_NULL)
        return o;
    *err = af_bad_handle(eo, fn, arg, h, cls, st, fs_handle_errclass(cls));
    return NULL;
}

/* A user reduction function (MPI_Op_create / _c) with the standard ABI's datatype handle. */
static void call_op(const rt_callback *cb, const void *in, void *inout, rt_count len, rt_type *type)
{
    MPI_Datatype dt = (MPI_Datatype)af_encode((const rt_obj *)type, RT_CLASS_DATATYPE);
    if (cb->flags & RT_CB_LARGE) {
        MPI_Count n = (MPI_Count)len;
        ((MPI_User_function_c *)(void (*)(void))cb->fn)((void *)in, inout, &n, &dt);
    } else {
        int n = (int)len;
        ((MPI_User_function *)(void (*)(void))cb->fn)((void *)in, inout, &n, &dt);
    }
}

/* Attribute callbacks of a C keyval, with the standard ABI's handles; the predefined MPI_*_DUP_FN
 * are the value 1 here, not functions: they copy the value. The runtime's
 * address-sized value is the C void * (docs/internals.md, "Attributes"). Fortran keyvals
 * (cb->flags & RT_CB_FORTRAN, RT_CB_FINT) are not registered through this face yet. */
static int call_copy(const rt_callback *cb, rt_obj *obj, rt_keyval *kv, void *extra_state, rt_aint in, rt_aint *out,
                     int *flag)
{
    int key = (int)af_encode((const rt_obj *)kv, RT_CLASS_KEYVAL), rc;
    void *vout = NULL;

    if (cb->fn == (rt_fn)MPI_COMM_DUP_FN) { /* MPI_*_DUP_FN and MPI_DUP_FN: (fn *)1 in this ABI */
        *out = in;
        *flag = 1;
        return RT_SUCCESS;
    }
    *flag = 0;
    switch (obj->cls) {
    case RT_CLASS_DATATYPE: {
        MPI_Datatype h = (MPI_Datatype)af_encode(obj, RT_CLASS_DATATYPE);
        rc = ((MPI_Type_copy_attr_function *)(void (*)(void))cb->fn)(h, key, extra_state, (void *)in, &vout, flag);
        break;
    }
    case RT_CLASS_WIN: {
        MPI_Win h = (MPI_Win)af_encode(obj, RT_CLASS_WIN);
        rc = ((MPI_Win_copy_attr_function *)(void (*)(void))cb->fn)(h, key, extra_state, (void *)in, &vout, flag);
        break;
    }
    default: {
        MPI_Comm h = (MPI_Comm)af_encode(obj, RT_CLASS_COMM);
        rc = ((MPI_Comm_copy_attr_function *)(void (*)(void))cb->fn)(h, key, extra_state, (void *)in, &vout, flag);
        break;
    }
    }
    *out = (rt_aint)vout;
    *flag = *flag != 0;
    return af_error_code_in(rc);
}

static int call_delete(const rt_callback *cb, rt_obj *obj, rt_keyval *kv, void *extra_state, rt_aint val)
{
    int key = (int)af_encode((const rt_obj *)kv, RT_CLASS_KEYVAL), rc;

    switch (obj->cls) {
    case RT_CLASS_DATATYPE: {
        MPI_Datatype h = (MPI_Datatype)af_encode(obj, RT_CLASS_DATATYPE);
        rc = ((MPI_Type_delete_attr_function *)(void (*)(void))cb->fn)(h, key, (void *)val, extra_state);
        break;
    }
    case RT_CLASS_WIN: {
        MPI_Win h = (MPI_Win)af_encode(obj, RT_CLASS_WIN);
        rc = ((MPI_Win_delete_attr_function *)(void (*)(void))cb->fn)(h, key, (void *)val, extra_state);
        break;
    }
    default: {
        MPI_Comm h = (MPI_Comm)af_encode(obj, RT_CLASS_COMM);
        rc = ((MPI_Comm_delete_attr_function *)(void (*)(void))cb->fn)(h, key, (void *)val, extra_state);
        break;
    }
    }
    return af_error_code_in(rc);
}

static intptr_t handle_value(const rt_obj *o, int cls)
{
    return af_encode(o, cls);
}

/* Data representation callbacks (MPI_Register_datarep / _c). */
static int call_conversion(const rt_callback *cb, void *userbuf, rt_type *type, rt_count count, void *filebuf,
                           rt_offset position, void *extra_state)
{
    MPI_Datatype dt = (MPI_Datatype)af_encode((const rt_obj *)type, RT_CLASS_DATATYPE);
    int rc = cb->flags & RT_CB_LARGE
                 ? ((MPI_Datarep_conversion_function_c *)(void (*)(void))cb->fn)(userbuf, dt, (MPI_Count)count, filebuf,
                                                                                (MPI_Offset)position, extra_state)
                 : ((MPI_Datarep_conversion_function *)(void (*)(void))cb->fn)(userbuf, dt, (int)count, filebuf,
                                                                              (MPI_Offset)position, extra_state);
    return af_error_code_in(rc);
}

static int call_extent(const rt_callback *cb, rt_type *type, rt_aint *extent, void *extra_state)
{
    MPI_Datatype dt = (MPI_Datatype)af_encode((const rt_obj *)type, RT_CLASS_DATATYPE);
    MPI_Aint x = 0;
    int rc = ((MPI_Datarep_extent_function *)(void (*)(void))cb->fn)(dt, &x, extra_state);
    *extent = (rt_aint)x;
    return af_error_code_in(rc);
}

/* Generalized request callbacks (MPI_Grequest_start). */
static int call_query(const rt_callback *cb, void *extra_state, rt_status *st)
{
    MPI_Status s;
    memset(&s, 0, sizeof s);
    af_status_out(st, &s, 1);
    int rc = ((MPI_Grequest_query_function *)(void (*)(void))cb->fn)(extra_state, &s);
    int error = st->error;
    af_status_in(&s, st, 0);
    st->error = error;
    return af_error_code_in(rc);
}

static int call_free(const rt_callback *cb, void *extra_state)
{
    return af_error_code_in(((MPI_Grequest_free_function *)(void (*)(void))cb->fn)(extra_state));
}

static int call_cancel(const rt_callback *cb, void *extra_state, int complete)
{
    return af_error_code_in(((MPI_Grequest_cancel_function *)(void (*)(void))cb->fn)(extra_state, complete != 0));
}

const rt_face af_face = {RT_FACE_VERSION, "C (MPI-5.0 standard ABI)", call_errhandler, handle_at, call_op,
                          call_copy, call_delete, handle_value, call_conversion, call_extent,
                          call_query, call_free, call_cancel};
