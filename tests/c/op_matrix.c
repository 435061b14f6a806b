/* op_matrix.c — every predefined reduction op on every predefined datatype through
 * MPI_Reduce_local: allowed pairs (MPI-5.0 6.9.2, and on the MPICH face the pairs MPICH 4.0.2
 * also accepts) give the right values, the rest MPI_ERR_OP. */
#include <complex.h>
#include <stdint.h>

#include "check.h"

/* type groups of the standard */
enum { CINT = 1, FINT = 2, FLT = 4, LOGIC = 8, CPLX = 16, BYTE = 32, MULTI = 64, PAIR = 128, NONE = 256, CHARS = 512 };

/* The MPICH face also takes every op on MPI_CHAR and MPI_CHARACTER, and the logical ops on
 * Fortran integers and multi-language types, as MPICH does (README); the standard ABI's face
 * takes the standard's pairs only. */
#ifdef MPI_ABI_VERSION
#define MPICH_ALL 0
#define MPICH_LOGICAL 0
#else
#define MPICH_ALL CHARS
#define MPICH_LOGICAL (CHARS | FINT | MULTI)
#endif

struct tdesc {
    const char *name;
    MPI_Datatype t;
    int group;
    char kind; /* i integer, f float, d double, L long double, q _Float128, c/z/Z/Q complex of those,
                  l logical (int of the size), p pair (values not checked here), n not reducible */
};

#define T(name, group, kind) {#name, name, group, kind}
static const struct tdesc types[] = {
    T(MPI_INT, CINT, 'i'), T(MPI_LONG, CINT, 'i'), T(MPI_SHORT, CINT, 'i'), T(MPI_UNSIGNED_SHORT, CINT, 'i'),
    T(MPI_UNSIGNED, CINT, 'i'), T(MPI_UNSIGNED_LONG, CINT, 'i'), T(MPI_LONG_LONG_INT, CINT, 'i'),
    T(MPI_LONG_LONG, CINT, 'i'), T(MPI_UNSIGNED_LONG_LONG, CINT, 'i'), T(MPI_SIGNED_CHAR, CINT, 'i'),
    T(MPI_UNSIGNED_CHAR, CINT, 'i'), T(MPI_INT8_T, CINT, 'i'), T(MPI_INT16_T, CINT, 'i'), T(MPI_INT32_T, CINT, 'i'),
    T(MPI_INT64_T, CINT, 'i'), T(MPI_UINT8_T, CINT, 'i'), T(MPI_UINT16_T, CINT, 'i'), T(MPI_UINT32_T, CINT, 'i'),
    T(MPI_UINT64_T, CINT, 'i'),
    T(MPI_INTEGER, FINT, 'i'), T(MPI_INTEGER1, FINT, 'i'), T(MPI_INTEGER2, FINT, 'i'), T(MPI_INTEGER4, FINT, 'i'),
    T(MPI_INTEGER8, FINT, 'i'),
    T(MPI_FLOAT, FLT, 'f'), T(MPI_DOUBLE, FLT, 'd'), T(MPI_LONG_DOUBLE, FLT, 'L'), T(MPI_REAL, FLT, 'f'),
    T(MPI_DOUBLE_PRECISION, FLT, 'd'), T(MPI_REAL4, FLT, 'f'), T(MPI_REAL8, FLT, 'd'),
#ifdef __FLT128_MAX__
    T(MPI_REAL16, FLT, 'q'), T(MPI_COMPLEX32, CPLX, 'Q'),
#endif
    T(MPI_LOGICAL, LOGIC, 'l'), T(MPI_C_BOOL, LOGIC, 'l'), T(MPI_CXX_BOOL, LOGIC, 'l'),
    T(MPI_C_COMPLEX, CPLX, 'c'), T(MPI_C_FLOAT_COMPLEX, CPLX, 'c'), T(MPI_C_DOUBLE_COMPLEX, CPLX, 'z'),
    T(MPI_C_LONG_DOUBLE_COMPLEX, CPLX, 'Z'), T(MPI_CXX_FLOAT_COMPLEX, CPLX, 'c'),
    T(MPI_CXX_DOUBLE_COMPLEX, CPLX, 'z'), T(MPI_CXX_LONG_DOUBLE_COMPLEX, CPLX, 'Z'), T(MPI_COMPLEX, CPLX, 'c'),
    T(MPI_DOUBLE_COMPLEX, CPLX, 'z'), T(MPI_COMPLEX8, CPLX, 'c'), T(MPI_COMPLEX16, CPLX, 'z'),
    T(MPI_BYTE, BYTE, 'i'),
    T(MPI_AINT, MULTI, 'i'), T(MPI_OFFSET, MULTI, 'i'), T(MPI_COUNT, MULTI, 'i'),
    T(MPI_FLOAT_INT, PAIR, 'p'), T(MPI_DOUBLE_INT, PAIR, 'p'), T(MPI_LONG_INT, PAIR, 'p'), T(MPI_2INT, PAIR, 'p'),
    T(MPI_SHORT_INT, PAIR, 'p'), T(MPI_LONG_DOUBLE_INT, PAIR, 'p'), T(MPI_2REAL, PAIR, 'p'),
    T(MPI_2DOUBLE_PRECISION, PAIR, 'p'), T(MPI_2INTEGER, PAIR, 'p'),
    T(MPI_CHAR, CHARS, 'i'), T(MPI_WCHAR, NONE, 'n'), T(MPI_PACKED, NONE, 'n'), T(MPI_CHARACTER, CHARS, 'i'),
};

