/* type.h — the datatype part's contract: datatypes (their layouts, packing, caching) and
 * reduction operations (op.c: the predefined ops on the types the standard allows, user ops). */
#ifndef RT_TYPE_H
#define RT_TYPE_H

#include "rt_internal.h"
#include "attr/attr.h"

/* A reduction operation (op.c). Predefined ops are builtins: which one is obj.index (their
 * rt_builtin_id, RT_B_SUM ...); the other fields are unused. User ops (MPI_Op_create) call
 * cb through the face that created them. */
struct rt_op {
    rt_obj obj;
    rt_callback cb;  /* user ops: the user's function */
    int commute;     /* user ops: 1 if declared commutative */
};

/* The basic elements of a leaf: native size nsz; in external32 each takes xsz bytes (0: no
 * external32 form), swapped in units of `swap` bytes; `sign`: a narrowed integer is signed. */
struct rt__kind {
    uint8_t nsz, xsz, swap, sign;
};

struct rt__layout;

/* One item of a layout: `count` copies, `stride` bytes apart, the first at byte `off` of the
 * element, of either `len` bytes of like basic elements (sub NULL, `kind` says which) or one
 * element of layout `sub` (len = sub->size; the item holds a reference to it). */
struct rt__item {
    rt_aint off, stride;
    rt_count count, len;
    struct rt__layout *sub;
    struct rt__kind kind;
};

/* A datatype's data layout (type_layout.c): one element is its items, in order, in memory and
 * in the packed stream. Its size is proportional to the constructor tree, not to the data
 * (regular strides are one item), so commit and pack cost O(nesting) to describe and O(bytes)
 * to move. Immutable once built; shared by types and enclosing layouts by reference count. */
struct rt__layout {
    int refs;               /* < 0: static (builtin types) */
    int dense;              /* its data are the `size` bytes at offset `dlo`, in order */
    rt_aint dlo;
    rt_count size;          /* bytes of data per element */
    rt_count elements;      /* basic elements per element */
    rt_count xsize;         /* external32 bytes per element, -1 if it has no such form */
    int nitems, cap;
    struct rt__item *items;
};

/* A datatype: its layout, elements `extent` bytes apart. A dense layout at offset 0 whose size
 * is the extent is contiguous: a whole buffer is one memcpy. */
struct rt_type {
    rt_obj obj;
    rt_count size;           /* bytes of data in one element */
    rt_aint lb, extent;      /* lower bound and extent */
    rt_aint true_lb, true_extent;
    struct rt__layout *lay;  /* holds a reference (builtins: a static one) */
    int committed;
    rt_count elem_size;      /* size of its basic element when all are alike, else 0 */
    rt_count pair_first;     /* value-index pairs of mixed types: size of the value part */
    int16_t basic;           /* rt_builtin_id of its basic element when all are alike (a
                                MINLOC/MAXLOC pair type counts as one), else -1 (op.c) */
    char name[RT_MAX_OBJECT_NAME];
    int align;                 /* alignment of its most aligned basic element */
    int explicit_ub;           /* bit 1: lb, bit 2: ub set by resized / MPI_LB / MPI_UB (sticky) */
    /* the constructor call (MPI_Type_get_envelope/get_contents) */
    int combiner;              /* RT_COMBINER_*; RT_COMBINER_NAMED for builtins */
    int nints, naddrs, ntypes;
    int *ints;                 /* owned */
    rt_aint *addrs;            /* owned */
    struct rt_type **types;    /* owned array, each holds a reference */
    struct rt__attrs attrs;    /* cached attributes (attr_list.c, type_attr.c) */
};

/* Checks that op may be applied to elements of type in a reduction (predefined ops: only to
 * the basic types the standard allows, also inside derived types made of one such basic type
 * or of a MINLOC/MAXLOC pair type; MPI_REPLACE and MPI_NO_OP, which are for accumulate
 * operations only, never; user ops: any type). On failure raises RT_ERR_OP on eo (NULL:
 * no object), naming fn, the op and the type, and returns the error code. */
int rt__op_check(rt_op *op, rt_type *type, rt_obj *eo, const char *fn);

/* inout[i] = in[i] op inout[i] for count elements of type, both buffers laid out as type
 * describes (the user's layout, elements `extent` apart). For a user op this calls the
 * user's function through the face that created it (invec = in, inoutvec = inout). MPI_REPLACE
 * and MPI_NO_OP apply too (for accumulate operations).
 * Assumes rt__op_check passed. Returns RT_SUCCESS or RT_ERR_NO_MEM. */
int rt__op_apply(rt_op *op, const void *in, void *inout, rt_count count, rt_type *type);

/* 1 if op is commutative (every predefined op is). */
int rt__op_commutative(const rt_op *op);

/* ------------------------------------------------------------ datatypes (type.c) */

/* Sets up the builtin datatypes' layouts (at load). */
void rt__type_builtins_init(void);
/* 1 if count elements of t are one run of count * size bytes. Inline: every transfer asks. */
static inline int rt__type_contig(const rt_type *t)
{
    return t->size == 0 || (t->lay->dense && t->lay->dlo == 0 && t->size == t->extent);
}
/* memcpy of n bytes, except that a copy of 2 KiB or more whose destination lies 1 to 63 bytes
 * after its source modulo 4 KiB goes backward in 64-byte steps: there glibc's memcpy (rep movsb)
 * runs at 1.7 GB/s instead of 40 on this machine's AMD EPYC (4 KiB aliasing), and a malloc'ed
 * buffer is 16 bytes past a page-aligned one. */
