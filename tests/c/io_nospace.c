/* io_nospace.c — a write that the system cuts short (the file-size limit, RLIMIT_FSIZE, as a full
 * file system would) is reported as MPI_ERR_NO_SPACE through the file's handler, never as success. */
#include "io_test.h"

#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

enum { LIMIT = 8192, BYTES = 3 * LIMIT };

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, np;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    char path[512];
    io_file_name(path, sizeof path, "nospace");

    /* no file may grow past LIMIT bytes; the signal the kernel sends instead is ignored */
    signal(SIGXFSZ, SIG_IGN);
    struct rlimit lim = {LIMIT, LIMIT};
    CHECK(setrlimit(RLIMIT_FSIZE, &lim) == 0, "setrlimit(RLIMIT_FSIZE)");

    static char buf[BYTES];
    memset(buf, 7, sizeof buf);
    MPI_File fh;
    CHECK_SUCCESS(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                                MPI_INFO_NULL, &fh));
    MPI_Status st;
    /* independent: each rank writes past the limit */
    int err = MPI_File_write_at(fh, (MPI_Offset)rank * BYTES, buf, BYTES, MPI_BYTE, &st);
    CHECK_ERR(err, MPI_ERR_NO_SPACE, "MPI_File_write_at");
    /* a small write within the limit still works */
    CHECK_SUCCESS(MPI_File_write_at(fh, 0, buf, 16, MPI_BYTE, &st));
    /* collective: the whole job's data cross the limit */
    err = MPI_File_write_at_all(fh, (MPI_Offset)rank * BYTES, buf, BYTES, MPI_BYTE, &st);
    CHECK_ERR(err, MPI_ERR_NO_SPACE, "MPI_File_write_at_all");
    /* the failures went to the file's handler, MPI_ERRORS_RETURN, not to the communicator's */
    CHECK_SUCCESS(MPI_File_close(&fh));
    MPI_Finalize();
    return 0;
}
