/* rma_dead_holder.c — a process that dies holding a window lock (run by
 * tests/sh/rma_dead_holder.sh under mpiexec -disable-auto-cleanup, 3 ranks): rank 2 takes the
 * exclusive lock at rank 0 and exits with status 3. Rank 1's MPI_Win_lock at rank 0, waiting
 * for that lock, and every later lock there return MPIX_ERR_PROC_FAILED (MPI_ERR_PROC_ABORTED
 * on the standard ABI) naming rank 2 instead of hanging; locks and puts at rank 2 fail the same
 * way; rank 1's own lock, never held by rank 2, still works; MPI_Win_fence fails the same way. */
#include "check.h"

#include <unistd.h>

#ifndef MPIX_ERR_PROC_FAILED /* the standard ABI has no MPIX classes */
#define MPIX_ERR_PROC_FAILED MPI_ERR_PROC_ABORTED
#endif

/* rc is of class MPIX_ERR_PROC_FAILED with a message naming rank 2 */
static void check_failed(int rc, const char *what)
{
    char text[MPI_MAX_ERROR_STRING];
    int cls = -1, len = 0;
    CHECK(rc != MPI_SUCCESS, "%s: returned MPI_SUCCESS, though rank 2 has failed\n", what);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPIX_ERR_PROC_FAILED, "%s: class %d, expected %d\n", what, cls, MPIX_ERR_PROC_FAILED);
    MPI_Error_string(rc, text, &len);
    CHECK(strstr(text, "rank 2") != NULL, "%s: the message does not name rank 2: %s\n", what, text);
    printf("%s: %s\n", what, text);
}

int main(int argc, char **argv)
{
    int rank, size, *mem, v = 5;
    MPI_Win w;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(size == 3, "needs 3 ranks, got %d\n", size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    CHECK_SUCCESS(MPI_Win_allocate(16 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &w));
    CHECK_SUCCESS(MPI_Win_set_errhandler(w, MPI_ERRORS_RETURN));
    if (rank == 2) {
        CHECK_SUCCESS(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, w));
        CHECK_SUCCESS(MPI_Put(&v, 1, MPI_INT, 0, 0, 1, MPI_INT, w));
        CHECK_SUCCESS(MPI_Win_flush(0, w));
    }
    MPI_Barrier(MPI_COMM_WORLD); /* rank 2 holds the lock at rank 0 */
    if (rank == 2) {
        fflush(stdout);
        usleep(100000); /* rank 1's request is likely queued behind the lock by now */
        _exit(3);       /* without MPI_Finalize, the lock held */
    }
    if (rank == 1) {
        check_failed(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, w), "rank 1: MPI_Win_lock at rank 0");
        check_failed(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, w), "rank 1: MPI_Win_lock again at rank 0");
        check_failed(MPI_Win_lock(MPI_LOCK_SHARED, 2, 0, w), "rank 1: MPI_Win_lock at rank 2");
        CHECK_SUCCESS(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, w));
        CHECK_SUCCESS(MPI_Put(&v, 1, MPI_INT, 1, 3, 1, MPI_INT, w));
        CHECK_SUCCESS(MPI_Win_unlock(1, w));
        CHECK(mem[3] == 5, "rank 1: its own put under its own lock gave %d\n", mem[3]);
    } else {
        int x;
        check_failed(MPI_Recv(&x, 1, MPI_INT, 2, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE), "rank 0: MPI_Recv from rank 2");
        check_failed(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, w), "rank 0: MPI_Win_lock at rank 0");
        CHECK_SUCCESS(MPI_Win_lock(MPI_LOCK_SHARED, 2, MPI_MODE_NOCHECK, w));
        int rc = MPI_Put(&v, 1, MPI_INT, 2, 0, 1, MPI_INT, w);
        if (rc == MPI_SUCCESS) /* the put may be refused at once, or at the unlock */
            rc = MPI_Win_unlock(2, w);
        else
            MPI_Win_unlock(2, w);
        check_failed(rc, "rank 0: MPI_Put to rank 2 and MPI_Win_unlock");
    }
    /* a fence waits for every member: it fails naming the dead one instead of hanging */
    check_failed(MPI_Win_fence(0, w), rank == 1 ? "rank 1: MPI_Win_fence" : "rank 0: MPI_Win_fence");
    MPI_Barrier(MPI_COMM_WORLD); /* fails (rank 2 is gone) but does not hang */
    printf("rank %d: all checks passed\n", rank);
    fflush(stdout);
    MPI_Finalize();
    return 0;
}
