/* rma_fence: one-sided operations in fence epochs, on every window flavour, results checked
 * element by element: put, get with a derived target datatype, accumulates from every rank,
 * get_accumulate, fetch_and_op counters, compare_and_swap, pair types (MPI_SHORT_INT, holes)
 * with MINLOC, 1 MiB puts, epochs back to back, and the error classes of bad calls. */
#include "check.h"

#include <stdint.h>

#define N 64
#define BIG (1 << 18) /* ints: 1 MiB */

static int rank, size, next, prev;

/* A user-defined operation, which accumulates refuse. */
static void never_called(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)in, (void)inout, (void)len, (void)type;
    CHECK(0, "a user-defined operation was applied by an accumulate");
}

/* A window of N ints (plus BIG for the large puts) of flavour f; *mem: the local memory. */
static MPI_Win make(int f, int **mem, int **dyn_mem, MPI_Aint *dyn_base)
{
    MPI_Win w;
    MPI_Aint bytes = (N + BIG) * (MPI_Aint)sizeof(int);
    *dyn_base = 0;
    switch (f) {
    case 0:
        *mem = malloc((size_t)bytes);
        CHECK(*mem != NULL, "out of memory");
        CHECK_SUCCESS(MPI_Win_create(*mem, bytes, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w));
        break;
    case 1:
        CHECK_SUCCESS(MPI_Win_allocate(bytes, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, mem, &w));
        break;
    case 2:
        CHECK_SUCCESS(MPI_Win_allocate_shared(bytes, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, mem, &w));
        break;
    default:
        CHECK_SUCCESS(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &w));
        *mem = *dyn_mem = malloc((size_t)bytes);
        CHECK(*mem != NULL, "out of memory");
        CHECK_SUCCESS(MPI_Win_attach(w, *mem, bytes));
        CHECK_SUCCESS(MPI_Get_address(*mem, dyn_base));
        break;
    }
    return w;
}

/* Target displacement of int i at rank r: an index, or in a dynamic window an address. */
static MPI_Aint disp(const MPI_Aint *bases, int r, int i)
{
    return bases ? MPI_Aint_add(bases[r], i * (MPI_Aint)sizeof(int)) : i;
}

