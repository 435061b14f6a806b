/* missing.c — for the shim tests (abi_backend_*.sh): calls MPI_Remove_error_class, which MPICH 4.0
 * and Open MPI 4.1 lack, and prints its error class and text; any argument sets MPI_ERRORS_RETURN. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
int main(int argc, char **argv)
{
    char msg[MPI_MAX_ERROR_STRING];
    int rc, cls = -1, len = 0;
    MPI_Init(&argc, &argv);
    if (argc > 1)
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    rc = MPI_Remove_error_class(MPI_ERR_LASTCODE);
    MPI_Error_class(rc, &cls);
    MPI_Error_string(rc, msg, &len);
    printf("class %s: %s\n", cls == MPI_ERR_UNSUPPORTED_OPERATION ? "unsupported" : "other", msg);
    MPI_Finalize();
    return 0;
}
