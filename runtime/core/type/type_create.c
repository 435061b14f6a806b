/* type_create.c — derived datatype constructors: every constructor is reduced to a list of
 * (displacement, repetitions, count, type) entries compiled into a compact layout. */
#include "attr/attr.h"
#include "type.h"

#include <stdlib.h>

/* One entry of a constructor: rep blocks `stride` bytes apart, the first at byte displacement
 * disp, each of bl elements of t (rep is 1 but for the vectors). */
struct ent {
    rt_aint disp;
    rt_count bl;
    rt_type *t;
    rt_count rep;
    rt_aint stride;
};

#define MARK_LB 1 /* explicit_ub bits: the type carries an lb / ub marker */
#define MARK_UB 2

static int is_marker(const rt_type *t, int id)
{
    return t->obj.builtin && t->obj.index == id;
}

/* Stores the constructor's arguments for MPI_Type_get_contents (copies; retains the types).
 * Returns 0 or -1 when out of memory. */
static int set_args(rt_type *t, int combiner, int ni, const int *ints, int na, const rt_aint *addrs, int nt,
                    rt_type *const *types)
{
    t->combiner = combiner;
    t->ints = ni ? malloc((size_t)ni * sizeof *ints) : NULL;
    t->addrs = na ? malloc((size_t)na * sizeof *addrs) : NULL;
    t->types = nt ? malloc((size_t)nt * sizeof *types) : NULL;
    if ((ni && !t->ints) || (na && !t->addrs) || (nt && !t->types))
        return -1;
    t->nints = ni;
    t->naddrs = na;
    if (ni)
        memcpy(t->ints, ints, (size_t)ni * sizeof *ints);
    if (na)
        memcpy(t->addrs, addrs, (size_t)na * sizeof *addrs);
    for (int i = 0; i < nt; i++) {
        t->types[i] = types[i];
        rt__obj_retain((rt_obj *)types[i]);
    }
    t->ntypes = nt;
    return 0;
}

/* Adds entry e's data to layout l: rep blocks of bl elements of its type. -1: no memory. */
static int add_entry(struct rt__layout *l, const struct ent *e)
{
    struct rt__layout *o = e->t->lay;
    if (e->rep == 1 || e->bl == 1)
        return rt__lay_add_copies(l, e->disp, e->rep * e->bl, e->rep == 1 ? e->t->extent : e->stride, o);
    struct rt__layout *block = rt__lay_new(); /* one block, then its copies */
    int rc = !block || rt__lay_add_copies(block, 0, e->bl, e->t->extent, o) || rt__lay_finish(block) ||
             rt__lay_add_copies(l, e->disp, e->rep, e->stride, block) ? -1 : 0;
    rt__lay_release(block);
    return rc;
}

/* Lowest and highest of {k * step : 0 <= k < n} added to *lo and *hi; 1 on overflow. */
static int span(rt_count n, rt_aint step, rt_aint *lo, rt_aint *hi)
{
    rt_aint s;
    if (__builtin_mul_overflow(n - 1, step, &s))
        return 1;
    return __builtin_add_overflow(*lo, s < 0 ? s : 0, lo) || __builtin_add_overflow(*hi, s > 0 ? s : 0, hi);
}

/* Compiles the n entries e into a new type *out (struct: pad the extent to the alignment).
 * Returns RT_SUCCESS or raises for fn. */
