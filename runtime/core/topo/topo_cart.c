/* topo_cart.c — Cartesian topologies: MPI_Cart_create/get/rank/coords/shift/sub/map,
 * MPI_Cartdim_get and MPI_Dims_create. Ranks are laid out in row-major order (identity map). */
#include "topo.h"
#include "comm/comm.h"

#include <stdlib.h>

/* Checks a grid description; *prod = its number of processes. */
static int grid_check(rt_comm *comm, int ndims, const int *dims, const int *periods, int *prod, const char *fn)
{
    if (ndims < 0)
        return rt_raise(&comm->obj, RT_ERR_DIMS, fn, "invalid argument 'ndims' = %d: must be >= 0", ndims);
    if (ndims > 0 && !dims)
        return rt__null_arg(&comm->obj, fn, "dims");
    if (ndims > 0 && !periods)
        return rt__null_arg(&comm->obj, fn, "periods");
    long long p = 1;
    for (int i = 0; i < ndims; i++) {
        if (dims[i] <= 0)
            return rt_raise(&comm->obj, RT_ERR_DIMS, fn, "invalid argument 'dims[%d]' = %d: must be > 0", i, dims[i]);
        p *= dims[i];
        if (p > comm->size)
            return rt_raise(&comm->obj, RT_ERR_ARG, fn,
                            "invalid argument 'dims': the grid has more processes than the communicator's %d",
                            comm->size);
    }
    *prod = (int)p;
    return RT_SUCCESS;
}

/* The coordinates of rank r in grid t (row-major). */
static void coords_of(const struct rt__topo *t, int r, int *coords)
{
    for (int i = t->ndims - 1; i >= 0; i--) {
        coords[i] = r % t->dims[i];
        r /= t->dims[i];
    }
}

static int rank_of(const struct rt__topo *t, const int *coords)
{
    int r = 0;
    for (int i = 0; i < t->ndims; i++)
        r = r * t->dims[i] + coords[i];
    return r;
}

/* MPI_Cart_create: the first prod(dims) processes of comm_old (reordering is the identity)
 * get a Cartesian communicator, the others MPI_COMM_NULL. comm_old an inter-communicator:
 * RT_ERR_COMM; dims <= 0 or ndims < 0: RT_ERR_DIMS; a grid larger than comm_old: RT_ERR_ARG. */
int rt_Cart_create(rt_comm *comm_old, int ndims, const int *dims, const int *periods, int reorder,
                   rt_comm **comm_cart)
{
    (void)reorder;
    int prod, err;
    if ((err = rt__comm_check_intra(comm_old, __func__, "comm_old")) != RT_SUCCESS ||
        (err = grid_check(comm_old, ndims, dims, periods, &prod, __func__)) != RT_SUCCESS)
        return err;
    struct rt__topo *t = rt__topo_new(RT_CART);
    if (t) {
        t->ndims = ndims;
        t->dims = rt__ints_dup(dims, ndims);
        t->periods = rt__ints_dup(periods, ndims);
    }
    if (!t || !t->dims || !t->periods) {
        rt__topo_free(t);
        return RT_ERR(comm_old, RT_ERR_NO_MEM, "out of memory");
    }
    for (int i = 0; i < ndims; i++)
        t->periods[i] = t->periods[i] != 0;
    return rt__topo_comm(comm_old, prod, NULL, t, comm_cart, __func__);
}

/* MPI_Cartdim_get: the number of dimensions. Not Cartesian: RT_ERR_TOPOLOGY. */
int rt_Cartdim_get(rt_comm *comm, int *ndims)
{
    int err = rt__topo_check(comm, RT_CART, __func__);
    if (!err)
        *ndims = comm->topo->ndims;
    return err;
}

/* MPI_Cart_get: dims, periods and this process's coordinates (maxdims entries at least
 * ndims, else RT_ERR_ARG). Not Cartesian: RT_ERR_TOPOLOGY. */
