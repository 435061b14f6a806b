/* type_darray.c — MPI_Type_create_subarray and MPI_Type_create_darray: a product of, per
 * dimension, runs of global indices, built from the fastest-varying dimension outwards. */
#include "type.h"

#include <stdlib.h>

/* A run of `len` indices from `start` along one dimension. */
struct run {
    rt_count start, len;
};

/* The faces map the distributions and MPI_DISTRIBUTE_DFLT_DARG to the runtime's values. */
static int is_dflt_darg(int v)
{
    return v == RT_DISTRIBUTE_DFLT_DARG;
}

/* A new type: old's layout with bounds lb / extent; no constructor record. NULL when out of
 * memory. */
static rt_type *resized(const rt_type *old, rt_aint lb, rt_aint extent)
{
    rt_type *t = rt__type_copy_layout(old);
    if (!t)
        return NULL;
    t->pair_first = 0;
    t->explicit_ub = 3;
    t->lb = lb;
    t->extent = extent;
    return t;
}

/* Builds the product type: dims in order from slowest to fastest (dim[k] indexes the user
 * arrays), runs[k] / nruns[k] the selected runs of dimension dim[k], gs the global sizes.
 * The result has lb 0 and extent prod(gs) * old extent. Raises for fn on failure. */
static int product(const char *fn, int ndims, const int *dim, struct run *const *runs, const rt_count *nruns,
                   const rt_count *gs, rt_type *old, rt_type **out)
{
    rt_aint step = old->extent;
    rt_type *inner = old;
    rt_obj *hold = NULL; /* our reference to inner when it is an intermediate */
    for (int k = ndims - 1; k >= 0; k--) {
        int d = dim[k];
        rt_type *el = inner == old ? NULL : resized(inner, 0, step);
        if (inner != old && !el) {
            rt__obj_release(hold);
            return rt_raise(NULL, RT_ERR_NO_MEM, fn, "out of memory");
        }
        rt_count n = nruns[k];
        rt_count *bl = malloc((size_t)(n ? n : 1) * sizeof *bl);
        rt_count *disp = malloc((size_t)(n ? n : 1) * sizeof *disp);
        if (!bl || !disp) {
            free(bl);
            free(disp);
            rt__obj_release(hold);
            rt__obj_release((rt_obj *)el);
            return rt_raise(NULL, RT_ERR_NO_MEM, fn, "out of memory");
        }
        for (rt_count i = 0; i < n; i++) {
            bl[i] = runs[k][i].len;
            disp[i] = runs[k][i].start * step;
        }
        rt_type *t = NULL;
        int err = rt_Type_create_hindexed(n, (rt_counts){bl, 1}, (rt_counts){disp, 1}, el ? el : old, &t);
        free(bl);
        free(disp);
        rt__obj_release((rt_obj *)el);
        rt__obj_release(hold);
        if (err)
            return err;
        inner = t;
        hold = &t->obj;
        step *= gs[d];
    }
    rt_type *t = resized(inner, 0, step);
    rt__obj_release(hold);
    if (!t)
        return rt_raise(NULL, RT_ERR_NO_MEM, fn, "out of memory");
    *out = t;
    return RT_SUCCESS;
}

/* Records the arguments of subarray / darray on t (ints, old); 0 or -1 (out of memory). */
static int record(rt_type *t, int combiner, int ni, const int *ints, rt_type *old)
{
    t->combiner = combiner;
    t->ints = malloc((size_t)ni * sizeof *ints);
    t->types = malloc(sizeof *t->types);
    if (!t->ints || !t->types)
        return -1;
    memcpy(t->ints, ints, (size_t)ni * sizeof *ints);
    t->nints = ni;
    t->types[0] = old;
    rt__obj_retain(&old->obj);
    t->ntypes = 1;
    return 0;
}

/* The dimension order, slowest first: C = 0..n-1, Fortran = n-1..0. */
static void dim_order(int ndims, int order, int *dim)
{
    for (int k = 0; k < ndims; k++)
        dim[k] = order == RT_ORDER_C ? k : ndims - 1 - k;
}

