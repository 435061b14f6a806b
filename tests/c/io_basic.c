/* io_basic.c — MPI-IO basics on one shared file: open/close/delete, amode, group, atomicity, explicit
 * offsets, individual file pointers, collective, nonblocking and split collective I/O, sizes, info. */
#include "io_test.h"

#include <unistd.h>

#define N 64       /* ints in one rank's block */
#define REGIONS 7  /* regions of np blocks each, one per kind of access */
#define KEPT 6     /* regions left after MPI_File_set_size shrinks the file */

static int rank, np, next;

/* the value of int i of rank r's block in region k */
static int val(int k, int r, int i)
{
    return (k + 1) * 1000000 + r * 10000 + i;
}

/* the byte offset of rank r's block in region k */
static MPI_Offset block_at(int k, int r)
{
    return ((MPI_Offset)k * np + r) * N * (MPI_Offset)sizeof(int);
}

static void fill(int *buf, int k, int r)
{
    for (int i = 0; i < N; i++)
        buf[i] = val(k, r, i);
}

static void expect_block(const int *buf, int k, int r, const char *what)
{
    for (int i = 0; i < N; i++)
        CHECK(buf[i] == val(k, r, i), "%s: int %d of rank %d's block in region %d is %d, expected %d",
              what, i, r, k, buf[i], val(k, r, i));
}

static void expect_count(MPI_Status *st, MPI_Datatype type, int want)
{
    int count = -1;
    CHECK_SUCCESS(MPI_Get_count(st, type, &count));
    CHECK_EQ_INT(count, want);
}

static void expect_size(MPI_File fh, MPI_Offset want)
{
    MPI_Offset size = -1;
    CHECK_SUCCESS(MPI_File_get_size(fh, &size));
    CHECK_EQ_INT(size, want);
}

static void expect_position(MPI_File fh, MPI_Offset want)
{
    MPI_Offset pos = -1;
    CHECK_SUCCESS(MPI_File_get_position(fh, &pos));
    CHECK_EQ_INT(pos, want);
}

