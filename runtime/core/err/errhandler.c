/* errhandler.c — error handler objects: the builtin MPI_ERRORS_*, user handlers for each
 * object class, setting/getting them on windows, and running a handler. */
#include "err.h"


#define EH(id) ((rt_errhandler *)rt_builtins[id])

/* Sets up MPI_ERRORS_ARE_FATAL, MPI_ERRORS_ABORT, MPI_ERRORS_RETURN (at load). */
void rt__errhandler_builtins_init(void)
{
    EH(RT_B_ERRORS_ARE_FATAL)->kind = RT__EH_FATAL;
    EH(RT_B_ERRORS_ABORT)->kind = RT__EH_ABORT;
    EH(RT_B_ERRORS_RETURN)->kind = RT__EH_RETURN;
}

/* Where each class keeps its error handler: a byte offset, 0 for none (the header is there). */
static size_t errh_offset[RT_CLASS_COUNT];

void rt__errhandler_set_slot(int cls, size_t offset)
{
    errh_offset[cls] = offset;
}

rt_errhandler **rt__errhandler_slot(rt_obj *o)
{
    for (int cls = 0; cls < RT_CLASS_COUNT; cls++)
        if (errh_offset[cls] && rt_obj_is(o, cls))
            return (rt_errhandler **)((char *)o + errh_offset[cls]);
    return NULL;
}

/* *slot = eh, retaining eh and releasing the previous handler (which may die). */
void rt__errhandler_replace(rt_errhandler **slot, rt_errhandler *eh)
{
    rt_errhandler *old = *slot;

    rt__obj_retain(&eh->obj);
    *slot = eh;
    if (old)
        rt__obj_release(&old->obj);
}

static void (*before_user_handler)(void);

void rt__errhandler_on_user_call(void (*fn)(void))
{
    before_user_handler = fn;
}

/* Runs eh for `code` on target. FATAL/ABORT (or a NULL handler, or a user handler without
 * a usable face): print msg and end the job with status 1. RETURN: nothing. USER: the
 * face calls the user function with target's handle. Returns code if it comes back. */
int rt__errhandler_invoke(rt_errhandler *eh, rt_obj *target, int code, const char *msg)
{
    if (!eh || eh->kind == RT__EH_FATAL)
        rt__fatal_code(code, msg);
    switch (eh->kind) {
    case RT__EH_ABORT:
        /* the processes of target's group; a singleton job is just this process */
        rt__fatal_code(code, msg);
    case RT__EH_RETURN:
        return code;
    default:
        if (!eh->cb.face || eh->cb.face->version < 1 || !eh->cb.face->call_errhandler)
            rt__fatal_code(code, msg);
        /* the user function may replace the handler (and so free it) while it runs; its own
         * attribute calls start from the C view, whatever the failing call had announced */
        if (before_user_handler)
            before_user_handler();
        rt__obj_retain(&eh->obj);
        eh->cb.face->call_errhandler(&eh->cb, target, code);
        rt__obj_release(&eh->obj);
        return code;
    }
}

const char *rt__errhandler_class_noun(int cls)
{
    switch (cls) {
    case RT_CLASS_COMM: return "communicators (MPI_Comm_create_errhandler)";
    case RT_CLASS_WIN: return "windows (MPI_Win_create_errhandler)";
    case RT_CLASS_FILE: return "files (MPI_File_create_errhandler)";
    case RT_CLASS_SESSION: return "sessions (MPI_Session_create_errhandler)";
    default: return "any object";
    }
}

/* A new user handler for objects of class cls calling fn; *out gets the reference. */
static int create(const char *fn, rt_callback cb, int cls, rt_errhandler **out)
{
    rt_errhandler *eh;

    if (!out)
        return rt__null_arg(NULL, fn, "errhandler");
    if (!cb.fn)
        return rt__null_arg(NULL, fn, "errhandler_fn");
    eh = (rt_errhandler *)rt__obj_new(RT_CLASS_ERRHANDLER);
    if (!eh)
        return rt_raise(NULL, RT_ERR_NO_MEM, fn, "cannot create another error handler");
    eh->kind = RT__EH_USER;
    eh->for_cls = cls;
    eh->cb = cb;
    *out = eh;
    return RT_SUCCESS;
}

/* MPI_Comm_create_errhandler: *errhandler = a new handler for communicators calling
 * comm_errhandler_fn (the caller owns the reference). NULL function: RT_ERR_ARG. */
int rt_Comm_create_errhandler(rt_callback comm_errhandler_fn, rt_errhandler **errhandler)
{
    return create(__func__, comm_errhandler_fn, RT_CLASS_COMM, errhandler);
}

/* MPI_Win_create_errhandler: as rt_Comm_create_errhandler, for windows. */
int rt_Win_create_errhandler(rt_callback win_errhandler_fn, rt_errhandler **errhandler)
{
    return create(__func__, win_errhandler_fn, RT_CLASS_WIN, errhandler);
}

/* MPI_File_create_errhandler: as rt_Comm_create_errhandler, for files. */
int rt_File_create_errhandler(rt_callback file_errhandler_fn, rt_errhandler **errhandler)
{
    return create(__func__, file_errhandler_fn, RT_CLASS_FILE, errhandler);
}

/* MPI_Session_create_errhandler: as rt_Comm_create_errhandler, for sessions. */
int rt_Session_create_errhandler(rt_callback session_errhandler_fn, rt_errhandler **errhandler)
{
    return create(__func__, session_errhandler_fn, RT_CLASS_SESSION, errhandler);
}

/* MPI-1 MPI_Errhandler_create: rt_Comm_create_errhandler. */
int rt_Errhandler_create(rt_callback function, rt_errhandler **errhandler)
{
    return create(__func__, function, RT_CLASS_COMM, errhandler);
}

/* MPI_Errhandler_free: drops the user's reference and sets *errhandler = NULL; objects
 * using the handler keep it alive. Predefined handlers may be "freed" (they never die).
 * Not a handler: RT_ERR_ERRHANDLER. */
int rt_Errhandler_free(rt_errhandler **errhandler)
{
    if (!errhandler)
        return rt__null_arg(NULL, __func__, "errhandler");
    if (!rt_obj_is(*errhandler, RT_CLASS_ERRHANDLER))
        return RT_ERR(NULL, RT_ERR_ERRHANDLER, "invalid error handler 'errhandler'%s",
                      *errhandler ? "" : " (MPI_ERRHANDLER_NULL)");
    rt__obj_release(&(*errhandler)->obj);
    *errhandler = NULL;
    return RT_SUCCESS;
}