struct odesc {
    const char *name;
    MPI_Op op;
    int groups; /* where the standard defines it */
};
#define O(name, groups) {#name, name, groups}
static const struct odesc ops[] = {
    O(MPI_MAX, CINT | FINT | FLT | MULTI | MPICH_ALL),
    O(MPI_MIN, CINT | FINT | FLT | MULTI | MPICH_ALL),
    O(MPI_SUM, CINT | FINT | FLT | CPLX | MULTI | MPICH_ALL),
    O(MPI_PROD, CINT | FINT | FLT | CPLX | MULTI | MPICH_ALL),
    O(MPI_LAND, CINT | LOGIC | MPICH_LOGICAL),
    O(MPI_LOR, CINT | LOGIC | MPICH_LOGICAL),
    O(MPI_LXOR, CINT | LOGIC | MPICH_LOGICAL),
    O(MPI_BAND, CINT | FINT | BYTE | MULTI | MPICH_ALL),
    O(MPI_BOR, CINT | FINT | BYTE | MULTI | MPICH_ALL),
    O(MPI_BXOR, CINT | FINT | BYTE | MULTI | MPICH_ALL),
    O(MPI_MAXLOC, PAIR),                             O(MPI_MINLOC, PAIR),
    O(MPI_REPLACE, 0),                               O(MPI_NO_OP, 0),
};

#define N 4
static const long long A[N] = {3, 0, 1, 0}, B[N] = {1, 2, 0, 0};  /* arithmetic and bits */
static const long long LA[N] = {1, 0, 1, 0}, LB[N] = {1, 1, 0, 0}; /* logical truth table */

static long long expect(MPI_Op op, long long x, long long y)
{
    if (op == MPI_MAX) return x > y ? x : y;
    if (op == MPI_MIN) return x < y ? x : y;
    if (op == MPI_SUM) return x + y;
    if (op == MPI_PROD) return x * y;
    if (op == MPI_LAND) return x && y;
    if (op == MPI_LOR) return x || y;
    if (op == MPI_LXOR) return !x != !y;
    if (op == MPI_BAND) return x & y;
    if (op == MPI_BOR) return x | y;
    return x ^ y; /* MPI_BXOR */
}

