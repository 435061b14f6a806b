/* io_external32.c — views in the external32 representation: the bytes in the file are exactly
 * what MPI_Pack_external gives for the same data (big-endian, the standard's sizes), whatever the
 * memory type; reads convert back; collective interleaved writes too, of ints and of longs (8 bytes
 * in memory, 4 in external32: the view laid out with the file's sizes); MPI_File_get_type_extent. */
#include "io_test.h"

#include <stddef.h>

enum { M = 64 }; /* ints per rank in the interleaved part */

/* The record every rank writes at its place: mixed types in one struct type. */
struct rec {
    int i;
    double d;
    short s;
    long l;
};

static MPI_Datatype rec_type(void)
{
    int len[4] = {1, 1, 1, 1};
    MPI_Aint disp[4] = {offsetof(struct rec, i), offsetof(struct rec, d), offsetof(struct rec, s),
                        offsetof(struct rec, l)};
    MPI_Datatype types[4] = {MPI_INT, MPI_DOUBLE, MPI_SHORT, MPI_LONG}, t;
    MPI_Type_create_struct(4, len, disp, types, &t);
    MPI_Type_commit(&t);
    return t;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, np;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    MPI_File fh = io_scratch_open("ext32");
    MPI_Datatype rt = rec_type();
    MPI_Aint xrec;
    CHECK_SUCCESS(MPI_Pack_external_size("external32", 1, rt, &xrec));

    /* each rank's record at rank * xrec, through a byte view in external32 */
    CHECK_SUCCESS(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "external32", MPI_INFO_NULL));
    struct rec mine = {0x01020304 + rank, 1.5 + rank, (short)(0x0a0b + rank), 0x05060708L + rank};
    MPI_Status st;
    CHECK_SUCCESS(MPI_File_write_at(fh, rank * xrec, &mine, 1, rt, &st));
    int c;
    MPI_Get_count(&st, rt, &c);
    CHECK_EQ_INT(c, 1);
    MPI_Aint extent;
    CHECK_SUCCESS(MPI_File_get_type_extent(fh, MPI_INT, &extent));
    CHECK_EQ_INT(extent, 4);
    CHECK_SUCCESS(MPI_File_sync(fh));
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_SUCCESS(MPI_File_sync(fh));

    /* the bytes, read raw (native view of bytes), are MPI_Pack_external's */
    CHECK_SUCCESS(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL));
    int next = (rank + 1) % np;
    struct rec theirs = {0x01020304 + next, 1.5 + next, (short)(0x0a0b + next), 0x05060708L + next};
    unsigned char want[64], got[64];
    MPI_Aint pos = 0;
    CHECK_SUCCESS(MPI_Pack_external("external32", &theirs, 1, rt, want, sizeof want, &pos));
    CHECK_EQ_INT(pos, xrec);
    CHECK_SUCCESS(MPI_File_read_at(fh, next * xrec, got, (int)xrec, MPI_BYTE, &st));
    for (int i = 0; i < xrec; i++)
        CHECK(got[i] == want[i], "byte %d of rank %d's record is 0x%02x, external32 says 0x%02x", i, next, got[i],
              want[i]);
    CHECK(got[0] == 0x01 && got[3] == 0x04 + next, "the int is not big-endian: %02x %02x %02x %02x", got[0], got[1],
          got[2], got[3]);

    /* read back through the external32 view: the values, converted */
    CHECK_SUCCESS(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "external32", MPI_INFO_NULL));
    struct rec back;
    memset(&back, 0, sizeof back);
    CHECK_SUCCESS(MPI_File_read_at(fh, next * xrec, &back, 1, rt, &st));
    MPI_Get_count(&st, rt, &c);
    CHECK_EQ_INT(c, 1);
    CHECK(back.i == theirs.i && back.d == theirs.d && back.s == theirs.s && back.l == theirs.l,
          "read back (%d, %g, %d, %ld), wrote (%d, %g, %d, %ld)", back.i, back.d, back.s, back.l, theirs.i, theirs.d,
          theirs.s, theirs.l);

    /* a collective write of ints interleaved between the ranks after the records */
    MPI_Offset base = np * xrec;
    MPI_Datatype every_np, ft;
    MPI_Type_vector(M, 1, np, MPI_INT, &every_np);
    MPI_Type_create_resized(every_np, 0, (MPI_Aint)M * np * 4, &ft);
    MPI_Type_commit(&ft);
    CHECK_SUCCESS(MPI_File_set_view(fh, base + rank * 4, MPI_INT, ft, "external32", MPI_INFO_NULL));
    int v[M];
    for (int i = 0; i < M; i++)
        v[i] = i * np + rank - 7;
    CHECK_SUCCESS(MPI_File_write_all(fh, v, M, MPI_INT, &st));
    CHECK_SUCCESS(MPI_File_sync(fh));
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_SUCCESS(MPI_File_sync(fh));
    int *all = malloc(sizeof *all * M * (size_t)np);
    unsigned char *raw = malloc(4 * (size_t)M * np), *xall = malloc(4 * (size_t)M * np);
    for (int i = 0; i < M * np; i++)
        all[i] = i - 7;
    pos = 0;
    CHECK_SUCCESS(MPI_Pack_external("external32", all, M * np, MPI_INT, xall, 4 * (MPI_Aint)M * np, &pos));
    CHECK_SUCCESS(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL));
    CHECK_SUCCESS(MPI_File_read_at(fh, base, raw, 4 * M * np, MPI_BYTE, &st));
    CHECK(memcmp(raw, xall, 4 * (size_t)M * np) == 0, "the interleaved ints are not their external32 bytes");
    /* and read back collectively through the view */
    CHECK_SUCCESS(MPI_File_set_view(fh, base + rank * 4, MPI_INT, ft, "external32", MPI_INFO_NULL));
    int w[M];
    CHECK_SUCCESS(MPI_File_read_at_all(fh, 0, w, M, MPI_INT, &st));
    for (int i = 0; i < M; i++)
        CHECK(w[i] == v[i], "collective read %d: %d, wrote %d", i, w[i], v[i]);

    /* a view of longs, which take 4 bytes in external32 (8 in memory here): interleaved in
     * the file at 4-byte steps, the filetype's byte extent given in the file's terms */
    MPI_Offset lbase = base + 4 * (MPI_Offset)M * np;
    MPI_Datatype lvec, lft;
    MPI_Type_vector(M, 1, np, MPI_LONG, &lvec);
    MPI_Type_create_resized(lvec, 0, (MPI_Aint)M * np * 4, &lft);
    MPI_Type_commit(&lft);
    CHECK_SUCCESS(MPI_File_set_view(fh, lbase + rank * 4, MPI_LONG, lft, "external32", MPI_INFO_NULL));
    CHECK_SUCCESS(MPI_File_get_type_extent(fh, MPI_LONG, &extent));
    CHECK_EQ_INT(extent, 4);
    CHECK_SUCCESS(MPI_File_get_type_extent(fh, lvec, &extent));
    CHECK_EQ_INT(extent, ((MPI_Aint)(M - 1) * np + 1) * 4);
    long lv[M], lw[M];
    for (int i = 0; i < M; i++)
        lv[i] = (i % 2 ? -1L : 1L) * (i * np + rank) - 11;
    CHECK_SUCCESS(MPI_File_write_all(fh, lv, M, MPI_LONG, &st));
    MPI_Get_count(&st, MPI_LONG, &c);
    CHECK_EQ_INT(c, M);
    CHECK_SUCCESS(MPI_File_sync(fh));
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_SUCCESS(MPI_File_sync(fh));
    long *lall = malloc(sizeof *lall * M * (size_t)np);
    for (int k = 0; k < M * np; k++)
        lall[k] = ((k / np) % 2 ? -1L : 1L) * k - 11;
    pos = 0;
    CHECK_SUCCESS(MPI_Pack_external("external32", lall, M * np, MPI_LONG, xall, 4 * (MPI_Aint)M * np, &pos));
    CHECK_EQ_INT(pos, 4 * M * np);
    CHECK_SUCCESS(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL));
    CHECK_SUCCESS(MPI_File_read_at(fh, lbase, raw, 4 * M * np, MPI_BYTE, &st));
    CHECK(memcmp(raw, xall, 4 * (size_t)M * np) == 0, "the interleaved longs are not their external32 bytes");
    CHECK_SUCCESS(MPI_File_set_view(fh, lbase + rank * 4, MPI_LONG, lft, "external32", MPI_INFO_NULL));
    CHECK_SUCCESS(MPI_File_read_at_all(fh, 0, lw, M, MPI_LONG, &st));
    for (int i = 0; i < M; i++)
        CHECK(lw[i] == lv[i], "long %d read back %ld, wrote %ld", i, lw[i], lv[i]);
    free(lall);
    MPI_Type_free(&lft);
    MPI_Type_free(&lvec);
    MPI_Type_free(&ft);
    MPI_Type_free(&every_np);
    MPI_Type_free(&rt);
    free(all);
    free(raw);
    free(xall);
    CHECK_SUCCESS(MPI_File_close(&fh));
    MPI_Finalize();
    return 0;
}
