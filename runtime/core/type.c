/* type.c — datatype layouts: the builtin types' sizes and block layouts, packing and
 * unpacking through a layout, and the status accessors that count elements. */
#include "rt_internal.h"

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
    [RT_B_REAL2] = 2, [RT_B_REAL4] = 4, [RT_B_REAL8] = 8, [RT_B_REAL16] = 16,
    [RT_B_COMPLEX4] = 4, [RT_B_COMPLEX8] = 8, [RT_B_COMPLEX16] = 16, [RT_B_COMPLEX32] = 32,
    [RT_B_LB] = 0, [RT_B_UB] = 0,
};

/* Value-index pairs: {value; index} with the C layout (padding included in the extent). */
static const struct pair_desc pairs[] = {
    PAIR(RT_B_FLOAT_INT, float, int), PAIR(RT_B_DOUBLE_INT, double, int), PAIR(RT_B_LONG_INT, long, int),
    PAIR(RT_B_SHORT_INT, short, int), PAIR(RT_B_LONG_DOUBLE_INT, long double, int), PAIR(RT_B_2INT, int, int),
    PAIR(RT_B_2REAL, float, float), PAIR(RT_B_2DOUBLE_PRECISION, double, double), PAIR(RT_B_2INTEGER, int, int),
};

/* Sets up the layout of every builtin datatype (at load). */
void rt__type_builtins_init(void)
{
    for (int id = 0; id < RT_NBUILTINS; id++) {
        if (rt_builtin_desc[id].cls != RT_CLASS_DATATYPE)
            continue;
        struct rt_type *t = (struct rt_type *)rt_builtins[id];
        t->size = t->extent = t->true_extent = builtin_size[id];
        t->one = (struct rt__block){0, builtin_size[id]};
        t->blocks = &t->one;
        t->nblocks = builtin_size[id] ? 1 : 0;
        t->committed = 1;
        t->elements = 1;
        t->elem_size = builtin_size[id];
        rt__copy_str(t->name, sizeof t->name, rt_builtin_desc[id].name);
    }
    for (size_t i = 0; i < sizeof pairs / sizeof *pairs; i++) {
        const struct pair_desc *p = &pairs[i];
        struct rt_type *t = (struct rt_type *)rt_builtins[p->id];
        t->size = p->first + p->second;
        t->extent = t->true_extent = p->extent;
        t->elements = 2;
        t->elem_size = p->first == p->second ? p->first : 0;
        t->pair_first = p->first;
        if (p->second_off == p->first) { /* no padding between: one run */
            t->one = (struct rt__block){0, t->size};
            t->blocks = &t->one;
            t->nblocks = 1;
        } else {
            static struct rt__block pair_blocks[sizeof pairs / sizeof *pairs][2];
            pair_blocks[i][0] = (struct rt__block){0, p->first};
            pair_blocks[i][1] = (struct rt__block){p->second_off, p->second};
            t->blocks = pair_blocks[i];
            t->nblocks = 2;
        }
    }
}

int rt__type_contig(const rt_type *t)
{
    return t->nblocks == 0 || (t->nblocks == 1 && t->blocks[0].off == 0 && t->blocks[0].len == t->extent);
}

void rt__type_pack(const rt_type *t, const void *buf, rt_count count, void *dst)
{
    const char *src = buf;
    char *out = dst;
    if (rt__type_contig(t)) {
        memcpy(out, src, (size_t)(count * t->size));
        return;
    }
    for (rt_count e = 0; e < count; e++, src += t->extent)
        for (int b = 0; b < t->nblocks; b++) {
            memcpy(out, src + t->blocks[b].off, (size_t)t->blocks[b].len);
            out += t->blocks[b].len;
        }
}

void rt__type_unpack(const rt_type *t, const void *src, rt_count bytes, void *buf)
{
    const char *in = src;
    char *dst = buf;
    if (rt__type_contig(t)) {
        memcpy(dst, in, (size_t)bytes);
        return;
    }
    for (; bytes > 0; dst += t->extent)
        for (int b = 0; b < t->nblocks && bytes > 0; b++) {
            rt_count n = t->blocks[b].len < bytes ? t->blocks[b].len : bytes;
            memcpy(dst + t->blocks[b].off, in, (size_t)n);
            in += n;
            bytes -= n;
        }
}

void rt__type_destroy(rt_obj *o)
{
    struct rt_type *t = (struct rt_type *)o;
    if (t->blocks != &t->one)
        free(t->blocks);
}

int rt__type_check(const rt_type *t, rt_obj *eo, const char *fn)
{
    if (!t->committed)
        return rt_raise(eo, RT_ERR_TYPE, fn, "datatype %s has not been committed", t->name[0] ? t->name : "(unnamed)");
    return RT_SUCCESS;
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
    rt_count whole = bytes / t->size, rest = bytes % t->size, n = whole * t->elements;
    if (rest == 0)
        return n;
    if (t->elem_size > 0)
        return rest % t->elem_size ? RT_UNDEFINED : n + rest / t->elem_size;
    if (t->pair_first > 0)
        return rest == t->pair_first ? n + 1 : RT_UNDEFINED;
    return RT_UNDEFINED;
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
    if (datatype->elements == 0 || datatype->size == 0) {
        status->count = 0;
        return RT_SUCCESS;
    }
    rt_count whole = count / datatype->elements, rest = count % datatype->elements;
    rt_count per = datatype->elem_size ? datatype->elem_size : datatype->pair_first;
    status->count = whole * datatype->size + rest * per;
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
