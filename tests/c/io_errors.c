/* io_errors.c — MPI-IO error classes (open, amode, sequential access, read-only, delete, datarep,
 * MPI_FILE_NULL) and file error handlers (default on MPI_FILE_NULL, user handlers, call_errhandler). */
#include "io_test.h"

#include <unistd.h>

static int rank;
static int calls;                        /* the user handler's calls so far */
static MPI_File last_fh = MPI_FILE_NULL; /* the file it was last called with */
static int last_code = MPI_SUCCESS;      /* and the code */

static void file_handler(MPI_File *fh, int *code, ...)
{
    calls++;
    last_fh = *fh;
    last_code = *code;
}

/* the handler ran n times in all, the last time with fh and an error of class cls */
static void expect_called(int n, MPI_File fh, int cls)
{
    CHECK_EQ_INT(calls, n);
    CHECK(last_fh == fh, "the handler got another file handle");
    CHECK_EQ_INT(error_class(last_code), cls);
}

static void expect_file_errhandler(MPI_File fh, MPI_Errhandler want, const char *what)
{
    MPI_Errhandler got = MPI_ERRHANDLER_NULL;
    CHECK_SUCCESS(MPI_File_get_errhandler(fh, &got));
    CHECK(got == want, "%s: MPI_File_get_errhandler returned another handler", what);
    CHECK_SUCCESS(MPI_Errhandler_free(&got));
}

/* open on MPI_COMM_WORLD, expected to fail with class cls on every rank */
static void open_fails(const char *name, int amode, int cls)
{
    MPI_File fh = MPI_FILE_NULL;
    CHECK_ERR(MPI_File_open(MPI_COMM_WORLD, name, amode, MPI_INFO_NULL, &fh), cls,
              "MPI_File_open");
}

/* opening: missing files and directories, an existing file with EXCL, bad amodes */
static void test_open(const char *name, const char *missing)
{
    char path[700];
    MPI_File fh = MPI_FILE_NULL;

    open_fails(missing, MPI_MODE_RDONLY, MPI_ERR_NO_SUCH_FILE);
    open_fails(missing, MPI_MODE_RDWR, MPI_ERR_NO_SUCH_FILE);
    snprintf(path, sizeof path, "%s/no/such/dir", missing); /* ENOENT: no such file */
    open_fails(path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_ERR_NO_SUCH_FILE);

    CHECK_SUCCESS(MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_CREATE | MPI_MODE_RDWR,
                                MPI_INFO_NULL, &fh));
    CHECK_SUCCESS(MPI_File_close(&fh));
    open_fails(name, MPI_MODE_CREATE | MPI_MODE_EXCL | MPI_MODE_RDWR, MPI_ERR_FILE_EXISTS);

    /* amodes the standard calls erroneous (MPI-5.0 14.2.1), also on a missing file: none is
     * created */
    open_fails(missing, MPI_MODE_RDONLY | MPI_MODE_CREATE, MPI_ERR_AMODE);
    open_fails(missing, MPI_MODE_RDONLY | MPI_MODE_EXCL, MPI_ERR_AMODE);
    open_fails(missing, MPI_MODE_RDWR | MPI_MODE_SEQUENTIAL | MPI_MODE_CREATE, MPI_ERR_AMODE);
    open_fails(missing, MPI_MODE_RDONLY | MPI_MODE_RDWR, MPI_ERR_AMODE);
    open_fails(missing, MPI_MODE_WRONLY | MPI_MODE_RDWR | MPI_MODE_CREATE, MPI_ERR_AMODE);
    open_fails(missing, MPI_MODE_CREATE, MPI_ERR_AMODE); /* none of RDONLY, RDWR, WRONLY */
    open_fails(name, MPI_MODE_RDWR | MPI_MODE_SEQUENTIAL, MPI_ERR_AMODE);
    CHECK_SUCCESS(MPI_Barrier(MPI_COMM_WORLD));
    if (rank == 0)
        CHECK_ERR(MPI_File_delete(missing, MPI_INFO_NULL), MPI_ERR_NO_SUCH_FILE,
                  "MPI_File_delete");
    CHECK_SUCCESS(MPI_Barrier(MPI_COMM_WORLD));
}

