/* op.c — reduction operations: kernels of the predefined ops on exactly the type groups of
 * MPI-5.0 §6.9.2 (and MPICH's extra pairs on its face), user ops called through their face,
 * MPI_Op_create/free, MPI_Reduce_local. */
#include "rt_internal.h"

#include <complex.h>
#include <limits.h>
#include <stdlib.h>

#include "type.h"

/* inout[i] = in[i] op inout[i] for n basic elements laid out contiguously (pair types: the
 * packed stream, value then index, no padding). */
typedef void kernel_fn(const void *in, void *inout, rt_count n);

/* The predefined ops, as rows of the kernel table. */
enum { O_SUM, O_PROD, O_MIN, O_MAX, O_LAND, O_LOR, O_LXOR, O_BAND, O_BOR, O_BXOR, O_MINLOC, O_MAXLOC,
       O_REPLACE, O_NO_OP, O_COUNT };

/* The row of predefined op `id` (an rt_builtin_id of class RT_CLASS_OP); -1 if none. */
static int op_row(int id)
{
    switch (id) {
    case RT_B_SUM: return O_SUM;
    case RT_B_PROD: return O_PROD;
    case RT_B_MIN: return O_MIN;
    case RT_B_MAX: return O_MAX;
    case RT_B_LAND: return O_LAND;
    case RT_B_LOR: return O_LOR;
    case RT_B_LXOR: return O_LXOR;
    case RT_B_BAND: return O_BAND;
    case RT_B_BOR: return O_BOR;
    case RT_B_BXOR: return O_BXOR;
    case RT_B_MINLOC: return O_MINLOC;
    case RT_B_MAXLOC: return O_MAXLOC;
    case RT_B_REPLACE: return O_REPLACE;
    case RT_B_NO_OP: return O_NO_OP;
    default: return -1;
    }
}

/* ------------------------------------------------------------ the type groups
 * X(ID, T, U): builtin RT_B_ID holds C type T; integer sums and products are computed in
 * the unsigned type U (wraps, never undefined behaviour); floating types compute in T. */

#define C_INTEGER(X)                                                                               \
    X(SIGNED_CHAR, signed char, unsigned) X(UNSIGNED_CHAR, unsigned char, unsigned)                \
    X(SHORT, short, unsigned) X(UNSIGNED_SHORT, unsigned short, unsigned)                          \
    X(INT, int, unsigned) X(UNSIGNED, unsigned, unsigned)                                          \
    X(LONG, long, unsigned long) X(UNSIGNED_LONG, unsigned long, unsigned long)                    \
    X(LONG_LONG, long long, unsigned long long) X(UNSIGNED_LONG_LONG, unsigned long long, unsigned long long) \
    X(INT8_T, int8_t, unsigned) X(INT16_T, int16_t, unsigned) X(INT32_T, int32_t, uint32_t)        \
    X(INT64_T, int64_t, uint64_t) X(UINT8_T, uint8_t, unsigned) X(UINT16_T, uint16_t, unsigned)    \
    X(UINT32_T, uint32_t, uint32_t) X(UINT64_T, uint64_t, uint64_t)

/* "Multi-language types": like C integers, but not for the logical ops. */
#define MULTI_LANGUAGE(X) X(AINT, rt_aint, uintptr_t) X(OFFSET, rt_offset, uint64_t) X(COUNT, rt_count, uint64_t)

#ifdef __SIZEOF_INT128__
#define INTEGER16(X) X(INTEGER16, __int128, unsigned __int128)
#define LOGICAL16(X) X(LOGICAL16, unsigned __int128, _)
#else
#define INTEGER16(X)
#define LOGICAL16(X)
#endif
#define F_INTEGER(X)                                                                               \
    X(INTEGER, int32_t, uint32_t) X(INTEGER1, int8_t, unsigned) X(INTEGER2, int16_t, unsigned)     \
    X(INTEGER4, int32_t, uint32_t) X(INTEGER8, int64_t, uint64_t) INTEGER16(X)

/* REAL2 / COMPLEX4 / MPICH's MPIX_C_FLOAT16 exist where the compiler has _Float16; REAL16 / COMPLEX32 are gfortran's
 * REAL(16), IEEE quad (_Float128). */
