/* op_local.c — MPI_Reduce_local with every predefined op on representative types of each
 * group, pair types, derived types, user ops (int and large-count), and the errors. */
#include <complex.h>
#include <limits.h>
#include <stdint.h>

#include "check.h"

#define N 5

static void check_ints(MPI_Op op, const int *a, const int *b, const int *want, const char *name)
{
    int io[N];
    memcpy(io, b, sizeof io);
    CHECK_SUCCESS(MPI_Reduce_local(a, io, N, MPI_INT, op));
    for (int i = 0; i < N; i++)
        CHECK(io[i] == want[i], "%s: element %d = %d, expected %d", name, i, io[i], want[i]);
}

/* A non-commutative user op on ints: inout = 10 * in + inout (order visible). */
static int user_calls, user_len;
static MPI_Datatype user_type;
static void shift_op(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    user_calls++;
    user_len = *len;
    user_type = *dt;
    if (*dt != MPI_INT)
        return;
    for (int i = 0; i < *len; i++)
        ((int *)inout)[i] = 10 * ((int *)in)[i] + ((int *)inout)[i];
}

static MPI_Count big_len;
static void shift_op_c(void *in, void *inout, MPI_Count *len, MPI_Datatype *dt)
{
    big_len = *len;
    (void)dt;
    for (MPI_Count i = 0; i < *len; i++)
        ((int *)inout)[i] = 10 * ((int *)in)[i] + ((int *)inout)[i];
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);

    /* integers: every op allowed on C integers */
    int a[N] = {1, -2, 3, 0, 12}, b[N] = {4, 5, -6, 0, 10};
    check_ints(MPI_SUM, a, b, (int[]){5, 3, -3, 0, 22}, "SUM");
    check_ints(MPI_PROD, a, b, (int[]){4, -10, -18, 0, 120}, "PROD");
    check_ints(MPI_MIN, a, b, (int[]){1, -2, -6, 0, 10}, "MIN");
    check_ints(MPI_MAX, a, b, (int[]){4, 5, 3, 0, 12}, "MAX");
    check_ints(MPI_LAND, a, b, (int[]){1, 1, 1, 0, 1}, "LAND");
    check_ints(MPI_LOR, a, b, (int[]){1, 1, 1, 0, 1}, "LOR");
    check_ints(MPI_LXOR, a, b, (int[]){0, 0, 0, 0, 0}, "LXOR");
    check_ints(MPI_BAND, a, b, (int[]){1 & 4, -2 & 5, 3 & -6, 0, 12 & 10}, "BAND");
    check_ints(MPI_BOR, a, b, (int[]){1 | 4, -2 | 5, 3 | -6, 0, 12 | 10}, "BOR");
    check_ints(MPI_BXOR, a, b, (int[]){1 ^ 4, -2 ^ 5, 3 ^ -6, 0, 12 ^ 10}, "BXOR");

    /* integer overflow wraps (no undefined behaviour) */
    int big = INT_MAX, io1 = 1;
    CHECK_SUCCESS(MPI_Reduce_local(&big, &io1, 1, MPI_INT, MPI_SUM));
    CHECK_EQ_INT(io1, INT_MIN);

    /* unsigned and fixed-size types */
    uint64_t ua[2] = {UINT64_MAX, 7}, ub[2] = {2, 9};
    CHECK_SUCCESS(MPI_Reduce_local(ua, ub, 2, MPI_UINT64_T, MPI_MAX));
    CHECK(ub[0] == UINT64_MAX && ub[1] == 9, "UINT64_T MAX");
    signed char ca[2] = {-5, 7}, cb[2] = {3, -9};
    CHECK_SUCCESS(MPI_Reduce_local(ca, cb, 2, MPI_SIGNED_CHAR, MPI_MIN));
    CHECK(cb[0] == -5 && cb[1] == -9, "SIGNED_CHAR MIN");
    MPI_Aint aa = 100, ab = -1;
    CHECK_SUCCESS(MPI_Reduce_local(&aa, &ab, 1, MPI_AINT, MPI_SUM));
    CHECK(ab == 99, "AINT SUM");

    /* floating point, complex, logical, byte */
    double da[3] = {1.5, -2.0, 1e300}, db[3] = {2.0, 4.0, 1e300};
    CHECK_SUCCESS(MPI_Reduce_local(da, db, 3, MPI_DOUBLE, MPI_PROD));
    CHECK(db[0] == 3.0 && db[1] == -8.0 && db[2] > 1e308, "DOUBLE PROD");
    float fa = 2.5f, fb = -1.0f;
    CHECK_SUCCESS(MPI_Reduce_local(&fa, &fb, 1, MPI_FLOAT, MPI_MAX));
    CHECK(fb == 2.5f, "FLOAT MAX");
    double complex za = 1.0 + 2.0 * I, zb = 3.0 - 1.0 * I;
    CHECK_SUCCESS(MPI_Reduce_local(&za, &zb, 1, MPI_C_DOUBLE_COMPLEX, MPI_PROD));
    CHECK(creal(zb) == 5.0 && cimag(zb) == 5.0, "C_DOUBLE_COMPLEX PROD: %g%+gi", creal(zb), cimag(zb));
    _Bool la[3] = {1, 0, 1}, lb[3] = {1, 1, 0};
    CHECK_SUCCESS(MPI_Reduce_local(la, lb, 3, MPI_C_BOOL, MPI_LXOR));
    CHECK(lb[0] == 0 && lb[1] == 1 && lb[2] == 1, "C_BOOL LXOR");
    unsigned char ba[2] = {0xf0, 0x0f}, bb[2] = {0x3c, 0x3c};
    CHECK_SUCCESS(MPI_Reduce_local(ba, bb, 2, MPI_BYTE, MPI_BXOR));
    CHECK(bb[0] == 0xcc && bb[1] == 0x33, "BYTE BXOR");

    /* MINLOC / MAXLOC on pairs; ties keep the smaller index */
    struct { double v; int i; } pa[3] = {{1.0, 5}, {2.0, 1}, {3.0, 3}}, pb[3] = {{1.0, 2}, {1.0, 0}, {4.0, 9}};
    CHECK_SUCCESS(MPI_Reduce_local(pa, pb, 3, MPI_DOUBLE_INT, MPI_MINLOC));
    CHECK(pb[0].v == 1.0 && pb[0].i == 2 && pb[1].v == 1.0 && pb[1].i == 0 && pb[2].v == 3.0 && pb[2].i == 3,
          "DOUBLE_INT MINLOC");
    struct { int v, i; } qa[2] = {{7, 4}, {7, 1}}, qb[2] = {{6, 0}, {7, 2}};
    CHECK_SUCCESS(MPI_Reduce_local(qa, qb, 2, MPI_2INT, MPI_MAXLOC));
    CHECK(qb[0].v == 7 && qb[0].i == 4 && qb[1].v == 7 && qb[1].i == 1, "2INT MAXLOC");

    /* a derived (strided) type: only the selected elements change */
    MPI_Datatype vec;
    CHECK_SUCCESS(MPI_Type_vector(3, 1, 2, MPI_INT, &vec));
    CHECK_SUCCESS(MPI_Type_commit(&vec));
    int va[6] = {1, 100, 2, 100, 3, 100}, vb[6] = {10, -1, 20, -1, 30, -1};
    CHECK_SUCCESS(MPI_Reduce_local(va, vb, 1, vec, MPI_SUM));
    for (int i = 0; i < 6; i++)
        CHECK_EQ_INT(vb[i], i % 2 ? -1 : 11 * (i / 2 + 1));
    /* ... and MINLOC inside a contiguous type of pairs */
    MPI_Datatype pairs;
    CHECK_SUCCESS(MPI_Type_contiguous(2, MPI_2INT, &pairs));
    CHECK_SUCCESS(MPI_Type_commit(&pairs));
    struct { int v, i; } ra[2] = {{1, 1}, {5, 5}}, rb[2] = {{2, 2}, {4, 4}};
    CHECK_SUCCESS(MPI_Reduce_local(ra, rb, 1, pairs, MPI_MINLOC));
    CHECK(rb[0].v == 1 && rb[0].i == 1 && rb[1].v == 4 && rb[1].i == 4, "contiguous 2INT MINLOC");

    /* errors: an op on a type outside its group, a mixed derived type, bad handles */
    float f2[2] = {0};
    CHECK_ERR(MPI_Reduce_local(f2, f2, 2, MPI_FLOAT, MPI_BAND), MPI_ERR_OP, "MPI_Reduce_local", "MPI_BAND",
              "MPI_FLOAT");
    CHECK_ERR(MPI_Reduce_local(pa, pb, 1, MPI_DOUBLE_INT, MPI_SUM), MPI_ERR_OP, "MPI_SUM", "MPI_DOUBLE_INT");
    CHECK_ERR(MPI_Reduce_local(a, b, 1, MPI_INT, MPI_MINLOC), MPI_ERR_OP, "MPI_MINLOC", "MPI_INT");
    CHECK_ERR(MPI_Reduce_local(&za, &zb, 1, MPI_C_DOUBLE_COMPLEX, MPI_MAX), MPI_ERR_OP, "MPI_MAX");
    CHECK_ERR(MPI_Reduce_local(da, db, 1, MPI_DOUBLE, MPI_LAND), MPI_ERR_OP, "MPI_LAND", "MPI_DOUBLE");
    MPI_Datatype mixed;
    CHECK_SUCCESS(MPI_Type_create_struct(2, (int[]){1, 1}, (MPI_Aint[]){0, 8},
                                         (MPI_Datatype[]){MPI_INT, MPI_DOUBLE}, &mixed));
    CHECK_SUCCESS(MPI_Type_commit(&mixed));
    char mbuf[2][16] = {{0}};
    CHECK_ERR(MPI_Reduce_local(mbuf[0], mbuf[1], 1, mixed, MPI_SUM), MPI_ERR_OP, "MPI_SUM", "not all of one type");
    CHECK_ERR(MPI_Reduce_local(a, b, 1, MPI_INT, MPI_OP_NULL), MPI_ERR_OP, "MPI_Reduce_local");
    CHECK_ERR(MPI_Reduce_local(a, b, 1, MPI_DATATYPE_NULL, MPI_SUM), MPI_ERR_TYPE, "MPI_Reduce_local");
    CHECK_ERR(MPI_Reduce_local(a, b, -1, MPI_INT, MPI_SUM), MPI_ERR_COUNT, "MPI_Reduce_local");
    MPI_Datatype uncommitted;
    CHECK_SUCCESS(MPI_Type_contiguous(2, MPI_INT, &uncommitted));
    CHECK_ERR(MPI_Reduce_local(a, b, 1, uncommitted, MPI_SUM), MPI_ERR_TYPE, "MPI_Reduce_local");
    /* MPI_REPLACE and MPI_NO_OP are for one-sided accumulate operations only */
    CHECK_ERR(MPI_Reduce_local(a, b, 1, MPI_INT, MPI_REPLACE), MPI_ERR_OP, "MPI_REPLACE", "accumulate");
    CHECK_ERR(MPI_Reduce_local(a, b, 1, MPI_INT, MPI_NO_OP), MPI_ERR_OP, "MPI_NO_OP");
    MPI_Op sum = MPI_SUM;
    CHECK_ERR(MPI_Op_free(&sum), MPI_ERR_OP, "MPI_Op_free");

    /* user ops: the user's function sees (in, inout, len, type); commutativity is kept */
    MPI_Op uop, uop_c;
    int commute = -1;
    CHECK_SUCCESS(MPI_Op_create(shift_op, 0, &uop));
    CHECK_SUCCESS(MPI_Op_commutative(uop, &commute));
    CHECK_EQ_INT(commute, 0);
    CHECK_SUCCESS(MPI_Op_commutative(MPI_SUM, &commute));
    CHECK_EQ_INT(commute, 1);
    int ub2[N];
    memcpy(ub2, b, sizeof ub2);
    CHECK_SUCCESS(MPI_Reduce_local(a, ub2, N, MPI_INT, uop));
    CHECK(user_calls == 1 && user_len == N && user_type == MPI_INT, "user op called %d times, len %d", user_calls,
          user_len);
    for (int i = 0; i < N; i++)
        CHECK_EQ_INT(ub2[i], 10 * a[i] + b[i]);
    CHECK_SUCCESS(MPI_Op_create_c(shift_op_c, 1, &uop_c));
    CHECK_SUCCESS(MPI_Op_commutative(uop_c, &commute));
    CHECK_EQ_INT(commute, 1);
    memcpy(ub2, b, sizeof ub2);
    CHECK_SUCCESS(MPI_Reduce_local_c(a, ub2, N, MPI_INT, uop_c));
    CHECK(big_len == N, "large-count user op got len %lld", (long long)big_len);
    CHECK_EQ_INT(ub2[4], 10 * a[4] + b[4]);
    /* a user op is applied to any type, derived too: it gets the user's type and count */
    CHECK_SUCCESS(MPI_Reduce_local(va, vb, 2, vec, uop));
    CHECK(user_calls == 2 && user_len == 2 && user_type == vec, "user op on a vector type: len %d", user_len);
    CHECK_SUCCESS(MPI_Op_free(&uop));
    CHECK(uop == MPI_OP_NULL, "MPI_Op_free did not reset the handle");
    CHECK_SUCCESS(MPI_Op_free(&uop_c));

    MPI_Type_free(&vec);
    MPI_Type_free(&pairs);
    MPI_Type_free(&mixed);
    MPI_Type_free(&uncommitted);
    MPI_Finalize();
    return 0;
}
