/* ctx_ids_mt: under MPI_THREAD_MULTIPLE, agreements that give this process no communicator
 * (MPI_Comm_split with MPI_UNDEFINED) do not keep context ids: 9000 of them, more than the
 * 8190 ids a process has, all succeed. */
#include "check.h"

int main(int argc, char **argv)
{
    int provided, rank;
    CHECK_SUCCESS(MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided));
    CHECK(provided == MPI_THREAD_MULTIPLE, "provided = %d", provided);
    CHECK_SUCCESS(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    for (int i = 0; i < 9000; i++) {
        MPI_Comm c;
        CHECK_SUCCESS(MPI_Comm_split(MPI_COMM_WORLD, rank == 0 ? 0 : MPI_UNDEFINED, 0, &c));
        CHECK((rank == 0) == (c != MPI_COMM_NULL), "rank %d: split %d gave the wrong communicator", rank, i);
        if (c != MPI_COMM_NULL)
            CHECK_SUCCESS(MPI_Comm_free(&c));
    }
    CHECK_SUCCESS(MPI_Finalize());
    return 0;
}
