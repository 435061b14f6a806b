/* io_datarep.c — data representations other than native: the standard's external32 and those
 * the user registers (MPI_Register_datarep): a type's layout in the file, and the conversions. */
#include "io.h"
#include "type/type.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* A representation: external32 has no callbacks; a user's always has its extent function and
 * a NULL read or write function stands for MPI_CONVERSION_FN_NULL (the data as in memory). */
struct rt__datarep {
    struct rt__datarep *next;
    char name[RT_MAX_DATAREP_STRING];
    rt_callback read, write, extent;
    void *extra_state;
};

const struct rt__datarep rt__io_external32 = {.name = "external32"};
static struct rt__datarep *registered; /* the user's, newest first; kept until the process ends */

int rt__io_datarep_find(const char *name, const struct rt__datarep **rep)
{
    *rep = NULL;
    if (strcmp(name, "native") == 0 || strcmp(name, "internal") == 0)
        return 1;
    if (strcmp(name, rt__io_external32.name) == 0)
        *rep = &rt__io_external32;
    for (const struct rt__datarep *r = registered; r && !*rep; r = r->next)
        if (strcmp(r->name, name) == 0)
            *rep = r;
    return *rep != NULL;
}

/* MPI_Register_datarep (and _c): a new representation for file views; its name must be new. */
int rt_Register_datarep(const char *datarep, rt_callback read_conversion_fn, rt_callback write_conversion_fn,
                        rt_callback dtype_file_extent_fn, void *extra_state)
{
    const struct rt__datarep *old;
    if (!datarep || strlen(datarep) >= RT_MAX_DATAREP_STRING || !datarep[0])
        return rt_raise(rt_file_null(), RT_ERR_ARG, __func__,
                        "invalid data representation name 'datarep': empty or longer than MPI_MAX_DATAREP_STRING - 1");
    if (rt__io_datarep_find(datarep, &old))
        return rt_raise(rt_file_null(), RT_ERR_DUP_DATAREP, __func__,
                        "data representation 'datarep' = \"%s\" is already defined", datarep);
    if (!dtype_file_extent_fn.fn)
        return rt_raise(rt_file_null(), RT_ERR_ARG, __func__, "'dtype_file_extent_fn' is a null function");
    struct rt__datarep *r = calloc(1, sizeof *r);
    if (!r)
        return rt_raise(rt_file_null(), RT_ERR_NO_MEM, __func__, "out of memory");
    rt__copy_str(r->name, sizeof r->name, datarep);
    r->read = read_conversion_fn;
    r->write = write_conversion_fn;
    r->extent = dtype_file_extent_fn;
    r->extra_state = extra_state;
    r->next = registered;
    registered = r;
    return RT_SUCCESS;
}

/* What rt__type_remap's leaves need: the file, the representation, the procedure. */
struct leaf_ctx {
    rt_file *fh;
    const struct rt__datarep *rep;
    const char *fn;
};

/* A basic type in the file: as many bytes as its file extent (markers stay as they are). */
static int file_leaf(void *ctx, rt_type *named, rt_type **out)
{
    struct leaf_ctx *c = ctx;
    rt_aint x;
    if (named->size == 0) {
        rt__obj_retain(&named->obj);
        *out = named;
        return RT_SUCCESS;
    }
    if (c->rep == &rt__io_external32) {
        if ((x = rt__type_ext_size(named)) < 0)
            return rt_raise(&c->fh->obj, RT_ERR_CONVERSION, c->fn, "datatype %s has no external32 representation",
                            named->name);
    } else {
        const rt_callback *cb = &c->rep->extent;
        int err = cb->face->call_extent(cb, named, &x, c->rep->extra_state);
        if (err)
            return rt_raise(&c->fh->obj, err, c->fn, "the extent function of data representation \"%s\" failed for %s",
                            c->rep->name, named->name);
        if (x < 0)
            return rt_raise(&c->fh->obj, RT_ERR_CONVERSION, c->fn,
                            "the extent function of data representation \"%s\" gave %lld bytes for %s", c->rep->name,
                            (long long)x, named->name);
    }
    return rt_Type_contiguous(x, (rt_type *)rt_builtins[RT_B_BYTE], out);
}

int rt__io_file_type(rt_file *fh, const struct rt__datarep *rep, rt_type *t, rt_type **out, const char *fn)
{
    if (!rep) {
        rt__obj_retain(&t->obj);
        *out = t;
        return RT_SUCCESS;
    }
    struct leaf_ctx c = {fh, rep, fn};
    return rt__type_remap(t, file_leaf, &c, out);
}

int rt__io_file_bytes(rt_file *fh, rt_type *type, rt_count count, rt_offset *bytes, const char *fn)
{
    rt_offset one = type->size;
    if (fh->rep == &rt__io_external32) {
        if ((one = rt__type_ext_size(type)) < 0)
            return rt_raise(&fh->obj, RT_ERR_CONVERSION, fn,
                            "datatype 'datatype' has no external32 representation (long double) for this file's view");
    } else if (fh->rep) {
        rt_type *ft;
        int err = rt__io_file_type(fh, fh->rep, type, &ft, fn);
        if (err)
            return err;
        one = ft->size;
        rt__obj_release(&ft->obj);
    }
    *bytes = count * one;
    return RT_SUCCESS;
}

/* external32: through a packed native copy, converted. */
static int convert_external(rt_file *fh, int to_file, void *buf, rt_type *type, rt_count count, void *filebuf,
                            const char *fn)
{
    rt_offset nbytes = count * type->size;
    unsigned char *nat = malloc((size_t)nbytes + 1);
    if (!nat)
        return rt_raise(&fh->obj, RT_ERR_NO_MEM, fn, "out of memory for %lld bytes", (long long)nbytes);
    if (to_file && nbytes)
        rt__type_pack(type, buf, count, nat);
    rt__type_convert(type, count, nat, filebuf, to_file);
    if (!to_file && nbytes)
        rt__type_unpack(type, nat, nbytes, buf);
    free(nat);
    return RT_SUCCESS;
}

int rt__io_convert(rt_file *fh, int to_file, void *buf, rt_type *type, rt_count count, void *filebuf,
                   rt_offset fsize, const char *fn)
{
    const struct rt__datarep *rep = fh->rep;
    if (rep == &rt__io_external32)
        return convert_external(fh, to_file, buf, type, count, filebuf, fn);
    const rt_callback *cb = to_file ? &rep->write : &rep->read;
    if (!cb->fn) { /* MPI_CONVERSION_FN_NULL: the data as they are in memory */
        if (fsize != type->size)
            return rt_raise(&fh->obj, RT_ERR_CONVERSION, fn,
                            "data representation \"%s\" has no %s conversion function, but datatype 'datatype' "
                            "takes %lld bytes in the file and %lld in memory",
                            rep->name, to_file ? "write" : "read", (long long)fsize, (long long)type->size);
        if (to_file)
            rt__type_pack(type, buf, count, filebuf);
        else
            rt__type_unpack(type, filebuf, count * type->size, buf);
        return RT_SUCCESS;
    }
    for (rt_count done = 0; done < count;) {
        rt_count n = count - done;
        if (!(cb->flags & RT_CB_LARGE) && n > INT_MAX)
            n = INT_MAX;
        int err = cb->face->call_conversion(cb, buf, type, n, (char *)filebuf + done * fsize, done, rep->extra_state);
        if (err)
            return rt_raise(&fh->obj, err, fn, "the %s conversion function of data representation \"%s\" failed",
                            to_file ? "write" : "read", rep->name);
        done += n;
    }
    return RT_SUCCESS;
}
