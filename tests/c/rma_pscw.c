/* rma_pscw: generalized active target (post, start, complete, wait, test). A ring of puts and
 * gets, 20 epochs back to back; a star of accumulates into rank 0, which polls MPI_Win_test;
 * MPI_MODE_NOCHECK; and the error classes of calls outside their epochs. */
#include "check.h"

static int rank, size;

/* A group of the world ranks in r[0..n). */
static MPI_Group group_of(const int *r, int n)
{
    MPI_Group world, g;
    CHECK_SUCCESS(MPI_Comm_group(MPI_COMM_WORLD, &world));
    CHECK_SUCCESS(MPI_Group_incl(world, n, r, &g));
    CHECK_SUCCESS(MPI_Group_free(&world));
    return g;
}

int main(int argc, char **argv)
{
    CHECK_SUCCESS(MPI_Init(&argc, &argv));
    CHECK_SUCCESS(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_SUCCESS(MPI_Comm_size(MPI_COMM_WORLD, &size));
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    int *mem;
    MPI_Win w;
    CHECK_SUCCESS(MPI_Win_allocate(16 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &w));
    for (int i = 0; i < 16; i++)
        mem[i] = -1;
    CHECK_SUCCESS(MPI_Barrier(MPI_COMM_WORLD));

    /* ring: I expose to prev, access next */
    MPI_Group from_prev = group_of(&prev, 1), to_next = group_of(&next, 1);
    for (int e = 0; e < 20; e++) {
        int v = e * 100 + rank, got = -1, at = e % 2; /* slots alternate, as in rma_fence */
        mem[4 + at] = e * 1000 + rank; /* what next reads in this epoch */
        CHECK_SUCCESS(MPI_Win_post(from_prev, 0, w));
        CHECK_SUCCESS(MPI_Win_start(to_next, 0, w));
        CHECK_SUCCESS(MPI_Put(&v, 1, MPI_INT, next, at, 1, MPI_INT, w));
        CHECK_SUCCESS(MPI_Get(&got, 1, MPI_INT, next, 4 + at, 1, MPI_INT, w));
        CHECK_SUCCESS(MPI_Win_complete(w));
        CHECK(got == e * 1000 + next, "rank %d epoch %d: got %d from rank %d", rank, e, got, next);
        CHECK_SUCCESS(MPI_Win_wait(w));
        CHECK(mem[at] == e * 100 + prev, "rank %d epoch %d: rank %d put %d", rank, e, prev, mem[at]);
    }

    /* star: every other rank accumulates into rank 0, which polls MPI_Win_test */
    int *others = malloc(sizeof(int) * (size_t)size), n = 0;
    for (int r = 1; r < size; r++)
        others[n++] = r;
    int zero = 0;
    MPI_Group to_zero = group_of(&zero, 1), all_others = group_of(others, n);
    mem[8] = 0;
    CHECK_SUCCESS(MPI_Barrier(MPI_COMM_WORLD));
    if (rank == 0) {
        CHECK_SUCCESS(MPI_Win_post(all_others, 0, w));
        int flag = 0;
        while (!flag)
            CHECK_SUCCESS(MPI_Win_test(w, &flag));
        CHECK(mem[8] == size * (size - 1) / 2, "star: rank 0 holds %d, not %d", mem[8], size * (size - 1) / 2);
    } else {
        CHECK_SUCCESS(MPI_Win_start(to_zero, 0, w));
        CHECK_SUCCESS(MPI_Accumulate(&rank, 1, MPI_INT, 0, 8, 1, MPI_INT, MPI_SUM, w));
        CHECK_SUCCESS(MPI_Win_complete(w));
    }

    /* MPI_MODE_NOCHECK: the posts are known done by a barrier */
    CHECK_SUCCESS(MPI_Win_post(from_prev, MPI_MODE_NOCHECK, w));
    CHECK_SUCCESS(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_SUCCESS(MPI_Win_start(to_next, MPI_MODE_NOCHECK, w));
    int v = 7000 + rank;
    CHECK_SUCCESS(MPI_Put(&v, 1, MPI_INT, next, 10, 1, MPI_INT, w));
    CHECK_SUCCESS(MPI_Win_complete(w));
    CHECK_SUCCESS(MPI_Win_wait(w));
    CHECK(mem[10] == 7000 + prev, "rank %d: NOCHECK put gave %d", rank, mem[10]);

    /* bad calls */
    CHECK_SUCCESS(MPI_Win_set_errhandler(w, MPI_ERRORS_RETURN));
    CHECK_ERR(MPI_Win_complete(w), MPI_ERR_RMA_SYNC, "MPI_Win_complete", "MPI_Win_start");
    CHECK_ERR(MPI_Win_wait(w), MPI_ERR_RMA_SYNC, "MPI_Win_wait", "MPI_Win_post");
    int flag;
    CHECK_ERR(MPI_Win_test(w, &flag), MPI_ERR_RMA_SYNC, "MPI_Win_test", "MPI_Win_post");
    CHECK_ERR(MPI_Put(&v, 1, MPI_INT, next, 0, 1, MPI_INT, w), MPI_ERR_RMA_SYNC, "MPI_Put", "no access epoch");
    if (size > 1 && CHECK_SWITCHYARD) { /* a group reaching outside the window's processes (MPICH
                                           4.0.2 waits for its post forever) */
        MPI_Win self;
        int *smem;
        CHECK_SUCCESS(MPI_Win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_SELF, &smem, &self));
        CHECK_SUCCESS(MPI_Win_set_errhandler(self, MPI_ERRORS_RETURN));
        CHECK_ERR(MPI_Win_start(to_next, 0, self), MPI_ERR_GROUP, "MPI_Win_start", "not a process of the window");
        CHECK_SUCCESS(MPI_Win_free(&self));
    }

    CHECK_SUCCESS(MPI_Group_free(&from_prev));
    CHECK_SUCCESS(MPI_Group_free(&to_next));
    CHECK_SUCCESS(MPI_Group_free(&to_zero));
    CHECK_SUCCESS(MPI_Group_free(&all_others));
    free(others);
    CHECK_SUCCESS(MPI_Win_free(&w));
    if (rank == 0)
        printf("rma_pscw: %d ranks\n", size);
    CHECK_SUCCESS(MPI_Finalize());
    return 0;
}
