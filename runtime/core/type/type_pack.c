/* type_pack.c — MPI_Pack / MPI_Unpack into user buffers (native representation) and the
 * "external32" representation (big-endian, standard sizes) of MPI_Pack_external & co. */
#include "type.h"

#include <stdlib.h>

/* Checks pos and room for n bytes in a buffer of `size`; raises (truncate) for fn on eo. */
static int check_room(rt_obj *eo, const char *fn, rt_count pos, rt_count n, rt_count size, const char *what)
{
    if (pos < 0)
        return rt_raise(eo, RT_ERR_ARG, fn, "invalid argument 'position' = %lld: must be >= 0", (long long)pos);
    if (pos > size || n > size - pos)
        return rt_raise(eo, RT_ERR_TRUNCATE, fn, "%s: %lld bytes needed at position %lld, buffer has %lld",
                        what, (long long)n, (long long)pos, (long long)size);
    return RT_SUCCESS;
}

/* MPI_Pack (and _c): appends incount elements of datatype at inbuf to outbuf at *position. */
int rt_Pack(const void *inbuf, rt_count incount, rt_type *datatype, void *outbuf, rt_count outsize,
            rt_count *position, rt_comm *comm)
{
    int err = rt__type_check(datatype, (rt_obj *)comm, __func__);
    if (err)
        return err;
    rt_count n = incount * datatype->size;
    if ((err = check_room((rt_obj *)comm, __func__, *position, n, outsize, "output buffer too small")))
        return err;
    if (n)
        rt__type_pack(datatype, inbuf, incount, (char *)outbuf + *position);
    *position += n;
    return RT_SUCCESS;
}

/* MPI_Unpack (and _c): outcount elements of datatype from inbuf at *position into outbuf. */
int rt_Unpack(const void *inbuf, rt_count insize, rt_count *position, void *outbuf, rt_count outcount,
              rt_type *datatype, rt_comm *comm)
{
    int err = rt__type_check(datatype, (rt_obj *)comm, __func__);
    if (err)
        return err;
    rt_count n = outcount * datatype->size;
    if ((err = check_room((rt_obj *)comm, __func__, *position, n, insize, "input buffer holds too little data")))
        return err;
    if (n)
        rt__type_unpack(datatype, (const char *)inbuf + *position, n, outbuf);
    *position += n;
    return RT_SUCCESS;
}

/* MPI_Pack_size (and _c): an upper bound of the bytes MPI_Pack needs (here: exact). */
int rt_Pack_size(rt_count incount, rt_type *datatype, rt_comm *comm, rt_count *size)
{
    (void)comm;
    *size = incount * datatype->size;
    return RT_SUCCESS;
}

rt_count rt__type_ext_size(const rt_type *t)
{
    return t->lay->xsize;
}

void rt__type_convert(const rt_type *t, rt_count count, unsigned char *nat, unsigned char *ext, int to_ext)
{
    for (rt_count e = 0; e < count; e++)
        rt__lay_convert(t->lay, &nat, &ext, to_ext);
}

/* Checks the representation name and that t has an external32 form; raises for fn. */
static int ext_check(const char *fn, const char *datarep, const rt_type *t, rt_count *xsize)
{
    if (strcmp(datarep, "external32") != 0)
        return rt_raise(NULL, RT_ERR_UNSUPPORTED_DATAREP, fn, "unsupported data representation '%s'", datarep);
    *xsize = rt__type_ext_size(t);
    if (*xsize < 0)
        return rt_raise(NULL, RT_ERR_TYPE, fn, "datatype %s has no external32 representation (long double)",
                        t->name[0] ? t->name : "(derived)");
    return RT_SUCCESS;
}

/* MPI_Pack_external_size (and _c): bytes of incount elements in the representation. */
int rt_Pack_external_size(const char *datarep, rt_count incount, rt_type *datatype, rt_count *size)
{
    rt_count x = 0;
    int err = ext_check(__func__, datarep, datatype, &x);
    if (err)
        return err;
    *size = incount * x;
    return RT_SUCCESS;
}

/* MPI_Pack_external (and _c): as MPI_Pack in the external32 representation. */
int rt_Pack_external(const char *datarep, const void *inbuf, rt_count incount, rt_type *datatype, void *outbuf,
                     rt_count outsize, rt_count *position)
{
    rt_count x = 0;
    int err = ext_check(__func__, datarep, datatype, &x);
    if (!err)
        err = rt__type_check(datatype, NULL, __func__);
    if (!err)
        err = check_room(NULL, __func__, *position, incount * x, outsize, "output buffer too small");
    if (err)
        return err;
    rt_count n = incount * datatype->size;
    unsigned char *tmp = malloc(n ? (size_t)n : 1);
    if (!tmp)
        return RT_ERR(NULL, RT_ERR_NO_MEM, "out of memory");
    if (n)
        rt__type_pack(datatype, inbuf, incount, tmp);
    rt__type_convert(datatype, incount, tmp, (unsigned char *)outbuf + *position, 1);
    free(tmp);
    *position += incount * x;
    return RT_SUCCESS;
}

/* MPI_Unpack_external (and _c): as MPI_Unpack from the external32 representation. */
int rt_Unpack_external(const char *datarep, const void *inbuf, rt_count insize, rt_count *position, void *outbuf,
                       rt_count outcount, rt_type *datatype)
{
    rt_count x = 0;
    int err = ext_check(__func__, datarep, datatype, &x);
    if (!err)
        err = rt__type_check(datatype, NULL, __func__);
    if (!err)
        err = check_room(NULL, __func__, *position, outcount * x, insize, "input buffer holds too little data");
    if (err)
        return err;
    rt_count n = outcount * datatype->size;
    unsigned char *tmp = malloc(n ? (size_t)n : 1);
    if (!tmp)
        return RT_ERR(NULL, RT_ERR_NO_MEM, "out of memory");
    rt__type_convert(datatype, outcount, tmp, (unsigned char *)inbuf + *position, 0);
    if (n)
        rt__type_unpack(datatype, tmp, n, outbuf);
    free(tmp);
    *position += outcount * x;
    return RT_SUCCESS;
}
