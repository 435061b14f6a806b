/* io_view.c — MPI-IO file views (interleaving filetypes after a header, holes, get_view,
 * get_type_extent, get_byte_offset) and the shared file pointer (ordered and unordered). */
#include "io_test.h"

#include <unistd.h>

#define HDR 16 /* header bytes before the views' displacement */
#define B 4    /* ints in a block */
#define K 3    /* blocks of each rank in each phase */
#define G 1    /* ints after the np blocks of a row that no view covers */
#define TAIL 12

static int rank, np;
static const char header[HDR] = "swy-io-view-hdr";

static int row_ints(void)
{
    return np * B + G;
}

/* the value of int i of rank r's block k in phase p (1: subarray view, 2: resized tiled view) */
static int val(int p, int r, int k, int i)
{
    return p * 1000000 + r * 10000 + k * 100 + i;
}

/* byte b of the file before any view wrote into it */
static unsigned char pattern(long b)
{
    return (unsigned char)(b * 7 + 3);
}

static MPI_Offset disp_of(int p)
{
    return HDR + (MPI_Offset)(p - 1) * K * row_ints() * (MPI_Offset)sizeof(int);
}

static MPI_Offset file_bytes(void)
{
    return disp_of(3) + TAIL;
}

/* the byte offset of int i of rank r's block k in phase p */
static MPI_Offset int_at(int p, int r, int k, int i)
{
    return disp_of(p) + ((MPI_Offset)k * row_ints() + r * B + i) * (MPI_Offset)sizeof(int);
}

static void expect_count(MPI_Status *st, MPI_Datatype type, int want)
{
    int count = -1;
    CHECK_SUCCESS(MPI_Get_count(st, type, &count));
    CHECK_EQ_INT(count, want);
}

