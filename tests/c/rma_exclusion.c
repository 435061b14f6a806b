/* rma_exclusion: what locks and accumulates promise, under contention from every rank, on
 * MPI_Win_allocate and MPI_Win_allocate_shared windows (loads and stores on one node, messages
 * otherwise or with SWITCHYARD_RMA_DIRECT=0): an exclusive lock excludes shared holders (a
 * pair written by two puts under it is never seen half done under a shared lock),
 * accumulates with derived datatypes are element-wise atomic, MPI_Get_accumulate returns the
 * old contents into a derived result type, lock_all and exclusive locks mixed; large puts and
 * gets through strided types (64 Ki ints each way). The same on an MPI_Win_create window
 * (its large puts and gets by cross-memory attach on one node). */
#include "check.h"

#define ROUNDS 200
#define N 16 /* ints of the accumulate area */
#define BIG (64 * 1024) /* ints of the large transfers, after the small areas */

static int rank, size;

/* Under exclusive locks every rank moves pair (a, b) at rank 0 from (k, k) to (k+1, k+1)
 * with two puts and a flush between; under shared locks others read it: never a != b. */
static void pair_exclusion(MPI_Win w, const char *what)
{
    int seen_writes = 0;
    for (int k = 0; k < ROUNDS; k++) {
        int pair[2];
        if ((k + rank) % 3 == 0) {
            CHECK_SUCCESS(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, w));
            CHECK_SUCCESS(MPI_Get(pair, 2, MPI_INT, 0, 0, 2, MPI_INT, w));
            CHECK_SUCCESS(MPI_Win_flush(0, w));
            CHECK(pair[0] == pair[1], "%s: rank %d under an exclusive lock read (%d, %d)", what, rank, pair[0],
                  pair[1]);
            pair[0]++;
            CHECK_SUCCESS(MPI_Put(&pair[0], 1, MPI_INT, 0, 0, 1, MPI_INT, w));
            CHECK_SUCCESS(MPI_Win_flush(0, w)); /* half done, visible to a reader that got in */
            CHECK_SUCCESS(MPI_Put(&pair[0], 1, MPI_INT, 0, 1, 1, MPI_INT, w));
            CHECK_SUCCESS(MPI_Win_unlock(0, w));
            seen_writes++;
        } else {
            CHECK_SUCCESS(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, w));
            CHECK_SUCCESS(MPI_Get(pair, 2, MPI_INT, 0, 0, 2, MPI_INT, w));
            CHECK_SUCCESS(MPI_Win_unlock(0, w));
            CHECK(pair[0] == pair[1], "%s: rank %d under a shared lock read (%d, %d): an exclusive holder was "
                  "inside", what, rank, pair[0], pair[1]);
        }
    }
    int total = 0, pair[2];
    CHECK_SUCCESS(MPI_Allreduce(&seen_writes, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    CHECK_SUCCESS(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, w));
    CHECK_SUCCESS(MPI_Get(pair, 2, MPI_INT, 0, 0, 2, MPI_INT, w));
    CHECK_SUCCESS(MPI_Win_unlock(0, w));
    CHECK(pair[0] == total && pair[1] == total, "%s: pair (%d, %d) after %d increments", what, pair[0], pair[1],
          total);
}

/* Every rank adds, under lock_all, (rank + 1) * (i + 1) into the even ints of every rank's
 * area through a vector target type, and fetches the odd ints (+1 each) into a strided
 * result type; then each area holds the exact sums, and the fetched values are in range. */
