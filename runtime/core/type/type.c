/* type.c — datatype layouts: the builtin types' sizes and block layouts, packing and
 * unpacking through a layout, and the status accessors that count elements. */
#include "attr/attr.h"
#include "type.h"

#include <complex.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <wchar.h>

struct pair_desc {
    int id;
    rt_aint first, second_off, second, extent;
};

#define PAIR(ID, T1, T2)                                                                          \
    {ID, sizeof(T1), offsetof(struct { T1 a; T2 b; }, b), sizeof(T2), sizeof(struct { T1 a; T2 b; })}

/* Each builtin datatype's size in bytes (the pair types for MINLOC/MAXLOC are below). */
static const unsigned char builtin_size[RT_NBUILTINS] = {
    [RT_B_CHAR] = sizeof(char), [RT_B_SIGNED_CHAR] = 1, [RT_B_UNSIGNED_CHAR] = 1, [RT_B_BYTE] = 1,
    [RT_B_PACKED] = 1, [RT_B_WCHAR] = sizeof(wchar_t), [RT_B_SHORT] = sizeof(short),
    [RT_B_UNSIGNED_SHORT] = sizeof(short), [RT_B_INT] = sizeof(int), [RT_B_UNSIGNED] = sizeof(int),
    [RT_B_LONG] = sizeof(long), [RT_B_UNSIGNED_LONG] = sizeof(long), [RT_B_LONG_LONG] = sizeof(long long),
    [RT_B_UNSIGNED_LONG_LONG] = sizeof(long long), [RT_B_FLOAT] = sizeof(float), [RT_B_DOUBLE] = sizeof(double),
    [RT_B_LONG_DOUBLE] = sizeof(long double), [RT_B_C_BOOL] = sizeof(_Bool), [RT_B_CXX_BOOL] = sizeof(_Bool),
    [RT_B_INT8_T] = 1, [RT_B_INT16_T] = 2, [RT_B_INT32_T] = 4, [RT_B_INT64_T] = 8,
    [RT_B_UINT8_T] = 1, [RT_B_UINT16_T] = 2, [RT_B_UINT32_T] = 4, [RT_B_UINT64_T] = 8,
    [RT_B_C_COMPLEX] = sizeof(float complex), [RT_B_C_DOUBLE_COMPLEX] = sizeof(double complex),
    [RT_B_C_LONG_DOUBLE_COMPLEX] = sizeof(long double complex),
    [RT_B_CXX_FLOAT_COMPLEX] = sizeof(float complex), [RT_B_CXX_DOUBLE_COMPLEX] = sizeof(double complex),
    [RT_B_CXX_LONG_DOUBLE_COMPLEX] = sizeof(long double complex),
    [RT_B_AINT] = sizeof(rt_aint), [RT_B_OFFSET] = sizeof(rt_offset), [RT_B_COUNT] = sizeof(rt_count),
    /* Fortran types, as gfortran lays them out */
    [RT_B_CHARACTER] = 1, [RT_B_LOGICAL] = 4, [RT_B_INTEGER] = 4, [RT_B_REAL] = 4, [RT_B_DOUBLE_PRECISION] = 8,
    [RT_B_COMPLEX] = 8, [RT_B_DOUBLE_COMPLEX] = 16,
    [RT_B_INTEGER1] = 1, [RT_B_INTEGER2] = 2, [RT_B_INTEGER4] = 4, [RT_B_INTEGER8] = 8, [RT_B_INTEGER16] = 16,
    [RT_B_LOGICAL1] = 1, [RT_B_LOGICAL2] = 2, [RT_B_LOGICAL4] = 4, [RT_B_LOGICAL8] = 8, [RT_B_LOGICAL16] = 16,
    [RT_B_X_C_FLOAT16] = 2, [RT_B_REAL2] = 2, [RT_B_REAL4] = 4, [RT_B_REAL8] = 8, [RT_B_REAL16] = 16,
    [RT_B_COMPLEX4] = 4, [RT_B_COMPLEX8] = 8, [RT_B_COMPLEX16] = 16, [RT_B_COMPLEX32] = 32,
    [RT_B_LB] = 0, [RT_B_UB] = 0,
};

/* Value-index pairs: {value; index} with the C layout (padding included in the extent). */
static const struct pair_desc pairs[] = {
    PAIR(RT_B_FLOAT_INT, float, int), PAIR(RT_B_DOUBLE_INT, double, int), PAIR(RT_B_LONG_INT, long, int),
    PAIR(RT_B_SHORT_INT, short, int), PAIR(RT_B_LONG_DOUBLE_INT, long double, int), PAIR(RT_B_2INT, int, int),
    PAIR(RT_B_2REAL, float, float), PAIR(RT_B_2DOUBLE_PRECISION, double, double), PAIR(RT_B_2INTEGER, int, int),
};