static void flavour(int f)
{
    if (getenv("RMA_DEBUG") && rank == 0)
        fprintf(stderr, "flavour %d\n", f);
    int *mem = NULL, *dyn = NULL;
    MPI_Aint my_base, *bases = NULL;
    MPI_Win w = make(f, &mem, &dyn, &my_base);
    if (f == 3) {
        bases = malloc(sizeof *bases * (size_t)size);
        CHECK_SUCCESS(MPI_Allgather(&my_base, 1, MPI_AINT, bases, 1, MPI_AINT, MPI_COMM_WORLD));
    }
    for (int i = 0; i < N; i++)
        mem[i] = -1;
    CHECK_SUCCESS(MPI_Win_fence(MPI_MODE_NOPRECEDE, w));

    /* put: my rank and i into next's ints [0, 8) */
    int src[8];
    for (int i = 0; i < 8; i++)
        src[i] = rank * 100 + i;
    CHECK_SUCCESS(MPI_Put(src, 8, MPI_INT, next, disp(bases, next, 0), 8, MPI_INT, w));
    CHECK_SUCCESS(MPI_Put(src, 1, MPI_INT, MPI_PROC_NULL, 0, 1, MPI_INT, w));
    CHECK_SUCCESS(MPI_Win_fence(0, w));
    for (int i = 0; i < 8; i++)
        CHECK(mem[i] == prev * 100 + i, "flavour %d rank %d: put element %d = %d", f, rank, i, mem[i]);

    /* get with a derived target datatype: ints 0,1, 4,5, 8,9 of prev's window (set locally
     * before the fence, which makes the stores visible) */
    for (int i = 8; i < 20; i++)
        mem[i] = rank * 1000 + i;
    CHECK_SUCCESS(MPI_Win_fence(0, w));
    MPI_Datatype vec;
    CHECK_SUCCESS(MPI_Type_vector(3, 2, 4, MPI_INT, &vec));
    CHECK_SUCCESS(MPI_Type_commit(&vec));
    int got[6] = {0};
    CHECK_SUCCESS(MPI_Get(got, 6, MPI_INT, prev, disp(bases, prev, 8), 1, vec, w));
    CHECK_SUCCESS(MPI_Win_fence(0, w));
    for (int k = 0; k < 6; k++) {
        int want = prev * 1000 + 8 + (k / 2) * 4 + k % 2;
        CHECK(got[k] == want, "flavour %d rank %d: get element %d = %d, not %d", f, rank, k, got[k], want);
    }
    CHECK_SUCCESS(MPI_Type_free(&vec));

    /* accumulate: every rank adds (rank + 1) * i to rank 0's ints [20, 30); a counter at 30 by
     * fetch_and_op; compare_and_swap on 31 (from -1: one rank wins) */
    if (rank == 0)
        for (int i = 20; i < 32; i++)
            mem[i] = i == 31 ? -1 : 0;
    CHECK_SUCCESS(MPI_Win_fence(0, w));
    int add[10], one = 1, fetched[3], swapped, minus = -1;
    for (int i = 0; i < 10; i++)
        add[i] = (rank + 1) * i;
    CHECK_SUCCESS(MPI_Accumulate(add, 10, MPI_INT, 0, disp(bases, 0, 20), 10, MPI_INT, MPI_SUM, w));
    for (int k = 0; k < 3; k++)
        CHECK_SUCCESS(MPI_Fetch_and_op(&one, &fetched[k], MPI_INT, 0, disp(bases, 0, 30), MPI_SUM, w));
    CHECK_SUCCESS(MPI_Compare_and_swap(&rank, &minus, &swapped, MPI_INT, 0, disp(bases, 0, 31), w));
    CHECK_SUCCESS(MPI_Win_fence(0, w));
    int tri = size * (size + 1) / 2;
    if (rank == 0) {
        for (int i = 0; i < 10; i++)
            CHECK(mem[20 + i] == tri * i, "flavour %d: accumulated element %d = %d, not %d", f, i, mem[20 + i],
                  tri * i);
        CHECK(mem[30] == 3 * size, "flavour %d: counter %d, not %d", f, mem[30], 3 * size);
        CHECK(mem[31] >= 0 && mem[31] < size, "flavour %d: compare_and_swap left %d", f, mem[31]);
    }
    int all[3 * 16], winners = swapped == -1, nwin;
    CHECK(size <= 16, "at most 16 ranks");
    CHECK_SUCCESS(MPI_Allgather(fetched, 3, MPI_INT, all, 3, MPI_INT, MPI_COMM_WORLD));
    for (int v = 0; v < 3 * size; v++) { /* each value fetched exactly once */
        int seen = 0;
        for (int k = 0; k < 3 * size; k++)
            seen += all[k] == v;
        CHECK(seen == 1, "flavour %d: counter value %d fetched %d times", f, v, seen);
    }
    CHECK_SUCCESS(MPI_Allreduce(&winners, &nwin, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    CHECK(nwin == 1, "flavour %d: %d ranks won the compare_and_swap", f, nwin);

    /* get_accumulate with MINLOC on a pair type with holes, and MPI_NO_OP reads */
    struct { short v; int i; } old[2], mine[2] = {{(short)(50 - rank), rank}, {(short)rank, rank}};
    if (rank == 0) {
        struct { short v; int i; } *p = (void *)&mem[32];
        p[0].v = 40, p[0].i = -5, p[1].v = 1, p[1].i = -6;
    }
    CHECK_SUCCESS(MPI_Win_fence(0, w));
    CHECK_SUCCESS(MPI_Accumulate(mine, 2, MPI_SHORT_INT, 0, disp(bases, 0, 32), 2, MPI_SHORT_INT, MPI_MINLOC, w));
    CHECK_SUCCESS(MPI_Win_fence(0, w));
    CHECK_SUCCESS(MPI_Get_accumulate(NULL, 0, MPI_SHORT_INT, old, 2, MPI_SHORT_INT, 0, disp(bases, 0, 32), 2,
                                     MPI_SHORT_INT, MPI_NO_OP, w));
    CHECK_SUCCESS(MPI_Win_fence(0, w));
    short want0 = (short)(50 - (size - 1) < 40 ? 50 - (size - 1) : 40);
    int want0i = 50 - (size - 1) < 40 ? size - 1 : -5;
    CHECK(old[0].v == want0 && old[0].i == want0i, "flavour %d: MINLOC element 0 = (%d, %d), not (%d, %d)", f,
          old[0].v, old[0].i, want0, want0i);
    CHECK(old[1].v == 0 && old[1].i == 0, "flavour %d: MINLOC element 1 = (%d, %d), not (0, 0)", f, old[1].v,
          old[1].i);

    /* 1 MiB puts around the ring, and epochs back to back */
    int *big = malloc(sizeof(int) * BIG);
    CHECK(big != NULL, "out of memory");
    for (int i = 0; i < BIG; i++)
        big[i] = rank ^ i;
    CHECK_SUCCESS(MPI_Put(big, BIG, MPI_INT, next, disp(bases, next, N), BIG, MPI_INT, w));
    CHECK_SUCCESS(MPI_Win_fence(0, w));
    for (int i = 0; i < BIG; i++)
        if (mem[N + i] != (prev ^ i))
            CHECK(0, "flavour %d rank %d: big put element %d = %d", f, rank, i, mem[N + i]);
    free(big);
    for (int e = 0; e < 20; e++) { /* slots alternate: the next epoch's operations may land
                                       while this one's results are read */
        int v = e * 10 + rank, at = 40 + 2 * (e % 2);
        CHECK_SUCCESS(MPI_Put(&v, 1, MPI_INT, next, disp(bases, next, at), 1, MPI_INT, w));
        CHECK_SUCCESS(MPI_Accumulate(&v, 1, MPI_INT, prev, disp(bases, prev, at + 1), 1, MPI_INT, MPI_REPLACE, w));
        CHECK_SUCCESS(MPI_Win_fence(0, w));
        CHECK(mem[at] == e * 10 + prev && mem[at + 1] == e * 10 + next, "flavour %d epoch %d: %d %d", f, e,
              mem[at], mem[at + 1]);
    }
    CHECK_SUCCESS(MPI_Win_fence(MPI_MODE_NOSUCCEED, w));

    /* bad calls, each through the window's error handler */
    CHECK_SUCCESS(MPI_Win_set_errhandler(w, MPI_ERRORS_RETURN));
    CHECK_ERR(MPI_Put(src, 1, MPI_INT, next, disp(bases, next, 0), 1, MPI_INT, w), MPI_ERR_RMA_SYNC,
              "MPI_Put", "no access epoch");
    CHECK_ERR(MPI_Get_c(src, 1, MPI_INT, next, disp(bases, next, 0), 1, MPI_INT, w), MPI_ERR_RMA_SYNC,
              "MPI_Get_c:", "no access epoch"); /* the large-count form is named */
    CHECK_ERR(MPI_Get(src, 1, MPI_INT, next, disp(bases, next, 0), 1, MPI_INT, w), MPI_ERR_RMA_SYNC,
              "MPI_Get:", "no access epoch");
    int e = MPI_Win_fence(MPI_MODE_NOCHECK, w);
    if (CHECK_SWITCHYARD)
        CHECK_ERR(e, MPI_ERR_ASSERT, "MPI_Win_fence", "MPI_MODE_NOCHECK");
    else /* MPICH 4.0.2 says MPI_ERR_ARG */
        CHECK(e != MPI_SUCCESS, "MPI_Win_fence accepted MPI_MODE_NOCHECK");
    CHECK_SUCCESS(MPI_Win_fence(0, w));
    if (f != 3 && CHECK_SWITCHYARD) /* MPICH 4.0.2 does not check the range on every flavour */
        CHECK_ERR(MPI_Put(src, 8, MPI_INT, next, N + BIG - 4, 8, MPI_INT, w), MPI_ERR_RMA_RANGE,
                  "MPI_Put", "outside its window");
    MPI_Op user;
    CHECK_SUCCESS(MPI_Op_create(never_called, 1, &user));
    CHECK_ERR(MPI_Accumulate(src, 1, MPI_INT, next, disp(bases, next, 0), 1, MPI_INT, user, w), MPI_ERR_OP,
              "MPI_Accumulate", "user-defined operation");
    CHECK_SUCCESS(MPI_Op_free(&user));
    CHECK_SUCCESS(MPI_Win_fence(MPI_MODE_NOSUCCEED, w));

    if (f == 3)
        CHECK_SUCCESS(MPI_Win_detach(w, dyn));
    CHECK_SUCCESS(MPI_Win_free(&w));
    if (f == 0 || f == 3)
        free(mem);
    free(bases);
}

int main(int argc, char **argv)
{
    CHECK_SUCCESS(MPI_Init(&argc, &argv));
    CHECK_SUCCESS(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_SUCCESS(MPI_Comm_size(MPI_COMM_WORLD, &size));
    next = (rank + 1) % size;
    prev = (rank + size - 1) % size;
    for (int f = 0; f < 4; f++)
        flavour(f);
    if (rank == 0)
        printf("rma_fence: %d ranks, 4 window flavours\n", size);
    CHECK_SUCCESS(MPI_Finalize());
    return 0;
}