/* Element i of a buffer of kind k and size sz, from and to an integer value. */
static void store(char k, int sz, void *buf, int i, long long v)
{
    char *p = (char *)buf + (size_t)i * sz;
    switch (k) {
    case 'f': *(float *)p = (float)v; break;
    case 'd': *(double *)p = (double)v; break;
    case 'L': *(long double *)p = (long double)v; break;
    case 'c': *(float complex *)p = (float)v; break;
    case 'z': *(double complex *)p = (double)v; break;
    case 'Z': *(long double complex *)p = (long double)v; break;
#ifdef __FLT128_MAX__
    case 'q': *(_Float128 *)p = (_Float128)v; break;
    case 'Q': *(_Complex _Float128 *)p = (_Float128)v; break;
#endif
    default: /* integers and logicals: little-endian low bytes */
        memset(p, 0, (size_t)sz);
        memcpy(p, &v, (size_t)sz < sizeof v ? (size_t)sz : sizeof v);
    }
}

static long long load(char k, int sz, const void *buf, int i, int *exact)
{
    const char *p = (const char *)buf + (size_t)i * sz;
    long long v = 0;
    *exact = 1;
    switch (k) {
    case 'f': return (long long)*(const float *)p;
    case 'd': return (long long)*(const double *)p;
    case 'L': return (long long)*(const long double *)p;
    case 'c': *exact = cimagf(*(const float complex *)p) == 0; return (long long)crealf(*(const float complex *)p);
    case 'z': *exact = cimag(*(const double complex *)p) == 0; return (long long)creal(*(const double complex *)p);
    case 'Z':
        *exact = cimagl(*(const long double complex *)p) == 0;
        return (long long)creall(*(const long double complex *)p);
#ifdef __FLT128_MAX__
    case 'q': return (long long)*(const _Float128 *)p;
    case 'Q': return (long long)__real__ *(const _Complex _Float128 *)p;
#endif
    default:
        memcpy(&v, p, (size_t)sz < sizeof v ? (size_t)sz : sizeof v);
        return v;
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    int pairs = 0, allowed = 0;
    for (size_t ti = 0; ti < sizeof types / sizeof *types; ti++) {
        const struct tdesc *t = &types[ti];
        if (t->t == MPI_DATATYPE_NULL) /* an optional type this MPI lacks */
            continue;
        int sz;
        MPI_Aint lb, ext;
        CHECK_SUCCESS(MPI_Type_size(t->t, &sz));
        CHECK_SUCCESS(MPI_Type_get_extent(t->t, &lb, &ext));
        char in[N * 64], io[N * 64];
        for (size_t oi = 0; oi < sizeof ops / sizeof *ops; oi++) {
            const struct odesc *o = &ops[oi];
            int ok = (o->groups & t->group) != 0, logic = t->kind == 'l';
            memset(in, 0, sizeof in);
            memset(io, 0, sizeof io);
            for (int i = 0; i < N && t->kind != 'p' && t->kind != 'n'; i++) {
                store(t->kind, (int)ext, in, i, logic ? LA[i] : A[i]);
                store(t->kind, (int)ext, io, i, logic ? LB[i] : B[i]);
            }
            int rc = MPI_Reduce_local(in, io, N, t->t, o->op);
            pairs++;
            if (!ok) {
                CHECK(error_class(rc) == MPI_ERR_OP, "%s on %s: class %d, expected MPI_ERR_OP", o->name, t->name,
                      error_class(rc));
                continue;
            }
            allowed++;
            CHECK(rc == MPI_SUCCESS, "%s on %s: class %d, expected success", o->name, t->name, error_class(rc));
            for (int i = 0; i < N && t->kind != 'p'; i++) {
                int exact;
                long long got = load(t->kind, (int)ext, io, i, &exact);
                long long want = logic ? expect(o->op, LA[i], LB[i]) : expect(o->op, A[i], B[i]);
                if (t->kind == 'l' && sz == 1 && o->op != MPI_LXOR)
                    got = got != 0; /* a bool's true */
                CHECK(exact && got == want, "%s on %s: element %d = %lld, expected %lld", o->name, t->name, i, got,
                      want);
            }
        }
    }
    CHECK(pairs > 500 && allowed > 150, "only %d pairs (%d allowed) tried", pairs, allowed);
    MPI_Finalize();
    return 0;
}
