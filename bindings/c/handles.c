/* handles.c — MPICH-encoded integer handles <-> runtime objects, and the C face's table of
 * methods the runtime calls back (error handlers, handle arrays). */
#include <stdio.h>
#include <string.h>

#include "conv.h"

int cf_class_of(intptr_t h)
{
    return fs_int_class_of((int32_t)h);
}

int cf_decode(intptr_t h, int cls, rt_obj **out)
{
    *out = NULL;
    if (cls == RT_CLASS_FILE) { /* MPI_File is a pointer in MPICH's ABI */
        if (h == 0)
            return FS_DEC_NULL;
        if (!rt_obj_is((const void *)h, RT_CLASS_FILE))
            return FS_DEC_BAD;
        *out = (rt_obj *)h;
        return FS_DEC_OK;
    }
    if (h == cf_null_value[cls])
        return FS_DEC_NULL;
    if (((uint32_t)h >> 30) == CF_KIND_INDIRECT)
        return fs_user_from_int((int32_t)h, cls, out);
    int id = cls == RT_CLASS_KEYVAL ? cf_builtin_keyval_id(h) : cf_builtin_id(h);
    if (id < 0)
        return cf_class_of(h) != cls && cf_class_of(h) != RT_CLASS_NONE ? FS_DEC_WRONG_CLASS : FS_DEC_BAD;
    if (rt_builtins[id]->cls != cls)
        return FS_DEC_WRONG_CLASS;
    *out = rt_builtins[id];
    return FS_DEC_OK;
}

intptr_t cf_encode(const rt_obj *o, int cls)
{
    if (!o)
        return cls == RT_CLASS_FILE ? 0 : cf_null_value[cls];
    if (cls == RT_CLASS_FILE) /* the predefined file is MPI_FILE_NULL (its error handler) */
        return o->builtin ? 0 : (intptr_t)o;
    if (o->builtin)
        return cf_builtin_value[o->index];
    return fs_user_int_handle(o);
}

int cf_bad_handle(rt_obj *eo, const char *fn, const char *arg, intptr_t h, int cls, int status, int errcls)
{
    char shown[32];
    if (cls == RT_CLASS_FILE)
        snprintf(shown, sizeof shown, "%p", (void *)h);
    else
        snprintf(shown, sizeof shown, "0x%08x", (unsigned)(uint32_t)h);
    rt_obj *o;
    int found = cf_class_of(h);
    if (status == FS_DEC_WRONG_CLASS && cf_builtin_id(h) >= 0 && cf_decode(h, rt_builtins[cf_builtin_id(h)]->cls, &o) == FS_DEC_OK)
        found = o->cls;
    return fs_bad_handle(eo, fn, arg, shown, cls, status, found, errcls);
}

void cf_status_in(const MPI_Status *s, rt_status *r, int with_error)
{
    r->source = cf_rank_in(s->MPI_SOURCE);
    r->tag = cf_tag_in(s->MPI_TAG);
    r->error = with_error ? cf_error_code_in(s->MPI_ERROR) : RT_SUCCESS;
    r->cancelled = s->count_hi_and_cancelled & 1;
    r->count = (rt_count)(((uint64_t)(uint32_t)s->count_hi_and_cancelled >> 1) << 32 | (uint32_t)s->count_lo);
}

void cf_status_out(const rt_status *r, MPI_Status *s, int with_error)
{
    s->MPI_SOURCE = cf_rank_out(r->source);
    s->MPI_TAG = cf_tag_out(r->tag);
    if (with_error || r->empty) /* an empty status's error is MPI_SUCCESS (MPI-5.0 3.7.3) */
        s->MPI_ERROR = cf_error_code_out(r->error);
    s->count_lo = (int)(uint32_t)r->count;
    s->count_hi_and_cancelled = (int)((((uint64_t)r->count >> 32) << 1) | (r->cancelled ? 1u : 0u));
}

/* ------------------------------------------------------------ methods for the runtime */

static void call_errhandler(const rt_callback *cb, rt_obj *obj, int code)
{
    int c = cf_error_code_out(code);
    switch (obj ? obj->cls : RT_CLASS_COMM) {
    case RT_CLASS_WIN: {
        MPI_Win h = (MPI_Win)cf_encode(obj, RT_CLASS_WIN);
        ((MPI_Win_errhandler_function *)(void (*)(void))cb->fn)(&h, &c);
        break;
    }
    case RT_CLASS_FILE: {
        MPI_File h = (MPI_File)cf_encode(obj, RT_CLASS_FILE);
        ((MPI_File_errhandler_function *)(void (*)(void))cb->fn)(&h, &c);
        break;
    }
    case RT_CLASS_SESSION: {
        MPI_Session h = (MPI_Session)cf_encode(obj, RT_CLASS_SESSION);
        ((MPI_Session_errhandler_function *)(void (*)(void))cb->fn)(&h, &c);
        break;
    }
    default: {
        MPI_Comm h = (MPI_Comm)cf_encode(obj, RT_CLASS_COMM);
        ((MPI_Comm_errhandler_function *)(void (*)(void))cb->fn)(&h, &c);
        break;
    }
    }
}

