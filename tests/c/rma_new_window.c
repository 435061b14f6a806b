/* rma_new_window: passive-target operations on a window the moment its creation returns,
 * while slower processes are still inside the creating call (every flavour, many rounds). */
#include "check.h"

#define ROUNDS 150

int main(int argc, char **argv)
{
    int rank, size;
    CHECK_SUCCESS(MPI_Init(&argc, &argv));
    CHECK_SUCCESS(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_SUCCESS(MPI_Comm_size(MPI_COMM_WORLD, &size));
    int next = (rank + 1) % size;
    MPI_Win keep; /* a window alive throughout, as in a coarray program */
    CHECK_SUCCESS(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &keep));
    for (int k = 0; k < ROUNDS; k++) {
        /* user memory set before the call: its value is there as soon as the window is */
        int mine[4] = {rank, k, rank, k}, got[4] = {-1, -1, -1, -1};
        MPI_Win w;
        CHECK_SUCCESS(MPI_Win_create(mine, sizeof mine, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w));
        CHECK_SUCCESS(MPI_Win_lock(MPI_LOCK_SHARED, next, MPI_MODE_NOCHECK, w));
        CHECK_SUCCESS(MPI_Get(got, 4, MPI_INT, next, 0, 4, MPI_INT, w));
        CHECK_SUCCESS(MPI_Win_unlock(next, w));
        CHECK(got[0] == next && got[1] == k && got[2] == next && got[3] == k,
              "round %d, MPI_Win_create: rank %d read %d %d %d %d from rank %d", k, rank, got[0], got[1], got[2],
              got[3], next);
        CHECK_SUCCESS(MPI_Win_free(&w));

        /* library memory: the first read and write must work (the contents are not defined yet) */
        int *mem;
        CHECK_SUCCESS(MPI_Win_allocate(4 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &w));
        int one = 1, old = 0;
        CHECK_SUCCESS(MPI_Win_lock(MPI_LOCK_SHARED, next, MPI_MODE_NOCHECK, w)); /* no lock round trip */
        CHECK_SUCCESS(MPI_Get(got, 4, MPI_INT, next, 0, 4, MPI_INT, w));
        CHECK_SUCCESS(MPI_Win_unlock(next, w));
        CHECK_SUCCESS(MPI_Barrier(MPI_COMM_WORLD));
        CHECK_SUCCESS(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, w));
        mem[0] = 0;
        CHECK_SUCCESS(MPI_Win_unlock(rank, w));
        CHECK_SUCCESS(MPI_Barrier(MPI_COMM_WORLD));
        CHECK_SUCCESS(MPI_Win_lock(MPI_LOCK_SHARED, next, 0, w));
        CHECK_SUCCESS(MPI_Fetch_and_op(&one, &old, MPI_INT, next, 0, MPI_SUM, w));
        CHECK_SUCCESS(MPI_Win_unlock(next, w));
        CHECK(old == 0, "round %d, MPI_Win_allocate: fetched %d, not 0", k, old);
        CHECK_SUCCESS(MPI_Barrier(MPI_COMM_WORLD));
        CHECK(mem[0] == 1, "round %d, MPI_Win_allocate: rank %d holds %d, not 1", k, rank, mem[0]);
        CHECK_SUCCESS(MPI_Win_free(&w));

        CHECK_SUCCESS(MPI_Win_allocate_shared(4 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &w));
        CHECK_SUCCESS(MPI_Win_lock(MPI_LOCK_SHARED, next, MPI_MODE_NOCHECK, w));
        CHECK_SUCCESS(MPI_Get(got, 4, MPI_INT, next, 0, 4, MPI_INT, w));
        CHECK_SUCCESS(MPI_Win_unlock(next, w));
        CHECK_SUCCESS(MPI_Win_free(&w));

        /* a dynamic window: a lock on it at once (nothing attached yet) */
        CHECK_SUCCESS(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &w));
        CHECK_SUCCESS(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, next, 0, w));
        CHECK_SUCCESS(MPI_Win_unlock(next, w));
        CHECK_SUCCESS(MPI_Win_free(&w));
    }
    CHECK_SUCCESS(MPI_Win_free(&keep));
    if (rank == 0)
        printf("rma_new_window: %d rounds of four window flavours on %d ranks\n", ROUNDS, size);
    CHECK_SUCCESS(MPI_Finalize());
    return 0;
}
