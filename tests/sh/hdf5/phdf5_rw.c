/* phdf5_rw.c — parallel HDF5 over MPI-IO on any number of ranks: collective, strided, chunked and
 * independent hyperslab writes, attributes, then a read-only reopen that checks every value. */
#include <hdf5.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define R 3   /* rows each rank owns in "rows" */
#define CB 2  /* columns each rank owns in "strided": columns rank, rank + N, ... */

static int rank, nranks;

/* Any failed call ends the whole job: the other ranks may be waiting in a collective call. */
static void die(const char *what, int line)
{
    fprintf(stderr, "rank %d: FAIL line %d: %s\n", rank, line, what);
    H5Eprint2(H5E_DEFAULT, stderr);
    fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, 1);
    exit(1);
}
#define CHECK(call) do { if ((call) < 0) die(#call, __LINE__); } while (0)
#define HID(var, call) do { if (((var) = (call)) < 0) die(#call, __LINE__); } while (0)

/* The value every element must hold, by dataset: never 0, HDF5's fill value. */
static int rows_value(hsize_t i, hsize_t j) { return (int)(1000 * i + j + 1); }
static int strided_value(hsize_t i, hsize_t j) { return -(int)(100000 + 100 * i + j); }
static int chunked_value(hsize_t i, hsize_t j) { return (int)(7 * i + 3 * j + 11); }
static double indep_value(hsize_t i, hsize_t j) { return (double)i + (double)j / 128.0 + 0.25; }

/* The datasets' shapes: NROWS x NCOLS, where NCOLS lets every rank own CB strided columns. */
#define NROWS ((hsize_t)nranks * R)
#define NCOLS ((hsize_t)nranks * CB)

static hid_t transfer(H5FD_mpio_xfer_t mode)
{
    hid_t dxpl;
    HID(dxpl, H5Pcreate(H5P_DATASET_XFER));
    CHECK(H5Pset_dxpl_mpio(dxpl, mode));
    return dxpl;
}

/* HDF5 falls back to independent I/O silently when it cannot do a collective transfer: the last
 * one on DXPL must really have been collective (MPI_File_*_all underneath). */