#ifdef __FLT16_MAX__
#define REAL2(X) X(REAL2, _Float16, _Float16) X(X_C_FLOAT16, _Float16, _Float16)
#define COMPLEX4(X) X(COMPLEX4, _Complex _Float16, _)
#else
#define REAL2(X)
#define COMPLEX4(X)
#endif
#ifdef __FLT128_MAX__
#define REAL16(X) X(REAL16, _Float128, _Float128)
#define COMPLEX32(X) X(COMPLEX32, _Complex _Float128, _)
#else
#define REAL16(X)
#define COMPLEX32(X)
#endif
#define FLOATING(X)                                                                                \
    X(FLOAT, float, float) X(DOUBLE, double, double) X(LONG_DOUBLE, long double, long double)      \
    X(REAL, float, float) X(DOUBLE_PRECISION, double, double) X(REAL4, float, float)               \
    X(REAL8, double, double) REAL2(X) REAL16(X)

/* Logicals: read as "nonzero is true", written as 1 or 0 in the element's size. C's _Bool is
 * read as a byte, so that a stray value is not undefined behaviour. */
#define LOGICAL(X)                                                                                 \
    X(LOGICAL, uint32_t, _) X(LOGICAL1, uint8_t, _) X(LOGICAL2, uint16_t, _)                       \
    X(LOGICAL4, uint32_t, _) X(LOGICAL8, uint64_t, _) LOGICAL16(X)                                 \
    X(C_BOOL, unsigned char, _) X(CXX_BOOL, unsigned char, _)
_Static_assert(sizeof(_Bool) == 1, "C_BOOL kernels read _Bool as one byte");

#define COMPLEX(X)                                                                                 \
    X(C_COMPLEX, float complex, _) X(C_DOUBLE_COMPLEX, double complex, _)                          \
    X(C_LONG_DOUBLE_COMPLEX, long double complex, _) X(CXX_FLOAT_COMPLEX, float complex, _)        \
    X(CXX_DOUBLE_COMPLEX, double complex, _) X(CXX_LONG_DOUBLE_COMPLEX, long double complex, _)   \
    X(COMPLEX, float complex, _) X(DOUBLE_COMPLEX, double complex, _) X(COMPLEX8, float complex, _) \
    X(COMPLEX16, double complex, _) COMPLEX4(X) COMPLEX32(X)

#define BYTE(X) X(BYTE, uint8_t, _)

/* MPICH's leniencies (rt_op_allow_mpich_pairs): C char and Fortran CHARACTER as small integers
 * (arithmetic, bitwise and logical ops), and the logical ops on the Fortran integers and the
 * multi-language types. Not MPICH's logical ops on floating types: its kernels assert or
 * compute on the bits there, so no program can rely on them. */
#define CHARS(X) X(CHAR, char, unsigned) X(CHARACTER, char, unsigned)

/* MINLOC/MAXLOC pairs: P(ID, value type, index type), as type.c lays them out. */
#define PAIRS(P)                                                                                   \
    P(FLOAT_INT, float, int) P(DOUBLE_INT, double, int) P(LONG_INT, long, int)                     \
    P(SHORT_INT, short, int) P(LONG_DOUBLE_INT, long double, int) P(2INT, int, int)                \
    P(2REAL, float, float) P(2DOUBLE_PRECISION, double, double) P(2INTEGER, int, int)

/* ------------------------------------------------------------ kernels */

#define LOOP(NAME, T, EXPR)                                                                        \
    static void NAME(const void *in_, void *io_, rt_count n)                                       \
    {                                                                                              \
        const T *a = in_;                                                                          \
        T *b = io_;                                                                                \
        for (rt_count i = 0; i < n; i++) {                                                         \
            T x = a[i], y = b[i];                                                                  \
            b[i] = (T)(EXPR);                                                                      \
        }                                                                                          \
    }

