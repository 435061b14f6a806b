/* io.c — `make bench` (BENCHES=io): MPI-IO throughput in MB/s: collective write and read of a
 * block-distributed 3-D array of doubles (each rank a sub-block: strided in the file), independent
 * contiguous writes of each rank's own block, and the raw limit, rank 0 alone writing the same
 * bytes with pwrite in 8 MiB pieces. Files go to BENCH_IO_DIR (default /tmp), sizes from
 * BENCH_IO_MIB; each figure is the best of 3, its time the slowest rank's; the data read back
 * are checked. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int rank, np;
static char path[512];

static void die(const char *what, int rc)
{
    char s[MPI_MAX_ERROR_STRING];
    int len = 0;
    MPI_Error_string(rc, s, &len);
    fprintf(stderr, "io: rank %d: %s: %s\n", rank, what, s);
    MPI_Abort(MPI_COMM_WORLD, 1);
}

#define TRY(what, call)              \
    do {                             \
        int rc_ = (call);            \
        if (rc_ != MPI_SUCCESS)      \
            die(what, rc_);          \
    } while (0)

/* Seconds of the slowest rank. */
static double slowest(double t)
{
    double m;
    MPI_Allreduce(&t, &m, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return m;
}

/* The global array: g[0] x g[1] x g[2] doubles, each rank a block of its sizes at its starts. */
struct grid {
    int g[3], sub[3], start[3];
    long long count; /* doubles in this rank's block */
};

/* A grid of about mib MiB over np ranks (each dimension a multiple of the process grid's). */
static struct grid grid_of(int mib)
{
    struct grid gr;
    int dims[3] = {0, 0, 0}, coords[3];
    MPI_Dims_create(np, 3, dims);
    double side = 1;
    while (side * side * side * 8 < (double)mib * 1048576)
        side += 1;
    int r = rank;
    for (int d = 2; d >= 0; d--)
        coords[d] = r % dims[d], r /= dims[d];
    gr.count = 1;
    for (int d = 0; d < 3; d++) {
        int n = ((int)side + dims[d] - 1) / dims[d];
        gr.g[d] = n * dims[d];
        gr.sub[d] = n;
        gr.start[d] = n * coords[d];
        gr.count *= n;
    }
    return gr;
}

/* Value of global element (i, j, k). */
static double value(const struct grid *gr, long long i, long long j, long long k)
{
    return (double)((i * gr->g[1] + j) * gr->g[2] + k);
}

static void fill(const struct grid *gr, double *a)
{
    long long n = 0;
    for (int i = 0; i < gr->sub[0]; i++)
        for (int j = 0; j < gr->sub[1]; j++)
            for (int k = 0; k < gr->sub[2]; k++)
                a[n++] = value(gr, gr->start[0] + i, gr->start[1] + j, gr->start[2] + k);
}

/* Collective write (write = 1) or read of the array through a subarray view: seconds. */
static double coll(const struct grid *gr, double *a, int write)
{
    MPI_Datatype ft;
    MPI_File fh;
    MPI_Type_create_subarray(3, gr->g, gr->sub, gr->start, MPI_ORDER_C, MPI_DOUBLE, &ft);
    MPI_Type_commit(&ft);
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    TRY("open", MPI_File_open(MPI_COMM_WORLD, path, write ? MPI_MODE_CREATE | MPI_MODE_WRONLY : MPI_MODE_RDONLY,
                              MPI_INFO_NULL, &fh));
    TRY("set_view", MPI_File_set_view(fh, 0, MPI_DOUBLE, ft, "native", MPI_INFO_NULL));
    if (write)
        TRY("write_all", MPI_File_write_all(fh, a, (int)gr->count, MPI_DOUBLE, MPI_STATUS_IGNORE));
    else
        TRY("read_all", MPI_File_read_all(fh, a, (int)gr->count, MPI_DOUBLE, MPI_STATUS_IGNORE));
    TRY("close", MPI_File_close(&fh));
    double t = slowest(MPI_Wtime() - t0);
    MPI_Type_free(&ft);
    return t;
}

/* Each rank writes its block as one contiguous piece at rank * bytes: seconds. */
static double indep(const char *buf, long long bytes)
{
    MPI_File fh;
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    TRY("open", MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh));
    for (long long done = 0; done < bytes;) {
        int n = bytes - done > (1 << 30) ? 1 << 30 : (int)(bytes - done);
        TRY("write_at", MPI_File_write_at(fh, (MPI_Offset)rank * bytes + done, buf + done, n, MPI_BYTE,
                                          MPI_STATUS_IGNORE));
        done += n;
    }
    TRY("close", MPI_File_close(&fh));
    return slowest(MPI_Wtime() - t0);
}

