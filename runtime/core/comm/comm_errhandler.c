/* comm_errhandler.c — error handlers on communicators: MPI_Comm_set/get_errhandler, their
 * MPI-1 names MPI_Errhandler_set/get, and MPI_Comm_call_errhandler. */
#include "comm.h"

#include <stdio.h>

static int set_on_comm(const char *fn, rt_comm *comm, rt_errhandler *eh)
{
    int err = rt__comm_check(comm, fn);

    if (err)
        return err;
    if (!rt_obj_is(eh, RT_CLASS_ERRHANDLER))
        return rt_raise(&comm->obj, RT_ERR_ERRHANDLER, fn, "invalid error handler 'errhandler'%s",
                        eh ? "" : " (MPI_ERRHANDLER_NULL)");
    if (eh->for_cls != RT_CLASS_NONE && eh->for_cls != RT_CLASS_COMM)
        return rt_raise(&comm->obj, RT_ERR_ARG, fn, "error handler 'errhandler' was created for "
                        "%s and cannot be set on a communicator", rt__errhandler_class_noun(eh->for_cls));
    rt__errhandler_replace(&comm->errh, eh);
    if (comm == (rt_comm *)rt_builtins[RT_B_COMM_SELF])
        rt__err.self_errh_set = 1;  /* errors with no object follow SELF from now on */
    return RT_SUCCESS;
}

static int get_of_comm(const char *fn, rt_comm *comm, rt_errhandler **out)
{
    int err = rt__comm_check(comm, fn);

    if (err)
        return err;
    if (!out)
        return rt__null_arg(&comm->obj, fn, "errhandler");
    rt__obj_retain(&comm->errh->obj);
    *out = comm->errh;
    return RT_SUCCESS;
}

/* MPI_Comm_set_errhandler: comm's handler becomes errhandler (comm holds a reference).
 * Bad comm: RT_ERR_COMM; bad handler: RT_ERR_ERRHANDLER; handler made for another object
 * class: RT_ERR_ARG. */
int rt_Comm_set_errhandler(rt_comm *comm, rt_errhandler *errhandler)
{
    rt_require_init(__func__);
    return set_on_comm(__func__, comm, errhandler);
}

/* MPI_Comm_get_errhandler: *errhandler = comm's handler, a new reference the user frees
 * with MPI_Errhandler_free. Bad comm: RT_ERR_COMM. */
int rt_Comm_get_errhandler(rt_comm *comm, rt_errhandler **errhandler)
{
    rt_require_init(__func__);
    return get_of_comm(__func__, comm, errhandler);
}

/* MPI-1 MPI_Errhandler_set: rt_Comm_set_errhandler. */
int rt_Errhandler_set(rt_comm *comm, rt_errhandler *errhandler)
{
    rt_require_init(__func__);
    return set_on_comm(__func__, comm, errhandler);
}

/* MPI-1 MPI_Errhandler_get: rt_Comm_get_errhandler. */
int rt_Errhandler_get(rt_comm *comm, rt_errhandler **errhandler)
{
    rt_require_init(__func__);
    return get_of_comm(__func__, comm, errhandler);
}

/* MPI_Comm_call_errhandler: runs comm's handler with errorcode (a predefined class, user
 * class/code or instance code), then returns RT_SUCCESS (fatal handlers end the job).
 * Bad comm: RT_ERR_COMM; unknown code: RT_ERR_ARG. */
int rt_Comm_call_errhandler(rt_comm *comm, int errorcode)
{
    char name[64], msg[RT_MAX_ERROR_STRING];
    int err, n;

    rt_require_init(__func__);
    if ((err = rt__comm_check(comm, __func__)) != RT_SUCCESS)
        return err;
    /* what a fatal handler prints: "MPI_Comm_call_errhandler: <text of the code>" */
    n = snprintf(msg, sizeof msg, "%s: ", rt__mpi_name(__func__, name, sizeof name));
    if (rt__error_text(errorcode, msg + n, sizeof msg - (size_t)n) < 0)
        return RT_ERR(comm, RT_ERR_ARG, "invalid error code %d", errorcode);
    rt__errhandler_invoke(comm->errh, &comm->obj, errorcode, msg);
    return RT_SUCCESS;
}
