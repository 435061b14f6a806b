/* start_errors.c — failures to start a send name the call and the reason: MPI_Start /
 * MPI_Startall (they said "start:"), a buffered send with no buffer attached (it said only
 * "cannot start the operation"). */
#include "check.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    int x = 1, y = 0;
    MPI_Request r = MPI_REQUEST_NULL, p, q;
    CHECK_ERR(MPI_Ibsend(&x, 1, MPI_INT, 0, 0, MPI_COMM_SELF, &r), MPI_ERR_BUFFER, "MPI_Ibsend", "MPI_Buffer_attach");
    CHECK_ERR(MPI_Bsend(&x, 1, MPI_INT, 0, 0, MPI_COMM_SELF), MPI_ERR_BUFFER, "MPI_Bsend", "MPI_Buffer_attach");
    CHECK_SUCCESS(MPI_Bsend_init(&x, 1, MPI_INT, 0, 0, MPI_COMM_SELF, &p));
    CHECK_ERR(MPI_Start(&p), MPI_ERR_BUFFER, "MPI_Start:", "MPI_Buffer_attach");
    CHECK_SUCCESS(MPI_Recv_init(&y, 1, MPI_INT, 0, 9, MPI_COMM_SELF, &q));
    CHECK_SUCCESS(MPI_Start(&q));
    CHECK_ERR(MPI_Start(&q), MPI_ERR_REQUEST, "MPI_Start:", "already active");
    CHECK_ERR(MPI_Startall(1, &q), MPI_ERR_REQUEST, "MPI_Startall:", "already active");
    CHECK_SUCCESS(MPI_Send(&x, 1, MPI_INT, 0, 9, MPI_COMM_SELF));
    CHECK_SUCCESS(MPI_Wait(&q, MPI_STATUS_IGNORE));
    CHECK_EQ_INT(y, 1);
    MPI_Request_free(&p);
    MPI_Request_free(&q);
    MPI_Finalize();
    return 0;
}