/* 1 for the complex builtins (swapped and aligned as two reals). */
static int is_complex(int id)
{
    switch (id) {
    case RT_B_C_COMPLEX: case RT_B_C_DOUBLE_COMPLEX: case RT_B_C_LONG_DOUBLE_COMPLEX:
    case RT_B_CXX_FLOAT_COMPLEX: case RT_B_CXX_DOUBLE_COMPLEX: case RT_B_CXX_LONG_DOUBLE_COMPLEX:
    case RT_B_COMPLEX: case RT_B_DOUBLE_COMPLEX: case RT_B_COMPLEX4: case RT_B_COMPLEX8:
    case RT_B_COMPLEX16: case RT_B_COMPLEX32:
        return 1;
    default:
        return 0;
    }
}

/* The kind of builtin id's basic elements (native size n). */
static struct rt__kind builtin_kind(int id, rt_count n)
{
    struct rt__kind k = {(uint8_t)n, (uint8_t)n, (uint8_t)(is_complex(id) ? n / 2 : n), 0};
    switch (id) {
    case RT_B_LONG: k.sign = 1; /* fall through */
    case RT_B_UNSIGNED_LONG: k.xsz = k.swap = 4; break;
    case RT_B_WCHAR: k.xsz = k.swap = 2; break;
    case RT_B_LONG_DOUBLE: case RT_B_C_LONG_DOUBLE_COMPLEX: case RT_B_CXX_LONG_DOUBLE_COMPLEX:
        k.xsz = 0; break;
    default: break;
    }
    return k;
}

/* Natural alignment of builtin id of size n. */
static int builtin_align(int id, rt_count n)
{
    rt_count a = is_complex(id) ? n / 2 : n;
    return a < 1 ? 1 : a > 16 ? 16 : (int)a;
}

/* The builtin types' layouts (static: never freed) and their items. */
static struct rt__layout builtin_lay[RT_NBUILTINS];
static struct rt__item builtin_items[RT_NBUILTINS][2];

/* Sets builtin id's static layout: a leaf of kind k1 (n1 bytes) at 0, then, if n2, one of kind
 * k2 at off2 (merged when adjacent and alike). */
static void builtin_layout(int id, rt_count n1, struct rt__kind k1, rt_aint off2, rt_count n2, struct rt__kind k2)
{
    struct rt__layout *l = &builtin_lay[id];
    *l = (struct rt__layout){.refs = -1, .cap = 2, .items = builtin_items[id]};
    if (n1)
        l->items[l->nitems++] = (struct rt__item){0, 0, 1, n1, NULL, k1};
    if (n2 && off2 == n1 && k1.nsz == k2.nsz && k1.xsz == k2.xsz && k1.swap == k2.swap && k1.sign == k2.sign)
        l->items[0].len += n2;
    else if (n2)
        l->items[l->nitems++] = (struct rt__item){off2, 0, 1, n2, NULL, k2};
    rt__lay_finish(l);
    ((struct rt_type *)rt_builtins[id])->lay = l;
}

/* Sets up the layout of every builtin datatype (at load). */
void rt__type_builtins_init(void)
{
    for (int id = 0; id < RT_NBUILTINS; id++) {
        if (rt_builtin_desc[id].cls != RT_CLASS_DATATYPE)
            continue;
        struct rt_type *t = (struct rt_type *)rt_builtins[id];
        t->size = t->extent = t->true_extent = builtin_size[id];
        builtin_layout(id, builtin_size[id], builtin_kind(id, builtin_size[id]), 0, 0, builtin_kind(id, 0));
        t->committed = 1;
        t->elem_size = builtin_size[id];
        t->basic = (int16_t)(builtin_size[id] ? id : -1);
        t->combiner = RT_COMBINER_NAMED;
        t->align = builtin_align(id, builtin_size[id]);
        rt__copy_str(t->name, sizeof t->name, rt_builtin_desc[id].name);
    }
    for (size_t i = 0; i < sizeof pairs / sizeof *pairs; i++) {
        const struct pair_desc *p = &pairs[i];
        struct rt_type *t = (struct rt_type *)rt_builtins[p->id];
        t->size = p->first + p->second;
        t->extent = t->true_extent = p->extent;
        t->elem_size = p->first == p->second ? p->first : 0;
        t->pair_first = p->first;
        t->basic = (int16_t)p->id;
        static const int first_id[] = {RT_B_FLOAT, RT_B_DOUBLE, RT_B_LONG, RT_B_SHORT, RT_B_LONG_DOUBLE,
                                       RT_B_INT, RT_B_REAL, RT_B_DOUBLE_PRECISION, RT_B_INTEGER};
        int fid = first_id[i], sid = p->id == RT_B_2REAL ? RT_B_REAL
                                     : p->id == RT_B_2DOUBLE_PRECISION ? RT_B_DOUBLE_PRECISION : RT_B_INT;
        builtin_layout(p->id, p->first, builtin_kind(fid, p->first), p->second_off, p->second,
                       builtin_kind(sid, p->second));
        int a1 = builtin_align(fid, p->first), a2 = builtin_align(sid, p->second);
        t->align = a1 > a2 ? a1 : a2;
    }
}

