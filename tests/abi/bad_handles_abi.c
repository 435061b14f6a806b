/* bad_handles_abi.c: garbage handles on the standard-ABI face (issue 15 item 10): a user handle
 * is an object's address, so -1, random integers, misaligned or stack addresses, a forged
 * header and a freed object's old handle must each give the argument's error class, not a crash. */
#include <stdint.h>

#include "../c/check.h"

static int errors;

/* Every call taking one handle of each class, given the garbage value g. */
static void try_all(uintptr_t g, const char *what)
{
    int n = -7, flag = 0, buf = 0;
    void *val = NULL;
    MPI_Datatype t = (MPI_Datatype)g;
    MPI_Request req = (MPI_Request)g;
    MPI_Errhandler eh = (MPI_Errhandler)g;
    MPI_Group grp = MPI_GROUP_NULL;
    MPI_Status st;

    (void)what;
    CHECK_ERR(MPI_Comm_rank((MPI_Comm)g, &n), MPI_ERR_COMM, "MPI_Comm_rank", "comm");
    CHECK_ERR(MPI_Comm_size((MPI_Comm)g, &n), MPI_ERR_COMM, "MPI_Comm_size");
    CHECK_ERR(MPI_Send(&buf, 1, MPI_INT, 0, 0, (MPI_Comm)g), MPI_ERR_COMM, "MPI_Send");
    CHECK_ERR(MPI_Send(&buf, 1, (MPI_Datatype)g, 0, 0, MPI_COMM_SELF), MPI_ERR_TYPE, "MPI_Send");
    CHECK_ERR(MPI_Type_size((MPI_Datatype)g, &n), MPI_ERR_TYPE, "MPI_Type_size");
    CHECK_ERR(MPI_Type_commit(&t), MPI_ERR_TYPE, "MPI_Type_commit");
    CHECK_ERR(MPI_Group_size((MPI_Group)g, &n), MPI_ERR_GROUP, "MPI_Group_size");
    CHECK_ERR(MPI_Info_get_nkeys((MPI_Info)g, &n), MPI_ERR_INFO, "MPI_Info_get_nkeys");
    CHECK_ERR(MPI_Op_commutative((MPI_Op)g, &n), MPI_ERR_OP, "MPI_Op_commutative");
    CHECK_ERR(MPI_Request_free(&req), MPI_ERR_REQUEST, "MPI_Request_free");
    req = (MPI_Request)g;
    CHECK_ERR(MPI_Wait(&req, &st), MPI_ERR_REQUEST, "MPI_Wait");
    CHECK_ERR(MPI_Errhandler_free(&eh), MPI_ERR_ARG, "MPI_Errhandler_free");
    CHECK_ERR(MPI_Win_get_group((MPI_Win)g, &grp), MPI_ERR_WIN, "MPI_Win_get_group");
    CHECK_ERR(MPI_Comm_get_attr((MPI_Comm)g, MPI_TAG_UB, &val, &flag), MPI_ERR_COMM, "MPI_Comm_get_attr");
    CHECK_ERR(MPI_Comm_set_errhandler((MPI_Comm)g, MPI_ERRORS_RETURN), MPI_ERR_COMM, NULL);
    errors++;
}

int main(int argc, char **argv)
{
    MPI_Comm dup, gone;
    MPI_Datatype ct;
    int stackvar = 0, n = 0;
    uint64_t x = 0x9e3779b97f4a7c15ull;

    MPI_Init(&argc, &argv);
    CHECK_SUCCESS(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_SUCCESS(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
    CHECK_SUCCESS(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    CHECK_SUCCESS(MPI_Type_contiguous(3, MPI_INT, &ct));
    CHECK_SUCCESS(MPI_Type_commit(&ct));

    try_all((uintptr_t)-1, "-1");
    try_all((uintptr_t)-2, "-2");
    try_all((uintptr_t)(1 << 20 | 8), "1 << 20 | 8");
    try_all((uintptr_t)0x12345678, "0x12345678");
    try_all((uintptr_t)0x7fffffffffffull, "top of user space");
    try_all((uintptr_t)0x8000000000000000ull, "kernel half");
    for (int i = 0; i < 64; i++) { /* random 64-bit values (fixed seed), aligned and not */
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        try_all((uintptr_t)(x ^ (x >> 29)), "random");
        try_all((uintptr_t)((x >> 16) & ~(uint64_t)15), "random aligned");
    }
    for (int off = 1; off < 16; off++) { /* misaligned, inside a live object */
        try_all((uintptr_t)dup + (uintptr_t)off, "inside a communicator");
        try_all((uintptr_t)ct + (uintptr_t)off, "inside a datatype");
    }
    try_all((uintptr_t)&stackvar, "a stack variable");
    try_all((uintptr_t)&errors, "a global variable");
    try_all((uintptr_t)&main, "a function");
    {   /* a forged header: the bytes of a live communicator's header, elsewhere */
        unsigned char *forged = calloc(1, 512);
        CHECK(forged, "calloc");
        memcpy(forged, (const void *)dup, 32);
        try_all((uintptr_t)forged, "a forged communicator header");
        free(forged);
    }

    /* a freed communicator's old handle (no object is created in between) */
    CHECK_SUCCESS(MPI_Comm_dup(MPI_COMM_WORLD, &gone));
    uintptr_t old = (uintptr_t)gone;
    CHECK_SUCCESS(MPI_Comm_free(&gone));
    CHECK_ERR(MPI_Comm_rank((MPI_Comm)old, &n), MPI_ERR_COMM, "MPI_Comm_rank");
    CHECK_ERR(MPI_Comm_size((MPI_Comm)old, &n), MPI_ERR_COMM, "MPI_Comm_size");
    CHECK_ERR(MPI_Send(&n, 1, MPI_INT, 0, 0, (MPI_Comm)old), MPI_ERR_COMM, "MPI_Send");

    /* a live object of the wrong class is still named as such */
    CHECK_ERR(MPI_Type_size((MPI_Datatype)dup, &n), MPI_ERR_TYPE, "MPI_Type_size", "communicator");
    CHECK_ERR(MPI_Comm_rank((MPI_Comm)ct, &n), MPI_ERR_COMM, "MPI_Comm_rank", "datatype");

    /* and the live ones still work */
    CHECK_SUCCESS(MPI_Comm_rank(dup, &n));
    CHECK_EQ_INT(n, 0);
    CHECK_SUCCESS(MPI_Type_size(ct, &n));
    CHECK_EQ_INT(n, 3 * (int)sizeof(int));
    CHECK_SUCCESS(MPI_Comm_free(&dup));
    CHECK_SUCCESS(MPI_Type_free(&ct));
    MPI_Finalize();
    printf("bad_handles_abi: %d garbage values, no crash\n", errors);
    return 0;
}