static rt_obj *handle_at(const void *array, size_t i, int cls, rt_obj *eo, const char *fn, const char *arg, int *err)
{
    intptr_t h = cls == RT_CLASS_FILE ? (intptr_t)((const MPI_File *)array)[i] : (intptr_t)((const int *)array)[i];
    rt_obj *o;
    int st = cf_decode(h, cls, &o);
    *err = 0;
    if (st == FS_DEC_OK || st == FS_DEC_NULL)
        return o;
    *err = cf_bad_handle(eo, fn, arg, h, cls, st, fs_handle_errclass(cls));
    return NULL;
}

/* A user reduction function (MPI_Op_create / _c); the Fortran face registers Fortran
 * procedures here too: with integer handles, f(invec, inoutvec, len, datatype) by reference
 * is the same call. */
static void call_op(const rt_callback *cb, const void *in, void *inout, rt_count len, rt_type *type)
{
    MPI_Datatype dt = (MPI_Datatype)cf_encode((const rt_obj *)type, RT_CLASS_DATATYPE);
    if (cb->flags & RT_CB_LARGE) {
        MPI_Count n = (MPI_Count)len;
        ((MPI_User_function_c *)(void (*)(void))cb->fn)((void *)in, inout, &n, &dt);
    } else {
        int n = (int)len;
        ((MPI_User_function *)(void (*)(void))cb->fn)((void *)in, inout, &n, &dt);
    }
}

/* Fortran attribute callbacks (cb->flags & RT_CB_FORTRAN; the Fortran face registers them
 * through this face and marks them with MPIR_Keyval_set_fortran_cb): everything by reference,
 * integer handles, LOGICAL flag, the code in IERROR (MPI_SUCCESS unless the callback sets it).
 * RT_CB_FINT (MPI_KEYVAL_CREATE): INTEGER extra_state and values, the stored value truncated
 * on the way in and the new one sign-extended on the way out; otherwise
 * INTEGER(KIND=MPI_ADDRESS_KIND). extra_state is the Fortran value the face stored. */
typedef void f_copy_fn(MPI_Fint *, MPI_Fint *, void *, void *, void *, MPI_Fint *, MPI_Fint *);
typedef void f_delete_fn(MPI_Fint *, MPI_Fint *, void *, void *, MPI_Fint *);

static int call_copy_fortran(const rt_callback *cb, rt_obj *obj, MPI_Fint key, void *extra_state, rt_aint in,
                             rt_aint *out, int *flag)
{
    MPI_Fint h = (MPI_Fint)cf_encode(obj, obj->cls), fflag = 0, ierr = MPI_SUCCESS;

    if (cb->flags & RT_CB_FINT) {
        MPI_Fint x = (MPI_Fint)(MPI_Aint)extra_state, vin = (MPI_Fint)in, vout = 0;
        ((f_copy_fn *)(void (*)(void))cb->fn)(&h, &key, &x, &vin, &vout, &fflag, &ierr);
        *out = (rt_aint)vout;
    } else {
        MPI_Aint x = (MPI_Aint)extra_state, vin = (MPI_Aint)in, vout = 0;
        ((f_copy_fn *)(void (*)(void))cb->fn)(&h, &key, &x, &vin, &vout, &fflag, &ierr);
        *out = (rt_aint)vout;
    }
    *flag = fflag != 0;
    return cf_error_code_in(ierr);
}

static int call_delete_fortran(const rt_callback *cb, rt_obj *obj, MPI_Fint key, void *extra_state, rt_aint val)
{
    MPI_Fint h = (MPI_Fint)cf_encode(obj, obj->cls), ierr = MPI_SUCCESS;

    if (cb->flags & RT_CB_FINT) {
        MPI_Fint x = (MPI_Fint)(MPI_Aint)extra_state, v = (MPI_Fint)val;
        ((f_delete_fn *)(void (*)(void))cb->fn)(&h, &key, &v, &x, &ierr);
    } else {
        MPI_Aint x = (MPI_Aint)extra_state, v = (MPI_Aint)val;
        ((f_delete_fn *)(void (*)(void))cb->fn)(&h, &key, &v, &x, &ierr);
    }
    return cf_error_code_in(ierr);
}

/* Attribute callbacks of a keyval made through this face, with MPICH's integer handles;
 * MPI_*_DUP_FN is MPIR_Dup_fn (manual.c), an ordinary function. The runtime's address-sized
 * value is the C void * (docs/internals.md, "Attributes"); Fortran keyvals go to the
 * *_fortran versions above. */