static void was_collective(hid_t dxpl, const char *name)
{
    H5D_mpio_actual_io_mode_t mode;
    uint32_t local, global;
    CHECK(H5Pget_mpio_actual_io_mode(dxpl, &mode));
    if (mode == H5D_MPIO_NO_COLLECTIVE) {
        CHECK(H5Pget_mpio_no_collective_cause(dxpl, &local, &global));
        fprintf(stderr, "rank %d: FAIL the collective transfer of %s was not collective (causes 0x%x, 0x%x)\n",
                rank, name, (unsigned)local, (unsigned)global);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
}

static hid_t file_access(int collective_metadata)
{
    hid_t fapl;
    HID(fapl, H5Pcreate(H5P_FILE_ACCESS));
    CHECK(H5Pset_fapl_mpio(fapl, MPI_COMM_WORLD, MPI_INFO_NULL));
    if (collective_metadata) {
        CHECK(H5Pset_all_coll_metadata_ops(fapl, 1));
        CHECK(H5Pset_coll_metadata_write(fapl, 1));
    }
    return fapl;
}

/* This rank's part of each dataset, as a selection of FILESPACE:
 *   "rows":    its R consecutive rows (contiguous in the file);
 *   "strided": columns rank, rank + N, ... of every row (start rank, stride N: non-contiguous);
 *   "chunked": like "rows", in a chunked dataset whose chunks (2 x NCOLS/2) straddle the ranks;
 *   "indep":   rows rank, rank + N, ... (stride N), written independently. */
static void select_mine(const char *name, hid_t filespace, hsize_t *count)
{
    hsize_t start[2], stride[2];
    if (!strcmp(name, "strided")) {
        start[0] = 0, start[1] = rank, stride[0] = 1, stride[1] = nranks;
        count[0] = NROWS, count[1] = CB;
    } else if (!strcmp(name, "indep")) {
        start[0] = rank, start[1] = 0, stride[0] = nranks, stride[1] = 1;
        count[0] = R, count[1] = NCOLS;
    } else {
        start[0] = (hsize_t)rank * R, start[1] = 0, stride[0] = stride[1] = 1;
        count[0] = R, count[1] = NCOLS;
    }
    CHECK(H5Sselect_hyperslab(filespace, H5S_SELECT_SET, start, stride, count, NULL));
}

/* The file row and column of element K (row-major) of this rank's selection in NAME. */
static void mine_to_file(const char *name, size_t k, hsize_t *i, hsize_t *j)
{
    hsize_t a = k / (!strcmp(name, "strided") ? CB : NCOLS);
    hsize_t b = k % (!strcmp(name, "strided") ? CB : NCOLS);
    if (!strcmp(name, "strided"))
        *i = a, *j = (hsize_t)rank + b * nranks;
    else if (!strcmp(name, "indep"))
        *i = (hsize_t)rank + a * nranks, *j = b;
    else
        *i = (hsize_t)rank * R + a, *j = b;
}

static int value_int(const char *name, hsize_t i, hsize_t j)
{
    return !strcmp(name, "rows") ? rows_value(i, j)
         : !strcmp(name, "strided") ? strided_value(i, j) : chunked_value(i, j);
}

static const char *const INT_SETS[] = {"rows", "strided", "chunked"};

static void write_file(const char *path, int collective_metadata)
{
    hid_t fapl = file_access(collective_metadata), file, space, dcpl, coll = transfer(H5FD_MPIO_COLLECTIVE),
          indep = transfer(H5FD_MPIO_INDEPENDENT);
    hsize_t dims[2] = {NROWS, NCOLS}, chunk[2] = {2, (hsize_t)nranks};
    HID(file, H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, fapl));
    HID(space, H5Screate_simple(2, dims, NULL));
    HID(dcpl, H5Pcreate(H5P_DATASET_CREATE));
    CHECK(H5Pset_chunk(dcpl, 2, chunk));

    for (int d = 0; d < 4; d++) {
        const char *name = d < 3 ? INT_SETS[d] : "indep";
        hid_t set, filespace, memspace;
        hsize_t count[2];
        HID(set, H5Dcreate2(file, name, d < 3 ? H5T_NATIVE_INT : H5T_NATIVE_DOUBLE, space, H5P_DEFAULT,
                            !strcmp(name, "chunked") ? dcpl : H5P_DEFAULT, H5P_DEFAULT));
        HID(filespace, H5Dget_space(set));
        select_mine(name, filespace, count);
        HID(memspace, H5Screate_simple(2, count, NULL));
        size_t n = (size_t)(count[0] * count[1]);
        if (d < 3) {
            int *buf = malloc(n * sizeof *buf);
            for (size_t k = 0; k < n; k++) {
                hsize_t i, j;
                mine_to_file(name, k, &i, &j);
                buf[k] = value_int(name, i, j);
            }
            CHECK(H5Dwrite(set, H5T_NATIVE_INT, memspace, filespace, coll, buf));
            was_collective(coll, name);
            free(buf);
        } else {
            double *buf = malloc(n * sizeof *buf);
            for (size_t k = 0; k < n; k++) {
                hsize_t i, j;
                mine_to_file(name, k, &i, &j);
                buf[k] = indep_value(i, j);
            }
            CHECK(H5Dwrite(set, H5T_NATIVE_DOUBLE, memspace, filespace, indep, buf));
            free(buf);
        }
        if (!strcmp(name, "rows")) {
            /* An attribute on a dataset: every rank writes the same value, as HDF5 requires. */
            hid_t aspace, attr;
            double scale = 2.5;
            HID(aspace, H5Screate(H5S_SCALAR));
            HID(attr, H5Acreate2(set, "scale", H5T_NATIVE_DOUBLE, aspace, H5P_DEFAULT, H5P_DEFAULT));
            CHECK(H5Awrite(attr, H5T_NATIVE_DOUBLE, &scale));
            CHECK(H5Aclose(attr));
            CHECK(H5Sclose(aspace));
        }
        CHECK(H5Sclose(memspace));
        CHECK(H5Sclose(filespace));
        CHECK(H5Dclose(set));
    }

    /* An attribute on the root group: the shape the file was written with. */
    hid_t aspace, attr;
    hsize_t three = 3;
    int shape[3] = {nranks, R, CB};
    HID(aspace, H5Screate_simple(1, &three, NULL));
    HID(attr, H5Acreate2(file, "shape", H5T_NATIVE_INT, aspace, H5P_DEFAULT, H5P_DEFAULT));
    CHECK(H5Awrite(attr, H5T_NATIVE_INT, shape));
    CHECK(H5Aclose(attr));
    CHECK(H5Sclose(aspace));

    CHECK(H5Pclose(dcpl));
    CHECK(H5Sclose(space));
    CHECK(H5Pclose(coll));
    CHECK(H5Pclose(indep));
    CHECK(H5Fclose(file));
    CHECK(H5Pclose(fapl));
}

static long mismatches;

static void expect(int ok, const char *what, const char *name, hsize_t i, hsize_t j, double got, double want)
{
    if (ok)
        return;
    if (mismatches++ < 10)
        fprintf(stderr, "rank %d: FAIL %s of %s[%llu][%llu]: read %g, expected %g\n", rank, what, name,
                (unsigned long long)i, (unsigned long long)j, got, want);
}