static int build(const char *fn, rt_count n, const struct ent *e, int is_struct, rt_type **out)
{
    for (rt_count i = 0; i < n; i++)
        if (e[i].bl < 0)
            return rt_raise(NULL, RT_ERR_ARG, fn, "invalid blocklength %lld of entry %lld: must be >= 0",
                            (long long)e[i].bl, (long long)i);
    rt_type *t = (rt_type *)rt__obj_new(RT_CLASS_DATATYPE);
    if (!t || !(t->lay = rt__lay_new())) {
        if (t)
            rt__obj_release(&t->obj);
        return rt_raise(NULL, RT_ERR_NO_MEM, fn, "out of memory");
    }
    int have_data = 0, have_lb = 0, have_ub = 0, same_elem = 1;
    rt_aint lo = 0, hi = 0, tlo = 0, thi = 0, mlo = 0, mhi = 0;
    t->align = 1;
    t->elem_size = -1;
    t->basic = -2; /* -2: no data seen yet */
    for (rt_count i = 0; i < n; i++) {
        const rt_type *o = e[i].t;
        rt_count bl = e[i].bl;
        rt_aint d = e[i].disp, x = o->extent;
        if (is_marker(o, RT_B_LB) || is_marker(o, RT_B_UB)) { /* MPI-1 markers */
            int lbm = is_marker(o, RT_B_LB);
            if (lbm && (!have_lb || d < mlo))
                mlo = d;
            if (!lbm && (!have_ub || d > mhi))
                mhi = d;
            *(lbm ? &have_lb : &have_ub) = 1;
            continue;
        }
        if (bl == 0 || e[i].rep == 0)
            continue;
        if (add_entry(t->lay, &e[i])) {
            rt__obj_release(&t->obj);
            return rt_raise(NULL, RT_ERR_NO_MEM, fn, "out of memory");
        }
        if (o->size > 0) {
            if (t->elem_size < 0)
                t->elem_size = o->elem_size;
            else if (t->elem_size != o->elem_size)
                same_elem = 0;
            t->basic = t->basic == -2 || t->basic == o->basic ? o->basic : -1;
        }
        if (o->align > t->align)
            t->align = o->align;
        /* bounds: rep blocks `stride` apart of bl copies of o, x apart */
        rt_aint smin = 0, smax = 0;
        if (span(bl, x, &smin, &smax) || span(e[i].rep, e[i].stride, &smin, &smax)) {
            rt__obj_release(&t->obj);
            return rt_raise(NULL, RT_ERR_ARG, fn, "datatype extent overflows an address");
        }
        rt_aint l = d + o->lb + smin, h = d + o->lb + o->extent + smax;
        if (o->explicit_ub & MARK_LB) {
            if (!have_lb || l < mlo)
                mlo = l;
            have_lb = 1;
        }
        if (o->explicit_ub & MARK_UB) {
            if (!have_ub || h > mhi)
                mhi = h;
            have_ub = 1;
        }
        if (o->size == 0)
            continue; /* only markers (or nothing): no data bounds */
        if (!have_data || l < lo)
            lo = l;
        if (!have_data || h > hi)
            hi = h;
        rt_aint tl = d + o->true_lb + smin, th = d + o->true_lb + o->true_extent + smax;
        if (!have_data || tl < tlo)
            tlo = tl;
        if (!have_data || th > thi)
            thi = th;
        have_data = 1;
    }
    if (rt__lay_finish(t->lay)) {
        rt__obj_release(&t->obj);
        return rt_raise(NULL, RT_ERR_ARG, fn, "datatype size overflows an MPI_Count");
    }
    t->size = t->lay->size;
    if (!same_elem || t->elem_size < 0)
        t->elem_size = 0;
    if (t->basic < 0)
        t->basic = -1;
    /* MPI-1's bounds: lb = the lowest lb marker if there is one, else the lowest data
     * displacement; ub = the highest ub marker, else the highest data end (+ alignment
     * padding); a side with neither is 0 (as for an empty type). Markers are sticky: those
     * of the old types count, shifted; they never bound the other side, so {(MPI_LB, 10)}
     * has lb 10, ub 0, extent -10. */
    lo = have_lb ? mlo : have_data ? lo : 0;
    hi = have_ub ? mhi : have_data ? hi : 0;
    t->explicit_ub = (have_lb ? MARK_LB : 0) | (have_ub ? MARK_UB : 0);
    t->lb = lo;
    t->extent = hi - lo;
    if (is_struct && !have_lb && !have_ub && t->align > 1 && t->extent % t->align)
        t->extent += t->align - t->extent % t->align;
    t->true_lb = tlo;
    t->true_extent = thi - tlo;
    *out = t;
    return RT_SUCCESS;
}