static int call_copy(const rt_callback *cb, rt_obj *obj, rt_keyval *kv, void *extra_state, rt_aint in, rt_aint *out,
                     int *flag)
{
    int key = (int)cf_encode((const rt_obj *)kv, RT_CLASS_KEYVAL), rc;
    void *vout = NULL;

    *flag = 0;
    if (cb->flags & RT_CB_FORTRAN)
        return call_copy_fortran(cb, obj, key, extra_state, in, out, flag);
    switch (obj->cls) {
    case RT_CLASS_DATATYPE: {
        MPI_Datatype h = (MPI_Datatype)cf_encode(obj, RT_CLASS_DATATYPE);
        rc = ((MPI_Type_copy_attr_function *)(void (*)(void))cb->fn)(h, key, extra_state, (void *)in, &vout, flag);
        break;
    }
    case RT_CLASS_WIN: {
        MPI_Win h = (MPI_Win)cf_encode(obj, RT_CLASS_WIN);
        rc = ((MPI_Win_copy_attr_function *)(void (*)(void))cb->fn)(h, key, extra_state, (void *)in, &vout, flag);
        break;
    }
    default: {
        MPI_Comm h = (MPI_Comm)cf_encode(obj, RT_CLASS_COMM);
        rc = ((MPI_Comm_copy_attr_function *)(void (*)(void))cb->fn)(h, key, extra_state, (void *)in, &vout, flag);
        break;
    }
    }
    *out = (rt_aint)vout;
    *flag = *flag != 0;
    return cf_error_code_in(rc);
}

static int call_delete(const rt_callback *cb, rt_obj *obj, rt_keyval *kv, void *extra_state, rt_aint val)
{
    int key = (int)cf_encode((const rt_obj *)kv, RT_CLASS_KEYVAL), rc;

    if (cb->flags & RT_CB_FORTRAN)
        return call_delete_fortran(cb, obj, key, extra_state, val);
    switch (obj->cls) {
    case RT_CLASS_DATATYPE: {
        MPI_Datatype h = (MPI_Datatype)cf_encode(obj, RT_CLASS_DATATYPE);
        rc = ((MPI_Type_delete_attr_function *)(void (*)(void))cb->fn)(h, key, (void *)val, extra_state);
        break;
    }
    case RT_CLASS_WIN: {
        MPI_Win h = (MPI_Win)cf_encode(obj, RT_CLASS_WIN);
        rc = ((MPI_Win_delete_attr_function *)(void (*)(void))cb->fn)(h, key, (void *)val, extra_state);
        break;
    }
    default: {
        MPI_Comm h = (MPI_Comm)cf_encode(obj, RT_CLASS_COMM);
        rc = ((MPI_Comm_delete_attr_function *)(void (*)(void))cb->fn)(h, key, (void *)val, extra_state);
        break;
    }
    }
    return cf_error_code_in(rc);
}

/* For the Fortran face (an exported extra, as MPICH's libmpi exports MPII_Keyval_set_proxy
 * to its libmpifort): marks the callbacks of user keyval `keyval`, just made through this
 * face's *_create_keyval / MPI_Keyval_create, as Fortran procedures (flags: RT_CB_FORTRAN,
 * with RT_CB_FINT for MPI_KEYVAL_CREATE). MPI_SUCCESS, or MPI_ERR_KEYVAL if keyval is not a
 * user keyval (nothing is raised: the caller just made it). */
FACE_API int MPIR_Keyval_set_fortran_cb(int keyval, unsigned flags)
{
    const int locked = rt_enter(); /* the keyval table, and the keyval another thread may use */
    rt_obj *o;
    int rc = MPI_ERR_KEYVAL;

    if (cf_decode(keyval, RT_CLASS_KEYVAL, &o) == FS_DEC_OK && !o->builtin) {
        rt_keyval_set_callback_flags((rt_keyval *)o, flags & (RT_CB_FORTRAN | RT_CB_FINT));
        rc = MPI_SUCCESS;
    }
    rt_leave(locked);
    return rc;
}

/* For the Fortran face (an exported extra): the calling thread's next attribute set or get
 * through this face stores, or reads back, an integer (kind RT_ATTR_AINT: address-sized;
 * RT_ATTR_INT: INTEGER, sign-extended) instead of a C pointer; RT_ATTR_PTR after the call. */
FACE_API void MPIR_Attr_next_kind(int kind)
{
    rt_attr_next_kind(kind);
}

