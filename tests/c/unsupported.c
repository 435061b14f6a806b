/* unsupported.c — a procedure the runtime does not implement yet returns
 * MPI_ERR_UNSUPPORTED_OPERATION through the error handler, with a message naming it. */
#include <mpi.h>
#include <string.h>

#include "check.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    /* MPI_Open_port belongs to the dynamic-process chapter, which has no issue yet. */
    char port[MPI_MAX_PORT_NAME];
    int err = MPI_Open_port(MPI_INFO_NULL, port);
    CHECK_ERR(err, MPI_ERR_UNSUPPORTED_OPERATION, "MPI_Open_port", "not implemented");
    MPI_Finalize();
    return 0;
}
