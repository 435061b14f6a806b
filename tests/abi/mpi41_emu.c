/* mpi41_emu.c — MPI-4.1 procedures through the standard ABI on every backend (issue 8): MPICH
 * 4.0.2 and Open MPI 4.1.4 lack them, and the shim emulates those it can emulate exactly
 * (abi/backend_emu.c): MPI_Status_get/set_source, _tag, _error, MPI_Request_get_status_all and
 * MPI_Type_get_value_index, with asserted results (MPI_Request_get_status_any/_some: test
 * req_status_multi). MPI_Get_hw_resource_info, which the shim cannot emulate, either works
 * (Switchyard) or is MPI_ERR_UNSUPPORTED_OPERATION with a message naming it and the backend. */
#include "check.h"

/* the library is Switchyard's shim over another MPI */
static int over_backend(void)
{
    char v[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0;
    v[0] = '\0';
    MPI_Get_library_version(v, &len);
    return strstr(v, "shim over:") != NULL;
}

int main(int argc, char **argv)
{
    int me, np, v;
    MPI_Status st;
    CHECK_SUCCESS(MPI_Init(&argc, &argv));
    CHECK_SUCCESS(MPI_Comm_rank(MPI_COMM_WORLD, &me));
    CHECK_SUCCESS(MPI_Comm_size(MPI_COMM_WORLD, &np));
    int right = (me + 1) % np, left = (me + np - 1) % np;

    /* MPI_Status_get_*: the fields of a status from a real receive */
    int out = 100 + me, in = -1;
    CHECK_SUCCESS(MPI_Sendrecv(&out, 1, MPI_INT, right, 40 + me, &in, 1, MPI_INT, left, 40 + left, MPI_COMM_WORLD, &st));
    CHECK_EQ_INT(in, 100 + left);
    CHECK_SUCCESS(MPI_Status_get_source(&st, &v));
    CHECK_EQ_INT(v, left);
    CHECK_SUCCESS(MPI_Status_get_tag(&st, &v));
    CHECK_EQ_INT(v, 40 + left);
    /* MPI_Status_set_*: what is set is what MPI_Status_get_* and the fields say, the count stays */
    CHECK_SUCCESS(MPI_Status_set_source(&st, 5));
    CHECK_SUCCESS(MPI_Status_set_tag(&st, 77));
    CHECK_SUCCESS(MPI_Status_set_error(&st, MPI_ERR_TAG));
    CHECK_SUCCESS(MPI_Status_get_source(&st, &v));
    CHECK_EQ_INT(v, 5);
    CHECK_SUCCESS(MPI_Status_get_tag(&st, &v));
    CHECK_EQ_INT(v, 77);
    CHECK_SUCCESS(MPI_Status_get_error(&st, &v));
    CHECK_EQ_INT(v, MPI_ERR_TAG);
    CHECK_EQ_INT(st.MPI_SOURCE, 5);
    CHECK_EQ_INT(st.MPI_TAG, 77);
    CHECK_EQ_INT(st.MPI_ERROR, MPI_ERR_TAG);
    CHECK_SUCCESS(MPI_Get_count(&st, MPI_INT, &v));
    CHECK_EQ_INT(v, 1);
    /* a status made from nothing, as a generalized request's query function would */
    MPI_Status mine;
    CHECK_SUCCESS(MPI_Status_set_source(&mine, MPI_PROC_NULL));
    CHECK_SUCCESS(MPI_Status_set_tag(&mine, 0));
    CHECK_SUCCESS(MPI_Status_set_error(&mine, MPI_SUCCESS));
    CHECK_SUCCESS(MPI_Status_get_source(&mine, &v));
    CHECK_EQ_INT(v, MPI_PROC_NULL);
    CHECK_SUCCESS(MPI_Status_get_tag(&mine, &v));
    CHECK_EQ_INT(v, 0);
    CHECK_SUCCESS(MPI_Status_get_error(&mine, &v));
    CHECK_EQ_INT(v, MPI_SUCCESS);

    /* MPI_Request_get_status_all: a receive not yet matched makes flag false; once its message
     * came, flag is true and every status is written (a null request and an inactive persistent
     * request: empty statuses), and no request is freed */
    int rbuf = -1, sbuf = 200 + me, pbuf = 0, flag = 1;
    MPI_Request req[4];
    MPI_Status sts[4];
    CHECK_SUCCESS(MPI_Irecv(&rbuf, 1, MPI_INT, left, 9, MPI_COMM_WORLD, &req[0]));
    req[2] = MPI_REQUEST_NULL;
    CHECK_SUCCESS(MPI_Send_init(&pbuf, 1, MPI_INT, right, 10, MPI_COMM_WORLD, &req[3]));
    req[1] = MPI_REQUEST_NULL;
    CHECK_SUCCESS(MPI_Request_get_status_all(1, req, &flag, sts));
    CHECK(!flag, "MPI_Request_get_status_all: flag is true before any message was sent");
    CHECK_SUCCESS(MPI_Barrier(MPI_COMM_WORLD)); /* every receive is posted, none matched */
    CHECK_SUCCESS(MPI_Isend(&sbuf, 1, MPI_INT, right, 9, MPI_COMM_WORLD, &req[1]));
    for (int i = 0; i < 4; i++)
        sts[i].MPI_SOURCE = sts[i].MPI_TAG = -99;
    for (long spins = 0; !flag; spins++) {
        CHECK(spins < 100000000, "MPI_Request_get_status_all never saw the requests complete");
        CHECK_SUCCESS(MPI_Request_get_status_all(4, req, &flag, sts));
    }
    CHECK_EQ_INT(rbuf, 200 + left);
    CHECK_EQ_INT(sts[0].MPI_SOURCE, left);
    CHECK_EQ_INT(sts[0].MPI_TAG, 9);
    CHECK_SUCCESS(MPI_Get_count(&sts[0], MPI_INT, &v));
    CHECK_EQ_INT(v, 1);
    for (int i = 2; i < 4; i++) { /* empty statuses */
        CHECK_EQ_INT(sts[i].MPI_SOURCE, MPI_ANY_SOURCE);
        CHECK_EQ_INT(sts[i].MPI_TAG, MPI_ANY_TAG);
        CHECK_SUCCESS(MPI_Get_count(&sts[i], MPI_INT, &v));
        CHECK_EQ_INT(v, 0);
    }
    CHECK(req[0] != MPI_REQUEST_NULL && req[1] != MPI_REQUEST_NULL && req[3] != MPI_REQUEST_NULL,
          "MPI_Request_get_status_all freed a request");
    CHECK_SUCCESS(MPI_Request_get_status_all(4, req, &flag, MPI_STATUSES_IGNORE));
    CHECK(flag, "MPI_Request_get_status_all: the requests are no longer complete");
    CHECK_SUCCESS(MPI_Request_get_status_all(0, NULL, &flag, MPI_STATUSES_IGNORE));
    CHECK(flag, "MPI_Request_get_status_all of no request: flag is false");
    CHECK_SUCCESS(MPI_Waitall(2, req, MPI_STATUSES_IGNORE));
    CHECK(req[0] == MPI_REQUEST_NULL && req[1] == MPI_REQUEST_NULL, "MPI_Waitall did not free the requests");
    CHECK_SUCCESS(MPI_Request_free(&req[3]));

    /* MPI_Type_get_value_index: the predefined pair types, MPI_DATATYPE_NULL for other pairs */
    static const struct { MPI_Datatype value, index, pair; } pairs[] = {
        {MPI_FLOAT, MPI_INT, MPI_FLOAT_INT}, {MPI_DOUBLE, MPI_INT, MPI_DOUBLE_INT},
        {MPI_LONG, MPI_INT, MPI_LONG_INT}, {MPI_SHORT, MPI_INT, MPI_SHORT_INT},
        {MPI_LONG_DOUBLE, MPI_INT, MPI_LONG_DOUBLE_INT}, {MPI_INT, MPI_INT, MPI_2INT},
        {MPI_REAL, MPI_REAL, MPI_2REAL}, {MPI_DOUBLE_PRECISION, MPI_DOUBLE_PRECISION, MPI_2DOUBLE_PRECISION},
        {MPI_INTEGER, MPI_INTEGER, MPI_2INTEGER},
        {MPI_INT, MPI_FLOAT, MPI_DATATYPE_NULL}, {MPI_FLOAT, MPI_LONG, MPI_DATATYPE_NULL},
        {MPI_CHAR, MPI_INT, MPI_DATATYPE_NULL}, {MPI_REAL, MPI_INTEGER, MPI_DATATYPE_NULL},
    };
    MPI_Datatype pt;
    for (size_t i = 0; i < sizeof pairs / sizeof *pairs; i++) {
        pt = MPI_BYTE;
        CHECK_SUCCESS(MPI_Type_get_value_index(pairs[i].value, pairs[i].index, &pt));
        CHECK(pt == pairs[i].pair, "MPI_Type_get_value_index: pair %zu gave %ld", i, (long)(intptr_t)pt);
    }
    MPI_Datatype fdup;
    CHECK_SUCCESS(MPI_Type_dup(MPI_FLOAT, &fdup));
    CHECK_SUCCESS(MPI_Type_get_value_index(fdup, MPI_INT, &pt));
    CHECK(pt == MPI_DATATYPE_NULL, "MPI_Type_get_value_index of a duplicate of MPI_FLOAT: not MPI_DATATYPE_NULL");
    CHECK_SUCCESS(MPI_Type_free(&fdup));
    /* the pair type it gives works in MPI_MAXLOC */
    struct { double v; int i; } loc = {(double)((me * 7) % np), me}, res = {-1, -1};
    CHECK_SUCCESS(MPI_Type_get_value_index(MPI_DOUBLE, MPI_INT, &pt));
    CHECK_SUCCESS(MPI_Allreduce(&loc, &res, 1, pt, MPI_MAXLOC, MPI_COMM_WORLD));
    int best = 0;
    for (int r = 0; r < np; r++)
        if ((r * 7) % np > (best * 7) % np)
            best = r;
    CHECK(res.v == (double)((best * 7) % np) && res.i == best, "MAXLOC with the pair type: (%g, %d)", res.v, res.i);

    /* MPI_Get_hw_resource_info: no emulation, so over a backend that lacks it, an error naming
     * the procedure and the backend */
    CHECK_SUCCESS(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    MPI_Info hw = MPI_INFO_NULL;
    int rc = MPI_Get_hw_resource_info(&hw);
    if (rc == MPI_SUCCESS) { /* Switchyard, or a backend that has it */
        CHECK(hw != MPI_INFO_NULL, "MPI_Get_hw_resource_info gave MPI_INFO_NULL");
        CHECK_SUCCESS(MPI_Info_free(&hw));
    } else {
        char msg[MPI_MAX_ERROR_STRING];
        int len = 0;
        CHECK(over_backend(), "MPI_Get_hw_resource_info failed on Switchyard's runtime");
        CHECK_EQ_INT(error_class(rc), MPI_ERR_UNSUPPORTED_OPERATION);
        MPI_Error_string(rc, msg, &len);
        CHECK(strstr(msg, "MPI_Get_hw_resource_info: not implemented by the backend library") &&
              strstr(msg, "SWITCHYARD_ABI_BACKEND="), "the error does not name the procedure and the backend: %s", msg);
    }

    CHECK(MPI_Finalize() == MPI_SUCCESS, "MPI_Finalize failed");
    if (me == 0)
        printf("mpi41_emu: %d processes ok\n", np);
    return 0;
}
