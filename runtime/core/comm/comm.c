/* comm.c — communicators: the builtin MPI_COMM_WORLD and MPI_COMM_SELF (and MPI_GROUP_EMPTY),
 * the destructor, size, rank, inter-communicator test and names. */
#include "attr/attr.h"
#include "group/group.h"
#include "comm.h"

#define COMM(id) ((rt_comm *)rt_builtins[id])

static void builtin_setup(rt_comm *c, const char *name)
{
    c->size = 1;
    c->rank = 0;
    c->remote_size = 0;
    c->errh = (rt_errhandler *)rt_builtins[RT_B_ERRORS_ARE_FATAL];
    rt__copy_str(c->name, sizeof c->name, name);
}

/* At load: WORLD and SELF as one-process communicators (WORLD grows at init) with MPI_ERRORS_ARE_FATAL and
 * their predefined names. Needs the errhandler builtins set up first. */
void rt__comm_builtins_init(void)
{
    builtin_setup(COMM(RT_B_COMM_WORLD), "MPI_COMM_WORLD");
    builtin_setup(COMM(RT_B_COMM_SELF), "MPI_COMM_SELF");
    rt_group *empty = (rt_group *)rt_builtins[RT_B_GROUP_EMPTY];
    empty->size = 0;
    empty->rank = RT_UNDEFINED;
    empty->ranks = NULL;
}

/* At init: WORLD takes this process's place in the job (rt__g.world); SELF maps its one
 * rank to this process. Context ids: WORLD 0 and 1, SELF 2 and 3 (point-to-point and
 * collective traffic of a communicator never match each other). */
void rt__comm_init(void)
{
    static int self_world[1];
    static struct rt_comm world_coll, self_coll; /* their collective-context views */
    COMM(RT_B_COMM_WORLD)->size = rt__g.world.size;
    COMM(RT_B_COMM_WORLD)->rank = rt__g.world.rank;
    COMM(RT_B_COMM_WORLD)->ctx = 0;
    self_world[0] = rt__g.world.rank;
    COMM(RT_B_COMM_SELF)->world = self_world;
    COMM(RT_B_COMM_SELF)->ctx = 2;
    rt__comm_views_init(COMM(RT_B_COMM_WORLD), &world_coll);
    rt__comm_views_init(COMM(RT_B_COMM_SELF), &self_coll);
}

/* At finalize: WORLD and SELF drop user error handlers, hints and attributes (releasing
 * them; no delete callbacks: SELF's ran at the start of MPI_Finalize). */
void rt__comm_finalize(void)
{
    rt_errhandler *fatal = (rt_errhandler *)rt_builtins[RT_B_ERRORS_ARE_FATAL];

    rt__errhandler_replace(&COMM(RT_B_COMM_WORLD)->errh, fatal);
    rt__errhandler_replace(&COMM(RT_B_COMM_SELF)->errh, fatal);
    rt__err.self_errh_set = 0;
    rt__attrs_clear((rt_obj *)COMM(RT_B_COMM_WORLD));
    rt__attrs_clear((rt_obj *)COMM(RT_B_COMM_SELF));
    rt__obj_release((rt_obj *)COMM(RT_B_COMM_WORLD)->info);
    rt__obj_release((rt_obj *)COMM(RT_B_COMM_SELF)->info);
    COMM(RT_B_COMM_WORLD)->info = COMM(RT_B_COMM_SELF)->info = NULL;
}

/* Destructor of a user communicator: drops attributes left (no callbacks), releases its
 * error handler, gives back its context id, frees its maps, views, topology and hints. */
void rt__comm_destroy(rt_obj *o)
{
    rt_comm *c = (rt_comm *)o;

    rt__attrs_clear(o); /* only left by a failed creation: MPI_Comm_free deleted the rest */
    if (c->errh)
        rt__obj_release(&c->errh->obj);
    c->errh = NULL;
    rt__comm_free_parts(c);
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

/* rt.h's rt_comm_size_of and rt_comm_remote_size_of read a communicator as its prefix. */
_Static_assert(offsetof(struct rt_comm, size) == offsetof(struct rt_comm_sizes, size) &&
                   offsetof(struct rt_comm, rank) == offsetof(struct rt_comm_sizes, rank) &&
                   offsetof(struct rt_comm, remote_size) == offsetof(struct rt_comm_sizes, remote_size),
               "struct rt_comm must begin as struct rt_comm_sizes");

/* MPI_Comm_size: *size = local group size (the face checked comm and size). */
int rt_Comm_size(rt_comm *comm, int *size)
{
    *size = comm->size;
    return RT_SUCCESS;
}

/* MPI_Comm_rank: *rank = this process's rank in comm (the face checked comm and rank). */
int rt_Comm_rank(rt_comm *comm, int *rank)
{
    *rank = comm->rank;
    return RT_SUCCESS;
}

/* MPI_Comm_test_inter: *flag = 1 for an inter-communicator, else 0. */
int rt_Comm_test_inter(rt_comm *comm, int *flag)
{
    *flag = comm->remote_size > 0;
    return RT_SUCCESS;
}

/* MPI_Comm_set_name: comm's name becomes a copy of comm_name, truncated to
 * MPI_MAX_OBJECT_NAME-1 chars (the standard's rule). Predefined communicators may be
 * renamed. */
int rt_Comm_set_name(rt_comm *comm, const char *comm_name)
{
    rt__copy_str(comm->name, sizeof comm->name, comm_name);
    return RT_SUCCESS;
}

/* MPI_Comm_get_name: comm_name (MPI_MAX_OBJECT_NAME chars) = comm's name ("" if never
 * set; "MPI_COMM_NULL" for comm NULL, the null handle, as MPI-4.1 says), *resultlen = its length. */
int rt_Comm_get_name(rt_comm *comm, char *comm_name, int *resultlen)
{
    *resultlen = rt__copy_str(comm_name, RT_MAX_OBJECT_NAME, comm ? comm->name : "MPI_COMM_NULL");
    return RT_SUCCESS;
}