int rt_Cart_get(rt_comm *comm, int maxdims, int *dims, int *periods, int *coords)
{
    int err = rt__topo_check(comm, RT_CART, __func__);
    if (err)
        return err;
    const struct rt__topo *t = comm->topo;
    if (maxdims < t->ndims)
        return RT_ERR(comm, RT_ERR_ARG, "invalid argument 'maxdims' = %d: the grid has %d dimensions", maxdims,
                      t->ndims);
    if (t->ndims > 0 && (!dims || !periods || !coords))
        return rt__null_arg(&comm->obj, __func__, !dims ? "dims" : !periods ? "periods" : "coords");
    for (int i = 0; i < t->ndims; i++) {
        dims[i] = t->dims[i];
        periods[i] = t->periods[i];
    }
    coords_of(t, comm->rank, coords);
    return RT_SUCCESS;
}

/* MPI_Cart_rank: the rank at coords; periodic dimensions wrap, others out of range:
 * RT_ERR_ARG. Not Cartesian: RT_ERR_TOPOLOGY. */
int rt_Cart_rank(rt_comm *comm, const int *coords, int *rank)
{
    int err = rt__topo_check(comm, RT_CART, __func__);
    if (err)
        return err;
    const struct rt__topo *t = comm->topo;
    if (t->ndims > 0 && !coords)
        return rt__null_arg(&comm->obj, __func__, "coords");
    int *c = malloc(sizeof *c * (size_t)(t->ndims + 1));
    if (!c)
        return RT_ERR(comm, RT_ERR_NO_MEM, "out of memory");
    for (int i = 0; i < t->ndims; i++) {
        c[i] = coords[i];
        if (t->periods[i]) {
            c[i] %= t->dims[i];
            if (c[i] < 0)
                c[i] += t->dims[i];
        } else if (c[i] < 0 || c[i] >= t->dims[i]) {
            free(c);
            return RT_ERR(comm, RT_ERR_ARG, "invalid argument 'coords[%d]' = %d: outside 0..%d of a non-periodic dimension",
                          i, coords[i], t->dims[i] - 1);
        }
    }
    *rank = rank_of(t, c);
    free(c);
    return RT_SUCCESS;
}

/* MPI_Cart_coords: the coordinates of rank. Rank out of range: RT_ERR_RANK; maxdims <
 * ndims: RT_ERR_ARG; not Cartesian: RT_ERR_TOPOLOGY. */
int rt_Cart_coords(rt_comm *comm, int rank, int maxdims, int *coords)
{
    int err = rt__topo_check(comm, RT_CART, __func__);
    if (err)
        return err;
    const struct rt__topo *t = comm->topo;
    if (rank < 0 || rank >= comm->size)
        return RT_ERR(comm, RT_ERR_RANK, "invalid rank 'rank' = %s: the communicator has %d processes",
                      rt__rank_text(rank, (char[16]){0}, 16), comm->size);
    if (maxdims < t->ndims)
        return RT_ERR(comm, RT_ERR_ARG, "invalid argument 'maxdims' = %d: the grid has %d dimensions", maxdims,
                      t->ndims);
    if (t->ndims > 0 && !coords)
        return rt__null_arg(&comm->obj, __func__, "coords");
    coords_of(t, rank, coords);
    return RT_SUCCESS;
}

/* MPI_Cart_shift: the ranks disp steps back (source) and forward (dest) along direction;
 * past the edge of a non-periodic dimension: RT_PROC_NULL. Bad direction: RT_ERR_ARG. */
int rt_Cart_shift(rt_comm *comm, int direction, int disp, int *rank_source, int *rank_dest)
{
    int err = rt__topo_check(comm, RT_CART, __func__);
    if (err)
        return err;
    const struct rt__topo *t = comm->topo;
    if (direction < 0 || direction >= t->ndims)
        return RT_ERR(comm, RT_ERR_ARG, "invalid argument 'direction' = %d: the grid has %d dimensions", direction,
                      t->ndims);
    int *c = malloc(sizeof *c * (size_t)t->ndims);
    if (!c)
        return RT_ERR(comm, RT_ERR_NO_MEM, "out of memory");
    coords_of(t, comm->rank, c);
    int d = t->dims[direction], here = c[direction];
    for (int k = 0; k < 2; k++) {
        long long x = (long long)here + (k ? disp : -(long long)disp);
        int *out = k ? rank_dest : rank_source;
        if (t->periods[direction]) {
            x %= d;
            if (x < 0)
                x += d;
        } else if (x < 0 || x >= d) {
            *out = RT_PROC_NULL;
            continue;
        }
        c[direction] = (int)x;
        *out = rank_of(t, c);
    }
    free(c);
    return RT_SUCCESS;
}

