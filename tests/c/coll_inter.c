/* coll_inter.c — every collective on an inter-communicator of two unequal groups: data flows
 * between the groups, MPI_ROOT / MPI_PROC_NULL roots, every value checked; scans and
 * MPI_IN_PLACE refused. */
#include "check.h"

static int g, r, n, m; /* my group (0 or 1), local rank, local size, remote size */

static int val(int grp, int rank, int i) { return grp * 1000000 + rank * 1000 + i; }

/* The root argument for a collective rooted at rank `root` of group `rg`. */
static int root_arg(int rg, int root) { return g == rg ? (r == root ? MPI_ROOT : MPI_PROC_NULL) : root; }

static void rooted(MPI_Comm ic)
{
    int buf[8], all[64 * 3], cnts[64], displs[64];
    for (int rg = 0; rg < 2; rg++) {
        int rsize = g == rg ? n : m; /* size of the root's group */
        for (int root = 0; root < rsize; root++) {
            int ra = root_arg(rg, root), is_root = ra == MPI_ROOT, sending = g != rg;
            /* bcast: the root's data reaches every process of the other group */
            for (int i = 0; i < 8; i++)
                buf[i] = is_root ? val(rg, root, i) : -1;
            CHECK_SUCCESS(MPI_Bcast(buf, 8, MPI_INT, ra, ic));
            for (int i = 0; i < 8; i++)
                CHECK(buf[i] == (sending || is_root ? val(rg, root, i) : -1), "bcast group %d root %d: [%d] = %d",
                      rg, root, i, buf[i]);
            /* gather: 3 ints from each process of the other group */
            for (int i = 0; i < 3; i++)
                buf[i] = val(g, r, i);
            for (int i = 0; i < 64 * 3; i++)
                all[i] = -1;
            CHECK_SUCCESS(MPI_Gather(buf, 3, MPI_INT, all, 3, MPI_INT, ra, ic));
            for (int i = 0; i < 3 * m; i++)
                CHECK(all[i] == (is_root ? val(1 - g, i / 3, i % 3) : -1), "gather: [%d] = %d", i, all[i]);
            /* gatherv: k + 1 ints from remote rank k, blocks reversed */
            int total = 0;
            for (int k = m - 1; k >= 0; k--)
                cnts[k] = k % 3 + 1, displs[k] = total, total += cnts[k];
            for (int i = 0; i < 64 * 3; i++)
                all[i] = -1;
            CHECK_SUCCESS(MPI_Gatherv(buf, r % 3 + 1, MPI_INT, all, cnts, displs, MPI_INT, ra, ic));
            for (int k = 0; is_root && k < m; k++)
                for (int i = 0; i < cnts[k]; i++)
                    CHECK(all[displs[k] + i] == val(1 - g, k, i), "gatherv: from %d [%d]", k, i);
            /* scatter and scatterv back */
            for (int i = 0; i < 3 * m; i++)
                all[i] = is_root ? val(rg, 50 + i / 3, i % 3) : -1;
            for (int i = 0; i < 3; i++)
                buf[i] = -1;
            CHECK_SUCCESS(MPI_Scatter(all, 3, MPI_INT, buf, 3, MPI_INT, ra, ic));
            for (int i = 0; sending && i < 3; i++)
                CHECK(buf[i] == val(rg, 50 + r, i), "scatter: [%d] = %d", i, buf[i]);
            for (int k = 0; is_root && k < m; k++)
                for (int i = 0; i < cnts[k]; i++)
                    all[displs[k] + i] = val(rg, 70 + k, i);
            CHECK_SUCCESS(MPI_Scatterv(all, cnts, displs, MPI_INT, buf, r % 3 + 1, MPI_INT, ra, ic));
            for (int i = 0; sending && i < r % 3 + 1; i++)
                CHECK(buf[i] == val(rg, 70 + r, i), "scatterv: [%d] = %d", i, buf[i]);
            /* reduce: the root gets the sum over the other group */
            int v[2] = {val(g, r, 0), r}, s[2] = {-1, -1};
            CHECK_SUCCESS(MPI_Reduce(v, s, 2, MPI_INT, MPI_SUM, ra, ic));
            if (is_root) {
                int e0 = 0, e1 = 0;
                for (int k = 0; k < m; k++)
                    e0 += val(1 - g, k, 0), e1 += k;
                CHECK(s[0] == e0 && s[1] == e1, "reduce: %d %d, expected %d %d", s[0], s[1], e0, e1);
            } else {
                CHECK(s[0] == -1, "reduce wrote at a non-root");
            }
        }
    }
}