/* Frees a type whose arguments could not be stored; raises RT_ERR_NO_MEM for fn. */
static int no_mem(rt_type *t, const char *fn)
{
    rt__obj_release(&t->obj);
    return rt_raise(NULL, RT_ERR_NO_MEM, fn, "out of memory");
}

/* An int copy of count wide values (constructor arguments for get_contents). */
static int as_int(rt_count v)
{
    return v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : (int)v;
}

/* ------------------------------------------------------------ entry points */

/* MPI_Type_contiguous (and _c): count copies of oldtype. */
int rt_Type_contiguous(rt_count count, rt_type *oldtype, rt_type **newtype)
{
    struct ent e = {0, count, oldtype, 1, 0};
    rt_type *t;
    int err = build(__func__, 1, &e, 0, &t);
    if (err)
        return err;
    int ints[1] = {as_int(count)};
    if (set_args(t, RT_COMBINER_CONTIGUOUS, 1, ints, 0, NULL, 1, &oldtype))
        return no_mem(t, __func__);
    *newtype = t;
    return RT_SUCCESS;
}

/* Common body of the vector constructors: count blocks of bl, `stride` bytes apart. */
static int vector(const char *fn, rt_count count, rt_count bl, rt_aint stride, rt_type *old, rt_type **out)
{
    struct ent e = {0, bl, old, count, stride};
    return build(fn, 1, &e, 0, out);
}

/* MPI_Type_vector (and _c): count blocks of blocklength elements, stride elements apart. */
int rt_Type_vector(rt_count count, rt_count blocklength, rt_count stride, rt_type *oldtype, rt_type **newtype)
{
    rt_type *t;
    if (blocklength < 0)
        return RT_ERR(NULL, RT_ERR_ARG, "invalid argument 'blocklength' = %lld: must be >= 0", (long long)blocklength);
    int err = vector(__func__, count, blocklength, stride * oldtype->extent, oldtype, &t);
    if (err)
        return err;
    int ints[3] = {as_int(count), as_int(blocklength), as_int(stride)};
    if (set_args(t, RT_COMBINER_VECTOR, 3, ints, 0, NULL, 1, &oldtype))
        return no_mem(t, __func__);
    *newtype = t;
    return RT_SUCCESS;
}

/* MPI_Type_create_hvector (and _c): as MPI_Type_vector with the stride in bytes. */
int rt_Type_create_hvector(rt_count count, rt_count blocklength, rt_count stride, rt_type *oldtype,
                           rt_type **newtype)
{
    rt_type *t;
    if (blocklength < 0)
        return RT_ERR(NULL, RT_ERR_ARG, "invalid argument 'blocklength' = %lld: must be >= 0", (long long)blocklength);
    int err = vector(__func__, count, blocklength, (rt_aint)stride, oldtype, &t);
    if (err)
        return err;
    int ints[2] = {as_int(count), as_int(blocklength)};
    rt_aint addrs[1] = {(rt_aint)stride};
    if (set_args(t, RT_COMBINER_HVECTOR, 2, ints, 1, addrs, 1, &oldtype))
        return no_mem(t, __func__);
    *newtype = t;
    return RT_SUCCESS;
}

/* MPI_Type_hvector (removed MPI-1 form): as MPI_Type_create_hvector. */
int rt_Type_hvector(int count, int blocklength, rt_aint stride, rt_type *oldtype, rt_type **newtype)
{
    if (count < 0)
        return RT_ERR(NULL, RT_ERR_COUNT, "invalid argument 'count' = %d: must be >= 0", count);
    return rt_Type_create_hvector(count, blocklength, stride, oldtype, newtype);
}

/* Common body of the indexed constructors. bls: NULL = every block is `bl` long; disps in
 * units of `unit` bytes. ints/addrs: the arguments to record. */
