/* rma_info: a window's hints in force (MPI_Win_get_info): the standard's defaults, valid
 * values taken, invalid values and unknown keys dropped, mpi_minimum_memory_alignment obeyed,
 * MPI_Win_set_info, and no_locks = true: fence epochs work, a lock is MPI_ERR_RMA_SYNC. */
#include "check.h"

#include <stdint.h>

static void expect(MPI_Win w, const char *key, const char *want)
{
    MPI_Info used;
    char val[MPI_MAX_INFO_VAL + 1] = "";
    int flag = 0;
    CHECK_SUCCESS(MPI_Win_get_info(w, &used));
    CHECK_SUCCESS(MPI_Info_get(used, key, MPI_MAX_INFO_VAL, val, &flag));
    CHECK_SUCCESS(MPI_Info_free(&used));
    if (!want)
        CHECK(!flag, "hint %s is %s: it should not be there", key, val);
    else
        CHECK(flag && strcmp(val, want) == 0, "hint %s is %s, not %s", key, flag ? val : "(not set)", want);
}

int main(int argc, char **argv)
{
    int rank, size;
    CHECK_SUCCESS(MPI_Init(&argc, &argv));
    CHECK_SUCCESS(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_SUCCESS(MPI_Comm_size(MPI_COMM_WORLD, &size));

    /* no hints: the defaults */
    int mem[4] = {0};
    MPI_Win w;
    CHECK_SUCCESS(MPI_Win_create(mem, sizeof mem, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w));
    expect(w, "no_locks", "false");
    expect(w, "accumulate_ordering", "rar,raw,war,waw");
    expect(w, "accumulate_ops", "same_op_no_op");
    expect(w, "same_size", "false");
    expect(w, "same_disp_unit", "false");
    expect(w, "mpi_minimum_memory_alignment", NULL); /* user memory: no alignment to promise */
    /* MPI_Win_set_info changes what may change */
    MPI_Info info;
    CHECK_SUCCESS(MPI_Info_create(&info));
    CHECK_SUCCESS(MPI_Info_set(info, "accumulate_ordering", "rar,waw"));
    CHECK_SUCCESS(MPI_Info_set(info, "no_locks", "true")); /* fixed at creation */
    CHECK_SUCCESS(MPI_Info_set(info, "same_size", "maybe")); /* not a boolean: ignored */
    CHECK_SUCCESS(MPI_Win_set_info(w, info));
    CHECK_SUCCESS(MPI_Info_free(&info));
    expect(w, "accumulate_ordering", "rar,waw");
    expect(w, "no_locks", "false");
    expect(w, "same_size", "false");
    CHECK_SUCCESS(MPI_Win_free(&w));

    /* hints given at creation: valid ones taken, others dropped; the alignment obeyed */
    CHECK_SUCCESS(MPI_Info_create(&info));
    CHECK_SUCCESS(MPI_Info_set(info, "mpi_minimum_memory_alignment", "4096"));
    CHECK_SUCCESS(MPI_Info_set(info, "accumulate_ordering", "none"));
    CHECK_SUCCESS(MPI_Info_set(info, "accumulate_ops", "any_op")); /* not a valid value */
    CHECK_SUCCESS(MPI_Info_set(info, "same_size", "true"));
    CHECK_SUCCESS(MPI_Info_set(info, "same_disp_unit", "true"));
    CHECK_SUCCESS(MPI_Info_set(info, "switchyard_no_such_hint", "1"));
    int *base;
    CHECK_SUCCESS(MPI_Win_allocate(100, sizeof(int), info, MPI_COMM_WORLD, &base, &w));
    CHECK((uintptr_t)base % 4096 == 0, "MPI_Win_allocate's memory at %p is not aligned to 4096 bytes", (void *)base);
    expect(w, "mpi_minimum_memory_alignment", "4096");
    expect(w, "accumulate_ordering", "none");
    expect(w, "accumulate_ops", "same_op_no_op");
    expect(w, "same_size", "true");
    expect(w, "same_disp_unit", "true");
    expect(w, "switchyard_no_such_hint", NULL);
    CHECK_SUCCESS(MPI_Win_free(&w));
    CHECK_SUCCESS(MPI_Info_set(info, "mpi_minimum_memory_alignment", "3000")); /* not a power of two */
    CHECK_SUCCESS(MPI_Info_set(info, "alloc_shared_noncontig", "true"));
    CHECK_SUCCESS(MPI_Win_allocate_shared(100, sizeof(int), info, MPI_COMM_WORLD, &base, &w));
    expect(w, "mpi_minimum_memory_alignment", "64");
    expect(w, "alloc_shared_noncontig", "true");
    CHECK_SUCCESS(MPI_Win_free(&w));
    CHECK_SUCCESS(MPI_Info_free(&info));

    /* no_locks = true: fence epochs as usual, locks refused */
    CHECK_SUCCESS(MPI_Info_create(&info));
    CHECK_SUCCESS(MPI_Info_set(info, "no_locks", "true"));
    CHECK_SUCCESS(MPI_Win_create(mem, sizeof mem, sizeof(int), info, MPI_COMM_WORLD, &w));
    CHECK_SUCCESS(MPI_Info_free(&info));
    expect(w, "no_locks", "true");
    int next = (rank + 1) % size, v = 100 + rank;
    CHECK_SUCCESS(MPI_Win_fence(0, w));
    CHECK_SUCCESS(MPI_Put(&v, 1, MPI_INT, next, 2, 1, MPI_INT, w));
    CHECK_SUCCESS(MPI_Win_fence(0, w));
    int prev = (rank + size - 1) % size;
    CHECK(mem[2] == 100 + prev, "a put in a fence epoch of a no_locks window: %d, not %d", mem[2], 100 + prev);
    CHECK_SUCCESS(MPI_Win_set_errhandler(w, MPI_ERRORS_RETURN));
    CHECK_ERR(MPI_Win_lock(MPI_LOCK_SHARED, next, 0, w), MPI_ERR_RMA_SYNC, "MPI_Win_lock", "no_locks");
    CHECK_ERR(MPI_Win_lock_all(0, w), MPI_ERR_RMA_SYNC, "MPI_Win_lock_all", "no_locks");
    CHECK_SUCCESS(MPI_Win_free(&w));
    if (rank == 0)
        printf("rma_info: window hints right on %d ranks\n", size);
    CHECK_SUCCESS(MPI_Finalize());
    return 0;
}