static void settle(MPI_File fh)
{
    CHECK_SUCCESS(MPI_File_sync(fh));
    CHECK_SUCCESS(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_SUCCESS(MPI_File_sync(fh));
}

/* rank 0 fills the file with the pattern, then writes the header over its start */
static void prefill(MPI_File fh)
{
    if (rank == 0) {
        long n = (long)file_bytes();
        unsigned char *buf = malloc(n);
        MPI_Status st;
        CHECK(buf, "out of memory");
        for (long b = 0; b < n; b++)
            buf[b] = pattern(b);
        CHECK_SUCCESS(MPI_File_write_at(fh, 0, buf, (int)n, MPI_BYTE, &st));
        expect_count(&st, MPI_BYTE, (int)n);
        CHECK_SUCCESS(MPI_File_write_at(fh, 0, header, HDR, MPI_CHAR, &st));
        expect_count(&st, MPI_CHAR, HDR);
        free(buf);
    }
    settle(fh);
}

/* phase 1's filetype: rank's K blocks of B ints as a K x row_ints() subarray */
static MPI_Datatype subarray_type(void)
{
    int sizes[2] = {K, row_ints()}, subsizes[2] = {K, B}, starts[2] = {0, rank * B};
    MPI_Datatype t;
    CHECK_SUCCESS(MPI_Type_create_subarray(2, sizes, subsizes, starts, MPI_ORDER_C, MPI_INT, &t));
    CHECK_SUCCESS(MPI_Type_commit(&t));
    return t;
}

/* phase 2's filetype: one block of B ints at rank * B, resized to a row: tiled K times */
static MPI_Datatype tiled_type(void)
{
    int disp = rank * B;
    MPI_Datatype block, t;
    CHECK_SUCCESS(MPI_Type_create_indexed_block(1, B, &disp, MPI_INT, &block));
    CHECK_SUCCESS(MPI_Type_create_resized(block, 0, (MPI_Aint)row_ints() * sizeof(int), &t));
    CHECK_SUCCESS(MPI_Type_free(&block));
    CHECK_SUCCESS(MPI_Type_commit(&t));
    return t;
}

/* get_view: the displacement, an etype equal to MPI_INT, a filetype with ft's layout, "native" */
static void expect_view(MPI_File fh, MPI_Offset disp, MPI_Datatype ft)
{
    MPI_Offset d = -1;
    MPI_Datatype et = MPI_DATATYPE_NULL, got = MPI_DATATYPE_NULL;
    char rep[MPI_MAX_DATAREP_STRING + 1];
    int ni, na, nd, comb, size, want_size;
    MPI_Aint lb, ext, want_lb, want_ext;

    rep[0] = '\0';
    CHECK_SUCCESS(MPI_File_get_view(fh, &d, &et, &got, rep));
    CHECK_EQ_INT(d, disp);
    CHECK(strcmp(rep, "native") == 0, "datarep \"%s\", expected \"native\"", rep);

    CHECK_SUCCESS(MPI_Type_get_envelope(et, &ni, &na, &nd, &comb));
    if (comb == MPI_COMBINER_NAMED)
        CHECK(et == MPI_INT, "the etype is a named type other than MPI_INT");
    CHECK_SUCCESS(MPI_Type_size(et, &size));
    CHECK_EQ_INT(size, (int)sizeof(int));
    if (comb != MPI_COMBINER_NAMED)
        CHECK_SUCCESS(MPI_Type_free(&et));

    CHECK_SUCCESS(MPI_Type_get_envelope(got, &ni, &na, &nd, &comb));
    CHECK(comb != MPI_COMBINER_NAMED, "the derived filetype came back as a named type");
    CHECK_SUCCESS(MPI_Type_size(got, &size));
    CHECK_SUCCESS(MPI_Type_size(ft, &want_size));
    CHECK_EQ_INT(size, want_size);
    CHECK_SUCCESS(MPI_Type_get_extent(got, &lb, &ext));
    CHECK_SUCCESS(MPI_Type_get_extent(ft, &want_lb, &want_ext));
    CHECK_EQ_INT(lb, want_lb);
    CHECK_EQ_INT(ext, want_ext);
    CHECK_SUCCESS(MPI_Type_get_true_extent(got, &lb, &ext));
    CHECK_SUCCESS(MPI_Type_get_true_extent(ft, &want_lb, &want_ext));
    CHECK_EQ_INT(lb, want_lb);
    CHECK_EQ_INT(ext, want_ext);
    CHECK_SUCCESS(MPI_Type_free(&got));
}

static void expect_byte_offset(MPI_File fh, MPI_Offset off, MPI_Offset want)
{
    MPI_Offset b = -1;
    CHECK_SUCCESS(MPI_File_get_byte_offset(fh, off, &b));
    CHECK(b == want, "MPI_File_get_byte_offset(%lld) = %lld, expected %lld", (long long)off,
          (long long)b, (long long)want);
}

/* write the phase's K blocks through the view ft at disp, then read them back through it */
static void view_phase(MPI_File fh, int p, MPI_Datatype ft)
{
    int buf[K * B], got[K * B];
    MPI_Offset pos = -1, disp = disp_of(p);
    MPI_Aint ext = -1;
    MPI_Status st;

    CHECK_SUCCESS(MPI_File_set_view(fh, disp, MPI_INT, ft, "native", MPI_INFO_NULL));
    expect_view(fh, disp, ft);
    CHECK_SUCCESS(MPI_File_get_type_extent(fh, MPI_INT, &ext));
    CHECK_EQ_INT(ext, (MPI_Aint)sizeof(int));
    CHECK_SUCCESS(MPI_File_get_type_extent(fh, ft, &ext));
    CHECK_EQ_INT(ext, (p == 1 ? K : 1) * (MPI_Aint)row_ints() * (MPI_Aint)sizeof(int));

    /* offsets count ints of the view: block k of this rank is ints k*B..k*B+B-1 */
    expect_byte_offset(fh, 0, int_at(p, rank, 0, 0));
    expect_byte_offset(fh, 1, int_at(p, rank, 0, 1));
    expect_byte_offset(fh, B - 1, int_at(p, rank, 0, B - 1));
    expect_byte_offset(fh, B, int_at(p, rank, 1, 0));
    expect_byte_offset(fh, 2 * B + 2, int_at(p, rank, 2, 2));
    expect_byte_offset(fh, K * B - 1, int_at(p, rank, K - 1, B - 1));

    CHECK_SUCCESS(MPI_File_get_position(fh, &pos));
    CHECK_EQ_INT(pos, 0);
    for (int k = 0; k < K; k++)
        for (int i = 0; i < B; i++)
            buf[k * B + i] = val(p, rank, k, i);
    CHECK_SUCCESS(MPI_File_write_all(fh, buf, K * B, MPI_INT, &st));
    expect_count(&st, MPI_INT, K * B);
    CHECK_SUCCESS(MPI_File_get_position(fh, &pos));
    CHECK_EQ_INT(pos, K * B);
    settle(fh);

    memset(got, 0, sizeof got);
    CHECK_SUCCESS(MPI_File_read_at_all(fh, 0, got, K * B, MPI_INT, &st));
    expect_count(&st, MPI_INT, K * B);
    for (int j = 0; j < K * B; j++)
        CHECK(got[j] == buf[j], "read_at_all through the view: int %d is %d, expected %d", j,
              got[j], buf[j]);
    /* from the middle: blocks 1.. only */
    memset(got, 0, sizeof got);
    CHECK_SUCCESS(MPI_File_read_at_all(fh, B + 1, got, B, MPI_INT, &st));
    expect_count(&st, MPI_INT, B);
    for (int j = 0; j < B; j++)
        CHECK(got[j] == buf[B + 1 + j], "read_at_all(%d) through the view: int %d is %d, expected %d",
              B + 1, j, got[j], buf[B + 1 + j]);
    CHECK_SUCCESS(MPI_File_get_position(fh, &pos));
    CHECK_EQ_INT(pos, K * B); /* explicit offsets leave the pointer */
}

/* every rank alone, with the default view: the whole file, byte by byte */
static void check_whole_file(const char *name)
{
    long n = (long)file_bytes();
    unsigned char *want = malloc(n), *got = malloc(n + 8);
    MPI_File fh = MPI_FILE_NULL;
    MPI_Offset size = -1;
    MPI_Status st;

    CHECK(want && got, "out of memory");
    for (long b = 0; b < n; b++)
        want[b] = pattern(b);
    memcpy(want, header, HDR);
    for (int p = 1; p <= 2; p++)
        for (int r = 0; r < np; r++)
            for (int k = 0; k < K; k++)
                for (int i = 0; i < B; i++) {
                    int v = val(p, r, k, i);
                    memcpy(want + int_at(p, r, k, i), &v, sizeof v);
                }

    CHECK_SUCCESS(MPI_File_open(MPI_COMM_SELF, name, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh));
    CHECK_SUCCESS(MPI_File_get_size(fh, &size));
    CHECK_EQ_INT(size, n);
    memset(got, 0, n + 8);
    CHECK_SUCCESS(MPI_File_read(fh, got, (int)n + 8, MPI_BYTE, &st));
    expect_count(&st, MPI_BYTE, (int)n);
    for (long b = 0; b < n; b++)
        CHECK(got[b] == want[b], "rank %d: byte %ld of the file is %d, expected %d", rank, b,
              got[b], want[b]);
    CHECK_SUCCESS(MPI_File_close(&fh));
    free(want);
    free(got);
}

static void test_views(const char *name)
{
    MPI_File fh = MPI_FILE_NULL;
    MPI_Datatype ft;

    CHECK_SUCCESS(MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_CREATE | MPI_MODE_RDWR,
                                MPI_INFO_NULL, &fh));
    prefill(fh);
    ft = subarray_type();
    view_phase(fh, 1, ft);
    CHECK_SUCCESS(MPI_Type_free(&ft)); /* the view keeps its own copy */
    ft = tiled_type();
    view_phase(fh, 2, ft);
    /* a tile further: the next row */
    expect_byte_offset(fh, K * B, int_at(2, rank, K, 0));
    CHECK_SUCCESS(MPI_Type_free(&ft));

    /* back to the default view: get_view returns MPI_BYTE twice, not to be freed */
    CHECK_SUCCESS(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL));
    {
        MPI_Offset d = -1;
        MPI_Datatype et, ft2;
        char rep[MPI_MAX_DATAREP_STRING + 1];
        CHECK_SUCCESS(MPI_File_get_view(fh, &d, &et, &ft2, rep));
        CHECK_EQ_INT(d, 0);
        CHECK(et == MPI_BYTE && ft2 == MPI_BYTE, "default view: etype/filetype not MPI_BYTE");
        CHECK(strcmp(rep, "native") == 0, "datarep \"%s\"", rep);
        expect_byte_offset(fh, 5, 5);
    }
    CHECK_SUCCESS(MPI_File_close(&fh));
    CHECK_SUCCESS(MPI_Barrier(MPI_COMM_WORLD));
    check_whole_file(name);
    CHECK_SUCCESS(MPI_Barrier(MPI_COMM_WORLD));
    if (rank == 0)
        CHECK_SUCCESS(MPI_File_delete(name, MPI_INFO_NULL));
}

