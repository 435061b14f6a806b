/* f08support.c — the hand-written part of the `mpi_f08` module's C half: the error for a
 * non-contiguous choice buffer (the module does not pack them yet), MPI_CONVERSION_FN_NULL_C. */
#include <pthread.h>
#include <stdio.h>

#include "f08face.h"

#ifndef FF_ABI
/* libmpi's extra (bindings/c/handles.c): raises errclass on comm's error handler with the
 * message "<name>: <text>", without making an error code (MPI_LASTUSEDCODE stays); returns
 * the error code. */
int MPIR_Err_raise(MPI_Comm comm, int errclass, const char *name, const char *text);
#endif

/* The message's text after "<fn>: ". */
#define FF08_NONCONTIGUOUS                                                                         \
    "the choice buffer '%s' is not contiguous (Switchyard's mpi_f08 takes contiguous buffers only)"

#ifdef FF_ABI
/* ff08_noncontiguous's codes, one per (procedure, argument) (threads over a foreign MPI share it
 * without any library lock): read and added under ff08_made_lock, a leaf (the code is made
 * outside it, as PMPI_Add_error_code takes the library's lock, which a callback may hold). */
static struct { const char *fn, *arg; int code; } ff08_made[64];
static int ff08_nmade;
static pthread_mutex_t ff08_made_lock = PTHREAD_MUTEX_INITIALIZER;

/* The code kept for (fn, arg), or 0 (none yet; MPI_ERR_BUFFER if the table is full). */
static int ff08_made_find(const char *fn, const char *arg)
{
    int code = 0;
    pthread_mutex_lock(&ff08_made_lock);
    for (int i = 0; i < ff08_nmade && !code; i++)
        if (ff08_made[i].fn == fn && ff08_made[i].arg == arg)
            code = ff08_made[i].code;
    if (!code && ff08_nmade == 64)
        code = MPI_ERR_BUFFER;
    pthread_mutex_unlock(&ff08_made_lock);
    return code;
}

/* Keeps code for (fn, arg) unless another thread kept one first (then returns that one). */
static int ff08_made_keep(const char *fn, const char *arg, int code)
{
    pthread_mutex_lock(&ff08_made_lock);
    int i = 0;
    while (i < ff08_nmade && !(ff08_made[i].fn == fn && ff08_made[i].arg == arg))
        i++;
    if (i < ff08_nmade)
        code = ff08_made[i].code;
    else if (ff08_nmade < 64) {
        ff08_made[ff08_nmade].fn = fn;
        ff08_made[ff08_nmade].arg = arg;
        ff08_made[ff08_nmade++].code = code;
    }
    pthread_mutex_unlock(&ff08_made_lock);
    return code;
}
#endif

MPI_Fint ff08_noncontiguous(const char *fn, const char *arg, const MPI_Fint *comm)
{
#ifndef FF_ABI
    /* libmpifort: raised through libmpi's error path, as the runtime raises its own errors */
    char text[MPI_MAX_ERROR_STRING];
    snprintf(text, sizeof text, FF08_NONCONTIGUOUS, arg);
    return MPIR_Err_raise(comm ? PMPI_Comm_f2c(*comm) : MPI_COMM_WORLD, MPI_ERR_BUFFER, fn, text);
#else
    /* The standard-ABI Fortran library, built from this file with -DFF_ABI, is a client of
     * libmpi_abi only and cannot see libmpi's hooks (nor has it mpi_f08 yet): there, one error
     * code per (procedure, argument), made on first use, carries the message. */
    int code = ff08_made_find(fn, arg);
    if (!code) {
        /* two threads at once each make one; the first kept wins, the other stays unused */
        if (PMPI_Add_error_code(MPI_ERR_BUFFER, &code) == MPI_SUCCESS) {
            char text[MPI_MAX_ERROR_STRING];
            snprintf(text, sizeof text, "%s: " FF08_NONCONTIGUOUS, fn, arg);
            PMPI_Add_error_string(code, text);
            code = ff08_made_keep(fn, arg, code);
        } else
            code = MPI_ERR_BUFFER;
    }
    PMPI_Comm_call_errhandler(comm ? PMPI_Comm_f2c(*comm) : MPI_COMM_WORLD, code);
    return code;
#endif
}

#ifndef FF_ABI
/* mpi_f08's MPI_CONVERSION_FN_NULL_C (spec/callbacks.json: PROCEDURE(MPI_Datarep_conversion_
 * function_c); mpif.h and `use mpi` have no large-count callbacks): as fsupport.c's
 * MPI_CONVERSION_FN_NULL, a marker for MPI_Register_datarep_c, never called. gfortran's name of
 * it only: MPICH's libraries export no other. (The standard-ABI library has no mpi_f08.) */
FACE_API void mpi_conversion_fn_null_c_(void) {}
#endif