void rt__copy(void *dst, const void *src, size_t n)
{
    size_t ahead = ((uintptr_t)dst - (uintptr_t)src) & 4095;
    if (n < 2048 || ahead == 0 || ahead >= 64) {
        memcpy(dst, src, n);
        return;
    }
    char *o = dst;
    const char *i = src;
    while (n >= 64) { /* backward: no load follows a store to its address modulo 4 KiB */
        n -= 64;
        __builtin_memcpy(o + n, i + n, 64);
    }
    memcpy(o, i, n);
}

void rt__type_pack(const rt_type *t, const void *buf, rt_count count, void *dst)
{
    const char *src = buf;
    char *out = dst;
    if (rt__type_contig(t)) {
        rt__copy(out, src, (size_t)(count * t->size));
        return;
    }
    for (rt_count e = 0; e < count; e++, src += t->extent)
        out = rt__lay_pack(t->lay, src, out);
}

void rt__type_unpack(const rt_type *t, const void *src, rt_count bytes, void *buf)
{
    const char *in = src;
    char *dst = buf;
    if (rt__type_contig(t)) {
        rt__copy(dst, in, (size_t)bytes);
        return;
    }
    for (; bytes > 0; dst += t->extent)
        rt__lay_unpack(t->lay, dst, &in, &bytes);
}

void rt__type_part(const rt_type *t, void *buf, rt_count offset, rt_count len, void *stream, int to_stream)
{
    char *b = buf, *s = stream;
    if (len <= 0)
        return;
    if (rt__type_contig(t)) {
        memcpy(to_stream ? s : b + offset, to_stream ? b + offset : s, (size_t)len);
        return;
    }
    rt_count skip = offset % t->size;
    for (b += offset / t->size * t->extent; len > 0; b += t->extent)
        rt__lay_part(t->lay, b, &skip, &len, &s, to_stream);
}

void rt__type_destroy(rt_obj *o)
{
    struct rt_type *t = (struct rt_type *)o;
    rt__attrs_clear(o); /* only left by a failed MPI_Type_dup: MPI_Type_free deleted the rest */
    rt__lay_release(t->lay);
    t->lay = NULL;
    for (int i = 0; i < t->ntypes; i++)
        rt__obj_release((rt_obj *)t->types[i]);
    free(t->types);
    free(t->ints);
    free(t->addrs);
    t->types = NULL;
    t->ints = NULL;
    t->addrs = NULL;
    t->ntypes = 0;
}

int rt__type_check(const rt_type *t, rt_obj *eo, const char *fn)
{
    if (!t->committed)
        return rt_raise(eo, RT_ERR_TYPE, fn, "datatype %s has not been committed", t->name[0] ? t->name : "(unnamed)");
    return RT_SUCCESS;
}

int rt_type_commit_check_user(rt_obj *eo, const char *fn, const char *arg, const rt_type *type)
{
    if (!type || type->committed)
        return RT_SUCCESS;
    return rt_raise(eo, RT_ERR_TYPE, fn, "invalid argument '%s': datatype %s has not been committed (MPI_Type_commit)",
                    arg, type->name[0] ? type->name : "(unnamed)");
}

int rt_null_buffer_check(rt_obj *eo, const char *fn, const char *arg, const char *count_arg, rt_count count,
                         const rt_type *type)
{
    if (count <= 0 || !type || type->size == 0 || type->true_lb >= 4096)
        return RT_SUCCESS;
    return rt_raise(eo, RT_ERR_BUFFER, fn, "invalid argument '%s' = NULL with %s = %lld of a datatype of size %lld%s%s%s "
                    "(a NULL buffer is MPI_BOTTOM: only a datatype whose data lie at absolute addresses may use it)",
                    arg, count_arg, (long long)count, (long long)type->size, type->name[0] ? " (" : "",
                    type->name, type->name[0] ? ")" : "");
}

