/* f08support.c — the hand-written part of the `mpi_f08` module's C half: the error for a
 * non-contiguous choice buffer (the module does not pack them yet), MPI_CONVERSION_FN_NULL_C. */
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
    static struct { const char *fn, *arg; int code; } made[64];
    static int nmade;
    int code = MPI_ERR_BUFFER;
    for (int i = 0; i < nmade; i++)
        if (made[i].fn == fn && made[i].arg == arg)
            code = made[i].code;
    if (code == MPI_ERR_BUFFER && nmade < 64 && PMPI_Add_error_code(MPI_ERR_BUFFER, &code) == MPI_SUCCESS) {
        char text[MPI_MAX_ERROR_STRING];
        snprintf(text, sizeof text, "%s: " FF08_NONCONTIGUOUS, fn, arg);
        PMPI_Add_error_string(code, text);
        made[nmade].fn = fn;
        made[nmade].arg = arg;
        made[nmade++].code = code;
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
FACE_API void mpi_conversion_fn_null_c_(void);
FACE_API void mpi_conversion_fn_null_c_(void) {}
#endif
