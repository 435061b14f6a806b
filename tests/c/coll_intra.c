/* coll_intra.c — every collective on intra-communicators (world, a split half, self), from
 * every root, small and large, with MPI_IN_PLACE and the v/w variants: every value checked. */
#include "check.h"

#define BIG 70000 /* ints: past any eager limit, and past the allgather "small" threshold */

static int me, np;

/* The value rank r contributes at position i (distinct everywhere). */
static int val(int r, int i) { return r * 100003 + i * 7 + 1; }

static int *ints(size_t n, int fill)
{
    int *p = malloc((n ? n : 1) * sizeof *p);
    CHECK(p, "out of memory");
    for (size_t i = 0; i < n; i++)
        p[i] = fill;
    return p;
}

static void test_barrier(MPI_Comm c)
{
    CHECK_SUCCESS(MPI_Barrier(c));
    /* a barrier orders: everyone's message before it has been sent when anyone leaves it */
    int r, n, flag = 0, x = 0;
    MPI_Comm_rank(c, &r);
    MPI_Comm_size(c, &n);
    if (n > 1 && r == 1)
        CHECK_SUCCESS(MPI_Send(&r, 1, MPI_INT, 0, 77, c));
    CHECK_SUCCESS(MPI_Barrier(c));
    if (n > 1 && r == 0) {
        for (int k = 0; k < 1000000 && !flag; k++)
            CHECK_SUCCESS(MPI_Iprobe(1, 77, c, &flag, MPI_STATUS_IGNORE));
        CHECK(flag, "message sent before the barrier not there after it");
        CHECK_SUCCESS(MPI_Recv(&x, 1, MPI_INT, 1, 77, c, MPI_STATUS_IGNORE));
    }
}

