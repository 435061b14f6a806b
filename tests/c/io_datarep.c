/* io_datarep.c — MPI_Register_datarep: a user representation storing each int as 8 big-endian
 * bytes, its views laid out with the extent function's sizes, collective and independent
 * accesses converted by its functions (in chunks, with positions), MPI_CONVERSION_FN_NULL, the
 * large-count form, and the errors (a name taken, an unknown one, a failing extent function). */
#include "io_test.h"

#include <stdint.h>

enum { M = 40 }; /* ints per rank */

/* What the callbacks saw (extra_state points here). */
struct seen {
    int writes, reads, extents, bad_position;
    int strict; /* the extent function fails for MPI_SHORT (not before: MPICH and Open MPI call it
                   for several types while registering) */
};

static int64_t be64_get(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v = v << 8 | p[i];
    return (int64_t)v;
}

static void be64_put(unsigned char *p, int64_t x)
{
    for (int i = 7; i >= 0; i--, x = (int64_t)((uint64_t)x >> 8))
        p[i] = (unsigned char)(x & 0xff);
}

/* MPI_INT takes 8 bytes, other types their memory extent; conversions store only MPI_INT. */
static int wide_extent(MPI_Datatype type, MPI_Aint *extent, void *extra)
{
    struct seen *s = extra;
    MPI_Aint lb;
    s->extents++;
    if (type == MPI_INT) {
        *extent = 8;
        return MPI_SUCCESS;
    }
    if (s->strict && type == MPI_SHORT)
        return MPI_ERR_CONVERSION;
    return MPI_Type_get_extent(type, &lb, extent);
}

static int wide_write(void *userbuf, MPI_Datatype type, int count, void *filebuf, MPI_Offset position, void *extra)
{
    struct seen *s = extra;
    s->writes++;
    if (type != MPI_INT)
        return MPI_ERR_TYPE;
    if (position < 0)
        s->bad_position++;
    for (int i = 0; i < count; i++)
        be64_put((unsigned char *)filebuf + 8 * i, ((int *)userbuf)[position + i]);
    return MPI_SUCCESS;
}

static int wide_read(void *userbuf, MPI_Datatype type, int count, void *filebuf, MPI_Offset position, void *extra)
{
    struct seen *s = extra;
    s->reads++;
    if (type != MPI_INT)
        return MPI_ERR_TYPE;
    for (int i = 0; i < count; i++)
        ((int *)userbuf)[position + i] = (int)be64_get((unsigned char *)filebuf + 8 * i);
    return MPI_SUCCESS;
}

static int wide_write_c(void *userbuf, MPI_Datatype type, MPI_Count count, void *filebuf, MPI_Offset position,
                        void *extra)
{
    return count > 1000 ? MPI_ERR_COUNT : wide_write(userbuf, type, (int)count, filebuf, position, extra);
}

static int wide_read_c(void *userbuf, MPI_Datatype type, MPI_Count count, void *filebuf, MPI_Offset position,
                       void *extra)
{
    return count > 1000 ? MPI_ERR_COUNT : wide_read(userbuf, type, (int)count, filebuf, position, extra);
}

/* The same size as in memory: no conversion needed. */
static int same_extent(MPI_Datatype type, MPI_Aint *extent, void *extra)
{
    (void)extra;
    MPI_Aint lb;
    return MPI_Type_get_extent(type, &lb, extent);
}

/* rank's ints, interleaved with the other ranks' through a vector view of representation rep
 * at disp: written collectively, checked raw (8 big-endian bytes each), read back. */