/* ------------------------------------------------------------ entry points */

/* MPI_Type_size (and _c): bytes of data in one element. */
int rt_Type_size(rt_type *datatype, rt_count *size)
{
    *size = datatype->size;
    return RT_SUCCESS;
}

/* MPI_Type_size_x: as MPI_Type_size with an MPI_Count result. */
int rt_Type_size_x(rt_type *datatype, rt_count *size)
{
    *size = datatype->size;
    return RT_SUCCESS;
}

/* MPI_Get_count (and _c): whole elements of datatype received, RT_UNDEFINED if the bytes are
 * not a whole number of them. */
int rt_Get_count(const rt_status *status, rt_type *datatype, rt_count *count)
{
    rt_count bytes = status->count;
    if (datatype->size == 0)
        *count = bytes == 0 ? 0 : RT_UNDEFINED;
    else
        *count = bytes % datatype->size ? RT_UNDEFINED : bytes / datatype->size;
    return RT_SUCCESS;
}

/* Basic elements in `bytes` bytes of datatype data, RT_UNDEFINED if they end mid-element. */
static rt_count elements_in(const rt_type *t, rt_count bytes)
{
    if (t->size == 0)
        return bytes == 0 ? 0 : RT_UNDEFINED;
    rt_count whole = bytes / t->size, rest = bytes % t->size, n = whole * t->lay->elements;
    if (rest == 0)
        return n;
    if (t->elem_size > 0)
        return rest % t->elem_size ? RT_UNDEFINED : n + rest / t->elem_size;
    rt_count part = rt__lay_elements_in(t->lay, rest); /* the partial element */
    return part < 0 ? RT_UNDEFINED : n + part;
}

/* MPI_Get_elements (and _c): basic elements received, partial elements counted. */
int rt_Get_elements(const rt_status *status, rt_type *datatype, rt_count *count)
{
    *count = elements_in(datatype, status->count);
    return RT_SUCCESS;
}

/* MPI_Get_elements_x: as MPI_Get_elements. */
int rt_Get_elements_x(const rt_status *status, rt_type *datatype, rt_count *count)
{
    return rt_Get_elements(status, datatype, count);
}

/* MPI_Status_set_elements (and _c): the status says `count` basic elements of datatype. */
int rt_Status_set_elements(rt_status *status, rt_type *datatype, rt_count count)
{
    rt_count per = datatype->lay->elements;
    if (per == 0 || datatype->size == 0) {
        status->count = 0;
        return RT_SUCCESS;
    }
    status->count = count / per * datatype->size + rt__lay_bytes_of(datatype->lay, count % per);
    return RT_SUCCESS;
}

/* MPI_Status_set_elements_x: as MPI_Status_set_elements. */
int rt_Status_set_elements_x(rt_status *status, rt_type *datatype, rt_count count)
{
    return rt_Status_set_elements(status, datatype, count);
}

/* MPI_Status_set_cancelled: flag as given. */
int rt_Status_set_cancelled(rt_status *status, int flag)
{
    status->cancelled = flag != 0;
    return RT_SUCCESS;
}

/* MPI_Test_cancelled. */
int rt_Test_cancelled(const rt_status *status, int *flag)
{
    *flag = status->cancelled;
    return RT_SUCCESS;
}

/* MPI_Status_get_source/tag/error and MPI_Status_set_* (MPI-4.1). */
int rt_Status_get_source(const rt_status *status, int *source)
{
    *source = status->source;
    return RT_SUCCESS;
}

int rt_Status_get_tag(const rt_status *status, int *tag)
{
    *tag = status->tag;
    return RT_SUCCESS;
}

int rt_Status_get_error(const rt_status *status, int *err)
{
    *err = status->error;
    return RT_SUCCESS;
}

int rt_Status_set_source(rt_status *status, int source)
{
    status->source = source;
    return RT_SUCCESS;
}

int rt_Status_set_tag(rt_status *status, int tag)
{
    status->tag = tag;
    return RT_SUCCESS;
}

int rt_Status_set_error(rt_status *status, int err)
{
    status->error = err;
    return RT_SUCCESS;
}

/* ------------------------------------------------------------ bounds, names, addresses */