static void read_file(const char *path, int collective_metadata)
{
    hid_t fapl = file_access(collective_metadata), file, coll = transfer(H5FD_MPIO_COLLECTIVE),
          indep = transfer(H5FD_MPIO_INDEPENDENT);
    HID(file, H5Fopen(path, H5F_ACC_RDONLY, fapl));

    hid_t attr;
    int shape[3] = {0, 0, 0};
    HID(attr, H5Aopen(file, "shape", H5P_DEFAULT));
    CHECK(H5Aread(attr, H5T_NATIVE_INT, shape));
    CHECK(H5Aclose(attr));
    if (shape[0] != nranks || shape[1] != R || shape[2] != CB) {
        fprintf(stderr, "rank %d: FAIL attribute shape reads {%d, %d, %d}, expected {%d, %d, %d}\n", rank,
                shape[0], shape[1], shape[2], nranks, R, CB);
        mismatches++;
    }

    for (int d = 0; d < 4; d++) {
        const char *name = d < 3 ? INT_SETS[d] : "indep";
        hid_t set, filespace, memspace;
        hsize_t dims[2], count[2];
        HID(set, H5Dopen2(file, name, H5P_DEFAULT));
        HID(filespace, H5Dget_space(set));
        if (H5Sget_simple_extent_dims(filespace, dims, NULL) != 2 || dims[0] != NROWS || dims[1] != NCOLS) {
            fprintf(stderr, "rank %d: FAIL %s has the wrong shape\n", rank, name);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }

        /* The whole dataset, independently: what every rank wrote. */
        size_t all = (size_t)(NROWS * NCOLS);
        if (d < 3) {
            int *buf = calloc(all, sizeof *buf);
            CHECK(H5Dread(set, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, indep, buf));
            for (hsize_t i = 0; i < NROWS; i++)
                for (hsize_t j = 0; j < NCOLS; j++)
                    expect(buf[i * NCOLS + j] == value_int(name, i, j), "whole read", name, i, j,
                           buf[i * NCOLS + j], value_int(name, i, j));
            free(buf);
        } else {
            double *buf = calloc(all, sizeof *buf);
            CHECK(H5Dread(set, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, indep, buf));
            for (hsize_t i = 0; i < NROWS; i++)
                for (hsize_t j = 0; j < NCOLS; j++)
                    expect(buf[i * NCOLS + j] == indep_value(i, j), "whole read", name, i, j,
                           buf[i * NCOLS + j], indep_value(i, j));
            free(buf);
        }

        /* This rank's own part, collectively. */
        select_mine(name, filespace, count);
        HID(memspace, H5Screate_simple(2, count, NULL));
        size_t n = (size_t)(count[0] * count[1]);
        if (d < 3) {
            int *buf = calloc(n, sizeof *buf);
            CHECK(H5Dread(set, H5T_NATIVE_INT, memspace, filespace, coll, buf));
            was_collective(coll, name);
            for (size_t k = 0; k < n; k++) {
                hsize_t i, j;
                mine_to_file(name, k, &i, &j);
                expect(buf[k] == value_int(name, i, j), "collective read", name, i, j, buf[k],
                       value_int(name, i, j));
            }
            free(buf);
        } else {
            double *buf = calloc(n, sizeof *buf);
            CHECK(H5Dread(set, H5T_NATIVE_DOUBLE, memspace, filespace, coll, buf));
            was_collective(coll, name);
            for (size_t k = 0; k < n; k++) {
                hsize_t i, j;
                mine_to_file(name, k, &i, &j);
                expect(buf[k] == indep_value(i, j), "collective read", name, i, j, buf[k], indep_value(i, j));
            }
            free(buf);
        }
        if (!strcmp(name, "rows")) {
            double scale = 0;
            HID(attr, H5Aopen(set, "scale", H5P_DEFAULT));
            CHECK(H5Aread(attr, H5T_NATIVE_DOUBLE, &scale));
            CHECK(H5Aclose(attr));
            expect(scale == 2.5, "attribute scale", name, 0, 0, scale, 2.5);
        }
        CHECK(H5Sclose(memspace));
        CHECK(H5Sclose(filespace));
        CHECK(H5Dclose(set));
    }
    CHECK(H5Pclose(coll));
    CHECK(H5Pclose(indep));
    CHECK(H5Fclose(file));
    CHECK(H5Pclose(fapl));
}

/* phdf5_rw FILE [collective-metadata] */
int main(int argc, char **argv)
{
    char lib[MPI_MAX_LIBRARY_VERSION_STRING];
    int len;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    if (argc < 2) {
        fprintf(stderr, "usage: phdf5_rw FILE [collective-metadata]\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    int collective_metadata = argc > 2 && !strcmp(argv[2], "collective-metadata");
    MPI_Get_library_version(lib, &len);
    lib[strcspn(lib, "\n")] = 0;

    write_file(argv[1], collective_metadata);
    MPI_Barrier(MPI_COMM_WORLD);
    read_file(argv[1], collective_metadata);

    long total;
    MPI_Allreduce(&mismatches, &total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (total) {
        if (rank == 0)
            fprintf(stderr, "FAIL: %ld values read back wrong over %d ranks\n", total, nranks);
        MPI_Finalize();
        return 1;
    }
    if (rank == 0) {
        unsigned maj, min, rel;
        H5get_libversion(&maj, &min, &rel);
        printf("phdf5_rw: %d ranks%s, HDF5 %u.%u.%u, all values read back right; MPI library: %s\n",
               nranks, collective_metadata ? " (collective metadata)" : "", maj, min, rel, lib);
    }
    MPI_Finalize();
    return 0;
}
