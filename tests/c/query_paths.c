/* query_paths.c — the read_only calls (MPI_Comm_rank, MPI_Comm_size, MPI_Type_size and its _x
 * and _c forms) give the same answers and errors whichever way they go: predefined or user
 * handles, with the library's lock off or on (a nonblocking collective outstanding), and bad
 * arguments reach the error handler once. */
#include "check.h"

static int calls, last_class;

static void count_errors(MPI_Comm *comm, int *code, ...)
{
    (void)comm;
    calls++;
    MPI_Error_class(*code, &last_class);
}

/* Every query, on predefined and user objects; n: repeated (the fast path is per call). */
static void queries(MPI_Comm dup, MPI_Datatype pair, int me, int np, int n)
{
    for (int i = 0; i < n; i++) {
        int r = -1, s = -1;
        MPI_Count c = -1;
        CHECK_SUCCESS(MPI_Comm_rank(MPI_COMM_WORLD, &r));
        CHECK_EQ_INT(r, me);
        CHECK_SUCCESS(MPI_Comm_size(MPI_COMM_WORLD, &s));
        CHECK_EQ_INT(s, np);
        CHECK_SUCCESS(MPI_Comm_rank(MPI_COMM_SELF, &r));
        CHECK_EQ_INT(r, 0);
        CHECK_SUCCESS(MPI_Comm_size(MPI_COMM_SELF, &s));
        CHECK_EQ_INT(s, 1);
        CHECK_SUCCESS(MPI_Comm_rank(dup, &r));
        CHECK_EQ_INT(r, me);
        CHECK_SUCCESS(MPI_Comm_size(dup, &s));
        CHECK_EQ_INT(s, np);
        CHECK_SUCCESS(MPI_Type_size(MPI_DOUBLE, &s));
        CHECK_EQ_INT(s, 8);
        CHECK_SUCCESS(MPI_Type_size(pair, &s));
        CHECK_EQ_INT(s, 8);
        CHECK_SUCCESS(MPI_Type_size_x(MPI_INT, &c));
        CHECK_EQ_INT(c, 4);
        CHECK_SUCCESS(MPI_Type_size_c(pair, &c));
        CHECK_EQ_INT(c, 8);
    }
}

int main(int argc, char **argv)
{
    int me, np, s = 0, flag = 0;

    MPI_Initialized(&flag); /* (no CHECK_SUCCESS: Open MPI allows no MPI_Error_class yet) */
    CHECK_EQ_INT(flag, 0);
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);

    MPI_Comm dup;
    MPI_Datatype pair;
    CHECK_SUCCESS(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    CHECK_SUCCESS(MPI_Type_contiguous(2, MPI_INT, &pair));
    CHECK_SUCCESS(MPI_Type_commit(&pair));
    queries(dup, pair, me, np, 1000);

    /* with a nonblocking collective outstanding: the lock is on while the progress thread may
     * run (SWITCHYARD_ASYNC_PROGRESS=1 in tests/testlist keeps it on throughout) */
    MPI_Request req;
    CHECK_SUCCESS(MPI_Ibarrier(dup, &req));
    queries(dup, pair, me, np, 1000);
    CHECK_SUCCESS(MPI_Wait(&req, MPI_STATUS_IGNORE));
    queries(dup, pair, me, np, 10);

    /* a type larger than 2 GiB: MPI_UNDEFINED from MPI_Type_size, its size from the _x form */
    MPI_Datatype gib, big;
    MPI_Count c = 0;
    CHECK_SUCCESS(MPI_Type_contiguous(1 << 30, MPI_BYTE, &gib));
    CHECK_SUCCESS(MPI_Type_contiguous(3, gib, &big));
    CHECK_SUCCESS(MPI_Type_commit(&big));
    CHECK_SUCCESS(MPI_Type_size(big, &s));
    CHECK_EQ_INT(s, MPI_UNDEFINED);
    CHECK_SUCCESS(MPI_Type_size_x(big, &c));
    CHECK_EQ_INT(c, 3LL << 30);

    /* bad arguments reach the handler of the communicator once (datatype errors: the
     * process's default one, MPI_COMM_SELF's), with the right class */
    MPI_Errhandler eh;
    CHECK_SUCCESS(MPI_Comm_create_errhandler(count_errors, &eh));
    CHECK_SUCCESS(MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh));
    CHECK_SUCCESS(MPI_Comm_set_errhandler(MPI_COMM_SELF, eh));
    CHECK_SUCCESS(MPI_Comm_set_errhandler(dup, eh));
    struct { const char *what; int rc, cls; } bad[4];
    int n = 0;
    calls = 0;
    bad[n].what = "MPI_Comm_rank(MPI_COMM_WORLD, NULL)", bad[n].rc = MPI_Comm_rank(MPI_COMM_WORLD, NULL), bad[n++].cls = MPI_ERR_ARG;
    bad[n].what = "MPI_Comm_size(dup, NULL)", bad[n].rc = MPI_Comm_size(dup, NULL), bad[n++].cls = MPI_ERR_ARG;
    bad[n].what = "MPI_Type_size(MPI_DATATYPE_NULL)", bad[n].rc = MPI_Type_size(MPI_DATATYPE_NULL, &s), bad[n++].cls = MPI_ERR_TYPE;
    bad[n].what = "MPI_Type_size_x(MPI_INT, NULL)", bad[n].rc = MPI_Type_size_x(MPI_INT, NULL), bad[n++].cls = MPI_ERR_ARG;
    for (int i = 0; i < n; i++) {
        int cls = -1;
        MPI_Error_class(bad[i].rc, &cls);
        CHECK(cls == bad[i].cls, "%s: class %d, expected %d", bad[i].what, cls, bad[i].cls);
    }
    CHECK(calls == n, "the error handler ran %d times for %d bad calls", calls, n);
    CHECK_EQ_INT(last_class, MPI_ERR_ARG);
    CHECK_SUCCESS(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_ERR(MPI_Comm_rank(MPI_COMM_NULL, &s), MPI_ERR_COMM, "MPI_Comm_rank", "comm");
    CHECK_ERR(MPI_Comm_size(MPI_COMM_WORLD, NULL), MPI_ERR_ARG, "MPI_Comm_size", "size");

    MPI_Errhandler_free(&eh);
    MPI_Type_free(&gib);
    MPI_Type_free(&big);
    MPI_Type_free(&pair);
    MPI_Comm_free(&dup);
    MPI_Finalize();
    if (me == 0)
        printf("query_paths: %d ranks, every answer and error alike on each path\n", np);
    return 0;
}