static int indexed(const char *fn, rt_count count, rt_counts bls, rt_count bl, rt_counts disps, rt_aint unit,
                   rt_type *const *types, rt_type *old, int is_struct, rt_type **out)
{
    struct ent *e = malloc((size_t)(count ? count : 1) * sizeof *e);
    if (!e)
        return rt_raise(NULL, RT_ERR_NO_MEM, fn, "out of memory");
    for (rt_count i = 0; i < count; i++)
        e[i] = (struct ent){(rt_aint)rt_counts_get(disps, (size_t)i) * unit, bls.p ? rt_counts_get(bls, (size_t)i) : bl,
                            types ? types[i] : old, 1, 0};
    int err = build(fn, count, e, is_struct, out);
    free(e);
    return err;
}

/* Records the arguments of an indexed-family constructor: ints = count, the blocklengths
 * (or the one blocklength), the displacements when they are ints; addrs: when in bytes. */
static int indexed_args(rt_type *t, int combiner, rt_count count, rt_counts bls, rt_count bl, rt_counts disps,
                        int disps_bytes, int ntypes, rt_type *const *types)
{
    int nb = bls.p ? (int)count : 1, ni = 1 + nb + (disps_bytes ? 0 : (int)count);
    int *ints = malloc((size_t)ni * sizeof *ints);
    rt_aint *addrs = disps_bytes && count ? malloc((size_t)count * sizeof *addrs) : NULL;
    int rc = -1;
    if (!ints || (disps_bytes && count && !addrs))
        goto out;
    ints[0] = as_int(count);
    for (int i = 0; i < nb; i++)
        ints[1 + i] = as_int(bls.p ? rt_counts_get(bls, (size_t)i) : bl);
    for (rt_count i = 0; i < count; i++) {
        if (disps_bytes)
            addrs[i] = (rt_aint)rt_counts_get(disps, (size_t)i);
        else
            ints[1 + nb + i] = as_int(rt_counts_get(disps, (size_t)i));
    }
    rc = set_args(t, combiner, ni, ints, disps_bytes ? (int)count : 0, addrs, ntypes, types);
out:
    free(ints);
    free(addrs);
    return rc;
}

/* Builds and records an indexed-family type; common tail of the entry points below. */
static int indexed_type(const char *fn, int combiner, rt_count count, rt_counts bls, rt_count bl, rt_counts disps,
                        int disps_bytes, rt_type *const *types, rt_type *old, rt_type **newtype)
{
    rt_type *t;
    if (!bls.p && bl < 0)
        return rt_raise(NULL, RT_ERR_ARG, fn, "invalid argument 'blocklength' = %lld: must be >= 0", (long long)bl);
    if (count > 0 && (!disps.p || (!bls.p && combiner == RT_COMBINER_STRUCT)))
        return rt_raise(NULL, RT_ERR_ARG, fn, "an array argument is a null pointer");
    int err = indexed(fn, count, bls, bl, disps, disps_bytes ? 1 : old->extent, types, old,
                      combiner == RT_COMBINER_STRUCT, &t);
    if (err)
        return err;
    if (indexed_args(t, combiner, count, bls, bl, disps, disps_bytes, types ? (int)count : 1,
                     types ? types : &old))
        return no_mem(t, fn);
    *newtype = t;
    return RT_SUCCESS;
}

/* MPI_Type_indexed (and _c): blocks at displacements in elements of oldtype. */
int rt_Type_indexed(rt_count count, rt_counts array_of_blocklengths, rt_counts array_of_displacements,
                    rt_type *oldtype, rt_type **newtype)
{
    if (count > 0 && !array_of_blocklengths.p)
        return RT_ERR(NULL, RT_ERR_ARG, "argument 'array_of_blocklengths' is a null pointer");
    return indexed_type(__func__, RT_COMBINER_INDEXED, count, array_of_blocklengths, 0, array_of_displacements, 0,
                        NULL, oldtype, newtype);
}