/* the standard's sync-barrier-sync: what one rank wrote becomes visible to the others */
static void settle(MPI_File fh)
{
    CHECK_SUCCESS(MPI_File_sync(fh));
    CHECK_SUCCESS(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_SUCCESS(MPI_File_sync(fh));
}

/* after settle: every rank sees the size want before any rank changes it again */
static void expect_size_all(MPI_File fh, MPI_Offset want)
{
    settle(fh);
    expect_size(fh, want);
    CHECK_SUCCESS(MPI_Barrier(MPI_COMM_WORLD));
}

/* amode, group and atomicity of a fresh handle */
static void test_properties(MPI_File fh)
{
    int amode = -1, flag = -1, result = -1;
    MPI_Group g, wg;

    CHECK_SUCCESS(MPI_File_get_amode(fh, &amode));
    CHECK_EQ_INT(amode, MPI_MODE_CREATE | MPI_MODE_RDWR);
    CHECK_SUCCESS(MPI_File_get_group(fh, &g));
    CHECK_SUCCESS(MPI_Comm_group(MPI_COMM_WORLD, &wg));
    CHECK_SUCCESS(MPI_Group_compare(g, wg, &result));
    CHECK_EQ_INT(result, MPI_IDENT);
    CHECK_SUCCESS(MPI_Group_free(&g));
    CHECK_SUCCESS(MPI_Group_free(&wg));

    CHECK_SUCCESS(MPI_File_get_atomicity(fh, &flag));
    CHECK_EQ_INT(flag, 0);
    CHECK_SUCCESS(MPI_File_set_atomicity(fh, 1));
    CHECK_SUCCESS(MPI_File_get_atomicity(fh, &flag));
    CHECK_EQ_INT(flag, 1);
    CHECK_SUCCESS(MPI_File_set_atomicity(fh, 0));
    CHECK_SUCCESS(MPI_File_get_atomicity(fh, &flag));
    CHECK_EQ_INT(flag, 0);
}

/* region 0: explicit offsets, blocking and independent */
static void test_explicit(MPI_File fh)
{
    int buf[N], got[N];
    MPI_Status st;

    fill(buf, 0, rank);
    CHECK_SUCCESS(MPI_File_write_at(fh, block_at(0, rank), buf, N, MPI_INT, &st));
    expect_count(&st, MPI_INT, N);
    expect_size_all(fh, block_at(1, 0));
    memset(got, 0, sizeof got);
    CHECK_SUCCESS(MPI_File_read_at(fh, block_at(0, next), got, N, MPI_INT, &st));
    expect_count(&st, MPI_INT, N);
    expect_block(got, 0, next, "MPI_File_read_at");
    expect_position(fh, 0); /* explicit offsets leave the individual pointer alone */
}

/* region 1: the individual file pointer, through a view of ints (positions count ints) */
static void test_pointer(MPI_File fh)
{
    int buf[N], got[N];
    MPI_Offset base = (MPI_Offset)np * N; /* region 1, in ints */
    MPI_Status st;

    CHECK_SUCCESS(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "native", MPI_INFO_NULL));
    expect_position(fh, 0);
    CHECK_SUCCESS(MPI_File_seek(fh, base + (MPI_Offset)rank * N, MPI_SEEK_SET));
    expect_position(fh, base + (MPI_Offset)rank * N);
    fill(buf, 1, rank);
    CHECK_SUCCESS(MPI_File_write(fh, buf, N / 2, MPI_INT, &st));
    expect_count(&st, MPI_INT, N / 2);
    expect_position(fh, base + (MPI_Offset)rank * N + N / 2);
    CHECK_SUCCESS(MPI_File_write(fh, buf + N / 2, N / 2, MPI_INT, &st));
    expect_position(fh, base + (MPI_Offset)(rank + 1) * N);

    /* back over its own block (its own writes are visible to it at once) */
    CHECK_SUCCESS(MPI_File_seek(fh, -N, MPI_SEEK_CUR));
    expect_position(fh, base + (MPI_Offset)rank * N);
    memset(got, 0, sizeof got);
    CHECK_SUCCESS(MPI_File_read(fh, got, N, MPI_INT, &st));
    expect_count(&st, MPI_INT, N);
    expect_block(got, 1, rank, "MPI_File_read of its own block");
    expect_position(fh, base + (MPI_Offset)(rank + 1) * N);

    /* from the end of the file, once every rank has written */
    expect_size_all(fh, block_at(2, 0));
    CHECK_SUCCESS(MPI_File_seek(fh, -(MPI_Offset)(np - next) * N, MPI_SEEK_END));
    expect_position(fh, base + (MPI_Offset)next * N);
    memset(got, 0, sizeof got);
    CHECK_SUCCESS(MPI_File_read(fh, got, N, MPI_INT, &st));
    expect_count(&st, MPI_INT, N);
    expect_block(got, 1, next, "MPI_File_read after MPI_SEEK_END");

    /* at the end of the file a read reads nothing (where the pointer goes then is not checked:
     * "the next etype after the last one that will be accessed", ROMIO stays, Open MPI 4.1.4
     * moves on by the count asked for) */
    CHECK_SUCCESS(MPI_File_seek(fh, 0, MPI_SEEK_END));
    expect_position(fh, 2 * base);
    CHECK_SUCCESS(MPI_File_read(fh, got, N, MPI_INT, &st));
    expect_count(&st, MPI_INT, 0);
    CHECK_SUCCESS(MPI_Barrier(MPI_COMM_WORLD)); /* before anybody writes past this end */

    /* back to the default view: the pointer is reset, positions count bytes */
    CHECK_SUCCESS(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL));
    expect_position(fh, 0);
    CHECK_SUCCESS(MPI_File_seek(fh, 3, MPI_SEEK_SET));
    CHECK_SUCCESS(MPI_File_seek(fh, 5, MPI_SEEK_CUR));
    expect_position(fh, 8);
    CHECK_SUCCESS(MPI_File_seek(fh, 0, MPI_SEEK_SET));
}

