/* status_modify.c — a status's MPI_ERROR is read only by MPI_Status_get_error and written only by
 * MPI_Status_set_error among the calls that take one status to read or modify: whatever it holds. */
#include <limits.h>

#include "check.h"

static void check_kept(MPI_Status *s, int v, const char *what)
{
    CHECK(s->MPI_ERROR == v, "%s changed MPI_ERROR from %d to %d", what, v, s->MPI_ERROR);
}

/* Every call that reads or modifies one status but not its error field, on a status whose
 * MPI_ERROR holds v; the fields they set must read back. */
static void modify_all(int v)
{
    MPI_Status s;
    int n = -1, flag = -1;
    MPI_Count big = -1;

    memset(&s, 0, sizeof s);
    s.MPI_ERROR = v;
    CHECK_SUCCESS(MPI_Status_set_elements(&s, MPI_INT, 3));
    check_kept(&s, v, "MPI_Status_set_elements");
    CHECK_SUCCESS(MPI_Status_set_elements_x(&s, MPI_INT, 4));
    check_kept(&s, v, "MPI_Status_set_elements_x");
    CHECK_SUCCESS(MPI_Status_set_cancelled(&s, 1));
    check_kept(&s, v, "MPI_Status_set_cancelled");
    CHECK_SUCCESS(MPI_Status_set_source(&s, 0));
    check_kept(&s, v, "MPI_Status_set_source");
    CHECK_SUCCESS(MPI_Status_set_tag(&s, 17));
    check_kept(&s, v, "MPI_Status_set_tag");
    CHECK_SUCCESS(MPI_Get_count(&s, MPI_INT, &n));
    CHECK_EQ_INT(n, 4);
    CHECK_SUCCESS(MPI_Get_elements_x(&s, MPI_INT, &big));
    CHECK_EQ_INT(big, 4);
    CHECK_SUCCESS(MPI_Test_cancelled(&s, &flag));
    CHECK_EQ_INT(flag, 1);
    CHECK_SUCCESS(MPI_Status_get_source(&s, &n));
    CHECK_EQ_INT(n, 0);
    CHECK_SUCCESS(MPI_Status_get_tag(&s, &n));
    CHECK_EQ_INT(n, 17);
    check_kept(&s, v, "the queries");
}

/* MPI_Status_set_error stores e, MPI_Status_get_error returns it, and the field holds it. */
static void set_get(int e)
{
    MPI_Status s;
    int got = -1;

    memset(&s, 0, sizeof s);
    CHECK_SUCCESS(MPI_Status_set_error(&s, e));
    CHECK(s.MPI_ERROR == e, "MPI_Status_set_error(%d) stored %d", e, s.MPI_ERROR);
    CHECK_SUCCESS(MPI_Status_get_error(&s, &got));
    CHECK(got == e, "MPI_Status_get_error returned %d after MPI_Status_set_error(%d)", got, e);
    CHECK_SUCCESS(MPI_Status_set_tag(&s, 5));
    check_kept(&s, e, "MPI_Status_set_tag after MPI_Status_set_error");
}

int main(int argc, char **argv)
{
    int user_class = -1, user_code = -1, rank, x = 1, y = 0, flag = -1, n = -1;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int values[] = {INT_MIN, INT_MIN + 1, -1, INT_MAX, 0x5a5a5a5a};
    for (int v = -5; v <= 5000; v++)
        modify_all(v);
    for (size_t i = 0; i < sizeof values / sizeof *values; i++)
        modify_all(values[i]);

    int classes[] = {MPI_SUCCESS, MPI_ERR_BUFFER, MPI_ERR_COUNT, MPI_ERR_TYPE, MPI_ERR_TAG, MPI_ERR_COMM,
                     MPI_ERR_RANK, MPI_ERR_ARG, MPI_ERR_TRUNCATE, MPI_ERR_OTHER, MPI_ERR_INTERN,
                     MPI_ERR_IN_STATUS, MPI_ERR_PENDING, MPI_ERR_PROC_ABORTED, MPI_ERR_VALUE_TOO_LARGE,
                     MPI_ERR_LASTCODE};
    for (size_t i = 0; i < sizeof classes / sizeof *classes; i++)
        set_get(classes[i]);
    CHECK_SUCCESS(MPI_Add_error_class(&user_class));
    CHECK_SUCCESS(MPI_Add_error_code(user_class, &user_code));
    set_get(user_class);
    set_get(user_code);

    /* a status that a single completion filled: its MPI_ERROR stays as the user left it, and
     * the calls that read such a status do not need it set (valgrind: no read of it) */
    MPI_Request r;
    MPI_Status s;
    memset(&s, 0, sizeof s);
    s.MPI_ERROR = 4101;
    CHECK_SUCCESS(MPI_Irecv(&y, 1, MPI_INT, rank, 3, MPI_COMM_SELF, &r));
    CHECK_SUCCESS(MPI_Send(&x, 1, MPI_INT, rank, 3, MPI_COMM_SELF));
    CHECK_SUCCESS(MPI_Wait(&r, &s));
    check_kept(&s, 4101, "MPI_Wait");
    CHECK_SUCCESS(MPI_Test_cancelled(&s, &flag));
    CHECK_EQ_INT(flag, 0);
    CHECK_SUCCESS(MPI_Get_count(&s, MPI_INT, &n));
    CHECK_EQ_INT(n, 1);
    check_kept(&s, 4101, "MPI_Test_cancelled and MPI_Get_count");

    MPI_Finalize();
    if (rank == 0)
        printf("status_modify: MPI_ERROR kept by 10 calls for %d values, set and read for %d codes\n",
               5006 + (int)(sizeof values / sizeof *values), (int)(sizeof classes / sizeof *classes) + 2);
    return 0;
}