/* Rank 0 alone writes total bytes with pwrite in 8 MiB pieces: seconds. */
static double raw(long long total)
{
    static char buf[8 << 20];
    double t = 0;
    if (rank == 0) {
        memset(buf, 0x5a, sizeof buf);
        double t0 = MPI_Wtime();
        int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
        if (fd < 0)
            die("raw open", MPI_ERR_IO);
        for (long long done = 0; done < total;) {
            long long n = total - done < (8 << 20) ? total - done : 8 << 20;
            ssize_t k = pwrite(fd, buf, (size_t)n, done);
            if (k <= 0)
                die("raw pwrite", MPI_ERR_IO);
            done += k;
        }
        close(fd);
        t = MPI_Wtime() - t0;
        unlink(path);
    }
    return slowest(t);
}

static void drop(void)
{
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        MPI_File_delete(path, MPI_INFO_NULL);
    MPI_Barrier(MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    const char *dir = getenv("BENCH_IO_DIR") ? getenv("BENCH_IO_DIR") : "/tmp";
    int pid = (int)getpid();
    MPI_Bcast(&pid, 1, MPI_INT, 0, MPI_COMM_WORLD);
    snprintf(path, sizeof path, "%s/swy_bench_io_%d", dir, pid);
    /* total MiB of each figure: BENCH_IO_MIB ("64 256" by default; the range goes to 1024) */
    int sizes[8], nsizes = 0;
    const char *spec = getenv("BENCH_IO_MIB") ? getenv("BENCH_IO_MIB") : "64 256";
    for (char *end; nsizes < 8; spec = end) {
        long v = strtol(spec, &end, 10);
        if (end == spec)
            break;
        if (v > 0)
            sizes[nsizes++] = (int)v;
    }
    for (int s = 0; s < nsizes; s++) {
        struct grid gr = grid_of(sizes[s]);
        double *a = malloc((size_t)gr.count * sizeof *a), *b = malloc((size_t)gr.count * sizeof *b);
        if (!a || !b)
            die("malloc", MPI_ERR_NO_MEM);
        fill(&gr, a);
        double total = (double)gr.g[0] * gr.g[1] * gr.g[2] * 8, w = 1e30, rd = 1e30, in = 1e30, rw = 1e30;
        for (int k = 0; k < 3; k++) {
            double t = coll(&gr, a, 1);
            w = t < w ? t : w;
            memset(b, 0, (size_t)gr.count * sizeof *b);
            t = coll(&gr, b, 0);
            rd = t < rd ? t : rd;
            if (memcmp(a, b, (size_t)gr.count * sizeof *a) != 0)
                die("collective read: wrong data", MPI_ERR_OTHER);
            drop();
            t = indep((const char *)a, gr.count * 8);
            in = t < in ? t : in;
            drop();
            t = raw((long long)total);
            rw = t < rw ? t : rw;
        }
        if (rank == 0) {
            printf("coll_write_MBps_np%d %d %.1f\n", np, sizes[s], total / w / 1e6);
            printf("coll_read_MBps_np%d %d %.1f\n", np, sizes[s], total / rd / 1e6);
            printf("indep_write_MBps_np%d %d %.1f\n", np, sizes[s], (double)gr.count * 8 * np / in / 1e6);
            printf("raw_pwrite_MBps_np%d %d %.1f\n", np, sizes[s], total / rw / 1e6);
        }
        free(a);
        free(b);
    }
    MPI_Finalize();
    return 0;
}