/* regions 2 and 3: collective, at explicit offsets and at the individual pointer */
static void test_collective(MPI_File fh)
{
    int buf[N], got[N];
    MPI_Status st;

    fill(buf, 2, rank);
    CHECK_SUCCESS(MPI_File_write_at_all(fh, block_at(2, rank), buf, N, MPI_INT, &st));
    expect_count(&st, MPI_INT, N);
    settle(fh);
    memset(got, 0, sizeof got);
    CHECK_SUCCESS(MPI_File_read_at_all(fh, block_at(2, next), got, N, MPI_INT, &st));
    expect_count(&st, MPI_INT, N);
    expect_block(got, 2, next, "MPI_File_read_at_all");

    fill(buf, 3, rank);
    CHECK_SUCCESS(MPI_File_seek(fh, block_at(3, rank), MPI_SEEK_SET));
    CHECK_SUCCESS(MPI_File_write_all(fh, buf, N, MPI_INT, &st));
    expect_count(&st, MPI_INT, N);
    expect_position(fh, block_at(3, rank + 1));
    expect_size_all(fh, block_at(4, 0));
    CHECK_SUCCESS(MPI_File_seek(fh, block_at(3, next), MPI_SEEK_SET));
    memset(got, 0, sizeof got);
    CHECK_SUCCESS(MPI_File_read_all(fh, got, N, MPI_INT, &st));
    expect_count(&st, MPI_INT, N);
    expect_block(got, 3, next, "MPI_File_read_all");
    expect_position(fh, block_at(3, next + 1));
}

/* region 4: nonblocking; region 5: split collective */
static void test_nonblocking(MPI_File fh)
{
    int buf[N], got[N];
    MPI_Request req;
    MPI_Status st;

    fill(buf, 4, rank);
    CHECK_SUCCESS(MPI_File_iwrite_at(fh, block_at(4, rank), buf, N, MPI_INT, &req));
    CHECK_SUCCESS(MPI_Wait(&req, &st));
    CHECK(req == MPI_REQUEST_NULL, "MPI_Wait left the request");
    expect_count(&st, MPI_INT, N);
    settle(fh);
    memset(got, 0, sizeof got);
    CHECK_SUCCESS(MPI_File_iread_at(fh, block_at(4, next), got, N, MPI_INT, &req));
    CHECK_SUCCESS(MPI_Wait(&req, &st));
    expect_count(&st, MPI_INT, N);
    expect_block(got, 4, next, "MPI_File_iread_at");

    fill(buf, 5, rank);
    CHECK_SUCCESS(MPI_File_write_at_all_begin(fh, block_at(5, rank), buf, N, MPI_INT));
    CHECK_SUCCESS(MPI_File_write_at_all_end(fh, buf, &st));
    expect_count(&st, MPI_INT, N);
    settle(fh);
    CHECK_SUCCESS(MPI_File_seek(fh, block_at(5, next), MPI_SEEK_SET));
    memset(got, 0, sizeof got);
    CHECK_SUCCESS(MPI_File_read_all_begin(fh, got, N, MPI_INT));
    CHECK_SUCCESS(MPI_File_read_all_end(fh, got, &st));
    expect_count(&st, MPI_INT, N);
    expect_block(got, 5, next, "MPI_File_read_all_begin/end");
    expect_position(fh, block_at(5, next + 1));
}

/* region 6: a strided memory datatype against the contiguous default view */
static void test_strided_memory(MPI_File fh)
{
    int buf[2 * N], got[N], back[2 * N];
    MPI_Datatype vec;
    MPI_Status st;

    CHECK_SUCCESS(MPI_Type_vector(N, 1, 2, MPI_INT, &vec));
    CHECK_SUCCESS(MPI_Type_commit(&vec));
    for (int i = 0; i < N; i++) {
        buf[2 * i] = val(6, rank, i);
        buf[2 * i + 1] = -1 - i; /* not part of the type: never written */
    }
    CHECK_SUCCESS(MPI_File_write_at(fh, block_at(6, rank), buf, 1, vec, &st));
    expect_count(&st, vec, 1);
    memset(got, 0, sizeof got);
    CHECK_SUCCESS(MPI_File_read_at(fh, block_at(6, rank), got, N, MPI_INT, &st));
    expect_count(&st, MPI_INT, N);
    expect_block(got, 6, rank, "strided write read back contiguous");

    /* and back into the strided layout: the gaps keep their contents */
    for (int i = 0; i < 2 * N; i++)
        back[i] = 7777;
    CHECK_SUCCESS(MPI_File_read_at(fh, block_at(6, rank), back, 1, vec, &st));
    expect_count(&st, vec, 1);
    for (int i = 0; i < N; i++) {
        CHECK_EQ_INT(back[2 * i], val(6, rank, i));
        CHECK_EQ_INT(back[2 * i + 1], 7777);
    }
    CHECK_SUCCESS(MPI_Type_free(&vec));
    expect_size_all(fh, block_at(REGIONS, 0));
}

