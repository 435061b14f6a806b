/* errcodes_churn.c — user error classes, codes and strings added and removed 10,000 times
 * (32 classes of 5 codes a round): each round must cost the same, and removed values come back. */
#include <mpi.h>

#include "check.h"

#define ROUNDS 10000
#define NCLS 32
#define NCODE 5

#if MPI_VERSION > 4 || (MPI_VERSION == 4 && MPI_SUBVERSION >= 1)
static int lastused(void)
{
    int *v = NULL, flag = 0;

    CHECK_SUCCESS(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &v, &flag));
    CHECK(flag && v, "MPI_LASTUSEDCODE not set");
    return *v;
}

/* One round: add the classes, their codes and strings, check them, remove them all. */
static void round_trip(int r)
{
    int cls[NCLS], code[NCLS][NCODE], got;

    for (int i = 0; i < NCLS; i++) {
        CHECK_SUCCESS(MPI_Add_error_class(&cls[i]));
        CHECK_SUCCESS(MPI_Add_error_string(cls[i], "churn class"));
        for (int j = 0; j < NCODE; j++) {
            CHECK_SUCCESS(MPI_Add_error_code(cls[i], &code[i][j]));
            CHECK_SUCCESS(MPI_Add_error_string(code[i][j], "churn code"));
        }
    }
    for (int i = 0; i < NCLS; i++)
        for (int j = 0; j < NCODE; j++) {
            CHECK_SUCCESS(MPI_Error_class(code[i][j], &got));
            CHECK(got == cls[i], "round %d: class of code %d is %d, expected %d", r,
                  code[i][j], got, cls[i]);
        }
    for (int i = 0; i < NCLS; i++) {
        for (int j = 0; j < NCODE; j++) {
            CHECK_SUCCESS(MPI_Remove_error_string(code[i][j]));
            CHECK_SUCCESS(MPI_Remove_error_code(code[i][j]));
        }
        CHECK_SUCCESS(MPI_Remove_error_string(cls[i]));
        CHECK_SUCCESS(MPI_Remove_error_class(cls[i]));
    }
}

int main(int argc, char **argv)
{
    int first_last;

    MPI_Init(&argc, &argv);
    round_trip(0);
    first_last = lastused();
    for (int r = 1; r < ROUNDS; r++)
        round_trip(r);
    /* the values of removed classes and codes were reused: no new ones were needed */
    CHECK(!CHECK_SWITCHYARD || lastused() == first_last,
          "MPI_LASTUSEDCODE grew from %d to %d: removed values are not reused", first_last,
          lastused());
    MPI_Finalize();
    return 0;
}
#else
int main(void)
{
    fprintf(stderr, "MPI_Remove_error_class needs MPI-4.1\n");
    return 77;
}
#endif
