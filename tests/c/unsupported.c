/* unsupported.c — a procedure the runtime does not implement yet returns
 * MPI_ERR_UNSUPPORTED_OPERATION through the error handler, with a message naming it, and makes
 * no error code: MPI_LASTUSEDCODE stays. */
#include <mpi.h>
#include <string.h>

#include "check.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    int *last = NULL, flag = 0;
    CHECK_SUCCESS(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &last, &flag));
    CHECK(flag && last, "MPI_LASTUSEDCODE is not set");
    const int last0 = *last;
    /* MPI_Open_port belongs to the dynamic-process chapter, which has no issue yet. */
    char port[MPI_MAX_PORT_NAME];
    int err = MPI_Open_port(MPI_INFO_NULL, port);
    CHECK_ERR(err, MPI_ERR_UNSUPPORTED_OPERATION, "MPI_Open_port", "not implemented");

    /* through the communicator's error handler (MPI_Comm_accept: dynamic processes too) */
    MPI_Comm dup, other;
    CHECK_SUCCESS(MPI_Comm_dup(MPI_COMM_SELF, &dup));
    CHECK_SUCCESS(MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN));
    err = MPI_Comm_accept("no-port", MPI_INFO_NULL, 0, dup, &other);
    CHECK_ERR(err, MPI_ERR_UNSUPPORTED_OPERATION, "MPI_Comm_accept: not implemented");
    CHECK_SUCCESS(MPI_Comm_free(&dup));
    CHECK_SUCCESS(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &last, &flag));
    CHECK_EQ_INT(*last, last0);
    MPI_Finalize();
    return 0;
}
