/* io_test.h: what the MPI-IO tests share: the name of a test's file, unique per job, in
 * $TMPDIR (default /tmp), and a scratch file of that name. */
#ifndef IO_TEST_H
#define IO_TEST_H

#include "check.h"

#include <unistd.h>

/* Rank 0 names the file "<dir>/swy_io_<test>_<its pid>"; every rank of MPI_COMM_WORLD gets it. */
static inline void io_file_name(char *name, int len, const char *test)
{
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        const char *dir = getenv("TMPDIR");
        if (!dir || !*dir)
            dir = "/tmp";
        int n = snprintf(name, len, "%s/swy_io_%s_%ld", dir, test, (long)getpid());
        CHECK(n > 0 && n < len, "file name too long");
    }
    CHECK_SUCCESS(MPI_Bcast(name, len, MPI_CHAR, 0, MPI_COMM_WORLD));
}

/* A scratch file of test `test` (io_file_name) opened by every rank of MPI_COMM_WORLD for
 * reading and writing, deleted when closed. */
static inline MPI_File io_scratch_open(const char *test)
{
    char path[512];
    MPI_File fh;
    io_file_name(path, sizeof path, test);
    CHECK_SUCCESS(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                                MPI_INFO_NULL, &fh));
    return fh;
}

#endif
