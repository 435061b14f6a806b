/* f90_attr_c.c — the C half of f90_attr: sets and reads attributes from C, and C copy/delete
 * callbacks that record the values they get, for the table of values across languages. */
#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

/* C reads keyval's attribute of comm: the flag (-1 on error), and if set *val = the pointer
 * C gets (how 0), or the MPI_Aint (how 1) or int (how 2) it points to. */
int f90_attr_c_get(MPI_Fint comm, MPI_Fint keyval, int how, MPI_Aint *val)
{
    void *p = NULL;
    int flag = 0;

    if (MPI_Comm_get_attr(MPI_Comm_f2c(comm), keyval, &p, &flag) != MPI_SUCCESS)
        return -1;
    if (flag)
        *val = how == 0 ? (MPI_Aint)p : how == 1 ? *(MPI_Aint *)p : *(int *)p;
    return flag;
}

/* C sets keyval's attribute of comm to the pointer (void *)val; the error code. */
int f90_attr_c_set(MPI_Fint comm, MPI_Fint keyval, MPI_Aint val)
{
    return MPI_Comm_set_attr(MPI_Comm_f2c(comm), keyval, (void *)val);
}

/* The address of a C int holding 314 (a real pointer to set). */
static int target = 314;
MPI_Aint f90_attr_c_target(void)
{
    return (MPI_Aint)&target;
}

/* The low 32 bits of v as a signed int (what an INTEGER get of v must return). */
int f90_attr_c_low32(MPI_Aint v)
{
    return (int)(uint32_t)(uintptr_t)v;
}

/* The values the callbacks below saw, in call order: *(MPI_Aint *) or *(int *) of the
 * pointer they got, as the keyval's extra_state (1 or 2) says. */
static MPI_Aint seen[64];
static int nseen;

int f90_attr_c_nseen(void)
{
    return nseen;
}

MPI_Aint f90_attr_c_seen(int i)
{
    return i >= 1 && i <= nseen ? seen[i - 1] : -999;
}

void f90_attr_c_reset(void)
{
    nseen = 0;
}

static void record(void *extra_state, void *p)
{
    if (nseen < 64)
        seen[nseen++] = (intptr_t)extra_state == 1 ? *(MPI_Aint *)p : *(int *)p;
}

/* Records, then copies as MPI_COMM_DUP_FN does (the pointer it got). */
static int copy_fn(MPI_Comm comm, int keyval, void *extra_state, void *in, void *out, int *flag)
{
    (void)comm;
    (void)keyval;
    record(extra_state, in);
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}

static int delete_fn(MPI_Comm comm, int keyval, void *val, void *extra_state)
{
    (void)comm;
    (void)keyval;
    record(extra_state, val);
    return MPI_SUCCESS;
}

/* A communicator keyval with the recording callbacks; how: 1 for values set by
 * MPI_COMM_SET_ATTR (MPI_Aint), 2 for MPI_ATTR_PUT (int). The error code. */
int f90_attr_c_keyval(int how, MPI_Fint *keyval)
{
    int k = MPI_KEYVAL_INVALID, rc = MPI_Comm_create_keyval(copy_fn, delete_fn, &k, (void *)(intptr_t)how);

    *keyval = k;
    return rc;
}

/* An error handler (for MPI_COMM_WORLD, which takes errors with no object) that reads, as a C
 * program does, keyval's attribute of a communicator: what it saw, in watched. */
static MPI_Comm watch_comm;
static int watch_keyval;
static MPI_Aint watched = -1;

static void watch_handler(MPI_Comm *comm, int *code, ...)
{
    void *p = NULL;
    int flag = 0;

    (void)comm, (void)code;
    MPI_Comm_get_attr(watch_comm, watch_keyval, &p, &flag);
    /* a Fortran-set 777 must come as a pointer to it, not as the value itself */
    watched = !flag ? -2 : (MPI_Aint)p == 777 ? -3 : *(MPI_Aint *)p;
}

/* Puts watch_handler on MPI_COMM_WORLD, reading keyval of comm; the error code. */
int f90_attr_c_watch(MPI_Fint comm, MPI_Fint keyval)
{
    MPI_Errhandler eh;
    int rc = MPI_Comm_create_errhandler(watch_handler, &eh);

    watch_comm = MPI_Comm_f2c(comm);
    watch_keyval = keyval;
    if (rc == MPI_SUCCESS)
        rc = MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh);
    MPI_Errhandler_free(&eh);
    return rc;
}

/* What watch_handler saw: the value behind C's pointer, -2: no attribute, -3: the value itself
 * instead of a pointer, -1: not called. */
MPI_Aint f90_attr_c_watched(void)
{
    return watched;
}
