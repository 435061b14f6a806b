/* null_buffer.c — a NULL buffer with a positive count is MPI_ERR_BUFFER in every
 * point-to-point call (it crashed or hung); count 0 and MPI_BOTTOM with a datatype of
 * absolute addresses stay legal. */
#include "check.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Comm c = MPI_COMM_SELF;
    MPI_Request r = MPI_REQUEST_NULL;
    CHECK_ERR(MPI_Send(NULL, 4, MPI_INT, 0, 1, c), MPI_ERR_BUFFER, "MPI_Send", "NULL");
    CHECK_ERR(MPI_Ssend(NULL, 1, MPI_DOUBLE, 0, 1, c), MPI_ERR_BUFFER, "MPI_Ssend");
    CHECK_ERR(MPI_Isend(NULL, 2, MPI_INT, 0, 1, c, &r), MPI_ERR_BUFFER, "MPI_Isend");
    CHECK_ERR(MPI_Irecv(NULL, 4, MPI_INT, 0, 1, c, &r), MPI_ERR_BUFFER, "MPI_Irecv");
    CHECK_ERR(MPI_Recv(NULL, 4, MPI_INT, 0, 1, c, MPI_STATUS_IGNORE), MPI_ERR_BUFFER, "MPI_Recv");
    CHECK_ERR(MPI_Send_init(NULL, 4, MPI_INT, 0, 1, c, &r), MPI_ERR_BUFFER, "MPI_Send_init");
    CHECK(r == MPI_REQUEST_NULL, "a refused call returned a request");
    /* count 0: nothing to read or write */
    CHECK_SUCCESS(MPI_Send(NULL, 0, MPI_INT, 0, 2, c));
    CHECK_SUCCESS(MPI_Recv(NULL, 0, MPI_INT, 0, 2, c, MPI_STATUS_IGNORE));
    /* MPI_BOTTOM with absolute addresses */
    int a = 11, b = 0;
    MPI_Aint at;
    MPI_Datatype abs_a, abs_b;
    MPI_Get_address(&a, &at);
    MPI_Type_create_hindexed(1, (int[]){1}, &at, MPI_INT, &abs_a);
    MPI_Get_address(&b, &at);
    MPI_Type_create_hindexed(1, (int[]){1}, &at, MPI_INT, &abs_b);
    MPI_Type_commit(&abs_a);
    MPI_Type_commit(&abs_b);
    CHECK_SUCCESS(MPI_Sendrecv(MPI_BOTTOM, 1, abs_a, 0, 3, MPI_BOTTOM, 1, abs_b, 0, 3, c, MPI_STATUS_IGNORE));
    CHECK_EQ_INT(b, 11);
    MPI_Type_free(&abs_a);
    MPI_Type_free(&abs_b);
    /* nothing refused above was queued: the next message meets its own receive */
    int x = 5, y = 0;
    CHECK_SUCCESS(MPI_Sendrecv(&x, 1, MPI_INT, 0, 1, &y, 1, MPI_INT, 0, 1, c, MPI_STATUS_IGNORE));
    CHECK_EQ_INT(y, 5);
    MPI_Finalize();
    return 0;
}
