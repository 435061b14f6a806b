/* init_thread: MPI_Init_thread with argc/argv gives a valid thread level,
 * MPI_Query_thread agrees with it and MPI_Is_thread_main is true. */
#include "check.h"

int main(int argc, char **argv)
{
    int provided = -1, queried = -1, is_main = 0, flag;

    /* the levels are ordered (MPI standard, section on MPI_Init_thread) */
    CHECK(MPI_THREAD_SINGLE < MPI_THREAD_FUNNELED &&
          MPI_THREAD_FUNNELED < MPI_THREAD_SERIALIZED &&
          MPI_THREAD_SERIALIZED < MPI_THREAD_MULTIPLE, "thread levels not ordered");

    CHECK_SUCCESS(MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided));
    CHECK(provided == MPI_THREAD_SINGLE || provided == MPI_THREAD_FUNNELED ||
          provided == MPI_THREAD_SERIALIZED || provided == MPI_THREAD_MULTIPLE,
          "provided = %d is not a thread level", provided);
    CHECK(argc >= 1 && argv != NULL && argv[0] != NULL, "argc/argv damaged");
    CHECK_SUCCESS(MPI_Initialized(&flag));
    CHECK_EQ_INT(flag, 1);
    CHECK_SUCCESS(MPI_Query_thread(&queried));
    CHECK_EQ_INT(queried, provided);
    CHECK_SUCCESS(MPI_Is_thread_main(&is_main));
    CHECK_EQ_INT(is_main, 1);
    CHECK_SUCCESS(MPI_Finalize());
    return 0;
}