static void test_bcast(MPI_Comm c, int count)
{
    int r, n;
    MPI_Comm_rank(c, &r);
    MPI_Comm_size(c, &n);
    int *b = ints(count, -1);
    for (int root = 0; root < n; root++) {
        for (int i = 0; i < count; i++)
            b[i] = r == root ? val(root, i) : -1;
        CHECK_SUCCESS(MPI_Bcast(b, count, MPI_INT, root, c));
        for (int i = 0; i < count; i++)
            CHECK(b[i] == val(root, i), "bcast root %d count %d: [%d] = %d", root, count, i, b[i]);
    }
    /* a strided type at the root, contiguous elsewhere: only the signature matters */
    MPI_Datatype vec;
    MPI_Type_vector(count, 1, 2, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    int *s = ints(2 * (size_t)count, 0);
    for (int i = 0; i < count; i++)
        s[2 * i] = val(0, i), s[2 * i + 1] = -7;
    CHECK_SUCCESS(r == 0 ? MPI_Bcast(s, 1, vec, 0, c) : MPI_Bcast(b, count, MPI_INT, 0, c));
    for (int i = 0; r && i < count; i++)
        CHECK(b[i] == val(0, i), "bcast vector: [%d] = %d", i, b[i]);
    MPI_Type_free(&vec);
    free(s);
    free(b);
}

static void test_gather_scatter(MPI_Comm c, int count)
{
    int r, n;
    MPI_Comm_rank(c, &r);
    MPI_Comm_size(c, &n);
    int *mine = ints(count, 0), *all = ints((size_t)n * count, -1);
    for (int root = 0; root < n; root++) {
        for (int i = 0; i < count; i++)
            mine[i] = val(r, i);
        /* gather, then gather in place */
        for (int inplace = 0; inplace < 2; inplace++) {
            for (int i = 0; i < n * count; i++)
                all[i] = inplace && r == root && i / count == r ? val(r, i % count) : -1;
            const void *sb = inplace && r == root ? MPI_IN_PLACE : mine;
            CHECK_SUCCESS(MPI_Gather(sb, count, MPI_INT, all, count, MPI_INT, root, c));
            for (int i = 0; r == root && i < n * count; i++)
                CHECK(all[i] == val(i / count, i % count), "gather root %d inplace %d: [%d] = %d", root, inplace, i,
                      all[i]);
        }
        /* scatter back, shifted by one block; then in place */
        for (int i = 0; i < n * count; i++)
            all[i] = val(i / count + 1, i % count);
        for (int inplace = 0; inplace < 2; inplace++) {
            for (int i = 0; i < count; i++)
                mine[i] = -1;
            void *rb = inplace && r == root ? MPI_IN_PLACE : mine;
            CHECK_SUCCESS(MPI_Scatter(all, count, MPI_INT, rb, count, MPI_INT, root, c));
            for (int i = 0; !(inplace && r == root) && i < count; i++)
                CHECK(mine[i] == val(r + 1, i), "scatter root %d: [%d] = %d", root, i, mine[i]);
        }
        /* gatherv / scatterv: rank i has i+1 elements (capped), blocks in reverse order */
        int *cnts = ints(n, 0), *displs = ints(n, 0), total = 0;
        for (int i = n - 1; i >= 0; i--) {
            cnts[i] = (i + 1) % (count + 1);
            displs[i] = total;
            total += cnts[i];
        }
        int *v = ints(total, -1);
        for (int i = 0; i < cnts[r]; i++)
            mine[i] = val(r, i);
        CHECK_SUCCESS(MPI_Gatherv(mine, cnts[r], MPI_INT, v, cnts, displs, MPI_INT, root, c));
        for (int k = 0; r == root && k < n; k++)
            for (int i = 0; i < cnts[k]; i++)
                CHECK(v[displs[k] + i] == val(k, i), "gatherv root %d: rank %d [%d] = %d", root, k, i,
                      v[displs[k] + i]);
        for (int i = 0; i < count; i++)
            mine[i] = -1;
        CHECK_SUCCESS(MPI_Scatterv(v, cnts, displs, MPI_INT, mine, cnts[r], MPI_INT, root, c));
        for (int i = 0; i < cnts[r]; i++)
            CHECK(mine[i] == val(r, i), "scatterv root %d: [%d] = %d", root, i, mine[i]);
        free(v);
        free(cnts);
        free(displs);
    }
    free(mine);
    free(all);
}

static void test_allgather(MPI_Comm c, int count)
{
    int r, n;
    MPI_Comm_rank(c, &r);
    MPI_Comm_size(c, &n);
    int *mine = ints(count, 0), *all = ints((size_t)n * count, -1);
    for (int i = 0; i < count; i++)
        mine[i] = val(r, i);
    for (int inplace = 0; inplace < 2; inplace++) {
        for (int i = 0; i < n * count; i++)
            all[i] = inplace && i / count == r ? val(r, i % count) : -1;
        CHECK_SUCCESS(MPI_Allgather(inplace ? MPI_IN_PLACE : mine, count, MPI_INT, all, count, MPI_INT, c));
        for (int i = 0; i < n * count; i++)
            CHECK(all[i] == val(i / count, i % count), "allgather count %d inplace %d: [%d] = %d", count, inplace,
                  i, all[i]);
    }
    /* allgatherv with gaps between blocks, reverse order */
    int *cnts = ints(n, 0), *displs = ints(n, 0), total = 0;
    for (int i = n - 1; i >= 0; i--) {
        cnts[i] = (i * 3 + 1) % (count + 1);
        displs[i] = total + 1;
        total += cnts[i] + 1;
    }
    int *v = ints(total, -5);
    CHECK_SUCCESS(MPI_Allgatherv(mine, cnts[r], MPI_INT, v, cnts, displs, MPI_INT, c));
    for (int k = 0; k < n; k++) {
        CHECK(v[displs[k] - 1] == -5, "allgatherv wrote into a gap");
        for (int i = 0; i < cnts[k]; i++)
            CHECK(v[displs[k] + i] == val(k, i), "allgatherv: rank %d [%d] = %d", k, i, v[displs[k] + i]);
    }
    free(v);
    free(cnts);
    free(displs);
    free(mine);
    free(all);
}

static void test_alltoall(MPI_Comm c, int count)
{
    int r, n;
    MPI_Comm_rank(c, &r);
    MPI_Comm_size(c, &n);
    int *s = ints((size_t)n * count, 0), *d = ints((size_t)n * count, -1);
    /* block k of rank r's send buffer goes to rank k: value val(r, k * count + i) */
    for (int inplace = 0; inplace < 2; inplace++) {
        for (int i = 0; i < n * count; i++)
            s[i] = val(r, i), d[i] = inplace ? s[i] : -1;
        CHECK_SUCCESS(MPI_Alltoall(inplace ? MPI_IN_PLACE : s, count, MPI_INT, d, count, MPI_INT, c));
        for (int k = 0; k < n; k++)
            for (int i = 0; i < count; i++)
                CHECK(d[k * count + i] == val(k, r * count + i), "alltoall inplace %d: from %d [%d] = %d", inplace,
                      k, i, d[k * count + i]);
    }
    /* alltoallv: rank r sends (r + k) % 3 elements to rank k, blocks reversed */
    int *sc = ints(n, 0), *sd = ints(n, 0), *rc = ints(n, 0), *rd = ints(n, 0), st = 0, rt = 0;
    for (int k = n - 1; k >= 0; k--) {
        sc[k] = (r + k) % 3, sd[k] = st, st += sc[k];
        rc[k] = (k + r) % 3, rd[k] = rt, rt += rc[k];
    }
    int *vs = ints(st, 0), *vr = ints(rt, -1);
    for (int k = 0; k < n; k++)
        for (int i = 0; i < sc[k]; i++)
            vs[sd[k] + i] = val(r, k * 10 + i);
    CHECK_SUCCESS(MPI_Alltoallv(vs, sc, sd, MPI_INT, vr, rc, rd, MPI_INT, c));
    for (int k = 0; k < n; k++)
        for (int i = 0; i < rc[k]; i++)
            CHECK(vr[rd[k] + i] == val(k, r * 10 + i), "alltoallv: from %d [%d] = %d", k, i, vr[rd[k] + i]);
    /* alltoallw: the same exchange with byte displacements and one type per peer (a
     * double receives as two ints where the peer is odd) */
    MPI_Datatype *ts = malloc(n * sizeof *ts), *tr = malloc(n * sizeof *tr);
    int *sdb = ints(n, 0), *rdb = ints(n, 0), *rcw = ints(n, 0);
    MPI_Datatype two;
    MPI_Type_contiguous(2, MPI_INT, &two);
    MPI_Type_commit(&two);
    for (int k = 0; k < n; k++) {
        ts[k] = MPI_INT, sdb[k] = sd[k] * (int)sizeof(int);
        tr[k] = rc[k] % 2 == 0 && k % 2 ? two : MPI_INT;
        rcw[k] = tr[k] == two ? rc[k] / 2 : rc[k];
        rdb[k] = rd[k] * (int)sizeof(int);
    }
    for (int i = 0; i < rt; i++)
        vr[i] = -1;
    CHECK_SUCCESS(MPI_Alltoallw(vs, sc, sdb, ts, vr, rcw, rdb, tr, c));
    for (int k = 0; k < n; k++)
        for (int i = 0; i < rc[k]; i++)
            CHECK(vr[rd[k] + i] == val(k, r * 10 + i), "alltoallw: from %d [%d] = %d", k, i, vr[rd[k] + i]);
    MPI_Type_free(&two);
    free(ts), free(tr), free(sdb), free(rdb), free(rcw);
    free(vs), free(vr), free(sc), free(sd), free(rc), free(rd), free(s), free(d);
}

/* A non-commutative op on pairs of ints (a 2x2 "matrix" product, mod 1000003): the result
 * shows the order in which ranks were combined. */
typedef struct { int a, b; } affine; /* x -> a * x + b; (f op g) = g after f */
static void compose(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    affine *f = in, *g = inout;
    for (int i = 0; i < *len; i++) {
        long long a = (long long)g[i].a * f[i].a % 1000003, b = ((long long)g[i].a * f[i].b + g[i].b) % 1000003;
        g[i].a = (int)a, g[i].b = (int)b;
    }
}
static affine affine_of(int rank, int i) { return (affine){rank + 2 + i, rank * 3 + i + 1}; }

/* The expected fold over ranks lo..hi (inclusive) of element i, in rank order. */
static affine fold(int lo, int hi, int i)
{
    affine acc = affine_of(lo, i);
    for (int k = lo + 1; k <= hi; k++) {
        affine g = affine_of(k, i);
        int len = 1;
        compose(&acc, &g, &len, NULL);
        acc = g;
    }
    return acc;
}

static void test_reduce(MPI_Comm c, int count, MPI_Op nc, MPI_Datatype pair)
{
    int r, n;
    MPI_Comm_rank(c, &r);
    MPI_Comm_size(c, &n);
    int *s = ints(count, 0), *d = ints(count, -1);
    long long sum0 = 0;
    for (int k = 0; k < n; k++)
        sum0 += val(k, 0);
    for (int root = 0; root < n; root++) {
        for (int inplace = 0; inplace < 2; inplace++) {
            for (int i = 0; i < count; i++)
                s[i] = val(r, i), d[i] = inplace && r == root ? s[i] : -1;
            const void *sb = inplace && r == root ? MPI_IN_PLACE : s;
            CHECK_SUCCESS(MPI_Reduce(sb, d, count, MPI_INT, MPI_SUM, root, c));
            if (r == root)
                CHECK(d[0] == sum0 && (count < 2 || d[count - 1] == sum0 + n * 7 * (count - 1)),
                      "reduce root %d inplace %d: %d", root, inplace, d[0]);
            else
                CHECK(d[0] == -1, "reduce wrote recvbuf at a non-root");
        }
        /* non-commutative: rank order, whatever the root */
        affine fs[3], fd[3];
        for (int i = 0; i < 3; i++)
            fs[i] = affine_of(r, i), fd[i] = (affine){-1, -1};
        CHECK_SUCCESS(MPI_Reduce(fs, fd, 3, pair, nc, root, c));
        for (int i = 0; r == root && i < 3; i++) {
            affine w = fold(0, n - 1, i);
            CHECK(fd[i].a == w.a && fd[i].b == w.b, "non-commutative reduce root %d: (%d,%d) expected (%d,%d)", root,
                  fd[i].a, fd[i].b, w.a, w.b);
        }
    }
    /* allreduce: sum, in place, MAXLOC, non-commutative, and bitwise-equal doubles */
    for (int inplace = 0; inplace < 2; inplace++) {
        for (int i = 0; i < count; i++)
            s[i] = val(r, i), d[i] = inplace ? s[i] : -1;
        CHECK_SUCCESS(MPI_Allreduce(inplace ? MPI_IN_PLACE : s, d, count, MPI_INT, MPI_SUM, c));
        for (int i = 0; i < count; i++)
            CHECK(d[i] == sum0 + (long long)n * 7 * i, "allreduce inplace %d: [%d] = %d", inplace, i, d[i]);
    }
    struct { double v; int i; } ml = {(double)((r * 7) % n), r}, mlr;
    CHECK_SUCCESS(MPI_Allreduce(&ml, &mlr, 1, MPI_DOUBLE_INT, MPI_MAXLOC, c));
    int want = 0;
    for (int k = 0; k < n; k++)
        if ((k * 7) % n > (want * 7) % n)
            want = k;
    CHECK(mlr.v == (double)((want * 7) % n) && mlr.i == want, "allreduce MAXLOC: (%g, %d)", mlr.v, mlr.i);
    affine fs[3], fd[3];
    for (int i = 0; i < 3; i++)
        fs[i] = affine_of(r, i);
    CHECK_SUCCESS(MPI_Allreduce(fs, fd, 3, pair, nc, c));
    for (int i = 0; i < 3; i++) {
        affine w = fold(0, n - 1, i);
        CHECK(fd[i].a == w.a && fd[i].b == w.b, "non-commutative allreduce: (%d,%d) expected (%d,%d)", fd[i].a,
              fd[i].b, w.a, w.b);
    }
    /* floating-point sums come out with the same bits on every rank, short and long */
    double *x = malloc(sizeof(double) * count), *sum = malloc(sizeof(double) * count),
           *first = malloc(sizeof(double) * count);
    for (int i = 0; i < count; i++)
        x[i] = 1.0 / (3.0 + r + i);
    CHECK_SUCCESS(MPI_Allreduce(x, sum, count, MPI_DOUBLE, MPI_SUM, c));
    memcpy(first, sum, sizeof(double) * count);
    CHECK_SUCCESS(MPI_Bcast(first, count, MPI_DOUBLE, 0, c));
    CHECK(memcmp(first, sum, sizeof(double) * count) == 0, "allreduce results differ between ranks");
    for (int i = 0; i < count; i++) {
        double e = 0;
        for (int k = 0; k < n; k++)
            e += 1.0 / (3.0 + k + i);
        CHECK(sum[i] > e * (1 - 1e-12) && sum[i] < e * (1 + 1e-12), "allreduce double [%d] = %.17g, expected %.17g", i,
              sum[i], e);
    }
    free(x), free(sum), free(first);

    /* scan and exscan: prefix sums, and non-commutative prefixes */
    int v = val(r, 0), pre = -1, ex = -1;
    CHECK_SUCCESS(MPI_Scan(&v, &pre, 1, MPI_INT, MPI_SUM, c));
    CHECK_SUCCESS(MPI_Exscan(&v, &ex, 1, MPI_INT, MPI_SUM, c));
    long long acc = 0;
    for (int k = 0; k < r; k++)
        acc += val(k, 0);
    CHECK(pre == acc + v, "scan: %d, expected %lld", pre, acc + v);
    CHECK(r == 0 || ex == acc, "exscan: %d, expected %lld", ex, acc);
    pre = v;
    CHECK_SUCCESS(MPI_Scan(MPI_IN_PLACE, &pre, 1, MPI_INT, MPI_SUM, c));
    CHECK(pre == acc + v, "scan in place: %d", pre);
    CHECK_SUCCESS(MPI_Scan(fs, fd, 3, pair, nc, c));
    affine w = fold(0, r, 1);
    CHECK(fd[1].a == w.a && fd[1].b == w.b, "non-commutative scan at %d", r);
    if (r > 0) {
        CHECK_SUCCESS(MPI_Exscan(fs, fd, 3, pair, nc, c));
        w = fold(0, r - 1, 2);
        CHECK(fd[2].a == w.a && fd[2].b == w.b, "non-commutative exscan at %d", r);
    } else {
        CHECK_SUCCESS(MPI_Exscan(fs, fd, 3, pair, nc, c));
    }

    /* reduce_scatter_block and reduce_scatter */
    int *big = ints((size_t)n * count, 0), *got = ints(count, -1);
    for (int i = 0; i < n * count; i++)
        big[i] = val(r, i);
    CHECK_SUCCESS(MPI_Reduce_scatter_block(big, got, count, MPI_INT, MPI_SUM, c));
    for (int i = 0; i < count; i++) {
        long long e = 0;
        for (int k = 0; k < n; k++)
            e += val(k, r * count + i);
        CHECK(got[i] == e, "reduce_scatter_block: [%d] = %d, expected %lld", i, got[i], e);
    }
    int *rc = ints(n, 0), off = 0, total = 0;
    for (int k = 0; k < n; k++)
        rc[k] = (k + 1) % (count + 1), total += rc[k];
    for (int k = 0; k < r; k++)
        off += rc[k];
    int *all = ints(total, 0);
    for (int i = 0; i < total; i++)
        all[i] = val(r, i);
    CHECK_SUCCESS(MPI_Reduce_scatter(MPI_IN_PLACE, all, rc, MPI_INT, MPI_SUM, c));
    for (int i = 0; i < rc[r]; i++) {
        long long e = 0;
        for (int k = 0; k < n; k++)
            e += val(k, off + i);
        CHECK(all[i] == e, "reduce_scatter in place: [%d] = %d, expected %lld", i, all[i], e);
    }
    free(all), free(rc), free(big), free(got), free(s), free(d);
}

static void run_all(MPI_Comm c, MPI_Op nc, MPI_Datatype pair)
{
    test_barrier(c);
    int counts[] = {0, 1, 5, BIG};
    for (int k = 0; k < 4; k++) {
        test_bcast(c, counts[k]);
        test_gather_scatter(c, counts[k] > 1000 ? counts[k] / np : counts[k]);
        test_allgather(c, counts[k] > 1000 ? counts[k] / np : counts[k]);
        test_alltoall(c, counts[k] > 1000 ? counts[k] / np / 4 : counts[k]);
        if (counts[k])
            test_reduce(c, counts[k], nc, pair);
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Op nc;
    MPI_Datatype pair;
    CHECK_SUCCESS(MPI_Op_create(compose, 0, &nc));
    CHECK_SUCCESS(MPI_Type_contiguous(2, MPI_INT, &pair));
    CHECK_SUCCESS(MPI_Type_commit(&pair));

    run_all(MPI_COMM_WORLD, nc, pair);
    run_all(MPI_COMM_SELF, nc, pair);
    MPI_Comm half; /* odd and even ranks, in reverse order */
    CHECK_SUCCESS(MPI_Comm_split(MPI_COMM_WORLD, me % 2, -me, &half));
    run_all(half, nc, pair);
    MPI_Comm_free(&half);

    MPI_Op_free(&nc);
    MPI_Type_free(&pair);
    MPI_Finalize();
    return 0;
}