/* wrong access: writing a read-only file, reading a write-only one, offsets on sequential files */
static void test_access(const char *name)
{
    MPI_File fh = MPI_FILE_NULL;
    MPI_Status st;
    int x = 7, code, cls;

    CHECK_SUCCESS(MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh));
    code = MPI_File_write_at(fh, 0, &x, 1, MPI_INT, &st);
    cls = error_class(code);
    /* MPI_ERR_READ_ONLY is for read-only file systems, MPI_ERR_ACCESS for the mode; accept both */
    CHECK(cls == MPI_ERR_ACCESS || cls == MPI_ERR_READ_ONLY,
          "MPI_File_write_at on an MPI_MODE_RDONLY file: class %d", cls);
    if (rank == 0)
        printf("write on an MPI_MODE_RDONLY file: %s\n",
               cls == MPI_ERR_ACCESS ? "MPI_ERR_ACCESS" : "MPI_ERR_READ_ONLY");
    CHECK_ERR(code, cls, "MPI_File_write_at");
    CHECK_SUCCESS(MPI_File_close(&fh));

    CHECK_SUCCESS(MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_WRONLY, MPI_INFO_NULL, &fh));
    CHECK_ERR(MPI_File_read_at(fh, 0, &x, 1, MPI_INT, &st), MPI_ERR_ACCESS, "MPI_File_read_at");
    CHECK_SUCCESS(MPI_File_close(&fh));

    /* sequential files have no explicit offsets and no individual pointers */
    CHECK_SUCCESS(MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_RDONLY | MPI_MODE_SEQUENTIAL,
                                MPI_INFO_NULL, &fh));
    CHECK_ERR(MPI_File_read_at(fh, 0, &x, 1, MPI_INT, &st), MPI_ERR_UNSUPPORTED_OPERATION,
              "MPI_File_read_at");
    CHECK_ERR(MPI_File_read(fh, &x, 1, MPI_INT, &st), MPI_ERR_UNSUPPORTED_OPERATION,
              "MPI_File_read");
    CHECK_ERR(MPI_File_seek(fh, 0, MPI_SEEK_SET), MPI_ERR_UNSUPPORTED_OPERATION,
              "MPI_File_seek");
    CHECK_SUCCESS(MPI_File_close(&fh));
    CHECK_SUCCESS(MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_WRONLY | MPI_MODE_SEQUENTIAL,
                                MPI_INFO_NULL, &fh));
    CHECK_ERR(MPI_File_write_at(fh, 0, &x, 1, MPI_INT, &st), MPI_ERR_UNSUPPORTED_OPERATION,
              "MPI_File_write_at");
    CHECK_SUCCESS(MPI_File_close(&fh));
}

/* a data representation nobody defined; deleting an open file; calls on MPI_FILE_NULL */
static void test_datarep(const char *name)
{
    MPI_File fh = MPI_FILE_NULL;
    MPI_Offset size = -1;

    CHECK_SUCCESS(MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_RDWR, MPI_INFO_NULL, &fh));
    CHECK_ERR(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "nonsense", MPI_INFO_NULL),
              MPI_ERR_UNSUPPORTED_DATAREP, "MPI_File_set_view");
    /* Switchyard refuses to delete a file the process has open (ROMIO just unlinks it) */
    if (CHECK_SWITCHYARD)
        CHECK_ERR(MPI_File_delete(name, MPI_INFO_NULL), MPI_ERR_FILE_IN_USE, "MPI_File_delete", "open");
    CHECK_SUCCESS(MPI_File_close(&fh));
    CHECK(fh == MPI_FILE_NULL, "MPI_File_close did not set MPI_FILE_NULL");
    CHECK_ERR(MPI_File_get_size(fh, &size), MPI_ERR_FILE, "MPI_File_get_size");
}

/* a user handler on an open file gets its errors; get_errhandler and call_errhandler */
static void test_user_handler(const char *name)
{
    MPI_File fh = MPI_FILE_NULL;
    MPI_Errhandler eh = MPI_ERRHANDLER_NULL;
    int code;

    CHECK_SUCCESS(MPI_File_create_errhandler(file_handler, &eh));
    CHECK(eh != MPI_ERRHANDLER_NULL, "MPI_File_create_errhandler gave MPI_ERRHANDLER_NULL");
    CHECK_SUCCESS(MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_RDWR, MPI_INFO_NULL, &fh));
    expect_file_errhandler(fh, MPI_ERRORS_RETURN, "a new file");
    CHECK_SUCCESS(MPI_File_set_errhandler(fh, eh));
    expect_file_errhandler(fh, eh, "after MPI_File_set_errhandler");
    expect_file_errhandler(MPI_FILE_NULL, MPI_ERRORS_RETURN, "MPI_FILE_NULL, unchanged");

    code = MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "nonsense", MPI_INFO_NULL);
    CHECK_ERR(code, MPI_ERR_UNSUPPORTED_DATAREP, "MPI_File_set_view");
    expect_called(1, fh, MPI_ERR_UNSUPPORTED_DATAREP);
    CHECK_EQ_INT(last_code, code); /* the call returns what the handler got */

    CHECK_SUCCESS(MPI_File_call_errhandler(fh, MPI_ERR_IO));
    expect_called(2, fh, MPI_ERR_IO);

    /* the handle may go, the handler stays with the file (Debian MPICH 4.0.2 asserts on the
     * reference count in MPI_File_close then: it frees the handle only after the close) */
    if (CHECK_SWITCHYARD) {
        CHECK_SUCCESS(MPI_Errhandler_free(&eh));
        CHECK(eh == MPI_ERRHANDLER_NULL, "MPI_Errhandler_free did not set MPI_ERRHANDLER_NULL");
    }
    CHECK_SUCCESS(MPI_File_call_errhandler(fh, MPI_ERR_FILE_IN_USE));
    expect_called(3, fh, MPI_ERR_FILE_IN_USE);

    /* MPI_ERRORS_RETURN again: no call */
    CHECK_SUCCESS(MPI_File_set_errhandler(fh, MPI_ERRORS_RETURN));
    CHECK_ERR(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "nonsense", MPI_INFO_NULL),
              MPI_ERR_UNSUPPORTED_DATAREP, "MPI_File_set_view");
    CHECK_EQ_INT(calls, 3);
    CHECK_SUCCESS(MPI_File_close(&fh));
    if (!CHECK_SWITCHYARD)
        CHECK_SUCCESS(MPI_Errhandler_free(&eh));
}

