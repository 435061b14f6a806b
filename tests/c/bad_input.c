/* bad_input: with MPI_ERRORS_RETURN, invalid handles, handles of the wrong
 * class and NULL pointers give the right error class and a clear message. */
#include "check.h"

int main(void)
{
    int n = -1, code;
    MPI_Info info;

    CHECK_SUCCESS(MPI_Init(NULL, NULL));
    CHECK_SUCCESS(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_SUCCESS(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
    CHECK_SUCCESS(MPI_Info_create(&info));

    /* the null handle where a communicator is needed */
    CHECK_ERR(MPI_Comm_rank(MPI_COMM_NULL, &n), MPI_ERR_COMM, "MPI_Comm_rank", "comm");
    CHECK_ERR(MPI_Comm_size(MPI_COMM_NULL, &n), MPI_ERR_COMM, "MPI_Comm_size", "comm");

#ifndef MPI_ABI_VERSION
    /* MPICH-ABI integer handles: a predefined communicator that does not
     * exist and a user communicator never created (MPICH asserts on these),
     * then handles of other classes */
    if (CHECK_SWITCHYARD) {
        CHECK_ERR(MPI_Comm_rank((MPI_Comm)0x44000077, &n), MPI_ERR_COMM,
                  "MPI_Comm_rank", "comm", "0x44000077");
        CHECK_ERR(MPI_Comm_rank((MPI_Comm)0xc4000077, &n), MPI_ERR_COMM,
                  "MPI_Comm_rank", "comm", "0xc4000077");
    }
    CHECK_ERR(MPI_Comm_rank((MPI_Comm)MPI_INFO_NULL, &n), MPI_ERR_COMM,
              "MPI_Comm_rank", "comm");
    CHECK_ERR(MPI_Comm_rank((MPI_Comm)info, &n), MPI_ERR_COMM, "MPI_Comm_rank", "comm");
    CHECK_ERR(MPI_Info_set((MPI_Info)MPI_COMM_WORLD, "k", "v"), MPI_ERR_INFO,
              "MPI_Info_set", "info");
#endif

    /* NULL pointers give MPI_ERR_ARG; for an info key MPICH says
     * MPI_ERR_INFO_KEY, which is accepted too */
    CHECK_ERR(MPI_Comm_size(MPI_COMM_WORLD, NULL), MPI_ERR_ARG, "MPI_Comm_size", "size");
    CHECK_ERR(MPI_Comm_rank(MPI_COMM_WORLD, NULL), MPI_ERR_ARG, "MPI_Comm_rank", "rank");
    code = MPI_Info_set(info, NULL, "v");
    CHECK_ERR(code, error_class(code) == MPI_ERR_INFO_KEY ? MPI_ERR_INFO_KEY : MPI_ERR_ARG,
              "MPI_Info_set", "key");
    CHECK_ERR(MPI_Info_set(info, "k", NULL), MPI_ERR_ARG, "MPI_Info_set", "value");

    /* the valid calls still work afterwards */
    CHECK_SUCCESS(MPI_Comm_size(MPI_COMM_WORLD, &n));
    CHECK_EQ_INT(n, 1);
    CHECK_SUCCESS(MPI_Info_free(&info));
    CHECK_SUCCESS(MPI_Finalize());
    return 0;
}