/* x -> a x + b composed in rank order: a non-commutative op */
static void compose(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    int *f = in, *h = inout;
    for (int i = 0; i < *len; i++, f += 2, h += 2) {
        int a = h[0] * f[0] % 10007, b = (h[0] * f[1] + h[1]) % 10007;
        h[0] = a, h[1] = b;
    }
}

static void all_to_all(MPI_Comm ic)
{
    int mine[3], got[64 * 3];
    for (int i = 0; i < 3; i++)
        mine[i] = val(g, r, i);
    CHECK_SUCCESS(MPI_Allgather(mine, 3, MPI_INT, got, 3, MPI_INT, ic));
    for (int i = 0; i < 3 * m; i++)
        CHECK(got[i] == val(1 - g, i / 3, i % 3), "allgather: [%d] = %d", i, got[i]);
    int cnts[64], displs[64], total = 0;
    for (int k = m - 1; k >= 0; k--)
        cnts[k] = (k + 1) % 3, displs[k] = total, total += cnts[k];
    CHECK_SUCCESS(MPI_Allgatherv(mine, (r + 1) % 3, MPI_INT, got, cnts, displs, MPI_INT, ic));
    for (int k = 0; k < m; k++)
        for (int i = 0; i < cnts[k]; i++)
            CHECK(got[displs[k] + i] == val(1 - g, k, i), "allgatherv: from %d [%d]", k, i);
    /* alltoall: block k goes to remote rank k */
    int s[64 * 2], d[64 * 2];
    for (int k = 0; k < m; k++)
        s[2 * k] = val(g, r, k), s[2 * k + 1] = -val(g, r, k);
    CHECK_SUCCESS(MPI_Alltoall(s, 2, MPI_INT, d, 2, MPI_INT, ic));
    for (int k = 0; k < m; k++)
        CHECK(d[2 * k] == val(1 - g, k, r) && d[2 * k + 1] == -val(1 - g, k, r), "alltoall: from %d", k);
    int sc[64], sd[64], rc[64], rd[64];
    for (int k = 0; k < m; k++)
        sc[k] = 1, sd[k] = 2 * k, rc[k] = 1, rd[k] = m - 1 - k;
    CHECK_SUCCESS(MPI_Alltoallv(s, sc, sd, MPI_INT, d, rc, rd, MPI_INT, ic));
    for (int k = 0; k < m; k++)
        CHECK(d[m - 1 - k] == val(1 - g, k, r), "alltoallv: from %d = %d", k, d[m - 1 - k]);
    MPI_Datatype ts[64];
    for (int k = 0; k < m; k++)
        ts[k] = MPI_INT, sd[k] *= (int)sizeof(int), rd[k] *= (int)sizeof(int);
    CHECK_SUCCESS(MPI_Alltoallw(s, sc, sd, ts, d, rc, rd, ts, ic));
    for (int k = 0; k < m; k++)
        CHECK(d[m - 1 - k] == val(1 - g, k, r), "alltoallw: from %d = %d", k, d[m - 1 - k]);
}

