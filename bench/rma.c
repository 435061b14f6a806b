/* rma.c — one-sided (RMA) benchmark, one source for every MPI: latency of put, get, accumulate,
 * fetch-and-op and compare-and-swap under lock, flush and fence, put/get bandwidth. Prints "NAME SIZE VALUE".
 *
 * Windows come from MPI_Win_allocate, or with the argument "create" from MPI_Win_create over malloc'ed
 * memory (metrics then start with "create_"). Ranks pair up, 2k the origin and 2k+1 the target, so every rank
 * of an even job is busy (with an odd number the last one only takes part in the fences and barriers).
 * A figure is that of the slowest pair (max over the origins), in a metric OP_SYNC_npN_us (N: ranks):
 *   lock   MPI_Win_lock(MPI_LOCK_SHARED, target) / op / MPI_Win_unlock per operation (OSU's -s lock)
 *   flush  one MPI_Win_lock_all before the timed loop, then op / MPI_Win_flush(target) per operation
 *   fence  op / MPI_Win_fence per operation: each fence closes one operation's epoch and opens the
 *          next (every rank calls it, targets too)
 * put, get, acc (MPI_Accumulate of doubles, MPI_SUM): 8 B to 4 KiB (x4, and 4 KiB); fop
 * (MPI_Fetch_and_op, int64, MPI_SUM) and cas (MPI_Compare_and_swap, int64): 8 B. put_bw_npN_MBps,
 * get_bw_npN_MBps: 8 B to 4 MiB (x4, and 4 MiB), 64 operations in flight under MPI_Win_lock_all, then one
 * MPI_Win_flush: MB/s of one pair (the slowest). Each figure is the best of 3 timed rounds of about 10 ms
 * (sized by a warm-up and a sizing round, so a slow MPI takes no longer). Results are checked (each value
 * a fetch-and-op or compare-and-swap returns, the counters' totals, the accumulated sums, a 4 MiB put
 * read back by a get): a wrong one prints an error and calls MPI_Abort.
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { PUT, GET, ACC, FOP, CAS, NOPS };
enum { LOCK, FLUSH, FENCE, NSYNCS };
static const char *op_name[NOPS] = {"put", "get", "acc", "fop", "cas"};
static const char *sync_name[NSYNCS] = {"lock", "flush", "fence"};

#define AREA ((MPI_Aint)4 << 20) /* put/get area of the window, and size of the local buffers */
#define ACC_AREA 4096            /* then 4 KiB of doubles for MPI_Accumulate */
#define ACC_DISP AREA
#define FOP_DISP (AREA + ACC_AREA)   /* the fetch-and-op counter */
#define CAS_DISP (AREA + ACC_AREA + 8) /* the compare-and-swap slot */
#define WIN_BYTES (AREA + ACC_AREA + 16)
#define ROUND 0.01    /* seconds a timed round aims at */
#define BW_WINDOW 64  /* operations in flight per flush */

static MPI_Win win;
static int me, np, origin, target; /* origin: this rank issues operations, to rank target */
static char *src, *dst;            /* local buffers of AREA bytes */
static int64_t fop_next, cas_next; /* the counters' values as this origin expects them */
static double acc_ops, acc_full;   /* accumulates done, and those covering all of ACC_AREA */
static int64_t fop_one = 1, fop_result, cas_value, cas_compare, cas_result; /* their buffers */

static void fail(const char *what, long long got, long long want)
{
    fprintf(stderr, "rma: rank %d: wrong result: %s: got %lld, expected %lld\n", me, what, got, want);
    MPI_Abort(MPI_COMM_WORLD, 2);
}

static void issue(int op, int n)
{
    switch (op) {
    case PUT:
        MPI_Put(src, n, MPI_BYTE, target, 0, n, MPI_BYTE, win);
        break;
    case GET:
        MPI_Get(dst, n, MPI_BYTE, target, 0, n, MPI_BYTE, win);
        break;
    case ACC:
        MPI_Accumulate(src + AREA - ACC_AREA, n / 8, MPI_DOUBLE, target, ACC_DISP, n / 8, MPI_DOUBLE,
                       MPI_SUM, win);
        acc_ops++;
        if (n == ACC_AREA)
            acc_full++;
        break;
    case FOP:
        MPI_Fetch_and_op(&fop_one, &fop_result, MPI_INT64_T, target, FOP_DISP, MPI_SUM, win);
        break;
    case CAS:
        cas_compare = cas_next;
        cas_value = cas_next + 1;
        MPI_Compare_and_swap(&cas_value, &cas_compare, &cas_result, MPI_INT64_T, target, CAS_DISP, win);
        break;
    }
}