static void interleaved(MPI_File fh, const char *rep, MPI_Offset disp, int rank, int np, struct seen *s)
{
    MPI_Datatype vec, ft;
    MPI_Type_vector(M, 1, np, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    MPI_Type_dup(vec, &ft); /* a DUP in the tree too */
    MPI_Type_commit(&ft);
    CHECK_SUCCESS(MPI_File_set_view(fh, disp + 8 * rank, MPI_INT, ft, rep, MPI_INFO_NULL));
    MPI_Aint x;
    CHECK_SUCCESS(MPI_File_get_type_extent(fh, MPI_INT, &x));
    CHECK_EQ_INT(x, 8);
    CHECK_SUCCESS(MPI_File_get_type_extent(fh, ft, &x));
    CHECK_EQ_INT(x, ((MPI_Aint)(M - 1) * np + 1) * 8);
    int v[M], w[M];
    for (int i = 0; i < M; i++)
        v[i] = (i * np + rank) * (i % 2 ? -1 : 1) - 3;
    int before = s->writes;
    MPI_Status st;
    CHECK_SUCCESS(MPI_File_write_all(fh, v, M, MPI_INT, &st));
    int c;
    MPI_Get_count(&st, MPI_INT, &c);
    CHECK_EQ_INT(c, M);
    CHECK(s->writes > before, "the write conversion function was not called");
    MPI_Offset pos;
    CHECK_SUCCESS(MPI_File_get_position(fh, &pos));
    CHECK_EQ_INT(pos, M);
    CHECK_SUCCESS(MPI_File_sync(fh));
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_SUCCESS(MPI_File_sync(fh));

    /* raw: every rank's ints, 8 big-endian bytes each, in rank order */
    unsigned char *raw = malloc(8 * (size_t)M * np);
    CHECK_SUCCESS(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL));
    CHECK_SUCCESS(MPI_File_read_at(fh, disp, raw, 8 * M * np, MPI_BYTE, &st));
    MPI_Get_count(&st, MPI_BYTE, &c);
    CHECK_EQ_INT(c, 8 * M * np);
    for (int k = 0; k < M * np; k++) {
        int i = k / np, r = k % np;
        int64_t want = (k) * (i % 2 ? -1 : 1) - 3;
        CHECK(be64_get(raw + 8 * k) == want, "file int %d (rank %d's %d) is %lld, want %lld", k, r, i,
              (long long)be64_get(raw + 8 * k), (long long)want);
    }
    free(raw);

    /* back through the view: collectively, then independently in two pieces */
    CHECK_SUCCESS(MPI_File_set_view(fh, disp + 8 * rank, MPI_INT, ft, rep, MPI_INFO_NULL));
    memset(w, 0, sizeof w);
    CHECK_SUCCESS(MPI_File_read_at_all(fh, 0, w, M, MPI_INT, &st));
    for (int i = 0; i < M; i++)
        CHECK(w[i] == v[i], "collective read %d: %d, wrote %d", i, w[i], v[i]);
    memset(w, 0, sizeof w);
    CHECK_SUCCESS(MPI_File_read_at(fh, 0, w, M / 2, MPI_INT, &st));
    CHECK_SUCCESS(MPI_File_read_at(fh, M / 2, w + M / 2, M - M / 2, MPI_INT, &st));
    for (int i = 0; i < M; i++)
        CHECK(w[i] == v[i], "independent read %d: %d, wrote %d", i, w[i], v[i]);
    /* past the end of file (the third filetype: they tile every ((M-1) np + 1) ints): no
     * element, no conversion */
    int reads = s->reads;
    CHECK_SUCCESS(MPI_File_read_at(fh, 2 * M, w, 1, MPI_INT, &st));
    MPI_Get_count(&st, MPI_INT, &c);
    CHECK_EQ_INT(c, 0);
    CHECK_EQ_INT(s->reads, reads);
    MPI_Type_free(&ft);
    MPI_Type_free(&vec);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, np;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    struct seen s = {0}, sc = {0}, sn = {0};

    CHECK_SUCCESS(MPI_Register_datarep("swy_wide", wide_read, wide_write, wide_extent, &s));
    CHECK_SUCCESS(MPI_Register_datarep_c("swy_wide_c", wide_read_c, wide_write_c, wide_extent, &sc));
    CHECK_SUCCESS(MPI_Register_datarep("swy_same", MPI_CONVERSION_FN_NULL, MPI_CONVERSION_FN_NULL, same_extent, &sn));
    /* names already taken (errors of MPI_FILE_NULL's handler: MPI_ERRORS_RETURN) */
    CHECK_ERR(MPI_Register_datarep("swy_wide", wide_read, wide_write, wide_extent, &s), MPI_ERR_DUP_DATAREP,
              "MPI_Register_datarep", "swy_wide");
    CHECK_ERR(MPI_Register_datarep("external32", wide_read, wide_write, wide_extent, &s), MPI_ERR_DUP_DATAREP,
              "MPI_Register_datarep", "external32");
    CHECK_ERR(MPI_Register_datarep("native", wide_read, wide_write, wide_extent, &s), MPI_ERR_DUP_DATAREP,
              "MPI_Register_datarep", "native");

    s.strict = sc.strict = 1;
    MPI_File fh = io_scratch_open("datarep");
    int extents = s.extents;
    interleaved(fh, "swy_wide", 0, rank, np, &s);
    CHECK(s.extents > extents, "the extent function was not called for the view");
    CHECK_EQ_INT(s.bad_position, 0);
    interleaved(fh, "swy_wide_c", 8 * (MPI_Offset)M * np, rank, np, &sc);

    /* MPI_CONVERSION_FN_NULL: the data as in memory */
    MPI_Offset base = 16 * (MPI_Offset)M * np;
    CHECK_SUCCESS(MPI_File_set_view(fh, base, MPI_INT, MPI_INT, "swy_same", MPI_INFO_NULL));
    int v[M], w[M];
    for (int i = 0; i < M; i++)
        v[i] = rank * 1000 + i;
    MPI_Status st;
    CHECK_SUCCESS(MPI_File_write_at(fh, (MPI_Offset)rank * M, v, M, MPI_INT, &st));
    CHECK_SUCCESS(MPI_File_sync(fh));
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_SUCCESS(MPI_File_sync(fh));
    int next = (rank + 1) % np;
    CHECK_SUCCESS(MPI_File_set_view(fh, base, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL));
    CHECK_SUCCESS(MPI_File_read_at(fh, (MPI_Offset)next * M * 4, w, M, MPI_INT, &st));
    for (int i = 0; i < M; i++)
        CHECK(w[i] == next * 1000 + i, "rank %d's int %d in the file is %d", next, i, w[i]);

    /* errors on the file: an unknown representation, an extent function that fails */
    MPI_File_set_errhandler(fh, MPI_ERRORS_RETURN);
    CHECK_ERR(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "swy_none", MPI_INFO_NULL), MPI_ERR_UNSUPPORTED_DATAREP,
              "MPI_File_set_view", "swy_none");
    CHECK_ERR(MPI_File_set_view(fh, 0, MPI_SHORT, MPI_SHORT, "swy_wide", MPI_INFO_NULL), MPI_ERR_CONVERSION,
              "MPI_File_set_view", "swy_wide");
    /* a conversion function's error: the write function refuses MPI_BYTE data */
    CHECK_SUCCESS(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "swy_wide", MPI_INFO_NULL));
    char b[4] = {1, 2, 3, 4};
    CHECK_ERR(MPI_File_write_at(fh, 0, b, 4, MPI_BYTE, &st), MPI_ERR_TYPE, "MPI_File_write_at", "swy_wide");
    CHECK_SUCCESS(MPI_File_close(&fh));
    MPI_Finalize();
    return 0;
}
