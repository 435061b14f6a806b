/* rma_lock: passive-target epochs. A counter every rank increments by get + put under an
 * exclusive lock (no increment lost), MPI_Fetch_and_op under shared locks, lock_all with
 * flushes, MPI_MODE_NOCHECK, a target that computes without calling MPI while the others
 * finish their epochs on it, and the error classes of bad lock calls. */
#include "check.h"

#include <stdint.h>
#include <time.h>

#define ROUNDS 50

/* Under ThreadSanitizer, rank 0's polling of its window outside MPI (below) is not recorded: it
 * reads on purpose while the progress thread may apply an accumulate with a plain copy. */
#if defined(__SANITIZE_THREAD__)
void __tsan_ignore_thread_begin(void);
void __tsan_ignore_thread_end(void);
#define POLL_BEGIN() __tsan_ignore_thread_begin()
#define POLL_END() __tsan_ignore_thread_end()
#else
#define POLL_BEGIN() ((void)0)
#define POLL_END() ((void)0)
#endif

static int rank, size;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
    CHECK_SUCCESS(MPI_Init(&argc, &argv));
    CHECK_SUCCESS(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_SUCCESS(MPI_Comm_size(MPI_COMM_WORLD, &size));
    int *mem;
    MPI_Win w;
    CHECK_SUCCESS(MPI_Win_allocate(64 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &w));
    for (int i = 0; i < 64; i++)
        mem[i] = 0;
    CHECK_SUCCESS(MPI_Barrier(MPI_COMM_WORLD));

    /* read-modify-write under an exclusive lock: mutual exclusion, or increments are lost */
    for (int k = 0; k < ROUNDS; k++) {
        int v = -1;
        CHECK_SUCCESS(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, w));
        CHECK_SUCCESS(MPI_Get(&v, 1, MPI_INT, 0, 0, 1, MPI_INT, w));
        CHECK_SUCCESS(MPI_Win_flush(0, w));
        v++;
        CHECK_SUCCESS(MPI_Put(&v, 1, MPI_INT, 0, 0, 1, MPI_INT, w));
        CHECK_SUCCESS(MPI_Win_unlock(0, w));
    }
    /* fetch-and-add under shared locks */
    int fetched[ROUNDS];
    for (int k = 0; k < ROUNDS; k++) {
        int one = 1;
        CHECK_SUCCESS(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, w));
        CHECK_SUCCESS(MPI_Fetch_and_op(&one, &fetched[k], MPI_INT, 0, 1, MPI_SUM, w));
        CHECK_SUCCESS(MPI_Win_unlock(0, w));
        CHECK(k == 0 || fetched[k] > fetched[k - 1], "rank %d: fetched %d after %d", rank, fetched[k],
              fetched[k - 1]);
    }
    CHECK_SUCCESS(MPI_Barrier(MPI_COMM_WORLD));
    if (rank == 0) {
        int c0, c1;
        CHECK_SUCCESS(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, w));
        CHECK_SUCCESS(MPI_Get(&c0, 1, MPI_INT, 0, 0, 1, MPI_INT, w));
        CHECK_SUCCESS(MPI_Get(&c1, 1, MPI_INT, 0, 1, 1, MPI_INT, w));
        CHECK_SUCCESS(MPI_Win_unlock(0, w));
        CHECK(c0 == size * ROUNDS, "exclusive counter %d, not %d", c0, size * ROUNDS);
        CHECK(c1 == size * ROUNDS, "fetch-and-add counter %d, not %d", c1, size * ROUNDS);
    }

    /* lock_all: put my rank into slot 2 + rank of every process, flush, read it back */
    CHECK_SUCCESS(MPI_Win_lock_all(0, w));
    for (int r = 0; r < size; r++)
        CHECK_SUCCESS(MPI_Put(&rank, 1, MPI_INT, r, 2 + rank, 1, MPI_INT, w));
    CHECK_SUCCESS(MPI_Win_flush_all(w));
    for (int r = 0; r < size; r++) {
        int v = -1;
        CHECK_SUCCESS(MPI_Get(&v, 1, MPI_INT, r, 2 + rank, 1, MPI_INT, w));
        CHECK_SUCCESS(MPI_Win_flush_local(r, w));
        CHECK(v == rank, "rank %d: read back %d from rank %d", rank, v, r);
    }
    CHECK_SUCCESS(MPI_Win_unlock_all(w));
    CHECK_SUCCESS(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_SUCCESS(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, w));
    for (int r = 0; r < size; r++)
        CHECK(mem[2 + r] == r, "rank %d: slot of rank %d holds %d", rank, r, mem[2 + r]);
    CHECK_SUCCESS(MPI_Win_unlock(rank, w));

    /* a target that computes: rank 0 calls no MPI (for up to 20 s) until every other rank has
     * finished an epoch on it (lock, accumulate, unlock) and then said so in a second one; the
     * first epochs must all have ended before rank 0 came back (its progress did not wait). */
    CHECK_SUCCESS(MPI_Barrier(MPI_COMM_WORLD));
    double came_back = 0, ended = 0;
    if (rank == 0) {
        double t0 = now();
        double limit = CHECK_SWITCHYARD ? 20 : 1; /* MPICH and Open MPI need not progress then */
        POLL_BEGIN();
        while (now() - t0 < limit && __atomic_load_n(&mem[41], __ATOMIC_ACQUIRE) < size - 1)
            ; /* computing */
        POLL_END();
        came_back = now();
    } else {
        int one = 1;
        CHECK_SUCCESS(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, w));
        CHECK_SUCCESS(MPI_Accumulate(&one, 1, MPI_INT, 0, 40, 1, MPI_INT, MPI_SUM, w));
        CHECK_SUCCESS(MPI_Win_unlock(0, w));
        ended = now();
        CHECK_SUCCESS(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, w)); /* then says so, in another epoch */
        CHECK_SUCCESS(MPI_Accumulate(&one, 1, MPI_INT, 0, 41, 1, MPI_INT, MPI_SUM, w));
        CHECK_SUCCESS(MPI_Win_unlock(0, w));
    }
    double last_end;
    CHECK_SUCCESS(MPI_Reduce(&ended, &last_end, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD));
    if (rank == 0 && size > 1 && CHECK_SWITCHYARD) {
        CHECK(mem[40] == size - 1, "the computing target got %d accumulates, not %d", mem[40], size - 1);
        CHECK(last_end <= came_back, "an epoch on the computing target ended %.3f s after it called MPI again",
              last_end - came_back);
    }

    /* MPI_MODE_NOCHECK: no lock taken, operations still complete at unlock */
    CHECK_SUCCESS(MPI_Barrier(MPI_COMM_WORLD));
    int next = (rank + 1) % size, v = 1000 + rank;
    CHECK_SUCCESS(MPI_Win_lock(MPI_LOCK_SHARED, next, MPI_MODE_NOCHECK, w));
    CHECK_SUCCESS(MPI_Put(&v, 1, MPI_INT, next, 50, 1, MPI_INT, w));
    CHECK_SUCCESS(MPI_Win_unlock(next, w));
    CHECK_SUCCESS(MPI_Barrier(MPI_COMM_WORLD));
    CHECK(mem[50] == 1000 + (rank + size - 1) % size, "rank %d: NOCHECK put gave %d", rank, mem[50]);

    /* bad calls */
    CHECK_SUCCESS(MPI_Win_set_errhandler(w, MPI_ERRORS_RETURN));
    CHECK_ERR(MPI_Win_unlock(0, w), MPI_ERR_RMA_SYNC, "MPI_Win_unlock", "not locked");
    int e = MPI_Win_lock(12345, 0, 0, w);
    if (CHECK_SWITCHYARD)
        CHECK_ERR(e, MPI_ERR_LOCKTYPE, "MPI_Win_lock", "lock_type");
    else /* MPICH 4.0.2 says MPI_ERR_ARG */
        CHECK(e != MPI_SUCCESS, "MPI_Win_lock accepted lock type 12345");
    CHECK_ERR(MPI_Win_flush(0, w), MPI_ERR_RMA_SYNC, "MPI_Win_flush");
    CHECK_SUCCESS(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, w));
    e = MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, w);
    if (CHECK_SWITCHYARD)
        CHECK_ERR(e, MPI_ERR_RMA_SYNC, "MPI_Win_lock", "locked at rank 0 already");
    else /* Open MPI 4.1.4 says MPI_ERR_RMA_CONFLICT */
        CHECK(e != MPI_SUCCESS, "MPI_Win_lock accepted a second lock at rank 0");
    CHECK_SUCCESS(MPI_Win_unlock(0, w));
    CHECK_ERR(MPI_Put(&v, 1, MPI_INT, 0, 0, 1, MPI_INT, w), MPI_ERR_RMA_SYNC, "MPI_Put", "no access epoch");

    CHECK_SUCCESS(MPI_Win_free(&w));
    if (rank == 0)
        printf("rma_lock: %d ranks\n", size);
    CHECK_SUCCESS(MPI_Finalize());
    return 0;
}
