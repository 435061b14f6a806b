/* type_darray.c — MPI_Type_create_subarray (C and Fortran order) and MPI_Type_create_darray
 * (block, cyclic, none, default arguments) against hand-computed layouts. */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static int a[64];

/* Packs one element of t from a (a[i] = i) and checks the ints are want[0..n-1]. */
static void expect(MPI_Datatype t, const int *want, int n, const char *what)
{
    int out[64], pos = 0, sz;
    MPI_Type_size(t, &sz);
    CHECK(sz == n * 4, "%s: size %d, expected %d", what, sz, n * 4);
    CHECK_SUCCESS(MPI_Pack(a, 1, t, out, sizeof out, &pos, MPI_COMM_WORLD));
    for (int i = 0; i < n; i++)
        CHECK(out[i] == want[i], "%s: element %d = %d, expected %d", what, i, out[i], want[i]);
}

static void expect_extent(MPI_Datatype t, MPI_Aint lb, MPI_Aint ext)
{
    MPI_Aint l, e;
    MPI_Type_get_extent(t, &l, &e);
    CHECK(l == lb && e == ext, "lb/extent %ld/%ld, expected %ld/%ld", (long)l, (long)e, (long)lb, (long)ext);
}

int main(int argc, char **argv)
{
    int me, np, want[64], n;
    MPI_Datatype t;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    for (int i = 0; i < 64; i++)
        a[i] = i;

    /* subarray, C order: rows 1..2, columns 2..4 of a 4x5 array */
    CHECK_SUCCESS(MPI_Type_create_subarray(2, (int[]){4, 5}, (int[]){2, 3}, (int[]){1, 2}, MPI_ORDER_C, MPI_INT, &t));
    MPI_Type_commit(&t);
    n = 0;
    for (int i = 1; i <= 2; i++)
        for (int j = 2; j <= 4; j++)
            want[n++] = i * 5 + j;
    expect(t, want, n, "subarray C");
    expect_extent(t, 0, 80);
    {
        MPI_Aint tl, te;
        MPI_Type_get_true_extent(t, &tl, &te);
        CHECK(tl == 28 && te == (2 * 5 + 4) * 4 + 4 - 28, "subarray true extent %ld/%ld", (long)tl, (long)te);
    }
    /* sent to the next rank, received as contiguous ints */
    int got[64];
    MPI_Status st;
    CHECK_SUCCESS(MPI_Sendrecv(a, 1, t, (me + 1) % np, 0, got, 6, MPI_INT, (me + np - 1) % np, 0, MPI_COMM_WORLD,
                               &st));
    for (int i = 0; i < 6; i++)
        CHECK(got[i] == want[i], "subarray received: element %d = %d", i, got[i]);
    {
        int ni, na, nt, comb, ints[16];
        MPI_Aint ad[1];
        MPI_Datatype ty[1];
        CHECK_SUCCESS(MPI_Type_get_envelope(t, &ni, &na, &nt, &comb));
        CHECK(comb == MPI_COMBINER_SUBARRAY && ni == 8 && na == 0 && nt == 1, "subarray envelope");
        CHECK_SUCCESS(MPI_Type_get_contents(t, 16, 1, 1, ints, ad, ty));
        CHECK(ints[0] == 2 && ints[1] == 4 && ints[2] == 5 && ints[3] == 2 && ints[4] == 3 && ints[5] == 1 &&
                  ints[6] == 2 && ty[0] == MPI_INT,
              "subarray contents");
    }
    MPI_Type_free(&t);

    /* subarray, Fortran order: (i, j) at i + 4 j */
    CHECK_SUCCESS(
        MPI_Type_create_subarray(2, (int[]){4, 5}, (int[]){2, 3}, (int[]){1, 2}, MPI_ORDER_FORTRAN, MPI_INT, &t));
    MPI_Type_commit(&t);
    n = 0;
    for (int j = 2; j <= 4; j++)
        for (int i = 1; i <= 2; i++)
            want[n++] = i + 4 * j;
    expect(t, want, n, "subarray Fortran");
    expect_extent(t, 0, 80);
    MPI_Type_free(&t);

    /* 3-d subarray with a whole dimension */
    CHECK_SUCCESS(MPI_Type_create_subarray(3, (int[]){2, 3, 4}, (int[]){2, 1, 2}, (int[]){0, 2, 1}, MPI_ORDER_C,
                                           MPI_INT, &t));
    MPI_Type_commit(&t);
    n = 0;
    for (int i = 0; i < 2; i++)
        for (int k = 1; k < 3; k++)
            want[n++] = i * 12 + 2 * 4 + k;
    expect(t, want, n, "subarray 3-d");
    MPI_Type_free(&t);

    /* darray, C order: 4x6 over a 2x2 grid, rows block, columns cyclic(2) */
    for (int r = 0; r < 4; r++) {
        int c0 = r / 2, c1 = r % 2;
        CHECK_SUCCESS(MPI_Type_create_darray(4, r, 2, (int[]){4, 6},
                                             (int[]){MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC},
                                             (int[]){MPI_DISTRIBUTE_DFLT_DARG, 2}, (int[]){2, 2}, MPI_ORDER_C,
                                             MPI_INT, &t));
        MPI_Type_commit(&t);
        n = 0;
        for (int i = 2 * c0; i < 2 * c0 + 2; i++)
            for (int j = 0; j < 6; j++)
                if ((j / 2) % 2 == c1)
                    want[n++] = i * 6 + j;
        expect(t, want, n, "darray C");
        expect_extent(t, 0, 96);
        MPI_Type_free(&t);
    }
    /* darray, Fortran order: 5x6, dim 0 cyclic (default 1), dim 1 block (default) */
    for (int r = 0; r < 4; r++) {
        int c0 = r / 2, c1 = r % 2;
        CHECK_SUCCESS(MPI_Type_create_darray(4, r, 2, (int[]){5, 6},
                                             (int[]){MPI_DISTRIBUTE_CYCLIC, MPI_DISTRIBUTE_BLOCK},
                                             (int[]){MPI_DISTRIBUTE_DFLT_DARG, MPI_DISTRIBUTE_DFLT_DARG},
                                             (int[]){2, 2}, MPI_ORDER_FORTRAN, MPI_INT, &t));
        MPI_Type_commit(&t);
        n = 0;
        for (int j = 3 * c1; j < 3 * c1 + 3; j++)
            for (int i = c0; i < 5; i += 2)
                want[n++] = i + 5 * j;
        expect(t, want, n, "darray Fortran");
        expect_extent(t, 0, 120);
        MPI_Type_free(&t);
    }
    /* darray with an undistributed dimension and an uneven block: 7 x 3, psizes {3, 1} */
    for (int r = 0; r < 3; r++) {
        CHECK_SUCCESS(MPI_Type_create_darray(3, r, 2, (int[]){7, 3},
                                             (int[]){MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_NONE},
                                             (int[]){MPI_DISTRIBUTE_DFLT_DARG, MPI_DISTRIBUTE_DFLT_DARG},
                                             (int[]){3, 1}, MPI_ORDER_C, MPI_INT, &t));
        MPI_Type_commit(&t);
        n = 0;
        for (int i = 3 * r; i < 3 * r + 3 && i < 7; i++)
            for (int j = 0; j < 3; j++)
                want[n++] = i * 3 + j;
        expect(t, want, n, "darray none");
        int ni, na, nt, comb;
        MPI_Type_get_envelope(t, &ni, &na, &nt, &comb);
        CHECK(comb == MPI_COMBINER_DARRAY && ni == 4 * 2 + 4 && nt == 1, "darray envelope");
        int ints[12];
        MPI_Aint ad[1];
        MPI_Datatype ty[1];
        CHECK_SUCCESS(MPI_Type_get_contents(t, 12, 1, 1, ints, ad, ty));
        CHECK(ints[0] == 3 && ints[1] == r && ints[2] == 2 && ints[3] == 7 && ints[4] == 3 &&
                  ints[5] == MPI_DISTRIBUTE_BLOCK && ints[6] == MPI_DISTRIBUTE_NONE &&
                  ints[7] == MPI_DISTRIBUTE_DFLT_DARG && ints[9] == 3 && ints[10] == 1 && ints[11] == MPI_ORDER_C &&
                  ty[0] == MPI_INT,
              "darray contents");
        MPI_Type_free(&t);
    }

    /* errors */
    CHECK_ERR(MPI_Type_create_subarray(2, (int[]){4, 5}, (int[]){2, 3}, (int[]){3, 2}, MPI_ORDER_C, MPI_INT, &t),
              MPI_ERR_ARG, NULL);
    CHECK_ERR(MPI_Type_create_darray(4, 0, 2, (int[]){4, 6}, (int[]){MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_BLOCK},
                                     (int[]){MPI_DISTRIBUTE_DFLT_DARG, MPI_DISTRIBUTE_DFLT_DARG}, (int[]){2, 3},
                                     MPI_ORDER_C, MPI_INT, &t),
              MPI_ERR_ARG, NULL);
    CHECK_ERR(MPI_Type_create_darray(2, 0, 1, (int[]){8}, (int[]){MPI_DISTRIBUTE_BLOCK}, (int[]){2}, (int[]){2},
                                     MPI_ORDER_C, MPI_INT, &t),
              MPI_ERR_ARG, NULL);

    MPI_Finalize();
    return 0;
}
