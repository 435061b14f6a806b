/* f08support.c — the hand-written part of the `mpi_f08` module's C half: the error for a
 * non-contiguous choice buffer (the module does not pack them yet). */
#include <stdio.h>

#include "f08face.h"

MPI_Fint ff08_noncontiguous(const char *fn, const char *arg, const MPI_Fint *comm)
{
    /* one error code per (procedure, argument), made on first use, so each keeps its message */
    static struct { const char *fn, *arg; int code; } made[64];
    static int nmade;
    int code = MPI_ERR_BUFFER;
    for (int i = 0; i < nmade; i++)
        if (made[i].fn == fn && made[i].arg == arg)
            code = made[i].code;
    if (code == MPI_ERR_BUFFER && nmade < 64 && PMPI_Add_error_code(MPI_ERR_BUFFER, &code) == MPI_SUCCESS) {
        char text[MPI_MAX_ERROR_STRING];
        snprintf(text, sizeof text, "%s: the choice buffer '%s' is not contiguous (Switchyard's mpi_f08 "
                 "takes contiguous buffers only)", fn, arg);
        PMPI_Add_error_string(code, text);
        made[nmade].fn = fn;
        made[nmade].arg = arg;
        made[nmade++].code = code;
    }
    PMPI_Comm_call_errhandler(comm ? PMPI_Comm_f2c(*comm) : MPI_COMM_WORLD, code);
    return code;
}
