/* type_pack.c — MPI_Pack/MPI_Unpack (positions, truncation, packed messages between ranks)
 * and the external32 representation checked against known big-endian byte images. */
#include <mpi.h>
#include <complex.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static void check_bytes(const unsigned char *got, const unsigned char *want, int n, const char *what)
{
    for (int i = 0; i < n; i++)
        CHECK(got[i] == want[i], "%s: byte %d = 0x%02x, expected 0x%02x", what, i, got[i], want[i]);
}

int main(int argc, char **argv)
{
    int me, np, pos, sz;
    MPI_Datatype vec;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);

    /* native: a vector of ints then a double, unpacked into the transposed places */
    int a[9], b[9];
    double x = 6.25, y = 0;
    unsigned char buf[64];
    for (int i = 0; i < 9; i++)
        a[i] = i * 11;
    MPI_Type_vector(3, 1, 3, MPI_INT, &vec); /* a column of a 3x3 matrix */
    MPI_Type_commit(&vec);
    CHECK_SUCCESS(MPI_Pack_size(2, vec, MPI_COMM_WORLD, &sz));
    CHECK_EQ_INT(sz, 24);
    pos = 0;
    CHECK_SUCCESS(MPI_Pack(a, 1, vec, buf, sizeof buf, &pos, MPI_COMM_WORLD));
    CHECK_EQ_INT(pos, 12);
    CHECK_SUCCESS(MPI_Pack(&x, 1, MPI_DOUBLE, buf, sizeof buf, &pos, MPI_COMM_WORLD));
    CHECK_EQ_INT(pos, 20);
    int col[3];
    memcpy(col, buf, 12);
    CHECK(col[0] == 0 && col[1] == 33 && col[2] == 66, "packed column %d %d %d", col[0], col[1], col[2]);
    memset(b, -1, sizeof b);
    pos = 0;
    CHECK_SUCCESS(MPI_Unpack(buf, 20, &pos, b + 1, 1, vec, MPI_COMM_WORLD));
    CHECK_SUCCESS(MPI_Unpack(buf, 20, &pos, &y, 1, MPI_DOUBLE, MPI_COMM_WORLD));
    CHECK_EQ_INT(pos, 20);
    CHECK(b[1] == 0 && b[4] == 33 && b[7] == 66 && b[0] == -1 && b[2] == -1 && y == 6.25, "unpacked wrongly");
    /* overflow and bad positions */
    pos = 10;
    CHECK_ERR(MPI_Pack(a, 1, vec, buf, 20, &pos, MPI_COMM_WORLD), MPI_ERR_TRUNCATE, "too small");
    CHECK_EQ_INT(pos, 10);
    pos = 12;
    CHECK_ERR(MPI_Unpack(buf, 20, &pos, b, 1, vec, MPI_COMM_WORLD), MPI_ERR_TRUNCATE, NULL);
    pos = -1;
    CHECK_ERR(MPI_Pack(a, 1, MPI_INT, buf, 20, &pos, MPI_COMM_WORLD), MPI_ERR_ARG, NULL);
    pos = 0;
    CHECK_ERR(MPI_Pack(a, -1, MPI_INT, buf, 20, &pos, MPI_COMM_WORLD), MPI_ERR_COUNT, NULL);
    /* no position at all: an error naming it, not a read through NULL */
    CHECK_ERR(MPI_Pack(a, 1, MPI_INT, buf, 20, NULL, MPI_COMM_WORLD), MPI_ERR_ARG, "position");
    CHECK_ERR(MPI_Unpack(buf, 20, NULL, b, 1, MPI_INT, MPI_COMM_WORLD), MPI_ERR_ARG, "position");

    /* a packed message between ranks, received as MPI_PACKED and as the typed layout */
    int peer_to = (me + 1) % np, peer_from = (me + np - 1) % np;
    pos = 0;
    MPI_Pack(a, 1, vec, buf, sizeof buf, &pos, MPI_COMM_WORLD);
    MPI_Pack(&x, 1, MPI_DOUBLE, buf, sizeof buf, &pos, MPI_COMM_WORLD);
    unsigned char rbuf[64];
    MPI_Status st;
    CHECK_SUCCESS(MPI_Sendrecv(buf, pos, MPI_PACKED, peer_to, 1, rbuf, 64, MPI_PACKED, peer_from, 1,
                               MPI_COMM_WORLD, &st));
    int cnt;
    MPI_Get_count(&st, MPI_PACKED, &cnt);
    CHECK_EQ_INT(cnt, 20);
    pos = 0;
    memset(b, -1, sizeof b);
    MPI_Unpack(rbuf, cnt, &pos, b, 1, vec, MPI_COMM_WORLD);
    MPI_Unpack(rbuf, cnt, &pos, &y, 1, MPI_DOUBLE, MPI_COMM_WORLD);
    CHECK(b[0] == 0 && b[3] == 33 && b[6] == 66 && y == 6.25, "packed message unpacked wrongly");
    CHECK_SUCCESS(MPI_Sendrecv(buf, 12, MPI_PACKED, peer_to, 2, b, 3, MPI_INT, peer_from, 2, MPI_COMM_WORLD, &st));
    CHECK(b[0] == 0 && b[1] == 33 && b[2] == 66, "MPI_PACKED received as ints");

    /* external32: big-endian, standard sizes */
    int iv[2] = {0x01020304, -2};
    double dv = 1.0;
    long lv = -3;
    short sv = 0x0506;
    float _Complex cv = 1.0f + 2.0f * _Complex_I;
    unsigned char ext[64];
    MPI_Aint xpos = 0, xsz;
    CHECK_SUCCESS(MPI_Pack_external_size("external32", 2, MPI_INT, &xsz));
    CHECK_EQ_INT(xsz, 8);
    CHECK_SUCCESS(MPI_Pack_external_size("external32", 1, MPI_LONG, &xsz));
    CHECK_EQ_INT(xsz, 4);
    CHECK_SUCCESS(MPI_Pack_external("external32", iv, 2, MPI_INT, ext, sizeof ext, &xpos));
    CHECK_SUCCESS(MPI_Pack_external("external32", &dv, 1, MPI_DOUBLE, ext, sizeof ext, &xpos));
    CHECK_SUCCESS(MPI_Pack_external("external32", &lv, 1, MPI_LONG, ext, sizeof ext, &xpos));
    CHECK_SUCCESS(MPI_Pack_external("external32", &sv, 1, MPI_SHORT, ext, sizeof ext, &xpos));
    CHECK_SUCCESS(MPI_Pack_external("external32", &cv, 1, MPI_C_FLOAT_COMPLEX, ext, sizeof ext, &xpos));
    CHECK_EQ_INT(xpos, 8 + 8 + 4 + 2 + 8);
    static const unsigned char want[] = {1, 2, 3, 4, 0xff, 0xff, 0xff, 0xfe, 0x3f, 0xf0, 0, 0, 0, 0, 0, 0,
                                         0xff, 0xff, 0xff, 0xfd, 5, 6, 0x3f, 0x80, 0, 0, 0x40, 0, 0, 0};
    check_bytes(ext, want, (int)sizeof want, "external32");
    int iv2[2];
    double dv2;
    long lv2;
    short sv2;
    float _Complex cv2;
    xpos = 0;
    CHECK_SUCCESS(MPI_Unpack_external("external32", ext, 30, &xpos, iv2, 2, MPI_INT));
    CHECK_SUCCESS(MPI_Unpack_external("external32", ext, 30, &xpos, &dv2, 1, MPI_DOUBLE));
    CHECK_SUCCESS(MPI_Unpack_external("external32", ext, 30, &xpos, &lv2, 1, MPI_LONG));
    CHECK_SUCCESS(MPI_Unpack_external("external32", ext, 30, &xpos, &sv2, 1, MPI_SHORT));
    CHECK_SUCCESS(MPI_Unpack_external("external32", ext, 30, &xpos, &cv2, 1, MPI_C_FLOAT_COMPLEX));
    CHECK(iv2[0] == iv[0] && iv2[1] == -2 && dv2 == 1.0 && lv2 == -3 && sv2 == sv && cv2 == cv,
          "external32 round trip");
    CHECK_ERR(MPI_Unpack_external("external32", ext, 30, &xpos, &sv2, 1, MPI_SHORT), MPI_ERR_TRUNCATE, NULL);
    CHECK_ERR(MPI_Pack_external_size("native", 1, MPI_INT, &xsz), MPI_ERR_UNSUPPORTED_DATAREP, NULL);

    /* external32 of a derived type: {short, int} struct with a hole, and the vector */
    struct { short s; int i; } rec = {0x0102, 0x03040506};
    MPI_Datatype st2;
    MPI_Type_create_struct(2, (int[]){1, 1}, (MPI_Aint[]){0, 4}, (MPI_Datatype[]){MPI_SHORT, MPI_INT}, &st2);
    MPI_Type_commit(&st2);
    CHECK_SUCCESS(MPI_Pack_external_size("external32", 1, st2, &xsz));
    CHECK_EQ_INT(xsz, 6);
    xpos = 0;
    CHECK_SUCCESS(MPI_Pack_external("external32", &rec, 1, st2, ext, sizeof ext, &xpos));
    CHECK_SUCCESS(MPI_Pack_external("external32", a, 1, vec, ext, sizeof ext, &xpos));
    static const unsigned char want2[] = {1, 2, 3, 4, 5, 6, 0, 0, 0, 0, 0, 0, 0, 33, 0, 0, 0, 66};
    check_bytes(ext, want2, (int)sizeof want2, "external32 derived");
    rec.s = 0;
    rec.i = 0;
    memset(b, 0, sizeof b);
    xpos = 0;
    MPI_Unpack_external("external32", ext, 18, &xpos, &rec, 1, st2);
    MPI_Unpack_external("external32", ext, 18, &xpos, b, 1, vec);
    CHECK(rec.s == 0x0102 && rec.i == 0x03040506 && b[3] == 33 && b[6] == 66 && b[1] == 0,
          "external32 derived round trip");
    MPI_Type_free(&st2);
    MPI_Type_free(&vec);

    /* value-index pair types (MPI-4.1) */
    MPI_Datatype pair;
    CHECK_SUCCESS(MPI_Type_get_value_index(MPI_DOUBLE, MPI_INT, &pair));
    CHECK(pair == MPI_DOUBLE_INT, "MPI_Type_get_value_index(MPI_DOUBLE, MPI_INT)");
    CHECK_SUCCESS(MPI_Type_get_value_index(MPI_INT, MPI_INT, &pair));
    CHECK(pair == MPI_2INT, "MPI_Type_get_value_index(MPI_INT, MPI_INT)");
    CHECK_SUCCESS(MPI_Type_get_value_index(MPI_CHAR, MPI_INT, &pair));
    CHECK(pair == MPI_DATATYPE_NULL, "MPI_Type_get_value_index(MPI_CHAR, MPI_INT)");

    MPI_Finalize();
    return 0;
}