/* MPI_Type_create_subarray (and _c): an n-dimensional subarray of an array of oldtype. */
int rt_Type_create_subarray(int ndims, rt_counts array_of_sizes, rt_counts array_of_subsizes,
                            rt_counts array_of_starts, int order, rt_type *oldtype, rt_type **newtype)
{
    if (ndims <= 0)
        return RT_ERR(NULL, RT_ERR_DIMS, "invalid argument 'ndims' = %d: must be > 0", ndims);
    if (order != RT_ORDER_C && order != RT_ORDER_FORTRAN)
        return RT_ERR(NULL, RT_ERR_ARG, "invalid argument 'order' = %d", order);
    if (!array_of_sizes.p || !array_of_subsizes.p || !array_of_starts.p)
        return RT_ERR(NULL, RT_ERR_ARG, "an array argument is a null pointer");
    int dim[ndims];
    rt_count gs[ndims], nr[ndims];
    struct run one[ndims], *runs[ndims];
    int *ints = malloc((size_t)(3 * ndims + 2) * sizeof *ints);
    if (!ints)
        return RT_ERR(NULL, RT_ERR_NO_MEM, "out of memory");
    ints[0] = ndims;
    for (int i = 0; i < ndims; i++) {
        rt_count sz = rt_counts_get(array_of_sizes, (size_t)i), sub = rt_counts_get(array_of_subsizes, (size_t)i),
                 st = rt_counts_get(array_of_starts, (size_t)i);
        if (sz <= 0 || sub < 0 || sub > sz || st < 0 || st > sz - sub) {
            free(ints);
            return RT_ERR(NULL, RT_ERR_ARG,
                          "invalid dimension %d: size %lld, subsize %lld, start %lld (need 0 <= start, "
                          "0 <= subsize, start + subsize <= size)",
                          i, (long long)sz, (long long)sub, (long long)st);
        }
        ints[1 + i] = (int)sz;
        ints[1 + ndims + i] = (int)sub;
        ints[1 + 2 * ndims + i] = (int)st;
    }
    ints[1 + 3 * ndims] = order;
    dim_order(ndims, order, dim);
    for (int k = 0; k < ndims; k++) {
        int d = dim[k];
        gs[d] = rt_counts_get(array_of_sizes, (size_t)d);
        one[k] = (struct run){rt_counts_get(array_of_starts, (size_t)d), rt_counts_get(array_of_subsizes, (size_t)d)};
        runs[k] = &one[k];
        nr[k] = 1;
    }
    rt_type *t;
    int err = product(__func__, ndims, dim, runs, nr, gs, oldtype, &t);
    if (!err && record(t, RT_COMBINER_SUBARRAY, 3 * ndims + 2, ints, oldtype)) {
        rt__obj_release(&t->obj);
        err = RT_ERR(NULL, RT_ERR_NO_MEM, "out of memory");
    }
    free(ints);
    if (!err)
        *newtype = t;
    return err;
}

/* The runs of indices of dimension of global size g that process coordinate c of p gets
 * (distribution dist, argument darg) into *out (new array), their number into *n. Returns
 * RT_SUCCESS or raises for fn. */
static int dim_runs(const char *fn, int i, rt_count g, int dist, int darg, int p, int c, struct run **out,
                    rt_count *n)
{
    *out = NULL;
    *n = 0;
    if (dist == RT_DISTRIBUTE_NONE) {
        if (p != 1)
            return rt_raise(NULL, RT_ERR_ARG, fn, "dimension %d: MPI_DISTRIBUTE_NONE needs psize 1, got %d", i, p);
        dist = RT_DISTRIBUTE_BLOCK;
        darg = RT_DISTRIBUTE_DFLT_DARG;
    }
    if (dist == RT_DISTRIBUTE_BLOCK) {
        rt_count b = is_dflt_darg(darg) ? (g + p - 1) / p : darg;
        if (b <= 0 || b * p < g)
            return rt_raise(NULL, RT_ERR_ARG, fn, "dimension %d: block size %lld cannot distribute %lld over %d",
                            i, (long long)b, (long long)g, p);
        rt_count st = b * c, len = g - st < b ? g - st : b;
        if (!(*out = malloc(sizeof **out)))
            return rt_raise(NULL, RT_ERR_NO_MEM, fn, "out of memory");
        (*out)[0] = (struct run){st, len > 0 ? len : 0};
        *n = 1;
        return RT_SUCCESS;
    }
    if (dist != RT_DISTRIBUTE_CYCLIC)
        return rt_raise(NULL, RT_ERR_ARG, fn, "dimension %d: invalid distribution %d", i, dist);
    rt_count b = is_dflt_darg(darg) ? 1 : darg;
    if (b <= 0)
        return rt_raise(NULL, RT_ERR_ARG, fn, "dimension %d: invalid cyclic block size %d", i, darg);
    rt_count cnt = 0;
    for (rt_count st = b * c; st < g; st += b * p)
        cnt++;
    if (!(*out = malloc((size_t)(cnt ? cnt : 1) * sizeof **out)))
        return rt_raise(NULL, RT_ERR_NO_MEM, fn, "out of memory");
    for (rt_count st = b * c; st < g; st += b * p)
        (*out)[(*n)++] = (struct run){st, g - st < b ? g - st : b};
    return RT_SUCCESS;
}

