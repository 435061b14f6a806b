/* coll_barrier_shm.c — MPI_Barrier separates rounds: each rank stores its round number in a
 * shared window (MPI_Win_allocate_shared), then after the barrier every rank must see every
 * other's number at least at that round; rounds with random short delays, on MPI_COMM_WORLD,
 * a dup, a split into halves (two barriers on disjoint groups at once) and after a free and
 * re-dup; run with and without the shared-memory barrier (SWITCHYARD_COLL_SHM=0). */
#include "check.h"

#include <stdlib.h>
#include <time.h>

enum { ROUNDS = 3000 };

/* ROUNDS barriers on comm; every rank checks the others' rounds through the window's memory. */
static void rounds(MPI_Comm comm, const char *what)
{
    int me, n;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &n);
    int *mine;
    MPI_Win win;
    CHECK_SUCCESS(MPI_Win_allocate_shared(sizeof(int), sizeof(int), MPI_INFO_NULL, comm, &mine, &win));
    int **at = malloc(sizeof *at * (size_t)n);
    for (int r = 0; r < n; r++) {
        MPI_Aint size;
        int unit;
        CHECK_SUCCESS(MPI_Win_shared_query(win, r, &size, &unit, &at[r]));
    }
    __atomic_store_n(mine, 0, __ATOMIC_SEQ_CST);
    CHECK_SUCCESS(MPI_Barrier(comm));
    unsigned seed = (unsigned)(me * 7919 + 1);
    for (int round = 1; round <= ROUNDS; round++) {
        if (rand_r(&seed) % 64 == 0) /* now and then one rank is late */
            nanosleep(&(struct timespec){0, 20000 + rand_r(&seed) % 100000}, NULL);
        __atomic_store_n(mine, round, __ATOMIC_SEQ_CST);
        CHECK_SUCCESS(MPI_Barrier(comm));
        for (int r = 0; r < n; r++) {
            int v = __atomic_load_n(at[r], __ATOMIC_SEQ_CST);
            CHECK(v >= round, "%s: after barrier %d rank %d sees rank %d at round %d", what, round, me, r, v);
        }
    }
    free(at);
    CHECK_SUCCESS(MPI_Win_free(&win));
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int me, np;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    rounds(MPI_COMM_WORLD, "MPI_COMM_WORLD");
    MPI_Comm dup, half;
    CHECK_SUCCESS(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    rounds(dup, "a dup");
    CHECK_SUCCESS(MPI_Comm_split(MPI_COMM_WORLD, me % 2, me, &half));
    rounds(half, "a half");
    CHECK_SUCCESS(MPI_Comm_free(&half));
    CHECK_SUCCESS(MPI_Comm_free(&dup));
    CHECK_SUCCESS(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    rounds(dup, "a dup after a free");
    CHECK_SUCCESS(MPI_Comm_free(&dup));
    if (me == 0)
        printf("coll_barrier_shm: %d ranks, %d rounds on 4 communicators\n", np, ROUNDS);
    MPI_Finalize();
    return 0;
}
