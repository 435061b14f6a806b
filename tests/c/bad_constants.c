/* bad_constants.c — a negative tag, rank or root that is not this face's MPI_ANY_TAG,
 * MPI_ANY_SOURCE or MPI_PROC_NULL is an error, even where it equals the runtime's own
 * value of such a constant (on the MPICH face, tag -2 used to match any tag). */
#include "check.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    int x = 0, y = 7;
    char want[64];
    for (int v = -40; v < 0; v++) {
        MPI_Request r = MPI_REQUEST_NULL;
        snprintf(want, sizeof want, "= %d", v);
        if (v != MPI_ANY_TAG) {
            CHECK_ERR(MPI_Irecv(&x, 1, MPI_INT, 0, v, MPI_COMM_SELF, &r), MPI_ERR_TAG, "MPI_Irecv", "'tag'", want);
            CHECK_ERR(MPI_Send(&y, 1, MPI_INT, 0, v, MPI_COMM_SELF), MPI_ERR_TAG, "MPI_Send", want);
        }
        if (v != MPI_ANY_SOURCE && v != MPI_PROC_NULL)
            CHECK_ERR(MPI_Irecv(&x, 1, MPI_INT, v, 0, MPI_COMM_SELF, &r), MPI_ERR_RANK, "MPI_Irecv", "'source'", want);
        if (v != MPI_PROC_NULL)
            CHECK_ERR(MPI_Send(&y, 1, MPI_INT, v, 0, MPI_COMM_SELF), MPI_ERR_RANK, "MPI_Send", "'dest'", want);
        CHECK_ERR(MPI_Bcast(&x, 1, MPI_INT, v, MPI_COMM_SELF), MPI_ERR_ROOT, "MPI_Bcast", "'root'", want);
        CHECK(r == MPI_REQUEST_NULL, "a refused MPI_Irecv returned a request");
    }
    /* nothing was posted: a message with tag 5 is still there for its own receive */
    CHECK_SUCCESS(MPI_Send(&y, 1, MPI_INT, 0, 5, MPI_COMM_SELF));
    CHECK_SUCCESS(MPI_Recv(&x, 1, MPI_INT, 0, 5, MPI_COMM_SELF, MPI_STATUS_IGNORE));
    CHECK_EQ_INT(x, 7);
    MPI_Finalize();
    return 0;
}