/* MPI_Type_create_hindexed (and _c): blocks at displacements in bytes. */
int rt_Type_create_hindexed(rt_count count, rt_counts array_of_blocklengths, rt_counts array_of_displacements,
                            rt_type *oldtype, rt_type **newtype)
{
    if (count > 0 && !array_of_blocklengths.p)
        return RT_ERR(NULL, RT_ERR_ARG, "argument 'array_of_blocklengths' is a null pointer");
    return indexed_type(__func__, RT_COMBINER_HINDEXED, count, array_of_blocklengths, 0, array_of_displacements, 1,
                        NULL, oldtype, newtype);
}

/* MPI_Type_hindexed (removed MPI-1 form): as MPI_Type_create_hindexed. */
int rt_Type_hindexed(int count, const int *array_of_blocklengths, const rt_aint *array_of_displacements,
                     rt_type *oldtype, rt_type **newtype)
{
    if (count < 0)
        return RT_ERR(NULL, RT_ERR_COUNT, "invalid argument 'count' = %d: must be >= 0", count);
    if (count > 0 && !array_of_blocklengths)
        return RT_ERR(NULL, RT_ERR_ARG, "argument 'array_of_blocklengths' is a null pointer");
    return indexed_type(__func__, RT_COMBINER_HINDEXED, count, (rt_counts){array_of_blocklengths, 0}, 0,
                        (rt_counts){array_of_displacements, sizeof(rt_aint) == 8}, 1, NULL, oldtype, newtype);
}

/* MPI_Type_create_indexed_block (and _c): blocks of one length at element displacements. */
int rt_Type_create_indexed_block(rt_count count, rt_count blocklength, rt_counts array_of_displacements,
                                 rt_type *oldtype, rt_type **newtype)
{
    return indexed_type(__func__, RT_COMBINER_INDEXED_BLOCK, count, (rt_counts){NULL, 0}, blocklength,
                        array_of_displacements, 0, NULL, oldtype, newtype);
}

/* MPI_Type_create_hindexed_block (and _c): blocks of one length at byte displacements. */
int rt_Type_create_hindexed_block(rt_count count, rt_count blocklength, rt_counts array_of_displacements,
                                  rt_type *oldtype, rt_type **newtype)
{
    return indexed_type(__func__, RT_COMBINER_HINDEXED_BLOCK, count, (rt_counts){NULL, 0}, blocklength,
                        array_of_displacements, 1, NULL, oldtype, newtype);
}

/* MPI_Type_create_struct (and _c): blocks of different types at byte displacements; the
 * extent is padded to the strictest alignment unless bounds were set explicitly. */
int rt_Type_create_struct(rt_count count, rt_counts array_of_blocklengths, rt_counts array_of_displacements,
                          rt_type *const *array_of_types, rt_type **newtype)
{
    if (count > 0 && (!array_of_blocklengths.p || !array_of_types))
        return RT_ERR(NULL, RT_ERR_ARG, "an array argument is a null pointer");
    return indexed_type(__func__, RT_COMBINER_STRUCT, count, array_of_blocklengths, 0, array_of_displacements, 1,
                        array_of_types, NULL, newtype);
}

/* MPI_Type_struct (removed MPI-1 form; MPI_LB / MPI_UB markers honoured). */
int rt_Type_struct(int count, const int *array_of_blocklengths, const rt_aint *array_of_displacements,
                   rt_type *const *array_of_types, rt_type **newtype)
{
    if (count < 0)
        return RT_ERR(NULL, RT_ERR_COUNT, "invalid argument 'count' = %d: must be >= 0", count);
    if (count > 0 && (!array_of_blocklengths || !array_of_types))
        return RT_ERR(NULL, RT_ERR_ARG, "an array argument is a null pointer");
    return indexed_type(__func__, RT_COMBINER_STRUCT, count, (rt_counts){array_of_blocklengths, 0}, 0,
                        (rt_counts){array_of_displacements, sizeof(rt_aint) == 8}, 1, array_of_types, NULL, newtype);
}