/* the handler of MPI_FILE_NULL: it gets the errors of opening and of MPI_File_delete, and files
 * opened while it is set start with it */
static void test_default_handler(const char *name, const char *missing)
{
    MPI_File fh = MPI_FILE_NULL;
    MPI_Errhandler eh = MPI_ERRHANDLER_NULL;
    int code, n = calls;

    CHECK_SUCCESS(MPI_File_create_errhandler(file_handler, &eh));
    CHECK_SUCCESS(MPI_File_set_errhandler(MPI_FILE_NULL, eh));
    expect_file_errhandler(MPI_FILE_NULL, eh, "MPI_FILE_NULL");

    code = MPI_File_open(MPI_COMM_WORLD, missing, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
    CHECK_ERR(code, MPI_ERR_NO_SUCH_FILE, "MPI_File_open");
    expect_called(++n, MPI_FILE_NULL, MPI_ERR_NO_SUCH_FILE);
    CHECK_EQ_INT(last_code, code);
    if (rank == 0) {
        code = MPI_File_delete(missing, MPI_INFO_NULL);
        CHECK_ERR(code, MPI_ERR_NO_SUCH_FILE, "MPI_File_delete");
        expect_called(++n, MPI_FILE_NULL, MPI_ERR_NO_SUCH_FILE);
    }

    CHECK_SUCCESS(MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_RDWR, MPI_INFO_NULL, &fh));
    expect_file_errhandler(fh, eh, "a file opened under a user default handler");
    CHECK_ERR(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "nonsense", MPI_INFO_NULL),
              MPI_ERR_UNSUPPORTED_DATAREP, "MPI_File_set_view");
    expect_called(++n, fh, MPI_ERR_UNSUPPORTED_DATAREP);

    /* back to MPI_ERRORS_RETURN for MPI_FILE_NULL; the open file keeps the user handler */
    CHECK_SUCCESS(MPI_File_set_errhandler(MPI_FILE_NULL, MPI_ERRORS_RETURN));
    expect_file_errhandler(MPI_FILE_NULL, MPI_ERRORS_RETURN, "MPI_FILE_NULL, restored");
    expect_file_errhandler(fh, eh, "the open file after MPI_FILE_NULL changed");
    /* (Debian MPICH 4.0.2: a file that starts with the default handler takes no reference to
     * it, but its MPI_File_close drops one: there the close frees the handle, and freeing it
     * before or after the close asserts on the reference count) */
    if (CHECK_SWITCHYARD)
        CHECK_SUCCESS(MPI_Errhandler_free(&eh));
    CHECK_SUCCESS(MPI_File_close(&fh));
    CHECK_ERR(MPI_File_open(MPI_COMM_WORLD, missing, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh),
              MPI_ERR_NO_SUCH_FILE, "MPI_File_open");
    CHECK_EQ_INT(calls, n);
}

int main(int argc, char **argv)
{
    char name[512], missing[600];

    /* MPI_COMM_WORLD keeps MPI_ERRORS_ARE_FATAL: file errors must not go to it */
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    CHECK_SUCCESS(MPI_File_set_errhandler(MPI_FILE_NULL, MPI_ERRORS_RETURN)); /* the default */
    expect_file_errhandler(MPI_FILE_NULL, MPI_ERRORS_RETURN, "MPI_FILE_NULL");
    io_file_name(name, sizeof name, "errors");
    snprintf(missing, sizeof missing, "%s_missing", name);

    test_open(name, missing);
    test_access(name);
    test_datarep(name);
    test_user_handler(name);
    test_default_handler(name, missing);

    CHECK_SUCCESS(MPI_Barrier(MPI_COMM_WORLD));
    if (rank == 0) {
        CHECK_SUCCESS(MPI_File_delete(name, MPI_INFO_NULL));
        CHECK_ERR(MPI_File_delete(name, MPI_INFO_NULL), MPI_ERR_NO_SUCH_FILE, "MPI_File_delete");
    }
    CHECK_SUCCESS(MPI_Barrier(MPI_COMM_WORLD));
    MPI_Finalize();
    return 0;
}