/* every rank sees the shared pointer at want, before any rank moves it on */
static void expect_shared(MPI_File fh, MPI_Offset want)
{
    MPI_Offset pos = -1;
    CHECK_SUCCESS(MPI_File_get_position_shared(fh, &pos));
    CHECK_EQ_INT(pos, want);
    CHECK_SUCCESS(MPI_Barrier(MPI_COMM_WORLD));
}

/* the shared file pointer, in ints (view of MPI_INT) on a file deleted on close */
static void test_shared(const char *name)
{
    MPI_File fh = MPI_FILE_NULL;
    int total = np * (np + 1) / 2, rec[3], *all, mine[64];
    MPI_Offset size = -1;
    MPI_Status st;

    CHECK_SUCCESS(MPI_File_open(MPI_COMM_WORLD, name,
                                MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                                MPI_INFO_NULL, &fh));
    CHECK_SUCCESS(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "native", MPI_INFO_NULL));
    expect_shared(fh, 0);

    /* ordered: rank r writes r + 1 ints r, in rank order */
    for (int i = 0; i <= rank; i++)
        mine[i] = rank;
    CHECK_SUCCESS(MPI_File_write_ordered(fh, mine, rank + 1, MPI_INT, &st));
    expect_count(&st, MPI_INT, rank + 1);
    expect_shared(fh, total);
    {
        MPI_Offset pos = -1;
        CHECK_SUCCESS(MPI_File_get_position(fh, &pos));
        CHECK_EQ_INT(pos, 0); /* the individual pointer did not move */
    }
    settle(fh);
    all = malloc((total + 3 * np) * sizeof(int));
    CHECK(all, "out of memory");
    CHECK_SUCCESS(MPI_File_read_at_all(fh, 0, all, total, MPI_INT, &st));
    expect_count(&st, MPI_INT, total);
    for (int r = 0, j = 0; r < np; r++)
        for (int i = 0; i <= r; i++, j++)
            CHECK(all[j] == r, "write_ordered: int %d is %d, expected %d", j, all[j], r);

    CHECK_SUCCESS(MPI_File_seek_shared(fh, 0, MPI_SEEK_SET));
    expect_shared(fh, 0);
    memset(mine, -1, sizeof mine);
    CHECK_SUCCESS(MPI_File_read_ordered(fh, mine, rank + 1, MPI_INT, &st));
    expect_count(&st, MPI_INT, rank + 1);
    for (int i = 0; i <= rank; i++)
        CHECK_EQ_INT(mine[i], rank);
    CHECK_EQ_INT(mine[rank + 1], -1);
    expect_shared(fh, total);

    /* unordered: one record each, in whatever order */
    rec[0] = 4242;
    rec[1] = rank;
    rec[2] = -rank - 1;
    CHECK_SUCCESS(MPI_File_write_shared(fh, rec, 3, MPI_INT, &st));
    expect_count(&st, MPI_INT, 3);
    settle(fh);
    expect_shared(fh, total + 3 * np);
    CHECK_SUCCESS(MPI_File_get_size(fh, &size));
    CHECK_EQ_INT(size, (MPI_Offset)(total + 3 * np) * (MPI_Offset)sizeof(int));
    CHECK_SUCCESS(MPI_File_read_at(fh, total, all, 3 * np, MPI_INT, &st));
    expect_count(&st, MPI_INT, 3 * np);
    {
        int seen[64] = {0};
        for (int j = 0; j < np; j++) {
            int *x = all + 3 * j, r = x[1];
            CHECK(x[0] == 4242 && r >= 0 && r < np && x[2] == -r - 1,
                  "write_shared record %d is {%d, %d, %d}", j, x[0], x[1], x[2]);
            CHECK(!seen[r], "rank %d's record appears twice", r);
            seen[r] = 1;
        }
    }
    free(all);
    CHECK_SUCCESS(MPI_File_close(&fh));
    CHECK_SUCCESS(MPI_Barrier(MPI_COMM_WORLD));

    /* MPI_MODE_DELETE_ON_CLOSE: it is gone */
    if (rank == 0)
        CHECK_ERR(MPI_File_open(MPI_COMM_SELF, name, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh),
                  MPI_ERR_NO_SUCH_FILE, NULL);
}

int main(int argc, char **argv)
{
    char name[512], shared[600];

    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    CHECK(np <= 60, "at most 60 ranks");
    io_file_name(name, sizeof name, "view");
    snprintf(shared, sizeof shared, "%s_shared", name);

    test_views(name);
    test_shared(shared);
    CHECK_SUCCESS(MPI_Barrier(MPI_COMM_WORLD));
    MPI_Finalize();
    return 0;
}
