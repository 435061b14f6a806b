/* rma_request: MPI_Rput, MPI_Rget, MPI_Raccumulate, MPI_Rget_accumulate (and _c) in
 * passive-target epochs: a completed MPI_Rget's data is there before any flush, requests
 * completed by MPI_Wait, MPI_Test, MPI_Waitall or freed and then flushed, MPI_PROC_NULL,
 * a large strided get, and MPI_ERR_RMA_SYNC outside a passive epoch. */
#include "check.h"

#define N 64
#define BIG (1 << 18) /* ints in the large get: 1 MiB */

int main(int argc, char **argv)
{
    int rank, size;
    CHECK_SUCCESS(MPI_Init(&argc, &argv));
    CHECK_SUCCESS(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_SUCCESS(MPI_Comm_size(MPI_COMM_WORLD, &size));
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    int *mem;
    MPI_Win w;
    CHECK_SUCCESS(MPI_Win_allocate((N + BIG) * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &w));
    CHECK_SUCCESS(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, w));
    for (int i = 0; i < N + BIG; i++)
        mem[i] = i < N ? 1000 * rank + i : rank + i;
    mem[0] = 0; /* a counter every rank adds to */
    CHECK_SUCCESS(MPI_Win_unlock(rank, w));
    CHECK_SUCCESS(MPI_Barrier(MPI_COMM_WORLD));

    CHECK_SUCCESS(MPI_Win_lock_all(0, w));
    /* a get: complete once its request is, no flush needed */
    int got[8] = {0};
    MPI_Request r;
    CHECK_SUCCESS(MPI_Rget(got, 8, MPI_INT, next, 8, 8, MPI_INT, w, &r));
    CHECK_SUCCESS(MPI_Wait(&r, MPI_STATUS_IGNORE));
    CHECK(r == MPI_REQUEST_NULL, "MPI_Wait left the request");
    for (int i = 0; i < 8; i++)
        CHECK(got[i] == 1000 * next + 8 + i, "Rget: got[%d] = %d, not %d", i, got[i], 1000 * next + 8 + i);

    /* fetch-and-add through MPI_Rget_accumulate, one increment per rank, MPI_Test until done */
    int one = 1, before = -1, flag = 0;
    CHECK_SUCCESS(MPI_Rget_accumulate(&one, 1, MPI_INT, &before, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_SUM, w, &r));
    while (!flag)
        CHECK_SUCCESS(MPI_Test(&r, &flag, MPI_STATUS_IGNORE));
    CHECK(before >= 0 && before < size, "Rget_accumulate fetched %d", before);

    /* puts and accumulates into the previous rank's slots 16.. (it reads them after a barrier) */
    int vals[4] = {rank, rank + 1, rank + 2, rank + 3}, add[4] = {10, 20, 30, 40};
    MPI_Request rs[4];
    CHECK_SUCCESS(MPI_Rput(vals, 4, MPI_INT, prev, 16, 4, MPI_INT, w, &rs[0]));
    CHECK_SUCCESS(MPI_Raccumulate(add, 4, MPI_INT, prev, 20, 4, MPI_INT, MPI_SUM, w, &rs[1]));
    CHECK_SUCCESS(MPI_Rput_c(vals, 2, MPI_INT, prev, 24, 2, MPI_INT, w, &rs[2]));
    CHECK_SUCCESS(MPI_Rput(vals, 1, MPI_INT, MPI_PROC_NULL, 0, 1, MPI_INT, w, &rs[3]));
    CHECK_SUCCESS(MPI_Waitall(4, rs, MPI_STATUSES_IGNORE));
    /* a freed request: the flush still completes its operation (MPICH 4.0.2 refuses to free
     * an RMA request: there it is waited for) */
    int seven = 7;
    CHECK_SUCCESS(MPI_Raccumulate(&seven, 1, MPI_INT, prev, 26, 1, MPI_INT, MPI_REPLACE, w, &r));
    if (CHECK_SWITCHYARD)
        CHECK_SUCCESS(MPI_Request_free(&r));
    else
        CHECK_SUCCESS(MPI_Wait(&r, MPI_STATUS_IGNORE));
    /* a request of MPI_PROC_NULL completes at once */
    CHECK_SUCCESS(MPI_Rget(got, 1, MPI_INT, MPI_PROC_NULL, 0, 1, MPI_INT, w, &r));
    CHECK_SUCCESS(MPI_Test(&r, &flag, MPI_STATUS_IGNORE));
    CHECK(flag && r == MPI_REQUEST_NULL, "a request-based get from MPI_PROC_NULL is not complete");
    CHECK_SUCCESS(MPI_Win_flush_all(w));

    /* a large get through a strided type: every other int of 2 * (BIG / 2) */
    int *big = malloc(BIG / 2 * sizeof(int));
    MPI_Datatype every_other;
    CHECK_SUCCESS(MPI_Type_vector(BIG / 2, 1, 2, MPI_INT, &every_other));
    CHECK_SUCCESS(MPI_Type_commit(&every_other));
    MPI_Count bigc = BIG / 2;
    CHECK_SUCCESS(MPI_Rget_c(big, bigc, MPI_INT, next, N, 1, every_other, w, &r));
    CHECK_SUCCESS(MPI_Wait(&r, MPI_STATUS_IGNORE));
    for (int i = 0; i < BIG / 2; i++)
        if (big[i] != next + N + 2 * i) {
            CHECK(0, "large Rget: big[%d] = %d, not %d", i, big[i], next + N + 2 * i);
        }
    CHECK_SUCCESS(MPI_Type_free(&every_other));
    free(big);
    /* MPI_NO_OP through the request form reads without changing */
    int cur = -1;
    CHECK_SUCCESS(MPI_Rget_accumulate_c(NULL, 0, MPI_INT, &cur, 1, MPI_INT, next, 8, 1, MPI_INT, MPI_NO_OP, w, &r));
    CHECK_SUCCESS(MPI_Wait(&r, MPI_STATUS_IGNORE));
    CHECK(cur == 1000 * next + 8, "Rget_accumulate with MPI_NO_OP read %d", cur);
    CHECK_SUCCESS(MPI_Win_unlock_all(w));
    CHECK_SUCCESS(MPI_Barrier(MPI_COMM_WORLD));

    /* what the next rank wrote here */
    CHECK_SUCCESS(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, w));
    for (int i = 0; i < 4; i++) {
        CHECK(mem[16 + i] == next + i, "slot %d = %d, not %d", 16 + i, mem[16 + i], next + i);
        int want = 1000 * rank + 20 + i + add[i];
        CHECK(mem[20 + i] == want, "slot %d = %d, not %d", 20 + i, mem[20 + i], want);
    }
    CHECK(mem[24] == next && mem[25] == next + 1, "slots 24-25 = %d %d", mem[24], mem[25]);
    CHECK(mem[26] == 7, "slot 26 = %d, not 7 (a freed request's accumulate)", mem[26]);
    if (rank == 0)
        CHECK(mem[0] == size, "counter %d, not %d", mem[0], size);
    CHECK_SUCCESS(MPI_Win_unlock(rank, w));

    /* outside a passive-target epoch, even in a fence epoch: MPI_ERR_RMA_SYNC (MPICH 4.0.2 and
     * Open MPI 4.1.4 do not check: the program is erroneous) */
    if (CHECK_SWITCHYARD) {
        CHECK_SUCCESS(MPI_Win_set_errhandler(w, MPI_ERRORS_RETURN));
        CHECK_SUCCESS(MPI_Win_fence(0, w));
        r = MPI_REQUEST_NULL;
        int err = MPI_Rput(vals, 1, MPI_INT, next, 30, 1, MPI_INT, w, &r);
        CHECK_ERR(err, MPI_ERR_RMA_SYNC, "MPI_Rput", "passive");
        err = MPI_Rget(got, 1, MPI_INT, next, 30, 1, MPI_INT, w, &r);
        CHECK_ERR(err, MPI_ERR_RMA_SYNC, "MPI_Rget");
        CHECK_SUCCESS(MPI_Win_fence(0, w));
    }
    CHECK_SUCCESS(MPI_Win_free(&w));
    if (rank == 0)
        printf("rma_request: request-based one-sided operations right on %d ranks\n", size);
    CHECK_SUCCESS(MPI_Finalize());
    return 0;
}
