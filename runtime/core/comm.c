/* comm.c — communicators, minimal for now: the builtin MPI_COMM_WORLD and MPI_COMM_SELF,
 * size, rank, inter-communicator test and names. */
#include "rt_internal.h"

#define COMM(id) ((rt_comm *)rt_builtins[id])

static void builtin_setup(rt_comm *c, const char *name)
{
    c->size = 1;
    c->rank = 0;
    c->remote_size = 0;
    c->errh = (rt_errhandler *)rt_builtins[RT_B_ERRORS_ARE_FATAL];
    rt__copy_str(c->name, sizeof c->name, name);
}

/* At load: WORLD and SELF as single-process communicators with MPI_ERRORS_ARE_FATAL and
 * their predefined names. Needs the errhandler builtins set up first. */
void rt__comm_builtins_init(void)
{
    builtin_setup(COMM(RT_B_COMM_WORLD), "MPI_COMM_WORLD");
    builtin_setup(COMM(RT_B_COMM_SELF), "MPI_COMM_SELF");
}

/* At init: WORLD takes this process's place in the job (rt__g.world); SELF maps its one
 * rank to this process. Context ids: WORLD 0 and 1, SELF 2 and 3 (point-to-point and
 * collective traffic of a communicator never match each other). */
void rt__comm_init(void)
{
    static int self_world[1];
    COMM(RT_B_COMM_WORLD)->size = rt__g.world.size;
    COMM(RT_B_COMM_WORLD)->rank = rt__g.world.rank;
    COMM(RT_B_COMM_WORLD)->ctx = 0;
    self_world[0] = rt__g.world.rank;
    COMM(RT_B_COMM_SELF)->world = self_world;
    COMM(RT_B_COMM_SELF)->ctx = 2;
}

/* At finalize: WORLD and SELF drop user error handlers (releasing them). */
void rt__comm_finalize(void)
{
    rt_errhandler *fatal = (rt_errhandler *)rt_builtins[RT_B_ERRORS_ARE_FATAL];

    rt__errhandler_replace(&COMM(RT_B_COMM_WORLD)->errh, fatal);
    rt__errhandler_replace(&COMM(RT_B_COMM_SELF)->errh, fatal);
}

/* Destructor of a user communicator: releases its error handler. */
void rt__comm_destroy(rt_obj *o)
{
    rt_comm *c = (rt_comm *)o;

    if (c->errh)
        rt__obj_release(&c->errh->obj);
    c->errh = NULL;
}

/* RT_SUCCESS if comm is a live communicator; else raises RT_ERR_COMM naming fn and
 * argument 'comm', and returns the code. */
int rt__comm_check(const rt_comm *comm, const char *fn)
{
    if (rt_obj_is(comm, RT_CLASS_COMM))
        return RT_SUCCESS;
    return rt_raise(NULL, RT_ERR_COMM, fn, "invalid communicator 'comm'%s",
                    comm ? "" : " (MPI_COMM_NULL)");
}

/* Local group size of comm, -1 if comm is not a live communicator. */
int rt_comm_size_of(const rt_comm *comm)
{
    return rt_obj_is(comm, RT_CLASS_COMM) ? comm->size : -1;
}

/* Remote group size of comm (0: intra-communicator), -1 if comm is not live. */
int rt_comm_remote_size_of(const rt_comm *comm)
{
    return rt_obj_is(comm, RT_CLASS_COMM) ? comm->remote_size : -1;
}

/* MPI_Comm_size: *size = local group size. Bad comm: RT_ERR_COMM; NULL size: RT_ERR_ARG. */
int rt_Comm_size(rt_comm *comm, int *size)
{
    int err;

    rt_require_init(__func__);
    if ((err = rt__comm_check(comm, __func__)) != RT_SUCCESS)
        return err;
    if (!size)
        return rt__null_arg(&comm->obj, __func__, "size");
    *size = comm->size;
    return RT_SUCCESS;
}

/* MPI_Comm_rank: *rank = this process's rank in comm. Bad comm: RT_ERR_COMM; NULL rank:
 * RT_ERR_ARG. */
int rt_Comm_rank(rt_comm *comm, int *rank)
{
    int err;

    rt_require_init(__func__);
    if ((err = rt__comm_check(comm, __func__)) != RT_SUCCESS)
        return err;
    if (!rank)
        return rt__null_arg(&comm->obj, __func__, "rank");
    *rank = comm->rank;
    return RT_SUCCESS;
}

/* MPI_Comm_test_inter: *flag = 1 for an inter-communicator (none exist yet), else 0. */
int rt_Comm_test_inter(rt_comm *comm, int *flag)
{
    int err;

    rt_require_init(__func__);
    if ((err = rt__comm_check(comm, __func__)) != RT_SUCCESS)
        return err;
    if (!flag)
        return rt__null_arg(&comm->obj, __func__, "flag");
    *flag = comm->remote_size > 0;
    return RT_SUCCESS;
}

/* MPI_Comm_set_name: comm's name becomes a copy of comm_name, truncated to
 * MPI_MAX_OBJECT_NAME-1 chars (the standard's rule). Predefined communicators may be
 * renamed. Bad comm: RT_ERR_COMM; NULL name: RT_ERR_ARG. */
int rt_Comm_set_name(rt_comm *comm, const char *comm_name)
{
    int err;

    rt_require_init(__func__);
    if ((err = rt__comm_check(comm, __func__)) != RT_SUCCESS)
        return err;
    if (!comm_name)
        return rt__null_arg(&comm->obj, __func__, "comm_name");
    rt__copy_str(comm->name, sizeof comm->name, comm_name);
    return RT_SUCCESS;
}

/* MPI_Comm_get_name: comm_name (MPI_MAX_OBJECT_NAME chars) = comm's name ("" if never
 * set), *resultlen = its length. Bad comm: RT_ERR_COMM; NULL pointers: RT_ERR_ARG. */
int rt_Comm_get_name(rt_comm *comm, char *comm_name, int *resultlen)
{
    int err;

    rt_require_init(__func__);
    if ((err = rt__comm_check(comm, __func__)) != RT_SUCCESS)
        return err;
    if (!comm_name)
        return rt__null_arg(&comm->obj, __func__, "comm_name");
    if (!resultlen)
        return rt__null_arg(&comm->obj, __func__, "resultlen");
    *resultlen = rt__copy_str(comm_name, RT_MAX_OBJECT_NAME, comm->name);
    return RT_SUCCESS;
}