/* set_size shrinks and grows, preallocate grows only; get_info */
static void test_size(MPI_File fh)
{
    MPI_Info info = MPI_INFO_NULL;
    int nkeys = -1;

    /* (collective, but not synchronizing: hence expect_size_all after each) */
    CHECK_SUCCESS(MPI_File_set_size(fh, block_at(KEPT, 0)));
    expect_size_all(fh, block_at(KEPT, 0));
    CHECK_SUCCESS(MPI_File_set_size(fh, block_at(KEPT + 2, 0)));
    expect_size_all(fh, block_at(KEPT + 2, 0));
    CHECK_SUCCESS(MPI_File_preallocate(fh, block_at(KEPT + 3, 0)));
    expect_size_all(fh, block_at(KEPT + 3, 0));
    CHECK_SUCCESS(MPI_File_preallocate(fh, block_at(1, 0))); /* smaller: the size stays */
    expect_size_all(fh, block_at(KEPT + 3, 0));

    CHECK_SUCCESS(MPI_File_get_info(fh, &info));
    CHECK(info != MPI_INFO_NULL, "MPI_File_get_info returned MPI_INFO_NULL");
    CHECK_SUCCESS(MPI_Info_get_nkeys(info, &nkeys));
    CHECK(nkeys >= 0, "MPI_Info_get_nkeys: %d", nkeys);
    CHECK_SUCCESS(MPI_Info_free(&info));
    CHECK(info == MPI_INFO_NULL, "MPI_Info_free did not set MPI_INFO_NULL");
}

/* rank 0 alone: the whole file against a serial computation of it */
static void check_whole_file(const char *name)
{
    MPI_File fh = MPI_FILE_NULL;
    MPI_Offset kept = block_at(KEPT, 0);
    int *want = malloc(kept), *got = malloc(kept);
    int amode = -1;
    MPI_Status st;

    CHECK(want && got, "out of memory");
    for (int k = 0; k < KEPT; k++)
        for (int r = 0; r < np; r++)
            for (int i = 0; i < N; i++)
                want[((size_t)k * np + r) * N + i] = val(k, r, i);
    CHECK_SUCCESS(MPI_File_open(MPI_COMM_SELF, name, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh));
    CHECK_SUCCESS(MPI_File_get_amode(fh, &amode));
    CHECK_EQ_INT(amode, MPI_MODE_RDONLY);
    expect_size(fh, block_at(KEPT + 3, 0));
    memset(got, 0, kept);
    CHECK_SUCCESS(MPI_File_read_at(fh, 0, got, (int)kept, MPI_BYTE, &st));
    expect_count(&st, MPI_BYTE, (int)kept);
    for (MPI_Offset b = 0; b < kept; b++)
        CHECK(((unsigned char *)got)[b] == ((unsigned char *)want)[b],
              "byte %lld of the file is %d, expected %d", (long long)b,
              ((unsigned char *)got)[b], ((unsigned char *)want)[b]);
    CHECK_SUCCESS(MPI_File_close(&fh));
    CHECK(fh == MPI_FILE_NULL, "MPI_File_close did not set MPI_FILE_NULL");
    free(want);
    free(got);
}

int main(int argc, char **argv)
{
    char name[512];
    MPI_File fh = MPI_FILE_NULL;

    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    next = (rank + 1) % np;
    io_file_name(name, sizeof name, "basic");

    CHECK_SUCCESS(MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_CREATE | MPI_MODE_RDWR,
                                MPI_INFO_NULL, &fh));
    CHECK(fh != MPI_FILE_NULL, "MPI_File_open returned MPI_FILE_NULL");
    expect_size(fh, 0);
    CHECK_SUCCESS(MPI_Barrier(MPI_COMM_WORLD)); /* nobody writes before everybody saw it empty */
    test_properties(fh);
    test_explicit(fh);
    test_pointer(fh);
    test_collective(fh);
    test_nonblocking(fh);
    test_strided_memory(fh);
    test_size(fh);
    CHECK_SUCCESS(MPI_File_close(&fh));
    CHECK(fh == MPI_FILE_NULL, "MPI_File_close did not set MPI_FILE_NULL");

    CHECK_SUCCESS(MPI_Barrier(MPI_COMM_WORLD));
    if (rank == 0) {
        check_whole_file(name);
        CHECK_SUCCESS(MPI_File_delete(name, MPI_INFO_NULL));
    }
    CHECK_SUCCESS(MPI_Barrier(MPI_COMM_WORLD));
    MPI_Finalize();
    return 0;
}
