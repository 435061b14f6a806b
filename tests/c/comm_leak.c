/* comm_leak.c — 1,000 communicators of every kind created and freed without growth in memory or
 * descriptors; Switchyard only: running out of context ids is MPI_ERR_OTHER, not a hang. */
#include <dirent.h>
#include <mpi.h>
#include <stdlib.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "check.h"

/* Resident pages that are not shared (the transports' shared memory gets touched as it is
 * used, which is no leak). */
static long resident_pages(void)
{
    long size = 0, res = 0, shared = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    CHECK(f != NULL, "cannot open /proc/self/statm");
    CHECK(fscanf(f, "%ld %ld %ld", &size, &res, &shared) == 3, "cannot read /proc/self/statm");
    fclose(f);
    return res - shared;
}

static int open_fds(void)
{
    int n = 0;
    DIR *d = opendir("/proc/self/fd");
    CHECK(d != NULL, "cannot open /proc/self/fd");
    for (struct dirent *e; (e = readdir(d)) != NULL;)
        n += e->d_name[0] != '.';
    closedir(d);
    return n;
}

static long heap_in_use(void)
{
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
    return (long)mallinfo2().uordblks;
#else
    return 0;
#endif
}

/* Creates one communicator of kind k % 8 and frees it (everything it needed too). */
static void one(int k, int me, int np)
{
    MPI_Comm c = MPI_COMM_NULL, d = MPI_COMM_NULL;
    MPI_Group wg, g;
    MPI_Request req;
    int dims[2] = {0, 0}, periods[2] = {1, 0};
    switch (k % 8) {
    case 0:
        CHECK_SUCCESS(MPI_Comm_dup(MPI_COMM_WORLD, &c));
        break;
    case 1:
        CHECK_SUCCESS(MPI_Comm_split(MPI_COMM_WORLD, me % 2, -me, &c));
        break;
    case 2:
        MPI_Comm_group(MPI_COMM_WORLD, &wg);
        MPI_Group_incl(wg, 1, &me, &g);
        CHECK_SUCCESS(MPI_Comm_create_group(MPI_COMM_WORLD, g, k, &c));
        MPI_Group_free(&g);
        MPI_Group_free(&wg);
        break;
    case 3:
        MPI_Comm_group(MPI_COMM_WORLD, &wg);
        CHECK_SUCCESS(MPI_Comm_create(MPI_COMM_WORLD, wg, &c));
        MPI_Group_free(&wg);
        break;
    case 4:
        MPI_Dims_create(np, 2, dims);
        CHECK_SUCCESS(MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &c));
        break;
    case 5:
        CHECK_SUCCESS(MPI_Comm_idup(MPI_COMM_WORLD, &c, &req));
        CHECK_SUCCESS(MPI_Wait(&req, MPI_STATUS_IGNORE));
        break;
    case 6: { /* an inter-communicator between halves, then merged */
        if (np < 2) {
            CHECK_SUCCESS(MPI_Comm_dup(MPI_COMM_SELF, &c));
            break;
        }
        MPI_Comm half;
        int inA = me < np / 2;
        CHECK_SUCCESS(MPI_Comm_split(MPI_COMM_WORLD, inA, 0, &half));
        CHECK_SUCCESS(MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, inA ? np / 2 : 0, k, &d));
        CHECK_SUCCESS(MPI_Intercomm_merge(d, !inA, &c));
        MPI_Comm_free(&half);
        MPI_Comm_free(&d);
        break;
    }
    default: {
        int src = (me + np - 1) % np, dst = (me + 1) % np;
        int *volatile unweighted = MPI_UNWEIGHTED; /* (GCC 12 warns about (int *)10 for an array) */
        CHECK_SUCCESS(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &src, unweighted, 1, &dst, unweighted,
                                                     MPI_INFO_NULL, 0, &c));
        break;
    }
    }
    /* a message through it, so that it is really used */
    int cme, cn, got = -1;
    MPI_Comm_rank(c, &cme);
    MPI_Comm_size(c, &cn);
    CHECK_SUCCESS(MPI_Sendrecv(&cme, 1, MPI_INT, (cme + 1) % cn, 0, &got, 1, MPI_INT, (cme + cn - 1) % cn, 0, c,
                               MPI_STATUS_IGNORE));
    CHECK_EQ_INT(got, (cme + cn - 1) % cn);
    CHECK_SUCCESS(MPI_Comm_free(&c));
}

int main(int argc, char **argv)
{
    int me, np;
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);

    for (int k = 0; k < 80; k++) /* warm up: tables and pools reach their size */
        one(k, me, np);
    long res0 = resident_pages(), heap0 = heap_in_use();
    int fd0 = open_fds();
    for (int k = 0; k < 1000; k++)
        one(k, me, np);
    long res1 = resident_pages(), heap1 = heap_in_use();
    int fd1 = open_fds();
    if (getenv("COMM_LEAK_VERBOSE"))
        fprintf(stderr, "rank %d: %ld pages, %ld heap bytes, %d descriptors more\n", me, res1 - res0, heap1 - heap0,
                fd1 - fd0);
    /* under valgrind or the sanitizers (preloaded, or built in: make check-sanitize sets
     * ASAN_OPTIONS, make check-tsan TSAN_OPTIONS) the heap is theirs, and leaks are theirs */
    const char *preload = getenv("LD_PRELOAD"), *asan = getenv("ASAN_OPTIONS"), *tsan = getenv("TSAN_OPTIONS");
    if ((!preload || !*preload) && !asan && !tsan) {
        CHECK(res1 - res0 <= 64, "resident memory grew by %ld pages over 1000 communicators", res1 - res0);
        CHECK(heap1 - heap0 <= 16384, "the heap grew by %ld bytes over 1000 communicators", heap1 - heap0);
    }
    CHECK_EQ_INT(fd1, fd0);

    if (CHECK_SWITCHYARD) {
        /* running out of context ids: a clear MPI_ERR_OTHER (MPI_COMM_SELF: no partner) */
        int cap = 1 << 15, n = 0, err = MPI_SUCCESS;
        MPI_Comm *keep = malloc(sizeof(MPI_Comm) * (size_t)cap);
        while (n < cap && (err = MPI_Comm_dup(MPI_COMM_SELF, &keep[n])) == MPI_SUCCESS)
            n++;
        CHECK_ERR(err, MPI_ERR_OTHER, "out of context ids");
        CHECK(n > 1000, "only %d communicators before running out", n);
        MPI_Comm_free(&keep[n - 1]);
        CHECK_SUCCESS(MPI_Comm_dup(MPI_COMM_SELF, &keep[n - 1])); /* a freed id is reused */
        for (int i = 0; i < n; i++)
            MPI_Comm_free(&keep[i]);
        free(keep);
        one(0, me, np);
    }
    MPI_Finalize();
    return 0;
}