static void derived_accumulates(MPI_Win w, int *mem, const char *what)
{
    MPI_Datatype even, strided;
    CHECK_SUCCESS(MPI_Type_vector(N / 2, 1, 2, MPI_INT, &even));
    CHECK_SUCCESS(MPI_Type_commit(&even));
    CHECK_SUCCESS(MPI_Type_vector(N / 2, 1, 3, MPI_INT, &strided));
    CHECK_SUCCESS(MPI_Type_commit(&strided));
    int add[N / 2], ones[N / 2], got[3 * N / 2];
    for (int i = 0; i < N / 2; i++)
        add[i] = (rank + 1) * (i + 1), ones[i] = 1;
    CHECK_SUCCESS(MPI_Win_lock_all(0, w));
    for (int k = 0; k < ROUNDS / 10; k++)
        for (int t = 0; t < size; t++) {
            int target = (t + rank) % size;
            CHECK_SUCCESS(MPI_Accumulate(add, N / 2, MPI_INT, target, 2, 1, even, MPI_SUM, w));
            for (int i = 0; i < 3 * N / 2; i++)
                got[i] = -7;
            CHECK_SUCCESS(MPI_Get_accumulate(ones, N / 2, MPI_INT, got, 1, strided, target, 3, 1, even, MPI_SUM, w));
            CHECK_SUCCESS(MPI_Win_flush(target, w));
            for (int i = 0; i < 3 * N / 2; i++) {
                int expect_hole = i % 3 != 0;
                CHECK(expect_hole ? got[i] == -7 : got[i] >= 0 && got[i] < ROUNDS / 10 * size,
                      "%s: rank %d fetched %d at %d of the strided result", what, rank, got[i], i);
            }
        }
    CHECK_SUCCESS(MPI_Win_unlock_all(w));
    CHECK_SUCCESS(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_SUCCESS(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, w)); /* local loads in an epoch of our own */
    int sum_ranks = size * (size + 1) / 2;
    for (int i = 0; i < N / 2; i++) {
        CHECK(mem[2 + 2 * i] == ROUNDS / 10 * sum_ranks * (i + 1), "%s: rank %d: even int %d holds %d, not %d", what,
              rank, i, mem[2 + 2 * i], ROUNDS / 10 * sum_ranks * (i + 1));
        CHECK(mem[3 + 2 * i] == ROUNDS / 10 * size, "%s: rank %d: odd int %d holds %d, not %d", what, rank, i,
              mem[3 + 2 * i], ROUNDS / 10 * size);
    }
    CHECK_SUCCESS(MPI_Win_unlock(rank, w));
    MPI_Type_free(&even);
    MPI_Type_free(&strided);
}

/* MPI_Compare_and_swap as a mutex at rank 0 (int 2 + N), held to move a counter by get/put. */
static void cas_mutex(MPI_Win w, const char *what)
{
    int one = 1, zero = 0, old, counter;
    CHECK_SUCCESS(MPI_Win_lock_all(0, w));
    for (int k = 0; k < ROUNDS / 4; k++) {
        do {
            CHECK_SUCCESS(MPI_Compare_and_swap(&one, &zero, &old, MPI_INT, 0, 2 + N, w));
            CHECK_SUCCESS(MPI_Win_flush(0, w));
        } while (old != 0);
        CHECK_SUCCESS(MPI_Get(&counter, 1, MPI_INT, 0, 3 + N, 1, MPI_INT, w));
        CHECK_SUCCESS(MPI_Win_flush(0, w));
        counter++;
        CHECK_SUCCESS(MPI_Put(&counter, 1, MPI_INT, 0, 3 + N, 1, MPI_INT, w));
        CHECK_SUCCESS(MPI_Win_flush(0, w));
        CHECK_SUCCESS(MPI_Accumulate(&zero, 1, MPI_INT, 0, 2 + N, 1, MPI_INT, MPI_REPLACE, w));
        CHECK_SUCCESS(MPI_Win_flush(0, w));
    }
    CHECK_SUCCESS(MPI_Win_unlock_all(w));
    CHECK_SUCCESS(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_SUCCESS(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, w));
    CHECK_SUCCESS(MPI_Get(&counter, 1, MPI_INT, 0, 3 + N, 1, MPI_INT, w));
    CHECK_SUCCESS(MPI_Win_unlock(0, w));
    CHECK(counter == ROUNDS / 4 * size, "%s: the counter guarded by compare-and-swap holds %d, not %d", what,
          counter, ROUNDS / 4 * size);
}