/* For libmpichfort (an exported extra): procedure `name` (MPICH's, e.g. "MPIX_Comm_revoke"),
 * which Switchyard does not implement, was called on comm. Raises MPI_ERR_UNSUPPORTED_OPERATION
 * on comm's error handler with the message "<name>: not implemented by Switchyard yet" (an
 * invalid comm: MPI_ERR_COMM, as any entry point), as the runtime does for its own unimplemented
 * procedures: no error code of the program's is made (MPI_LASTUSEDCODE stays). Returns the
 * error code (if the handler returns). */
FACE_API int MPIR_Err_unsupported(MPI_Comm comm, const char *name)
{
    const int locked = rt_enter();
    rt_comm *c = NULL;
    int rc = rt_require_init(name);

    if (!rc && !(rc = cf_comm_in(NULL, name, "comm", comm, 0, &c)))
        rc = rt__unsupported((rt_obj *)c, name);
    rt_leave(locked);
    return cf_error_code_out(rc);
}

/* For the Fortran libraries (an exported extra): procedure `name` (e.g. "MPI_Send") raises
 * error class errclass (a predefined class of this face, e.g. MPI_ERR_BUFFER) on comm's error
 * handler with the message "<name>: <text>" (text names the argument at fault), for an error
 * the library finds itself (libmpifort's mpi_f08: a non-contiguous choice buffer). Through the
 * runtime's own path (rt_raise): no error code of the program's is made (MPI_LASTUSEDCODE
 * stays). An invalid comm: MPI_ERR_COMM, as any entry point. Returns the error code (if the
 * handler returns). */
FACE_API int MPIR_Err_raise(MPI_Comm comm, int errclass, const char *name, const char *text)
{
    const int locked = rt_enter();
    rt_comm *c = NULL;
    int rc = rt_require_init(name);

    if (!rc && !(rc = cf_comm_in(NULL, name, "comm", comm, 0, &c)))
        rc = rt_raise((rt_obj *)c, cf_error_code_in(errclass), name, "%s", text ? text : "");
    rt_leave(locked);
    return cf_error_code_out(rc);
}

static intptr_t handle_value(const rt_obj *o, int cls)
{
    return cf_encode(o, cls);
}

/* Data representation callbacks (MPI_Register_datarep / _c). */
static int call_conversion(const rt_callback *cb, void *userbuf, rt_type *type, rt_count count, void *filebuf,
                           rt_offset position, void *extra_state)
{
    MPI_Datatype dt = (MPI_Datatype)cf_encode((const rt_obj *)type, RT_CLASS_DATATYPE);
    int rc = cb->flags & RT_CB_LARGE
                 ? ((MPI_Datarep_conversion_function_c *)(void (*)(void))cb->fn)(userbuf, dt, (MPI_Count)count, filebuf,
                                                                                (MPI_Offset)position, extra_state)
                 : ((MPI_Datarep_conversion_function *)(void (*)(void))cb->fn)(userbuf, dt, (int)count, filebuf,
                                                                              (MPI_Offset)position, extra_state);
    return cf_error_code_in(rc);
}

static int call_extent(const rt_callback *cb, rt_type *type, rt_aint *extent, void *extra_state)
{
    MPI_Datatype dt = (MPI_Datatype)cf_encode((const rt_obj *)type, RT_CLASS_DATATYPE);
    MPI_Aint x = 0;
    int rc = ((MPI_Datarep_extent_function *)(void (*)(void))cb->fn)(dt, &x, extra_state);
    *extent = (rt_aint)x;
    return cf_error_code_in(rc);
}

/* Generalized request callbacks (MPI_Grequest_start). */
static int call_query(const rt_callback *cb, void *extra_state, rt_status *st)
{
    MPI_Status s;
    memset(&s, 0, sizeof s);
    cf_status_out(st, &s, 1);
    int rc = ((MPI_Grequest_query_function *)(void (*)(void))cb->fn)(extra_state, &s);
    int error = st->error;
    cf_status_in(&s, st, 0);
    st->error = error;
    return cf_error_code_in(rc);
}

static int call_free(const rt_callback *cb, void *extra_state)
{
    return cf_error_code_in(((MPI_Grequest_free_function *)(void (*)(void))cb->fn)(extra_state));
}

static int call_cancel(const rt_callback *cb, void *extra_state, int complete)
{
    return cf_error_code_in(((MPI_Grequest_cancel_function *)(void (*)(void))cb->fn)(extra_state, complete != 0));
}

const rt_face cf_face = {RT_FACE_VERSION, "C (MPICH ABI)", call_errhandler, handle_at, call_op,
                          call_copy, call_delete, handle_value, call_conversion, call_extent,
                          call_query, call_free, call_cancel};

/* MPICH's leniencies that programs built for it rely on (README: MPICH's leniencies). */
__attribute__((constructor)) static void cf_leniencies(void)
{
    rt_op_allow_mpich_pairs();
}