/* After the operation's completion: the value it fetched must be the one expected (one origin per target). */
static void check(int op)
{
    if (op == FOP) {
        if (fop_result != fop_next)
            fail("MPI_Fetch_and_op's fetched value", (long long)fop_result, (long long)fop_next);
        fop_next++;
    } else if (op == CAS) {
        if (cas_result != cas_next)
            fail("MPI_Compare_and_swap's fetched value", (long long)cas_result, (long long)cas_next);
        cas_next++;
    }
}

/* One round of iters operations of n bytes under sync; seconds per operation of the slowest origin. */
static double run(int op, int sync, int n, int iters)
{
    double t = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    if (sync == FENCE) {
        MPI_Win_fence(MPI_MODE_NOPRECEDE, win);
        double t0 = MPI_Wtime();
        for (int i = 0; i < iters; i++) {
            if (origin)
                issue(op, n);
            MPI_Win_fence(i == iters - 1 ? MPI_MODE_NOSUCCEED : 0, win);
            if (origin)
                check(op);
        }
        t = MPI_Wtime() - t0;
    } else if (origin) {
        if (sync == FLUSH)
            MPI_Win_lock_all(0, win);
        double t0 = MPI_Wtime();
        for (int i = 0; i < iters; i++) {
            if (sync == LOCK) {
                MPI_Win_lock(MPI_LOCK_SHARED, target, 0, win);
                issue(op, n);
                MPI_Win_unlock(target, win);
            } else {
                issue(op, n);
                MPI_Win_flush(target, win);
            }
            check(op);
        }
        t = MPI_Wtime() - t0;
        if (sync == FLUSH)
            MPI_Win_unlock_all(win);
    }
    double worst;
    MPI_Allreduce(&t, &worst, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return worst / iters;
}

/* One round of iters windows of BW_WINDOW puts or gets of n bytes then a flush; seconds per window of
 * the slowest origin. Beyond AREA / BW_WINDOW bytes a window's operations wrap around the area (the same
 * data to the same places). */
static double run_bw(int op, int n, int iters)
{
    double t = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    if (origin) {
        MPI_Win_lock_all(0, win);
        double t0 = MPI_Wtime();
        for (int i = 0; i < iters; i++) {
            for (int w = 0; w < BW_WINDOW; w++) {
                MPI_Aint off = (MPI_Aint)w * n % AREA;
                if (op == PUT)
                    MPI_Put(src + off, n, MPI_BYTE, target, off, n, MPI_BYTE, win);
                else
                    MPI_Get(dst + off, n, MPI_BYTE, target, off, n, MPI_BYTE, win);
            }
            MPI_Win_flush(target, win);
        }
        t = MPI_Wtime() - t0;
        MPI_Win_unlock_all(win);
    }
    double worst;
    MPI_Allreduce(&t, &worst, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return worst / iters;
}

/* Warm-up, a sizing round (one window for bandwidth: both), then the best of 3 rounds of about ROUND
 * seconds (the same count on every rank). */
static double best_of_3(int op, int sync, int n, int min_iters)
{
    int bw = sync < 0;
    double t = bw ? run_bw(op, n, 1) : (run(op, sync, n, 2), run(op, sync, n, 5));
    int iters = t > 0 ? (int)(ROUND / t) : 200000;
    iters = iters < min_iters ? min_iters : iters > 200000 ? 200000 : iters;
    double best = 1e9;
    for (int r = 0; r < 3; r++) {
        t = bw ? run_bw(op, n, iters) : run(op, sync, n, iters);
        best = t < best ? t : best;
    }
    return best;
}

/* The size after n: 4 n, or max if that passes it (8, 32, ..., 2048, 4096), then past max. */
static int next_size(int n, int max)
{
    return n == max ? max + 1 : n * 4 > max ? max : n * 4;
}

/* The totals: counters, accumulated sums, and a 4 MiB put read back by a get. */
static void final_check(void)
{
    if (!origin)
        return;
    int64_t got, none = 0;
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, target, 0, win);
    MPI_Fetch_and_op(&none, &got, MPI_INT64_T, target, FOP_DISP, MPI_NO_OP, win);
    MPI_Win_flush(target, win);
    if (got != fop_next)
        fail("the fetch-and-op counter's total", (long long)got, (long long)fop_next);
    MPI_Fetch_and_op(&none, &got, MPI_INT64_T, target, CAS_DISP, MPI_NO_OP, win);
    MPI_Win_flush(target, win);
    if (got != cas_next)
        fail("the compare-and-swap slot's total", (long long)got, (long long)cas_next);
    double sums[ACC_AREA / 8];
    MPI_Get(sums, ACC_AREA / 8, MPI_DOUBLE, target, ACC_DISP, ACC_AREA / 8, MPI_DOUBLE, win);
    MPI_Win_unlock(target, win);
    if (sums[0] != acc_ops)
        fail("the accumulated sum of the first double", (long long)sums[0], (long long)acc_ops);
    if (sums[ACC_AREA / 8 - 1] != acc_full)
        fail("the accumulated sum of the last double", (long long)sums[ACC_AREA / 8 - 1],
             (long long)acc_full);
    for (MPI_Aint i = 0; i < AREA; i++)
        src[i] = (char)(i * 7 + me * 13 + (i >> 12));
    memset(dst, 0, (size_t)AREA);
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, target, 0, win);
    MPI_Put(src, (int)AREA, MPI_BYTE, target, 0, (int)AREA, MPI_BYTE, win);
    MPI_Win_unlock(target, win);
    MPI_Win_lock(MPI_LOCK_SHARED, target, 0, win);
    MPI_Get(dst, (int)AREA, MPI_BYTE, target, 0, (int)AREA, MPI_BYTE, win);
    MPI_Win_unlock(target, win);
    for (MPI_Aint i = 0; i < AREA; i++)
        if (dst[i] != src[i]) {
            fprintf(stderr, "rma: rank %d: wrong result: a 4 MiB put read back by a get: byte %lld is %d, "
                    "expected %d\n", me, (long long)i, dst[i] & 255, src[i] & 255);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    setvbuf(stdout, NULL, _IOLBF, 0); /* each figure out at once: a job stopped at bench/run.sh's
                                         time limit keeps those it printed */
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    if (np < 2) {
        fprintf(stderr, "rma: needs 2 ranks or more\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    origin = me % 2 == 0 && me + 1 < np;
    target = origin ? me + 1 : MPI_PROC_NULL;
    char *base = NULL;
    int create = argc > 1 && strcmp(argv[1], "create") == 0;
    const char *prefix = create ? "create_" : "";
    if (create && !(base = malloc((size_t)WIN_BYTES))) {
        fprintf(stderr, "rma: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    if (create)
        MPI_Win_create(base, WIN_BYTES, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    else
        MPI_Win_allocate(WIN_BYTES, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
    memset(base, 0, (size_t)WIN_BYTES);
    src = malloc((size_t)AREA);
    dst = malloc((size_t)AREA);
    if (!src || !dst) {
        fprintf(stderr, "rma: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    memset(src, 1, (size_t)AREA);
    memset(dst, 0, (size_t)AREA);
    for (int i = 0; i < ACC_AREA / 8; i++)
        ((double *)(src + AREA - ACC_AREA))[i] = 1.0;
    MPI_Barrier(MPI_COMM_WORLD); /* every window zeroed before any operation reaches it */
    char metric[64];
    for (int op = 0; op < NOPS; op++)
        for (int sync = 0; sync < NSYNCS; sync++) {
            snprintf(metric, sizeof metric, "%s%s_%s_np%d_us", prefix, op_name[op], sync_name[sync], np);
            for (int n = 8; n <= (op >= FOP ? 8 : 4096); n = next_size(n, 4096)) {
                double t = best_of_3(op, sync, n, 3);
                if (me == 0)
                    printf("%s %d %.3f\n", metric, n, t * 1e6);
            }
        }
    for (int op = PUT; op <= GET; op++) {
        snprintf(metric, sizeof metric, "%s%s_bw_np%d_MBps", prefix, op_name[op], np);
        for (int n = 8; n <= (int)AREA; n = next_size(n, (int)AREA)) {
            double t = best_of_3(op, -1, n, 1);
            if (me == 0)
                printf("%s %d %.1f\n", metric, n, (double)n * BW_WINDOW / t / 1e6);
        }
    }
    final_check();
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_free(&win);
    if (create)
        free(base);
    free(src);
    free(dst);
    MPI_Finalize();
    return 0;
}