static void reductions(MPI_Comm ic)
{
    /* allreduce: each group gets the other group's sum, and a non-commutative fold in rank order */
    int v = val(g, r, 0), s = -1, e = 0;
    for (int k = 0; k < m; k++)
        e += val(1 - g, k, 0);
    CHECK_SUCCESS(MPI_Allreduce(&v, &s, 1, MPI_INT, MPI_SUM, ic));
    CHECK(s == e, "allreduce: %d, expected %d", s, e);
    MPI_Op op;
    MPI_Datatype pair;
    MPI_Op_create(compose, 0, &op);
    MPI_Type_contiguous(2, MPI_INT, &pair);
    MPI_Type_commit(&pair);
    int f[2] = {g * 3 + r + 2, r + 1}, h[2], w[2] = {2 + (1 - g) * 3, 1}; /* fold over remote ranks */
    for (int k = 1; k < m; k++) {
        int gk[2] = {(1 - g) * 3 + k + 2, k + 1}, len = 1;
        compose(w, gk, &len, NULL);
        w[0] = gk[0], w[1] = gk[1];
    }
    CHECK_SUCCESS(MPI_Allreduce(f, h, 1, pair, op, ic));
    CHECK(h[0] == w[0] && h[1] == w[1], "non-commutative allreduce: (%d,%d) expected (%d,%d)", h[0], h[1], w[0], w[1]);
    /* reduce_scatter_block: both groups hold vectors of the same length (n * rc = m * rc') */
    int rcount = m, len = n * m, *in = malloc(sizeof(int) * len), out[64];
    for (int i = 0; i < len; i++)
        in[i] = val(g, r, i);
    /* group g gets m elements each: the remote group's vector is n * m long too */
    CHECK_SUCCESS(MPI_Reduce_scatter_block(in, out, rcount, MPI_INT, MPI_SUM, ic));
    for (int i = 0; i < rcount; i++) {
        int want = 0;
        for (int k = 0; k < m; k++)
            want += val(1 - g, k, r * rcount + i);
        CHECK(out[i] == want, "reduce_scatter_block: [%d] = %d, expected %d", i, out[i], want);
    }
    int rcs[64], off = 0;
    for (int k = 0; k < n; k++)
        rcs[k] = m; /* the same split, as counts */
    off = r * m;
    for (int i = 0; i < 64; i++)
        out[i] = -1;
    CHECK_SUCCESS(MPI_Reduce_scatter(in, out, rcs, MPI_INT, MPI_MAX, ic));
    for (int i = 0; i < m; i++) {
        int want = val(1 - g, m - 1, off + i);
        CHECK(out[i] == want, "reduce_scatter MAX: [%d] = %d, expected %d", i, out[i], want);
    }
    free(in);
    /* nonblocking and persistent forms */
    MPI_Request rq;
    s = -1;
    CHECK_SUCCESS(MPI_Iallreduce(&v, &s, 1, MPI_INT, MPI_SUM, ic, &rq));
    CHECK_SUCCESS(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    CHECK(s == e, "iallreduce: %d", s);
    CHECK_SUCCESS(MPI_Barrier_init(ic, MPI_INFO_NULL, &rq));
    for (int k = 0; k < 3; k++) {
        CHECK_SUCCESS(MPI_Start(&rq));
        CHECK_SUCCESS(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    }
    MPI_Request_free(&rq);
    /* what inter-communicators do not have */
    CHECK_ERR(MPI_Scan(&v, &s, 1, MPI_INT, MPI_SUM, ic), MPI_ERR_COMM, "MPI_Scan", "inter-communicator");
    CHECK_ERR(MPI_Exscan(&v, &s, 1, MPI_INT, MPI_SUM, ic), MPI_ERR_COMM, "MPI_Exscan");
    CHECK_ERR(MPI_Allreduce(MPI_IN_PLACE, &s, 1, MPI_INT, MPI_SUM, ic), MPI_ERR_BUFFER, "MPI_Allreduce", "sendbuf");
    MPI_Op_free(&op);
    MPI_Type_free(&pair);
}

int main(int argc, char **argv)
{
    int me, np;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    if (np < 2) {
        fprintf(stderr, "coll_inter needs at least 2 processes\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    /* group 0: the first third (at least one), group 1: the rest, in reverse order */
    int n0 = np / 3 > 0 ? np / 3 : 1;
    g = me >= n0;
    MPI_Comm half, ic;
    CHECK_SUCCESS(MPI_Comm_split(MPI_COMM_WORLD, g, g ? -me : me, &half));
    CHECK_SUCCESS(MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, g ? 0 : np - 1, 99, &ic));
    MPI_Comm_set_errhandler(ic, MPI_ERRORS_RETURN);
    MPI_Comm_rank(ic, &r);
    MPI_Comm_size(ic, &n);
    MPI_Comm_remote_size(ic, &m);
    CHECK_SUCCESS(MPI_Barrier(ic));
    rooted(ic);
    all_to_all(ic);
    reductions(ic);
    MPI_Comm_free(&ic);
    MPI_Comm_free(&half);
    MPI_Finalize();
    return 0;
}