void rt__copy(void *dst, const void *src, size_t n);
/* Copies count elements of t at buf into dst (count * t->size bytes). */
void rt__type_pack(const rt_type *t, const void *buf, rt_count count, void *dst);
/* Copies `bytes` packed bytes from src into elements of t at buf (a partial last element
 * gets its first bytes). */
void rt__type_unpack(const rt_type *t, const void *src, rt_count bytes, void *buf);
/* Copies bytes [offset, offset + len) of the packed stream of count elements of t at buf to
 * dst (to_stream: pack) or from src into the elements (unpack): a piece of a pipelined transfer. */
void rt__type_part(const rt_type *t, void *buf, rt_count offset, rt_count len, void *stream, int to_stream);
/* A new type sharing old's layout, with its bounds; no constructor record. NULL when out of
 * memory (type_create.c). */
rt_type *rt__type_copy_layout(const rt_type *old);
/* Destructor of user datatypes. */
void rt__type_destroy(rt_obj *o);
/* At finalize: the predefined datatypes drop their attributes (no delete callbacks, as
 * MPI_COMM_WORLD's), releasing the keyvals (type_attr.c). */
void rt__type_attrs_finalize(void);
/* RT_SUCCESS if t may be used to communicate, else raises RT_ERR_TYPE on eo for fn. */
int rt__type_check(const rt_type *t, rt_obj *eo, const char *fn);
/* Bytes of the external32 form of one element of t; -1 if some basic element has none. */
rt_count rt__type_ext_size(const rt_type *t);
/* Gives in *out (a new reference) the type to stand for predefined (or Fortran 90 parameterized)
 * type `named` in a remapped type; an error code (raised) otherwise. */
typedef int rt__type_leaf_fn(void *ctx, rt_type *named, rt_type **out);
/* *out (a new reference, released with rt__obj_release) = t built again by the same constructor
 * calls with every predefined type replaced by leaf's: element counts and strides in elements
 * then follow the new types' extents, byte displacements stay as they are (type_remap.c; MPI-IO's
 * file view of a type in a data representation other than native). */
int rt__type_remap(rt_type *t, rt__type_leaf_fn *leaf, void *ctx, rt_type **out);
/* Converts count elements of t between the native packed stream (nat) and external32 (ext);
 * to_ext: the direction (type_pack.c). */
void rt__type_convert(const rt_type *t, rt_count count, unsigned char *nat, unsigned char *ext, int to_ext);

/* ------------------------------------------------------------ layouts (type_layout.c) */

/* A new empty layout (one reference), NULL when out of memory. */
struct rt__layout *rt__lay_new(void);
/* One more reference to l (static layouts are not counted). */
void rt__lay_retain(struct rt__layout *l);
/* One reference less; the last frees l and releases its sub-layouts. NULL is ignored. */
void rt__lay_release(struct rt__layout *l);
/* Appends `count` copies, `stride` bytes apart from byte `off`, of one element of sub to l,
 * as a single item where the copies are regular (merged with the last item where they continue
 * it). Returns 0, or -1 when out of memory. */
int rt__lay_add_copies(struct rt__layout *l, rt_aint off, rt_count count, rt_aint stride, struct rt__layout *sub);
/* Appends a leaf of len bytes of basic elements of kind k at byte off. 0, or -1 (no memory). */
int rt__lay_add_leaf(struct rt__layout *l, rt_aint off, rt_count len, struct rt__kind k);
/* Computes l's totals (size, elements, xsize, density) once its items are added; -1 if its
 * size overflows an MPI_Count. */
int rt__lay_finish(struct rt__layout *l);
/* Packs one element of l at base into out; returns the end of what it wrote. */
char *rt__lay_pack(const struct rt__layout *l, const char *base, char *out);
/* Unpacks at most *left bytes from *in into one element of l at base, advancing both. */
void rt__lay_unpack(const struct rt__layout *l, char *base, const char **in, rt_count *left);
/* Copies bytes [*skip, *skip + *len) of the packed stream of one element of l at base (*skip <
 * l->size) to *buf (to_stream: pack) or from it (unpack), advancing *buf and consuming *skip and
 * *len (what is left of *len continues in the next element). */
void rt__lay_part(const struct rt__layout *l, char *base, rt_count *skip, rt_count *len, char **buf, int to_stream);
/* Basic elements in the first `bytes` bytes (< l->size) of an element; -1 if they end inside
 * a basic element. */
rt_count rt__lay_elements_in(const struct rt__layout *l, rt_count bytes);
/* Bytes of the first `elems` basic elements (< l->elements) of an element. */
rt_count rt__lay_bytes_of(const struct rt__layout *l, rt_count elems);
/* Converts one element of l between the native packed stream (*nat) and external32 (*ext),
 * advancing both; to_ext: the direction. */
void rt__lay_convert(const struct rt__layout *l, unsigned char **nat, unsigned char **ext, int to_ext);

#endif