/* MPI_Type_create_darray (and _c): the part of a distributed global array that process
 * `rank` of a grid of `size` processes (psizes, row-major ranks) holds. */
int rt_Type_create_darray(int size, int rank, int ndims, rt_counts array_of_gsizes, const int *array_of_distribs,
                          const int *array_of_dargs, const int *array_of_psizes, int order, rt_type *oldtype,
                          rt_type **newtype)
{
    if (size <= 0 || rank < 0 || rank >= size)
        return RT_ERR(NULL, RT_ERR_ARG, "invalid arguments 'size' = %d, 'rank' = %d", size, rank);
    if (ndims <= 0)
        return RT_ERR(NULL, RT_ERR_DIMS, "invalid argument 'ndims' = %d: must be > 0", ndims);
    if (order != RT_ORDER_C && order != RT_ORDER_FORTRAN)
        return RT_ERR(NULL, RT_ERR_ARG, "invalid argument 'order' = %d", order);
    if (!array_of_gsizes.p || !array_of_distribs || !array_of_dargs || !array_of_psizes)
        return RT_ERR(NULL, RT_ERR_ARG, "an array argument is a null pointer");
    rt_count prod = 1;
    for (int i = 0; i < ndims; i++) {
        if (array_of_psizes[i] <= 0 || rt_counts_get(array_of_gsizes, (size_t)i) <= 0)
            return RT_ERR(NULL, RT_ERR_ARG, "dimension %d: gsize and psize must be > 0", i);
        prod *= array_of_psizes[i];
    }
    if (prod != size)
        return RT_ERR(NULL, RT_ERR_ARG, "the product of 'array_of_psizes' is %lld, not 'size' = %d", (long long)prod,
                      size);
    int dim[ndims], coord[ndims];
    rt_count gs[ndims], nr[ndims];
    struct run *runs[ndims];
    for (int i = 0, r = rank, rest = size; i < ndims; i++) { /* row-major grid coordinates */
        rest /= array_of_psizes[i];
        coord[i] = r / rest;
        r %= rest;
        gs[i] = rt_counts_get(array_of_gsizes, (size_t)i);
    }
    dim_order(ndims, order, dim);
    int err = RT_SUCCESS, k;
    for (k = 0; k < ndims && !err; k++) {
        int d = dim[k];
        err = dim_runs(__func__, d, gs[d], array_of_distribs[d], array_of_dargs[d], array_of_psizes[d],
                       coord[d], &runs[k], &nr[k]);
    }
    if (err)
        k--; /* runs[k] was not set */
    rt_type *t = NULL;
    if (!err)
        err = product(__func__, ndims, dim, runs, nr, gs, oldtype, &t);
    for (int j = 0; j < k; j++)
        free(runs[j]);
    if (err)
        return err;
    int ni = 4 * ndims + 4, *ints = malloc((size_t)ni * sizeof *ints);
    if (ints) {
        ints[0] = size;
        ints[1] = rank;
        ints[2] = ndims;
        for (int i = 0; i < ndims; i++) {
            ints[3 + i] = (int)gs[i];
            ints[3 + ndims + i] = array_of_distribs[i];
            ints[3 + 2 * ndims + i] = array_of_dargs[i];
            ints[3 + 3 * ndims + i] = array_of_psizes[i];
        }
        ints[3 + 4 * ndims] = order; /* runtime values: see MPI_Type_get_contents */
    }
    if (!ints || record(t, RT_COMBINER_DARRAY, ni, ints, oldtype)) {
        free(ints);
        rt__obj_release(&t->obj);
        return RT_ERR(NULL, RT_ERR_NO_MEM, "out of memory");
    }
    free(ints);
    *newtype = t;
    return RT_SUCCESS;
}