#define DEF_ARITH(ID, T, U)                                                                        \
    LOOP(k_SUM_##ID, T, (U)x + (U)y) LOOP(k_PROD_##ID, T, (U)x * (U)y)                             \
    LOOP(k_MIN_##ID, T, x < y ? x : y) LOOP(k_MAX_##ID, T, x > y ? x : y)
#define DEF_BITS(ID, T, U) LOOP(k_BAND_##ID, T, x & y) LOOP(k_BOR_##ID, T, x | y) LOOP(k_BXOR_##ID, T, x ^ y)
#define DEF_LOGIC(ID, T, U) LOOP(k_LAND_##ID, T, x && y) LOOP(k_LOR_##ID, T, x || y) LOOP(k_LXOR_##ID, T, !x != !y)
#define DEF_CPLX(ID, T, U) LOOP(k_SUM_##ID, T, x + y) LOOP(k_PROD_##ID, T, x * y)

/* Pairs in the packed stream (value, then index, no padding: elements may be misaligned).
 * MINLOC keeps the smaller value, MAXLOC the larger; on a tie, the smaller index. */
#define PAIRLOOP(NAME, V, I, CMP)                                                                  \
    static void NAME(const void *in_, void *io_, rt_count n)                                       \
    {                                                                                              \
        const char *a = in_;                                                                       \
        char *b = io_;                                                                             \
        for (rt_count k = 0; k < n; k++, a += sizeof(V) + sizeof(I), b += sizeof(V) + sizeof(I)) { \
            V av, bv;                                                                              \
            I ai, bi;                                                                              \
            memcpy(&av, a, sizeof av);                                                             \
            memcpy(&bv, b, sizeof bv);                                                             \
            memcpy(&ai, a + sizeof(V), sizeof ai);                                                 \
            memcpy(&bi, b + sizeof(V), sizeof bi);                                                 \
            if (av CMP bv)                                                                         \
                memcpy(b, a, sizeof(V) + sizeof(I));                                               \
            else if (av == bv && ai < bi)                                                          \
                memcpy(b + sizeof(V), &ai, sizeof ai);                                             \
        }                                                                                          \
    }
#define DEF_PAIR(ID, V, I) PAIRLOOP(k_MINLOC_##ID, V, I, <) PAIRLOOP(k_MAXLOC_##ID, V, I, >)

C_INTEGER(DEF_ARITH) C_INTEGER(DEF_BITS) C_INTEGER(DEF_LOGIC)
MULTI_LANGUAGE(DEF_ARITH) MULTI_LANGUAGE(DEF_BITS)
F_INTEGER(DEF_ARITH) F_INTEGER(DEF_BITS)
FLOATING(DEF_ARITH)
LOGICAL(DEF_LOGIC)
COMPLEX(DEF_CPLX)
BYTE(DEF_BITS)
PAIRS(DEF_PAIR)
CHARS(DEF_ARITH) CHARS(DEF_BITS) CHARS(DEF_LOGIC)
MULTI_LANGUAGE(DEF_LOGIC) F_INTEGER(DEF_LOGIC)

/* ------------------------------------------------------------ the table: [op row][type id] */

#define ENT_ARITH(ID, T, U)                                                                        \
    [O_SUM][RT_B_##ID] = k_SUM_##ID, [O_PROD][RT_B_##ID] = k_PROD_##ID,                            \
    [O_MIN][RT_B_##ID] = k_MIN_##ID, [O_MAX][RT_B_##ID] = k_MAX_##ID,
#define ENT_BITS(ID, T, U)                                                                         \
    [O_BAND][RT_B_##ID] = k_BAND_##ID, [O_BOR][RT_B_##ID] = k_BOR_##ID, [O_BXOR][RT_B_##ID] = k_BXOR_##ID,
#define ENT_LOGIC(ID, T, U)                                                                        \
    [O_LAND][RT_B_##ID] = k_LAND_##ID, [O_LOR][RT_B_##ID] = k_LOR_##ID, [O_LXOR][RT_B_##ID] = k_LXOR_##ID,
#define ENT_CPLX(ID, T, U) [O_SUM][RT_B_##ID] = k_SUM_##ID, [O_PROD][RT_B_##ID] = k_PROD_##ID,
#define ENT_PAIR(ID, V, I) [O_MINLOC][RT_B_##ID] = k_MINLOC_##ID, [O_MAXLOC][RT_B_##ID] = k_MAXLOC_##ID,

/* The kernel of each predefined op for each basic type it is defined on; NULL: not allowed
 * (REPLACE and NO_OP are applied without kernels, to any type). */
static kernel_fn *const kernels[O_COUNT][RT_NBUILTINS] = {
    C_INTEGER(ENT_ARITH) C_INTEGER(ENT_BITS) C_INTEGER(ENT_LOGIC)
    MULTI_LANGUAGE(ENT_ARITH) MULTI_LANGUAGE(ENT_BITS)
    F_INTEGER(ENT_ARITH) F_INTEGER(ENT_BITS)
    FLOATING(ENT_ARITH)
    LOGICAL(ENT_LOGIC)
    COMPLEX(ENT_CPLX)
    BYTE(ENT_BITS)
    PAIRS(ENT_PAIR)
};

/* The pairs MPICH 4.0.2 accepts beyond the standard's, with their kernels. */
static kernel_fn *const mpich_kernels[O_COUNT][RT_NBUILTINS] = {
    CHARS(ENT_ARITH) CHARS(ENT_BITS) CHARS(ENT_LOGIC)
    MULTI_LANGUAGE(ENT_LOGIC) F_INTEGER(ENT_LOGIC)
};

static int mpich_pairs_allowed; /* set by the MPICH face (rt_op_allow_mpich_pairs) */

void rt_op_allow_mpich_pairs(void)
{
    mpich_pairs_allowed = 1;
}

/* The kernel of predefined op row o for basic type b, NULL where the pair is not allowed. */
static kernel_fn *kernel_of(int o, int b)
{
    if (o < 0 || b < 0)
        return NULL;
    return kernels[o][b] ? kernels[o][b] : mpich_pairs_allowed ? mpich_kernels[o][b] : NULL;
}

/* ------------------------------------------------------------ check and apply */

/* The basic builtin type of t's elements (a pair type counts as one), or -1. */
static int basic_of(const rt_type *t)
{
    int b = t->basic;
    return b >= 0 && b < RT_NBUILTINS && rt_builtin_desc[b].cls == RT_CLASS_DATATYPE ? b : -1;
}

int rt__op_check(rt_op *op, rt_type *type, rt_obj *eo, const char *fn)
{
    if (!op->obj.builtin || type->size == 0)
        return RT_SUCCESS;
    int o = op_row(op->obj.index), b = basic_of(type);
    if (o < 0)
        return rt_raise(eo, RT_ERR_OP, fn, "invalid operation");
    const char *opname = rt_builtin_desc[op->obj.index].name;
    if (o == O_REPLACE || o == O_NO_OP) /* MPI-5.0 12.3.4; MPICH and Open MPI refuse them too */
        return rt_raise(eo, RT_ERR_OP, fn, "%s is only for one-sided accumulate operations", opname);
    if (kernel_of(o, b))
        return RT_SUCCESS;
    if (type->obj.builtin)
        return rt_raise(eo, RT_ERR_OP, fn, "%s is not defined for %s", opname, type->name);
    const char *tname = type->name[0] ? type->name : "(unnamed)";
    if (b < 0)
        return rt_raise(eo, RT_ERR_OP, fn,
                        "%s is not defined for datatype %s: its basic elements are not all of one type",
                        opname, tname);
    return rt_raise(eo, RT_ERR_OP, fn, "%s is not defined for datatype %s of %s elements", opname, tname,
                    rt_builtin_desc[b].name);
}

/* Calls a user op through its face, in chunks of at most INT_MAX elements for a callback
 * that takes a C int length. */
static int apply_user(rt_op *op, const void *in, void *inout, rt_count count, rt_type *type)
{
    const rt_face *f = op->cb.face;
    if (!f || f->version < 2 || !f->call_op)
        return RT_ERR_INTERN;
    rt_count max = (op->cb.flags & RT_CB_LARGE) ? count : INT_MAX;
    const char *a = in;
    char *b = inout;
    while (count > 0) {
        rt_count n = count < max ? count : max;
        f->call_op(&op->cb, a, b, n, type);
        a += n * type->extent;
        b += n * type->extent;
        count -= n;
    }
    return RT_SUCCESS;
}

#define CHUNK_BYTES ((rt_count)1 << 20) /* non-contiguous types go through packed copies this large */

int rt__op_apply(rt_op *op, const void *in, void *inout, rt_count count, rt_type *type)
{
    if (count <= 0)
        return RT_SUCCESS;
    if (!op->obj.builtin)
        return apply_user(op, in, inout, count, type);
    int o = op_row(op->obj.index);
    if (o == O_NO_OP || type->size == 0)
        return RT_SUCCESS;
    int b = basic_of(type);
    kernel_fn *k = o == O_REPLACE ? NULL : kernel_of(o, b);
    if (o != O_REPLACE && !k)
        return RT_ERR_OP; /* rt__op_check was not called */
    rt_count unit = k ? ((const rt_type *)rt_builtins[b])->size : 1;
    if (rt__type_contig(type)) {
        if (k) /* (no 64-bit division for a predefined type: one costs 40 cycles or more) */
            k(in, inout, type->size == unit ? count : count * type->size / unit);
        else
            memmove(inout, in, (size_t)(count * type->size));
        return RT_SUCCESS;
    }
    /* non-contiguous: pack chunks of both operands, combine, unpack into inout */
    rt_count per = CHUNK_BYTES / type->size;
    if (per < 1)
        per = 1;
    if (per > count)
        per = count;
    rt_count bytes = per * type->size, off = (bytes + 63) & ~(rt_count)63;
    char *tmp = malloc((size_t)(off + bytes));
    if (!tmp)
        return RT_ERR_NO_MEM;
    const char *a = in;
    char *io = inout;
    for (rt_count done = 0; done < count;) {
        rt_count n = count - done < per ? count - done : per;
        rt__type_pack(type, a, n, tmp);
        if (k) {
            rt__type_pack(type, io, n, tmp + off);
            k(tmp, tmp + off, n * type->size / unit);
            rt__type_unpack(type, tmp + off, n * type->size, io);
        } else {
            rt__type_unpack(type, tmp, n * type->size, io);
        }
        a += n * type->extent;
        io += n * type->extent;
        done += n;
    }
    free(tmp);
    return RT_SUCCESS;
}

int rt__op_commutative(const rt_op *op)
{
    return op->obj.builtin || op->commute;
}

/* ------------------------------------------------------------ entry points */

/* MPI_Op_create (and _c): a user op calling user_fn through its face; *op owns the
 * reference. */
int rt_Op_create(rt_callback user_fn, int commute, rt_op **op)
{
    rt_op *p = (rt_op *)rt__obj_new(RT_CLASS_OP);
    if (!p)
        return RT_ERR(NULL, RT_ERR_NO_MEM, "out of memory");
    p->cb = user_fn;
    p->commute = commute != 0;
    *op = p;
    return RT_SUCCESS;
}

/* MPI_Op_free: drops the user's reference (operations in flight keep theirs); *op = NULL.
 * A predefined op is an error (RT_ERR_OP). */
int rt_Op_free(rt_op **op)
{
    if ((*op)->obj.builtin)
        return RT_ERR(NULL, RT_ERR_OP, "cannot free the predefined operation %s",
                      rt_builtin_desc[(*op)->obj.index].name);
    rt__obj_release(&(*op)->obj);
    *op = NULL;
    return RT_SUCCESS;
}

/* MPI_Op_commutative: *commute = 1 for predefined ops and ops created commutative. */
int rt_Op_commutative(rt_op *op, int *commute)
{
    *commute = rt__op_commutative(op);
    return RT_SUCCESS;
}

/* MPI_Reduce_local (and _c): inoutbuf = inbuf op inoutbuf, count elements of datatype. */
int rt_Reduce_local(const void *inbuf, void *inoutbuf, rt_count count, rt_type *datatype, rt_op *op)
{
    int rc = rt__type_check(datatype, NULL, __func__);
    if (!rc)
        rc = rt__op_check(op, datatype, NULL, __func__);
    if (!rc && (rc = rt__op_apply(op, inbuf, inoutbuf, count, datatype)) != RT_SUCCESS)
        rc = RT_ERR(NULL, rc, rc == RT_ERR_NO_MEM ? "out of memory" : "operation could not be applied");
    return rc;
}