/* MPI_Type_get_extent (and _c): lower bound and extent. */
int rt_Type_get_extent(rt_type *datatype, rt_count *lb, rt_count *extent)
{
    *lb = datatype->lb;
    *extent = datatype->extent;
    return RT_SUCCESS;
}

/* MPI_Type_get_extent_x: as MPI_Type_get_extent. */
int rt_Type_get_extent_x(rt_type *datatype, rt_count *lb, rt_count *extent)
{
    return rt_Type_get_extent(datatype, lb, extent);
}

/* MPI_Type_get_true_extent (and _c): bounds of the data itself, markers ignored. */
int rt_Type_get_true_extent(rt_type *datatype, rt_count *true_lb, rt_count *true_extent)
{
    *true_lb = datatype->true_lb;
    *true_extent = datatype->true_extent;
    return RT_SUCCESS;
}

/* MPI_Type_get_true_extent_x: as MPI_Type_get_true_extent. */
int rt_Type_get_true_extent_x(rt_type *datatype, rt_count *true_lb, rt_count *true_extent)
{
    return rt_Type_get_true_extent(datatype, true_lb, true_extent);
}

/* MPI_Type_extent (removed MPI-1): the extent. */
int rt_Type_extent(rt_type *datatype, rt_aint *extent)
{
    *extent = datatype->extent;
    return RT_SUCCESS;
}

/* MPI_Type_lb (removed MPI-1): the lower bound. */
int rt_Type_lb(rt_type *datatype, rt_aint *displacement)
{
    *displacement = datatype->lb;
    return RT_SUCCESS;
}

/* MPI_Type_ub (removed MPI-1): the upper bound (lb + extent). */
int rt_Type_ub(rt_type *datatype, rt_aint *displacement)
{
    *displacement = datatype->lb + datatype->extent;
    return RT_SUCCESS;
}

/* MPI_Get_address: the address of location (MPI_BOTTOM = 0). */
int rt_Get_address(const void *location, rt_aint *address)
{
    *address = (rt_aint)location;
    return RT_SUCCESS;
}

/* MPI_Address (removed MPI-1): as MPI_Get_address. */
int rt_Address(void *location, rt_aint *address)
{
    *address = (rt_aint)location;
    return RT_SUCCESS;
}

/* MPI_Type_set_name: names the type (truncated to MPI_MAX_OBJECT_NAME - 1). */
int rt_Type_set_name(rt_type *datatype, const char *type_name)
{
    rt__copy_str(datatype->name, sizeof datatype->name, type_name);
    return RT_SUCCESS;
}

/* MPI_Type_get_name: the name ("" for an unnamed derived type; "MPI_DATATYPE_NULL" for
 * datatype NULL, the null handle, since MPI-4.1). */
int rt_Type_get_name(rt_type *datatype, char *type_name, int *resultlen)
{
    *resultlen = rt__copy_str(type_name, RT_MAX_OBJECT_NAME, datatype ? datatype->name : "MPI_DATATYPE_NULL");
    return RT_SUCCESS;
}

/* MPI_Type_get_value_index: the predefined value-index pair type of (value_type,
 * index_type), or NULL (MPI_DATATYPE_NULL) when there is none. */
int rt_Type_get_value_index(rt_type *value_type, rt_type *index_type, rt_type **pair_type)
{
    static const int map[][3] = {
        {RT_B_FLOAT, RT_B_INT, RT_B_FLOAT_INT}, {RT_B_DOUBLE, RT_B_INT, RT_B_DOUBLE_INT},
        {RT_B_LONG, RT_B_INT, RT_B_LONG_INT}, {RT_B_SHORT, RT_B_INT, RT_B_SHORT_INT},
        {RT_B_LONG_DOUBLE, RT_B_INT, RT_B_LONG_DOUBLE_INT}, {RT_B_INT, RT_B_INT, RT_B_2INT},
        {RT_B_REAL, RT_B_REAL, RT_B_2REAL}, {RT_B_DOUBLE_PRECISION, RT_B_DOUBLE_PRECISION, RT_B_2DOUBLE_PRECISION},
        {RT_B_INTEGER, RT_B_INTEGER, RT_B_2INTEGER},
    };
    *pair_type = NULL;
    if (!value_type->obj.builtin || !index_type->obj.builtin)
        return RT_SUCCESS;
    for (size_t i = 0; i < sizeof map / sizeof *map; i++)
        if (value_type->obj.index == map[i][0] && index_type->obj.index == map[i][1])
            *pair_type = (rt_type *)rt_builtins[map[i][2]];
    return RT_SUCCESS;
}