/* A new type sharing old's layout, with its bounds; no constructor record. NULL when out of
 * memory. */
rt_type *rt__type_copy_layout(const rt_type *old)
{
    rt_type *t = (rt_type *)rt__obj_new(RT_CLASS_DATATYPE);
    if (!t)
        return NULL;
    t->lay = old->lay;
    rt__lay_retain(t->lay);
    t->size = old->size;
    t->lb = old->lb;
    t->extent = old->extent;
    t->true_lb = old->true_lb;
    t->true_extent = old->true_extent;
    t->elem_size = old->elem_size;
    t->pair_first = old->pair_first;
    t->basic = old->basic;
    t->align = old->align;
    t->explicit_ub = old->explicit_ub;
    return t;
}

/* MPI_Type_create_resized (and _c): old's data with lower bound lb and the given extent. */
int rt_Type_create_resized(rt_type *oldtype, rt_count lb, rt_count extent, rt_type **newtype)
{
    rt_type *t = rt__type_copy_layout(oldtype);
    if (!t)
        return RT_ERR(NULL, RT_ERR_NO_MEM, "out of memory");
    t->lb = (rt_aint)lb;
    t->extent = (rt_aint)extent;
    t->explicit_ub = MARK_LB | MARK_UB;
    rt_aint addrs[2] = {(rt_aint)lb, (rt_aint)extent};
    if (set_args(t, RT_COMBINER_RESIZED, 0, NULL, 2, addrs, 1, &oldtype))
        return no_mem(t, __func__);
    *newtype = t;
    return RT_SUCCESS;
}

/* MPI_Type_dup: a new type equal to oldtype (committed if it is; the name is not copied),
 * with oldtype's attributes passed through their copy callbacks (rt__attrs_copy). A copy
 * callback's error fails the call with that code, *newtype untouched and nothing leaked. */
int rt_Type_dup(rt_type *oldtype, rt_type **newtype)
{
    rt_type *t = rt__type_copy_layout(oldtype);
    if (!t)
        return RT_ERR(NULL, RT_ERR_NO_MEM, "out of memory");
    t->committed = oldtype->committed;
    if (set_args(t, RT_COMBINER_DUP, 0, NULL, 0, NULL, 1, &oldtype))
        return no_mem(t, __func__);
    int err = rt__attrs_copy(&oldtype->obj, &t->obj, __func__);
    if (err) {
        rt__obj_release(&t->obj);
        return err;
    }
    *newtype = t;
    return RT_SUCCESS;
}

/* MPI_Type_commit: marks the type usable for communication (the layout is compiled). */
int rt_Type_commit(rt_type **datatype)
{
    (*datatype)->committed = 1;
    return RT_SUCCESS;
}

/* MPI_Type_free: deletes the type's attributes (newest first, through their delete callbacks:
 * MPI runs them at MPI_Type_free, even while types built on it or pending operations still
 * hold it), then drops the user's reference (those keep theirs); sets the handle to the null
 * handle. A delete callback's error fails the call with that code: the type stays valid with
 * that attribute and the older ones. Predefined types cannot be freed. */
int rt_Type_free(rt_type **datatype)
{
    rt_type *t = *datatype;
    if (t->obj.builtin || t->combiner == RT_COMBINER_F90_INTEGER || t->combiner == RT_COMBINER_F90_REAL ||
        t->combiner == RT_COMBINER_F90_COMPLEX)
        return RT_ERR(NULL, RT_ERR_TYPE, "cannot free predefined datatype %s", t->name);
    int err = rt__attrs_delete_all(&t->obj, __func__);
    if (err)
        return err;
    rt__obj_release(&t->obj);
    *datatype = NULL;
    return RT_SUCCESS;
}

/* MPI_Type_get_envelope (and _c): how many arguments the constructor had, and which. The
 * arguments are all returned as ints and addresses (num_large_counts is 0). */