/* MPI_Cart_sub: one Cartesian communicator per slice keeping the dimensions with
 * remain_dims[i] != 0 (none kept: each process alone, zero dimensions). */
int rt_Cart_sub(rt_comm *comm, const int *remain_dims, rt_comm **newcomm)
{
    int err = rt__topo_check(comm, RT_CART, __func__);
    if (err)
        return err;
    const struct rt__topo *t = comm->topo;
    if (t->ndims > 0 && !remain_dims)
        return rt__null_arg(&comm->obj, __func__, "remain_dims");
    int nd = t->ndims;
    int *mine = malloc(sizeof *mine * (size_t)(nd + 1)), *c = malloc(sizeof *c * (size_t)(nd + 1));
    int *members = malloc(sizeof *members * (size_t)comm->size);
    struct rt__topo *s = rt__topo_new(RT_CART);
    if (s) {
        s->dims = malloc(sizeof *s->dims * (size_t)(nd + 1));
        s->periods = malloc(sizeof *s->periods * (size_t)(nd + 1));
    }
    if (!mine || !c || !members || !s || !s->dims || !s->periods) {
        free(mine);
        free(c);
        free(members);
        rt__topo_free(s);
        return RT_ERR(comm, RT_ERR_NO_MEM, "out of memory");
    }
    for (int i = 0; i < nd; i++)
        if (remain_dims[i]) {
            s->dims[s->ndims] = t->dims[i];
            s->periods[s->ndims++] = t->periods[i];
        }
    coords_of(t, comm->rank, mine);
    int n = 0;
    for (int r = 0; r < comm->size; r++) {
        coords_of(t, r, c);
        int same = 1;
        for (int i = 0; i < nd && same; i++)
            same = remain_dims[i] || c[i] == mine[i];
        if (same)
            members[n++] = r;
    }
    free(mine);
    free(c);
    err = rt__topo_comm(comm, n, members, s, newcomm, __func__);
    free(members);
    return err;
}

/* MPI_Cart_map: the rank this process would have in such a grid (the identity), or
 * RT_UNDEFINED when it is outside it. */
int rt_Cart_map(rt_comm *comm, int ndims, const int *dims, const int *periods, int *newrank)
{
    int prod, err;
    if ((err = rt__comm_check_intra(comm, __func__, "comm")) != RT_SUCCESS ||
        (err = grid_check(comm, ndims, dims, periods, &prod, __func__)) != RT_SUCCESS)
        return err;
    *newrank = comm->rank < prod ? comm->rank : RT_UNDEFINED;
    return RT_SUCCESS;
}

/* ------------------------------------------------------------ MPI_Dims_create */

struct search {
    int k;            /* dimensions to fill */
    int *cur, *best;
    long long spread; /* best largest - smallest so far (-1: none yet) */
    long long *div;   /* the divisors of the number to factor, increasing */
    int ndiv;
};

/* x^k, or m + 1 once it exceeds m. */
static long long pow_upto(long long x, int k, long long m)
{
    long long p = 1;
    for (int i = 0; i < k; i++)
        if ((p *= x) > m)
            return m + 1;
    return p;
}

