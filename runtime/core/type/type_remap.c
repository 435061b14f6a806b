/* type_remap.c — a datatype rebuilt from its constructor record with other leaves: the layout of
 * a type in a file whose data representation changes the basic elements' sizes (MPI-IO views). */
#include "type.h"

#include <stdlib.h>

/* The constructor of t called again on `old` (its remapped types) instead of t's own. */
static int rebuild(const rt_type *t, rt_type **old, rt_type **out)
{
    const int *in = t->ints;
    const rt_aint *ad = t->addrs;
    int n = t->nints ? in[0] : 0;
    rt_counts a = {in + 1, 0}, b = {in + 1 + n, 0}, c = {in + 1 + 2 * n, 0}, addrs = {ad, 1};
    switch (t->combiner) {
    case RT_COMBINER_CONTIGUOUS:
        return rt_Type_contiguous(n, old[0], out);
    case RT_COMBINER_VECTOR:
        return rt_Type_vector(n, in[1], in[2], old[0], out);
    case RT_COMBINER_HVECTOR:
        return rt_Type_create_hvector(n, in[1], ad[0], old[0], out);
    case RT_COMBINER_INDEXED:
        return rt_Type_indexed(n, a, b, old[0], out);
    case RT_COMBINER_HINDEXED:
        return rt_Type_create_hindexed(n, a, addrs, old[0], out);
    case RT_COMBINER_INDEXED_BLOCK:
        return rt_Type_create_indexed_block(n, in[1], (rt_counts){in + 2, 0}, old[0], out);
    case RT_COMBINER_HINDEXED_BLOCK:
        return rt_Type_create_hindexed_block(n, in[1], addrs, old[0], out);
    case RT_COMBINER_STRUCT:
        return rt_Type_create_struct(n, a, addrs, old, out);
    case RT_COMBINER_SUBARRAY:
        return rt_Type_create_subarray(n, a, b, c, in[1 + 3 * n], old[0], out);
    case RT_COMBINER_DARRAY: {
        int nd = in[2];
        return rt_Type_create_darray(in[0], in[1], nd, (rt_counts){in + 3, 0}, in + 3 + nd, in + 3 + 2 * nd,
                                     in + 3 + 3 * nd, in[3 + 4 * nd], old[0], out);
    }
    case RT_COMBINER_RESIZED:
        return rt_Type_create_resized(old[0], ad[0], ad[1], out);
    default: /* DUP */
        *out = old[0];
        rt__obj_retain(&old[0]->obj);
        return RT_SUCCESS;
    }
}

int rt__type_remap(rt_type *t, rt__type_leaf_fn *leaf, void *ctx, rt_type **out)
{
    if (t->combiner == RT_COMBINER_NAMED || t->combiner == RT_COMBINER_F90_INTEGER ||
        t->combiner == RT_COMBINER_F90_REAL || t->combiner == RT_COMBINER_F90_COMPLEX)
        return leaf(ctx, t, out);
    rt_type *one, **old = t->ntypes > 1 ? calloc((size_t)t->ntypes, sizeof *old) : &one;
    int err = old ? RT_SUCCESS : RT_ERR_NO_MEM, made = 0;
    while (!err && made < t->ntypes && !(err = rt__type_remap(t->types[made], leaf, ctx, &old[made])))
        made++;
    if (!err)
        err = rebuild(t, old, out);
    for (int k = 0; k < made; k++)
        rt__obj_release(&old[k]->obj);
    if (old != &one)
        free(old);
    return err;
}
