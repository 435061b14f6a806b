/* footprint.c — start-up and memory footprint benchmark, one source for every MPI: a tiny
 * program (MPI_Init, one MPI_Barrier, one small MPI_Allreduce, MPI_Finalize) whose every rank
 * writes DIR/<rank>.txt for bench/footprint.py:
 *   init SECONDS         CLOCK_REALTIME right after MPI_Init returned
 *   map DEV INODE BYTES USED PATH  every shared file mapping (POSIX shm, SysV, memfd, files)
 *                        of the process after the collectives: BYTES its end offset in the
 *                        file, USED the file's allocated bytes (st_blocks through
 *                        /proc/self/map_files, which needs CAP_SYS_ADMIN; -1 without)
 *   hwm KIB, pss KIB     VmHWM (/proc/self/status) and Pss (/proc/self/smaps_rollup) just
 *                        before MPI_Finalize
 *   ok                   last line: the allreduce gave the right sum
 * and, before MPI_Init, DIR/job.<pid> holding SWITCHYARD_JOBID when the launcher set it
 * (Switchyard's mpiexec): the job's own /dev/shm names, which footprint.py may remove.
 * Usage: footprint DIR */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <time.h>

/* Writes DIR/job.<pid> with SWITCHYARD_JOBID, if set, so that footprint.py knows which /dev/shm
 * names are the job's even if the job dies in MPI_Init. */
static void note_job_id(const char *dir)
{
    const char *id = getenv("SWITCHYARD_JOBID");
    char path[4096];
    FILE *f;
    if (!id || !*id)
        return;
    snprintf(path, sizeof path, "%s/job.%ld", dir, (long)getpid());
    f = fopen(path, "w");
    if (f) {
        fprintf(f, "%s\n", id);
        fclose(f);
    }
}

/* The value of "KEY:   N kB" in a /proc file, or -1. */
static long proc_kib(const char *path, const char *key)
{
    FILE *f = fopen(path, "r");
    char line[256];
    long v = -1;
    size_t n = strlen(key);
    if (!f)
        return -1;
    while (fgets(line, sizeof line, f))
        if (strncmp(line, key, n) == 0 && line[n] == ':') {
            v = strtol(line + n + 1, NULL, 10);
            break;
        }
    fclose(f);
    return v;
}

int main(int argc, char **argv)
{
    struct timespec ts;
    int rank, size, one, sum;
    char path[4096], line[4096];
    FILE *out, *maps;

    if (argc >= 2)
        note_job_id(argv[1]);
    MPI_Init(&argc, &argv);
    clock_gettime(CLOCK_REALTIME, &ts);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Barrier(MPI_COMM_WORLD);
    one = rank;
    MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (argc < 2) {
        if (rank == 0)
            fprintf(stderr, "usage: footprint DIR\n");
        MPI_Finalize();
        return 2;
    }
    snprintf(path, sizeof path, "%s/%d.txt", argv[1], rank);
    out = fopen(path, "w");
    if (!out) {
        perror(path);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    fprintf(out, "init %ld.%09ld\n", (long)ts.tv_sec, ts.tv_nsec);
    /* "start-end perms offset major:minor inode path": shared ('s') mappings of a file. */
    maps = fopen("/proc/self/maps", "r");
    while (maps && fgets(line, sizeof line, maps)) {
        unsigned long start, end, offset, inode;
        char perms[8], dev[32];
        int at = 0;
        if (sscanf(line, "%lx-%lx %7s %lx %31s %lu %n", &start, &end, perms, &offset, dev, &inode, &at) >= 6 &&
            perms[3] == 's' && inode != 0) {
            struct stat st;
            char file[128];
            long long used = -1;
            snprintf(file, sizeof file, "/proc/self/map_files/%lx-%lx", start, end);
            if (stat(file, &st) == 0)
                used = (long long)st.st_blocks * 512;
            line[strcspn(line, "\n")] = 0;
            fprintf(out, "map %s %lu %lu %lld %s\n", dev, inode, offset + (end - start), used, line + at);
        }
    }
    if (maps)
        fclose(maps);
    fprintf(out, "hwm %ld\n", proc_kib("/proc/self/status", "VmHWM"));
    fprintf(out, "pss %ld\n", proc_kib("/proc/self/smaps_rollup", "Pss"));
    if (sum == size * (size - 1) / 2)
        fprintf(out, "ok\n");
    fclose(out);
    MPI_Finalize();
    return 0;
}