/* The largest x with x^k <= m (m >= 1, m < 2^31). */
static long long iroot(long long m, int k)
{
    if (k <= 1)
        return m;
    long long lo = 1, hi = m;
    while (lo < hi) {
        long long mid = lo + (hi - lo + 1) / 2;
        if (pow_upto(mid, k, m) <= m)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

/* Among two non-increasing factorizations a and b of k parts with the same spread: 1 if a
 * is MPICH's choice over b, the one whose smallest part is larger, then whose next part up
 * is larger, and so on (5040 in 3: 21x16x15 over 20x18x14). */
static int wins_tie(const int *a, const int *b, int k)
{
    for (int i = k - 1; i >= 0; i--)
        if (a[i] != b[i])
            return a[i] > b[i];
    return 0;
}

/* Fills cur[i..k) with a non-increasing factorization of m whose parts are <= cap, keeping
 * in best the one with the smallest spread, ties broken by wins_tie. */
static void search(struct search *s, int i, long long m, long long cap)
{
    int left = s->k - i;
    if (left == 1) {
        long long sp = (i ? s->cur[0] : m) - m;
        if (m > cap || (s->spread >= 0 && sp > s->spread))
            return;
        s->cur[i] = (int)m;
        if (s->spread < 0 || sp < s->spread || wins_tie(s->cur, s->best, s->k)) {
            s->spread = sp;
            memcpy(s->best, s->cur, sizeof *s->cur * (size_t)s->k);
        }
        return;
    }
    /* the largest remaining part is at least the left-th root of m */
    long long lo = iroot(m, left);
    if (pow_upto(lo, left, m) < m)
        lo++;
    for (int j = 0; j < s->ndiv; j++) {
        long long d = s->div[j];
        if (d < lo || m % d)
            continue;
        if (d > cap || d > m)
            break;
        long long top = i ? s->cur[0] : d;
        /* the smallest part will be at most the (left-1)-th root of what remains; a tie
         * may still win */
        if (s->spread >= 0 && top - iroot(m / d, left - 1) > s->spread)
            continue;
        s->cur[i] = (int)d;
        search(s, i + 1, m / d, d);
    }
}

/* The divisors of m in increasing order into s->div. 0 when out of memory. */
static int divisors(struct search *s, long long m)
{
    long long r = iroot(m, 2);
    s->div = malloc(sizeof *s->div * (size_t)(2 * r + 2));
    if (!s->div)
        return 0;
    int n = 0;
    for (long long d = 1; d <= r; d++)
        if (m % d == 0)
            s->div[n++] = d;
    for (int j = n - 1; j >= 0; j--)
        if (s->div[j] != m / s->div[j])
            s->div[n++] = m / s->div[j];
    s->ndiv = n;
    return 1;
}

/* MPI_Dims_create: fills the zero entries of dims[0..ndims) so that the product of all
 * is nnodes, as balanced as possible (the smallest largest-minus-smallest spread; among
 * equal spreads MPICH's choice, see wins_tie), in non-increasing order. Negative entries, or a product of the given entries that does not
 * divide nnodes: RT_ERR_DIMS; ndims < 0: RT_ERR_DIMS; nnodes < 1: RT_ERR_ARG. */
int rt_Dims_create(int nnodes, int ndims, int *dims)
{
    if (ndims < 0)
        return RT_ERR(NULL, RT_ERR_DIMS, "invalid argument 'ndims' = %d: must be >= 0", ndims);
    if (nnodes < 1)
        return RT_ERR(NULL, RT_ERR_ARG, "invalid argument 'nnodes' = %d: must be > 0", nnodes);
    if (ndims > 0 && !dims)
        return rt__null_arg(NULL, __func__, "dims");
    long long fixed = 1;
    int k = 0;
    for (int i = 0; i < ndims; i++) {
        if (dims[i] < 0)
            return RT_ERR(NULL, RT_ERR_DIMS, "invalid argument 'dims[%d]' = %d: must be >= 0", i, dims[i]);
        if (dims[i] == 0)
            k++;
        else if ((fixed *= dims[i]) > nnodes)
            break;
    }
    if (fixed > nnodes || nnodes % fixed != 0)
        return RT_ERR(NULL, RT_ERR_DIMS, "invalid argument 'dims': the given dimensions do not divide nnodes = %d",
                      nnodes);
    long long m = nnodes / fixed;
    if (k == 0)
        return m == 1 ? RT_SUCCESS
                      : RT_ERR(NULL, RT_ERR_DIMS, "invalid argument 'dims': their product is not nnodes = %d", nnodes);
    struct search s = {.k = k, .spread = -1};
    s.cur = malloc(sizeof *s.cur * (size_t)k);
    s.best = malloc(sizeof *s.best * (size_t)k);
    int ok = s.cur && s.best && divisors(&s, m);
    if (ok)
        search(&s, 0, m, m);
    for (int i = 0, j = 0; ok && i < ndims; i++)
        if (dims[i] == 0)
            dims[i] = s.best[j++];
    free(s.cur);
    free(s.best);
    free(s.div);
    return ok ? RT_SUCCESS : RT_ERR(NULL, RT_ERR_NO_MEM, "out of memory");
}
