/* errors_noobj.c: errors tied to no communicator, window, file or session (issue 18.5) run
 * MPI_COMM_WORLD's handler until the program sets MPI_COMM_SELF's, then SELF's. */
#include "check.h"

static int calls;
static MPI_Comm last_comm;

static void handler(MPI_Comm *comm, int *code, ...)
{
    (void)code;
    calls++;
    last_comm = *comm;
}

/* one error with no object: a null datatype, a null info, a null group */
static void raise_three(int want_calls, MPI_Comm want_comm)
{
    int size = 0, nkeys = 0, before = calls;

    CHECK_ERR(MPI_Type_size(MPI_DATATYPE_NULL, &size), MPI_ERR_TYPE, NULL);
    CHECK_ERR(MPI_Info_get_nkeys(MPI_INFO_NULL, &nkeys), MPI_ERR_INFO, NULL);
    CHECK_ERR(MPI_Group_size(MPI_GROUP_NULL, &size), MPI_ERR_GROUP, NULL);
    CHECK_EQ_INT(calls - before, want_calls);
    if (want_calls)
        CHECK(last_comm == want_comm, "the handler got another communicator");
}

int main(void)
{
    MPI_Errhandler eh;

    CHECK_SUCCESS(MPI_Init(NULL, NULL));
    CHECK_SUCCESS(MPI_Comm_create_errhandler(handler, &eh));

    /* MPI_ERRORS_RETURN on WORLD only (an MPI-3 program): the errors come back */
    CHECK_SUCCESS(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    raise_three(0, MPI_COMM_NULL);

    /* a user handler on WORLD only runs, with MPI_COMM_WORLD */
    CHECK_SUCCESS(MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh));
    raise_three(3, MPI_COMM_WORLD);

    /* once SELF has a handler, SELF's runs (MPI-4.0), whatever WORLD has */
    CHECK_SUCCESS(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_SUCCESS(MPI_Comm_set_errhandler(MPI_COMM_SELF, eh));
    raise_three(3, MPI_COMM_SELF);
    CHECK_SUCCESS(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
    CHECK_SUCCESS(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
    raise_three(0, MPI_COMM_NULL);
    CHECK_SUCCESS(MPI_Comm_set_errhandler(MPI_COMM_SELF, eh));
    raise_three(3, MPI_COMM_SELF);

    CHECK_SUCCESS(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
    CHECK_SUCCESS(MPI_Errhandler_free(&eh));
    CHECK_SUCCESS(MPI_Finalize());
    return 0;
}