/* Each rank puts BIG ints, strided in its buffer (every other int of 2 * BIG), into every other
 * int of its right neighbour's large area (a vector target type), gets them back into a
 * contiguous buffer and checks each; then the neighbour checks its memory. */
static void large_strided(MPI_Win w, int *mem, const char *what)
{
    int right = (rank + 1) % size, left = (rank + size - 1) % size, *src = malloc(sizeof(int) * 2 * BIG),
        *back = malloc(sizeof(int) * BIG);
    CHECK(src && back, "out of memory");
    MPI_Datatype every_other;
    CHECK_SUCCESS(MPI_Type_vector(BIG, 1, 2, MPI_INT, &every_other));
    CHECK_SUCCESS(MPI_Type_commit(&every_other));
    for (int i = 0; i < 2 * BIG; i++)
        src[i] = i % 2 ? -1 : rank * 1000003 + i / 2;
    CHECK_SUCCESS(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, w));
    CHECK_SUCCESS(MPI_Put(src, 1, every_other, right, 4 + N, 1, every_other, w));
    CHECK_SUCCESS(MPI_Win_flush(right, w));
    CHECK_SUCCESS(MPI_Get(back, BIG, MPI_INT, right, 4 + N, 1, every_other, w));
    CHECK_SUCCESS(MPI_Win_unlock(right, w));
    for (int i = 0; i < BIG; i++)
        CHECK(back[i] == rank * 1000003 + i, "%s: rank %d got back %d at %d, not %d", what, rank, back[i], i,
              rank * 1000003 + i);
    CHECK_SUCCESS(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_SUCCESS(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, w));
    for (int i = 0; i < 2 * BIG; i++) {
        int want = i % 2 ? 0 : left * 1000003 + i / 2;
        CHECK(mem[4 + N + i] == want, "%s: rank %d holds %d at int %d of its large area, not %d", what, rank,
              mem[4 + N + i], i, want);
    }
    CHECK_SUCCESS(MPI_Win_unlock(rank, w));
    MPI_Type_free(&every_other);
    free(src);
    free(back);
}

enum { ALLOCATE, SHARED, CREATE };

static void run(int flavour)
{
    const char *what = flavour == SHARED   ? "MPI_Win_allocate_shared"
                       : flavour == CREATE ? "MPI_Win_create"
                                           : "MPI_Win_allocate";
    int *mem;
    MPI_Win w;
    MPI_Aint bytes = (4 + N + 2 * BIG) * sizeof(int);
    if (flavour == SHARED) {
        CHECK_SUCCESS(MPI_Win_allocate_shared(bytes, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &w));
    } else if (flavour == CREATE) {
        CHECK((mem = malloc((size_t)bytes)) != NULL, "out of memory");
        CHECK_SUCCESS(MPI_Win_create(mem, bytes, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w));
    } else {
        CHECK_SUCCESS(MPI_Win_allocate(bytes, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &w));
    }
    CHECK_SUCCESS(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, w));
    memset(mem, 0, (size_t)bytes);
    CHECK_SUCCESS(MPI_Win_unlock(rank, w));
    CHECK_SUCCESS(MPI_Barrier(MPI_COMM_WORLD));
    pair_exclusion(w, what);
    derived_accumulates(w, mem, what);
    cas_mutex(w, what);
    large_strided(w, mem, what);
    CHECK_SUCCESS(MPI_Win_free(&w));
    if (flavour == CREATE)
        free(mem);
}

int main(int argc, char **argv)
{
    CHECK_SUCCESS(MPI_Init(&argc, &argv));
    CHECK_SUCCESS(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_SUCCESS(MPI_Comm_size(MPI_COMM_WORLD, &size));
    run(ALLOCATE);
    run(SHARED);
    run(CREATE);
    if (rank == 0)
        printf("rma_exclusion: %d ranks, all checks passed\n", size);
    CHECK_SUCCESS(MPI_Finalize());
    return 0;
}