int rt_Type_get_envelope(rt_type *datatype, rt_count *num_integers, rt_count *num_addresses,
                         rt_count *num_large_counts, rt_count *num_datatypes, int *combiner)
{
    *num_integers = datatype->nints;
    *num_addresses = datatype->naddrs;
    if (num_large_counts)
        *num_large_counts = 0;
    *num_datatypes = datatype->ntypes;
    *combiner = datatype->combiner;
    return RT_SUCCESS;
}

/* MPI_Type_get_contents (and _c): the constructor's arguments; each returned derived type
 * carries a new reference the user frees. */
int rt_Type_get_contents(rt_type *datatype, rt_count max_integers, rt_count max_addresses,
                         rt_count max_large_counts, rt_count max_datatypes, int *array_of_integers,
                         rt_aint *array_of_addresses, rt_count *array_of_large_counts, rt_type **array_of_datatypes)
{
    (void)max_large_counts;
    (void)array_of_large_counts;
    const rt_type *t = datatype;
    if (t->combiner == RT_COMBINER_NAMED)
        return RT_ERR(NULL, RT_ERR_TYPE, "datatype %s is predefined: it has no contents", t->name);
    if (max_integers < t->nints || max_addresses < t->naddrs || max_datatypes < t->ntypes)
        return RT_ERR(NULL, RT_ERR_ARG,
                      "arrays too small: need %d integers, %d addresses, %d datatypes (got %lld, %lld, %lld)",
                      t->nints, t->naddrs, t->ntypes, (long long)max_integers, (long long)max_addresses,
                      (long long)max_datatypes);
    if ((t->nints && !array_of_integers) || (t->naddrs && !array_of_addresses) ||
        (t->ntypes && !array_of_datatypes))
        return RT_ERR(NULL, RT_ERR_ARG, "an array argument is a null pointer");
    if (t->nints)
        memcpy(array_of_integers, t->ints, (size_t)t->nints * sizeof *t->ints);
    if (t->naddrs)
        memcpy(array_of_addresses, t->addrs, (size_t)t->naddrs * sizeof *t->addrs);
    for (int i = 0; i < t->ntypes; i++) {
        array_of_datatypes[i] = t->types[i];
        rt__obj_retain((rt_obj *)t->types[i]);
    }
    return RT_SUCCESS;
}

/* ------------------------------------------------------------ Fortran 90 parameterized types */

/* The types MPI_Type_create_f90_* returned so far (predefined: never freed), by
 * combiner and (p, r); they keep the layout of the builtin they match. */
static struct f90_cache {
    int combiner, p, r;
    rt_type *t;
} f90[64];
static int nf90;

/* The cached or new F90 type for (combiner, p, r) matching builtin id; raises for fn. */
static int f90_type(const char *fn, int combiner, int p, int r, int id, rt_type **newtype)
{
    for (int i = 0; i < nf90; i++)
        if (f90[i].combiner == combiner && f90[i].p == p && f90[i].r == r) {
            *newtype = f90[i].t;
            return RT_SUCCESS;
        }
    if (nf90 == (int)(sizeof f90 / sizeof *f90))
        return rt_raise(NULL, RT_ERR_INTERN, fn, "too many distinct Fortran 90 parameterized types");
    rt_type *t = rt__type_copy_layout((rt_type *)rt_builtins[id]);
    if (!t)
        return rt_raise(NULL, RT_ERR_NO_MEM, fn, "out of memory");
    int ints[2] = {p, r}, ni = combiner == RT_COMBINER_F90_INTEGER ? 1 : 2;
    if (ni == 1)
        ints[0] = r;
    if (set_args(t, combiner, ni, ints, 0, NULL, 0, NULL)) {
        rt__obj_release(&t->obj);
        return rt_raise(NULL, RT_ERR_NO_MEM, fn, "out of memory");
    }
    t->committed = 1;
    rt__copy_str(t->name, sizeof t->name, ((rt_type *)rt_builtins[id])->name);
    f90[nf90++] = (struct f90_cache){combiner, p, r, t};
    *newtype = t;
    return RT_SUCCESS;
}

