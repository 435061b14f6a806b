/* large_count.c — the large-count (_c) procedures through the standard ABI, on any backend (issue 8):
 * point-to-point with MPI_Get_count_c, MPI_Bcast_c, v-collectives with MPI_Count counts and MPI_Aint
 * displacements, datatype sizes and extents. Over Open MPI 4.1, which has no _c procedures, the shim
 * emulates them with the int ones: a count above INT_MAX is MPI_ERR_VALUE_TOO_LARGE naming the
 * procedure, the argument and the value; MPI_Op_create_c stays unsupported. */
#include "check.h"

#include <limits.h>

/* the library is Switchyard's shim over Open MPI */
static int over_openmpi(void)
{
    char v[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0;
    v[0] = '\0';
    MPI_Get_library_version(v, &len);
    return strstr(v, "shim over:") && strstr(v, "Open MPI");
}

static void op_c(void *in, void *inout, MPI_Count *len, MPI_Datatype *dt)
{
    (void)in, (void)inout, (void)len, (void)dt;
}

int main(int argc, char **argv)
{
    int me, np;
    CHECK_SUCCESS(MPI_Init(&argc, &argv));
    CHECK_SUCCESS(MPI_Comm_rank(MPI_COMM_WORLD, &me));
    CHECK_SUCCESS(MPI_Comm_size(MPI_COMM_WORLD, &np));

    /* point-to-point: a ring of 5 doubles, and their count */
    double out[5], in[5] = {0};
    for (int i = 0; i < 5; i++)
        out[i] = 10.0 * me + i;
    MPI_Status st;
    CHECK_SUCCESS(MPI_Sendrecv_c(out, 5, MPI_DOUBLE, (me + 1) % np, 7, in, 5, MPI_DOUBLE, (me + np - 1) % np, 7,
                                 MPI_COMM_WORLD, &st));
    int from = (me + np - 1) % np;
    for (int i = 0; i < 5; i++)
        CHECK(in[i] == 10.0 * from + i, "MPI_Sendrecv_c: in[%d] = %g", i, in[i]);
    MPI_Count n = -1;
    CHECK_SUCCESS(MPI_Get_count_c(&st, MPI_DOUBLE, &n));
    CHECK_EQ_INT(n, 5);
    if (np > 1) {
        if (me == 0) {
            CHECK_SUCCESS(MPI_Send_c(out, 3, MPI_DOUBLE, 1, 8, MPI_COMM_WORLD));
        } else if (me == 1) {
            CHECK_SUCCESS(MPI_Recv_c(in, 5, MPI_DOUBLE, 0, 8, MPI_COMM_WORLD, &st));
            n = -1;
            CHECK_SUCCESS(MPI_Get_count_c(&st, MPI_DOUBLE, &n));
            CHECK_EQ_INT(n, 3);
            CHECK_SUCCESS(MPI_Get_elements_c(&st, MPI_DOUBLE, &n));
            CHECK_EQ_INT(n, 3);
            CHECK(in[2] == 2.0, "MPI_Recv_c: in[2] = %g", in[2]);
        }
    }

    /* datatypes */
    MPI_Count size = -1, lb = -1, extent = -1;
    CHECK_SUCCESS(MPI_Type_size_c(MPI_DOUBLE, &size));
    CHECK_EQ_INT(size, 8);
    MPI_Datatype vec;
    CHECK_SUCCESS(MPI_Type_vector_c(3, 2, 4, MPI_INT, &vec));
    CHECK_SUCCESS(MPI_Type_commit(&vec));
    CHECK_SUCCESS(MPI_Type_size_c(vec, &size));
    CHECK_EQ_INT(size, 24);
    CHECK_SUCCESS(MPI_Type_get_extent_c(vec, &lb, &extent));
    CHECK_EQ_INT(lb, 0);
    CHECK_EQ_INT(extent, 40);

    /* collectives */
    int b[4] = {0};
    if (me == 0)
        b[0] = 1, b[1] = 2, b[2] = 3, b[3] = 4;
    CHECK_SUCCESS(MPI_Bcast_c(b, 4, MPI_INT, 0, MPI_COMM_WORLD));
    CHECK(b[0] == 1 && b[3] == 4, "MPI_Bcast_c: %d %d", b[0], b[3]);
    long v = me + 1, sum = 0;
    CHECK_SUCCESS(MPI_Allreduce_c(&v, &sum, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD));
    CHECK_EQ_INT(sum, np * (np + 1) / 2);

    /* rank k gives k + 1 ints, gathered at root 1 (or 0) in reverse order */
    int root = np > 1 ? 1 : 0, total = np * (np + 1) / 2;
    MPI_Count *cnt = malloc(sizeof *cnt * np);
    MPI_Aint *dsp = malloc(sizeof *dsp * np);
    int *all = malloc(sizeof *all * total), mine[64];
    for (int k = 0, at = total; k < np; k++)
        cnt[k] = k + 1, at -= k + 1, dsp[k] = at;
    for (int i = 0; i <= me; i++)
        mine[i] = 100 * me + i;
    for (int i = 0; i < total; i++)
        all[i] = -1;
    CHECK_SUCCESS(MPI_Gatherv_c(mine, me + 1, MPI_INT, all, me == root ? cnt : NULL, me == root ? dsp : NULL,
                                MPI_INT, root, MPI_COMM_WORLD));
    if (me == root)
        for (int k = 0; k < np; k++)
            for (int i = 0; i <= k; i++)
                CHECK(all[dsp[k] + i] == 100 * k + i, "MPI_Gatherv_c: from %d [%d] = %d", k, i, all[dsp[k] + i]);
    for (int i = 0; i < total; i++)
        all[i] = -1;
    CHECK_SUCCESS(MPI_Allgatherv_c(mine, me + 1, MPI_INT, all, cnt, dsp, MPI_INT, MPI_COMM_WORLD));
    for (int k = 0; k < np; k++)
        for (int i = 0; i <= k; i++)
            CHECK(all[dsp[k] + i] == 100 * k + i, "MPI_Allgatherv_c: from %d [%d] = %d", k, i, all[dsp[k] + i]);
    /* and back: root 0 scatters them */
    int got[64] = {0};
    CHECK_SUCCESS(MPI_Scatterv_c(all, cnt, dsp, MPI_INT, got, me + 1, MPI_INT, 0, MPI_COMM_WORLD));
    for (int i = 0; i <= me; i++)
        CHECK_EQ_INT(got[i], 100 * me + i);

    if (over_openmpi()) { /* emulated: counts that do not fit in an int are refused */
        CHECK_SUCCESS(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
        MPI_Count big = (MPI_Count)INT_MAX + 1;
        CHECK_ERR(MPI_Send_c(out, big, MPI_DOUBLE, me, 9, MPI_COMM_WORLD), MPI_ERR_VALUE_TOO_LARGE, NULL);
        char msg[MPI_MAX_ERROR_STRING];
        int len = 0, rc = MPI_Send_c(out, big, MPI_DOUBLE, me, 9, MPI_COMM_WORLD);
        CHECK_SUCCESS(MPI_Error_string(rc, msg, &len));
        CHECK(strstr(msg, "MPI_Send_c") && strstr(msg, "'count'") && strstr(msg, "2147483648"), "message: %s", msg);
        MPI_Count bl[2] = {1, big};
        MPI_Aint ds[2] = {0, 64};
        MPI_Datatype t = MPI_DATATYPE_NULL;
        rc = MPI_Type_create_hindexed_c(2, bl, ds, MPI_INT, &t);
        CHECK_ERR(rc, MPI_ERR_VALUE_TOO_LARGE, NULL);
        CHECK_SUCCESS(MPI_Error_string(rc, msg, &len));
        CHECK(strstr(msg, "MPI_Type_create_hindexed_c") && strstr(msg, "array_of_blocklengths[1]") &&
                  strstr(msg, "2147483648"), "message: %s", msg);
        CHECK(t == MPI_DATATYPE_NULL, "MPI_Type_create_hindexed_c made a type");
        /* not exact: the user function would get an int count */
        MPI_Op op = MPI_OP_NULL;
        rc = MPI_Op_create_c(op_c, 1, &op);
        CHECK_ERR(rc, MPI_ERR_UNSUPPORTED_OPERATION, NULL);
        CHECK_SUCCESS(MPI_Error_string(rc, msg, &len));
        CHECK(strstr(msg, "MPI_Op_create_c") && strstr(msg, "libmpi"), "message: %s", msg);
        /* the same call with counts that fit works */
        MPI_Count small[2] = {1, 2};
        CHECK_SUCCESS(MPI_Type_create_hindexed_c(2, small, ds, MPI_INT, &t));
        CHECK_SUCCESS(MPI_Type_size_c(t, &size));
        CHECK_EQ_INT(size, 12);
        CHECK_SUCCESS(MPI_Type_free(&t));
    }

    free(cnt), free(dsp), free(all);
    CHECK_SUCCESS(MPI_Type_free(&vec));
    int rc = MPI_Finalize(); /* not CHECK_SUCCESS: Open MPI allows no MPI_Error_class after it */
    CHECK_EQ_INT(rc, MPI_SUCCESS);
    return 0;
}