/* MPI_Type_create_f90_integer: an integer type with at least r decimal digits. */
int rt_Type_create_f90_integer(int r, rt_type **newtype)
{
    int id = r < 0 ? -1 : r <= 2 ? RT_B_INTEGER1 : r <= 4 ? RT_B_INTEGER2 : r <= 9 ? RT_B_INTEGER4
           : r <= 18 ? RT_B_INTEGER8 : r <= 38 ? RT_B_INTEGER16 : -1;
    if (id < 0)
        return RT_ERR(NULL, RT_ERR_ARG, "no integer type has range r = %d", r);
    return f90_type(__func__, RT_COMBINER_F90_INTEGER, 0, r, id, newtype);
}

/* The kind (0: 4 bytes, 1: 8, 2: 16) of a real with precision p and range r (negative:
 * MPI_UNDEFINED, not constrained); -1 if there is none. */
static int real_kind(int p, int r)
{
    if (p < 0 && r < 0)
        return -2;
    if (p <= 6 && r <= 37)
        return 0;
    if (p <= 15 && r <= 307)
        return 1;
    if (p <= 33 && r <= 4931)
        return 2;
    return -1;
}

/* MPI_Type_create_f90_real: a real type with precision p and range r. */
int rt_Type_create_f90_real(int p, int r, rt_type **newtype)
{
    static const int ids[] = {RT_B_REAL4, RT_B_REAL8, RT_B_REAL16};
    int k = real_kind(p, r);
    if (k < 0)
        return RT_ERR(NULL, RT_ERR_ARG, "no real type has precision p = %d and range r = %d", p, r);
    return f90_type(__func__, RT_COMBINER_F90_REAL, p, r, ids[k], newtype);
}

/* MPI_Type_create_f90_complex: a complex type with precision p and range r. */
int rt_Type_create_f90_complex(int p, int r, rt_type **newtype)
{
    static const int ids[] = {RT_B_COMPLEX8, RT_B_COMPLEX16, RT_B_COMPLEX32};
    int k = real_kind(p, r);
    if (k < 0)
        return RT_ERR(NULL, RT_ERR_ARG, "no complex type has precision p = %d and range r = %d", p, r);
    return f90_type(__func__, RT_COMBINER_F90_COMPLEX, p, r, ids[k], newtype);
}

/* MPI_Type_match_size: the Fortran type of a class with `size` bytes. */
int rt_Type_match_size(int typeclass, int size, rt_type **datatype)
{
    int id = -1;
    if (typeclass == RT_TYPECLASS_INTEGER)
        id = size == 1 ? RT_B_INTEGER1 : size == 2 ? RT_B_INTEGER2 : size == 4 ? RT_B_INTEGER
           : size == 8 ? RT_B_INTEGER8 : size == 16 ? RT_B_INTEGER16 : -1;
    else if (typeclass == RT_TYPECLASS_REAL)
        id = size == 2 ? RT_B_REAL2 : size == 4 ? RT_B_REAL : size == 8 ? RT_B_DOUBLE_PRECISION
           : size == 16 ? RT_B_REAL16 : -1;
    else if (typeclass == RT_TYPECLASS_COMPLEX)
        id = size == 4 ? RT_B_COMPLEX4 : size == 8 ? RT_B_COMPLEX : size == 16 ? RT_B_DOUBLE_COMPLEX
           : size == 32 ? RT_B_COMPLEX32 : -1;
    else
        return RT_ERR(NULL, RT_ERR_ARG, "invalid argument 'typeclass' = %d", typeclass);
    if (id < 0)
        return RT_ERR(NULL, RT_ERR_ARG, "no type of this class has size %d", size);
    *datatype = (rt_type *)rt_builtins[id];
    return RT_SUCCESS;
}
