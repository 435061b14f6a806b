/* coll_reduce_property.c — Allreduce, Reduce (every root), Iallreduce and Reduce_scatter_block
 * give every rank the right bits and the same bits (issue 34): builtin ops, BLACS absmax structs,
 * a non-commutative op, guarded buffers. */
#include "check.h"
#include <complex.h>
#include <math.h>
#include <stdint.h>

#define GUARD 64      /* bytes of 0xA5 before and after every receive buffer */
#define G_BYTE 0xA5
#define PAD_RECV 0x5A /* what a receive buffer holds before the call, padding included */
#define PAD_SEND 0x3C /* the padding of a send buffer: must not reach the receive buffer */
#define TRIALS 3

enum kind { F_SUM, F_MAX, D_SUM, D_MAX, C_SUM, I_SUM, I_MAX, AMX_F, AMX_D, AMX_C, MAT, NKINDS };
static const char *const kind_name[NKINDS] = {
    "MPI_FLOAT MPI_SUM", "MPI_FLOAT MPI_MAX", "MPI_DOUBLE MPI_SUM", "MPI_DOUBLE MPI_MAX",
    "MPI_C_FLOAT_COMPLEX MPI_SUM", "MPI_INT MPI_SUM", "MPI_INT MPI_MAX",
    "BLACS absmax struct of float", "BLACS absmax struct of double",
    "BLACS absmax struct of float complex", "2x2 float matrix product (non-commutative)"};
/* counts (or N of the BLACS struct); 20000 floats is past the eager limit and the allreduce
 * halving threshold of 16 KiB */
static const int sizes[] = {0, 1, 2, 3, 5, 13, 64, 1000, 20000};
#define NSIZES (int)(sizeof sizes / sizeof sizes[0])

/* One case: what is reduced and how MPI is told. */
struct cs {
    enum kind kind;
    int size;          /* the size above */
    int nval;          /* values per MPI element: N for a BLACS struct, else 1 */
    int count;         /* the count passed to MPI (1 for a BLACS struct unless size 0) */
    MPI_Datatype type; /* the datatype passed to MPI */
    MPI_Op op;
    size_t vsize;      /* bytes of one value */
    size_t idist;      /* BLACS struct: offset of the distances */
    size_t ext;        /* extent of one MPI element */
};

static int me;
static char where[512]; /* what is being checked, for the messages */

/* What the user ops need to know, as BLACS keeps it in a global (BI_AuxBuff.Len). */
static int g_nval;
static size_t g_idist, g_ext;

static int is_amx(enum kind k) { return k == AMX_F || k == AMX_D || k == AMX_C; }
static int is_fsum(enum kind k) { return k == F_SUM || k == D_SUM || k == C_SUM; }

/* a small hash of three numbers (a macro: the tests are built without optimization) */
#define MIX(a, b, c)                                                                             \
    (h_ = (uint32_t)(a) * 0x9E3779B1u ^ ((uint32_t)(b) + 0x7F4A7C15u) * 0x85EBCA77u ^           \
          (uint32_t)(c) * 0xC2B2AE3Du,                                                           \
     h_ ^= h_ >> 16, h_ *= 0x7FEB352Du, h_ ^= h_ >> 15, h_ *= 0x846CA68Bu, h_ ^ (h_ >> 16))

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    CHECK(p, "out of memory (%zu bytes)", n);
    return p;
}

/* ---- the BLACS combine and the matrix product, used by the user ops and the expected values */

/* |z|^2, exact in double for floats whose exponents are not far apart: it orders as cabsf(z) does
 * on the inputs here (and needs no libm, which the tests are not linked with) */
#define CABS2(z) ((double)crealf(z) * crealf(z) + (double)cimagf(z) * cimagf(z))

/* acc := per value, the one of larger absolute value; on a tie the one of smaller distance */
#define AMX_LOOP(T, ABS)                                                                  \
    for (int i = 0; i < nval; i++) {                                                      \
        T x, y;                                                                           \
        unsigned short dx, dy;                                                            \
        memcpy(&x, acc + i * sizeof x, sizeof x), memcpy(&y, in + i * sizeof y, sizeof y); \
        memcpy(&dx, acc + idist + i * sizeof dx, sizeof dx);                              \
        memcpy(&dy, in + idist + i * sizeof dy, sizeof dy);                               \
        double ax = ABS(x), ay = ABS(y);                                                  \
        if (ay > ax || (ay == ax && dy < dx)) {                                           \
            memcpy(acc + i * sizeof x, &y, sizeof y);                                     \
            memcpy(acc + idist + i * sizeof dy, &dy, sizeof dy);                          \
        }                                                                                 \
    }
static void amx_elem(enum kind k, unsigned char *acc, const unsigned char *in, int nval, size_t idist)
{
    if (k == AMX_F)
        AMX_LOOP(float, fabsf)
    else if (k == AMX_D)
        AMX_LOOP(double, fabs)
    else
        AMX_LOOP(float complex, CABS2)
}

/* c := a b, 2x2 row-major */
static void matmul(float *c, const float *a, const float *b)
{
    float t[4] = {a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3],
                  a[2] * b[0] + a[3] * b[2], a[2] * b[1] + a[3] * b[3]};
    memcpy(c, t, sizeof t);
}

#define AMX_OP(name, K)                                                          \
    static void name(void *in, void *inout, int *len, MPI_Datatype *dt)          \
    {                                                                            \
        (void)dt;                                                                \
        for (int e = 0; e < *len; e++)                                           \
            amx_elem(K, (unsigned char *)inout + e * g_ext,                      \
                     (const unsigned char *)in + e * g_ext, g_nval, g_idist);    \
    }
AMX_OP(amx_f_op, AMX_F)
AMX_OP(amx_d_op, AMX_D)
AMX_OP(amx_c_op, AMX_C)

/* inout := in inout: in holds the lower ranks' product */
static void mat_op(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    for (int e = 0; e < *len; e++) {
        float a[4], b[4];
        memcpy(a, (float *)in + 4 * e, sizeof a);
        memcpy(b, (float *)inout + 4 * e, sizeof b);
        matmul(b, a, b);
        memcpy((float *)inout + 4 * e, b, sizeof b);
    }
}

/* ---- inputs */

/* Writes element e of rank r's input at p (the values and distances, not the padding).
 * Max inputs are drawn from few values (ties across ranks), absmax inputs from a few magnitudes
 * of either sign (ties in absolute value, broken by the distance, distinct across ranks). */
static void gen_elem(const struct cs *c, unsigned char *p, int r, int e, int trial)
{
    uint32_t salt = (uint32_t)trial * 64 + c->kind;
    uint32_t h_, h = MIX(r, e, salt);
    switch (c->kind) {
    case F_SUM: {
        float x = (float)((int)(h % 200001) - 100000) * 0.0137f;
        memcpy(p, &x, sizeof x);
        break;
    }
    case F_MAX: {
        float x = (float)((int)(h % 64) - 32) * 0.375f;
        memcpy(p, &x, sizeof x);
        break;
    }
    case D_SUM: {
        double x = ((int)(h % 2000001) - 1000000) * 1e-3 / 3.0;
        memcpy(p, &x, sizeof x);
        break;
    }
    case D_MAX: {
        double x = ((int)(h % 64) - 32) / 3.0;
        memcpy(p, &x, sizeof x);
        break;
    }
    case C_SUM: {
        float complex x = CMPLXF((float)((int)(h % 200001) - 100000) * 0.0137f,
                                 (float)((int)(MIX(h, r, e) % 200001) - 100000) * 0.0071f);
        memcpy(p, &x, sizeof x);
        break;
    }
    case I_SUM: {
        int x = (int)(h % 2000001) - 1000000;
        memcpy(p, &x, sizeof x);
        break;
    }
    case I_MAX: {
        int x = (int)(h % 64) - 32;
        memcpy(p, &x, sizeof x);
        break;
    }
    case AMX_F: case AMX_D: case AMX_C: {
        static const double mag[5] = {0.5, 1.25, 1.0 / 3.0, 7.5, 1e-3};
        static const float cval[10][2] = {{3, 4}, {-4, 3}, {0, -5}, {5, 0}, {-3, -4},
                                          {6, 8}, {-8, -6}, {0, 10}, {1, 0}, {0, -1}};
        for (int k = 0; k < c->nval; k++) {
            uint32_t g = (uint32_t)e * c->nval + k, hk = MIX(r, g, salt);
            double x = mag[hk % 5] * (hk & 256 ? -1 : 1);
            if (c->kind == AMX_F) {
                float v = (float)x;
                memcpy(p + k * c->vsize, &v, sizeof v);
            } else if (c->kind == AMX_D) {
                memcpy(p + k * c->vsize, &x, sizeof x);
            } else {
                float complex v = CMPLXF(cval[hk % 10][0], cval[hk % 10][1]);
                memcpy(p + k * c->vsize, &v, sizeof v);
            }
            unsigned short d = (unsigned short)(r * 37 + g * 11); /* distinct across ranks */
            memcpy(p + c->idist + k * sizeof d, &d, sizeof d);
        }
        break;
    }
    case MAT: { /* entries 0, 1, 2: every product is exact, with no -0 (whose sign depends on
                 * how the product is bracketed, as MPI may) */
        float m[4];
        for (int j = 0; j < 4; j++)
            m[j] = (float)((h >> (3 * j)) % 3);
        memcpy(p, m, sizeof m);
        break;
    }
    default:
        CHECK(0, "no kind %d", c->kind);
    }
}

/* rank r's elements [e0, e0+cnt) at p, the padding filled with pad */
static void gen(const struct cs *c, unsigned char *p, int r, int e0, int cnt, int trial, int pad)
{
    memset(p, pad, cnt * c->ext);
    for (int e = 0; e < cnt; e++)
        gen_elem(c, p + e * c->ext, r, e0 + e, trial);
}

/* the components (floats, doubles) of the sums */
static int ncomp(const struct cs *c) { return c->kind == C_SUM ? 2 : 1; }
static double comp(const struct cs *c, const unsigned char *p, int i)
{
    if (c->kind == D_SUM) {
        double x;
        memcpy(&x, p + i * sizeof x, sizeof x);
        return x;
    }
    float x;
    memcpy(&x, p + i * sizeof x, sizeof x);
    return x;
}

/* acc := acc op in, in from the next rank */
static void combine(const struct cs *c, unsigned char *acc, const unsigned char *in, int cnt)
{
    for (int e = 0; e < cnt; e++) {
        unsigned char *a = acc + e * c->ext;
        const unsigned char *b = in + e * c->ext;
        switch (c->kind) {
/* a := a + b (SUM) or the larger of the two (MAX), on one value of type T */
#define SCALAR_OP(T, SUM)                                                                          \
    {                                                                                              \
        T x, y;                                                                                    \
        memcpy(&x, a, sizeof x), memcpy(&y, b, sizeof y);                                          \
        x = c->kind == (SUM) ? x + y : (y > x ? y : x);                                            \
        memcpy(a, &x, sizeof x);                                                                   \
        break;                                                                                     \
    }
        case F_SUM: case F_MAX: SCALAR_OP(float, F_SUM)
        case D_SUM: case D_MAX: SCALAR_OP(double, D_SUM)
        case C_SUM: { /* complex has no MAX, and no > */
            float complex x, y;
            memcpy(&x, a, sizeof x), memcpy(&y, b, sizeof y);
            x += y;
            memcpy(a, &x, sizeof x);
            break;
        }
        case I_SUM: case I_MAX: SCALAR_OP(int, I_SUM)
#undef SCALAR_OP
        case AMX_F: case AMX_D: case AMX_C:
            amx_elem(c->kind, a, b, c->nval, c->idist);
            break;
        case MAT: {
            float x[4], y[4];
            memcpy(x, a, sizeof x), memcpy(y, b, sizeof y);
            matmul(x, x, y);
            memcpy(a, x, sizeof x);
            break;
        }
        default:
            CHECK(0, "no kind %d", c->kind);
        }
    }
}

/* The result of elements [e0, e0+cnt) applied in rank order 0, 1, ..., n-1, its padding PAD_RECV;
 * for the floating sums also the sum of the magnitudes of each component (scale). */
static void expected(const struct cs *c, int n, int e0, int cnt, int trial, unsigned char *exp,
                     double *scale)
{
    unsigned char *t = xmalloc(cnt * c->ext);
    int nc = cnt * ncomp(c);
    gen(c, exp, 0, e0, cnt, trial, PAD_RECV);
    for (int i = 0; is_fsum(c->kind) && i < nc; i++)
        scale[i] = fabs(comp(c, exp, i));
    for (int r = 1; r < n; r++) {
        gen(c, t, r, e0, cnt, trial, PAD_RECV);
        for (int i = 0; is_fsum(c->kind) && i < nc; i++)
            scale[i] += fabs(comp(c, t, i));
        combine(c, exp, t, cnt);
    }
    free(t);
}

/* ---- checks */

/* a receive buffer of bytes, fenced: guards of G_BYTE, the inside PAD_RECV */
static unsigned char *fence(unsigned char *base, size_t bytes)
{
    memset(base, G_BYTE, GUARD);
    memset(base + GUARD, PAD_RECV, bytes);
    memset(base + GUARD + bytes, G_BYTE, GUARD);
    return base + GUARD;
}

static void check_guards(const unsigned char *p, size_t bytes)
{
    for (int i = 0; i < GUARD; i++) {
        CHECK(p[-GUARD + i] == G_BYTE, "%s: guard byte %d of %d before the receive buffer is 0x%02x, not 0x%02x",
              where, i, GUARD, p[-GUARD + i], G_BYTE);
        CHECK(p[bytes + i] == G_BYTE, "%s: guard byte %d after the receive buffer (%zu bytes) is 0x%02x, not 0x%02x",
              where, i, bytes, p[bytes + i], G_BYTE);
    }
}

/* where byte i of a buffer of elements lies, and the value there in buf */
static void describe(const struct cs *c, const unsigned char *buf, size_t i, char *s, size_t len)
{
    size_t e = i / c->ext, o = i % c->ext;
    const unsigned char *p = buf + e * c->ext;
    if (is_amx(c->kind)) {
        if (o < c->nval * c->vsize) {
            size_t k = o / c->vsize;
            p += k * c->vsize;
            if (c->kind == AMX_F) {
                float x;
                memcpy(&x, p, sizeof x);
                snprintf(s, len, "element %zu value %zu = %.9g", e, k, x);
            } else if (c->kind == AMX_D) {
                double x;
                memcpy(&x, p, sizeof x);
                snprintf(s, len, "element %zu value %zu = %.17g", e, k, x);
            } else {
                float complex x;
                memcpy(&x, p, sizeof x);
                snprintf(s, len, "element %zu value %zu = (%.9g, %.9g)", e, k, crealf(x), cimagf(x));
            }
        } else if (o >= c->idist && o < c->idist + c->nval * sizeof(unsigned short)) {
            size_t k = (o - c->idist) / sizeof(unsigned short);
            unsigned short d;
            memcpy(&d, p + c->idist + k * sizeof d, sizeof d);
            snprintf(s, len, "element %zu distance %zu = %u", e, k, d);
        } else {
            snprintf(s, len, "element %zu padding byte at offset %zu (of extent %zu) = 0x%02x", e, o,
                     c->ext, p[o]);
        }
        return;
    }
    switch (c->kind) {
    case F_SUM: case F_MAX: {
        float x;
        memcpy(&x, p, sizeof x);
        snprintf(s, len, "element %zu = %.9g", e, x);
        break;
    }
    case D_SUM: case D_MAX: {
        double x;
        memcpy(&x, p, sizeof x);
        snprintf(s, len, "element %zu = %.17g", e, x);
        break;
    }
    case C_SUM: {
        float complex x;
        memcpy(&x, p, sizeof x);
        snprintf(s, len, "element %zu = (%.9g, %.9g)", e, crealf(x), cimagf(x));
        break;
    }
    case I_SUM: case I_MAX: {
        int x;
        memcpy(&x, p, sizeof x);
        snprintf(s, len, "element %zu = %d", e, x);
        break;
    }
    default: {
        float m[4];
        memcpy(m, p, sizeof m);
        snprintf(s, len, "element %zu = [%g %g; %g %g]", e, m[0], m[1], m[2], m[3]);
    }
    }
}

/* got against the sequential value: within 1e-5 of the sum of the magnitudes for the floating
 * sums (the sum itself may cancel to near zero), bit for bit, padding included, otherwise */
static void check_value(const struct cs *c, const unsigned char *got, const unsigned char *exp,
                        const double *scale, int cnt)
{
    size_t bytes = cnt * c->ext;
    if (is_fsum(c->kind)) {
        for (int i = 0; i < cnt * ncomp(c); i++) {
            double g = comp(c, got, i), x = comp(c, exp, i);
            CHECK(fabs(g - x) <= 1e-5 * scale[i], "%s: element %d%s = %.17g, the sequential sum is %.17g "
                  "(difference %.3g, allowed %.3g)", where, i / ncomp(c),
                  ncomp(c) == 1 ? "" : i % 2 ? " (imaginary part)" : " (real part)", g, x, fabs(g - x),
                  1e-5 * scale[i]);
        }
        return;
    }
    for (size_t i = 0; memcmp(got, exp, bytes) && i < bytes; i++)
        if (got[i] != exp[i]) {
            char a[160], b[160];
            describe(c, got, i, a, sizeof a);
            describe(c, exp, i, b, sizeof b);
            CHECK(0, "%s: byte %zu of %zu differs from the sequential result (0x%02x, expected 0x%02x): "
                  "got %s, expected %s", where, i, bytes, got[i], exp[i], a, b);
        }
}

/* every rank of comm holds the same bytes */
static void check_same(MPI_Comm comm, const struct cs *c, const unsigned char *got, int cnt)
{
    int r, n;
    size_t bytes = cnt * c->ext;
    MPI_Comm_rank(comm, &r);
    MPI_Comm_size(comm, &n);
    if (!bytes)
        return;
    unsigned char *all = xmalloc(n * bytes);
    CHECK_SUCCESS(MPI_Allgather(got, (int)bytes, MPI_BYTE, all, (int)bytes, MPI_BYTE, comm));
    for (int q = 0; q < n; q++)
        for (size_t i = 0; memcmp(all + q * bytes, got, bytes) && i < bytes; i++)
            if (all[q * bytes + i] != got[i]) {
                char a[160], b[160];
                describe(c, got, i, a, sizeof a);
                describe(c, all + q * bytes, i, b, sizeof b);
                CHECK(0, "%s: the result differs between ranks %d and %d at byte %zu of %zu "
                      "(0x%02x vs 0x%02x): rank %d has %s, rank %d has %s", where, r, q, i, bytes,
                      got[i], all[q * bytes + i], r, a, q, b);
            }
    free(all);
}

static void check_send(const unsigned char *send, const unsigned char *copy, size_t bytes)
{
    for (size_t i = 0; memcmp(send, copy, bytes) && i < bytes; i++)
        CHECK(send[i] == copy[i], "%s: the send buffer changed at byte %zu (0x%02x, was 0x%02x)", where, i,
              send[i], copy[i]);
}

/* Some rank, a different one each time, arrives late. */
static void jitter(MPI_Comm comm, int trial, int seq)
{
    int r, n;
    MPI_Comm_rank(comm, &r);
    MPI_Comm_size(comm, &n);
    if (trial > 0 && (trial + seq) % n == r)
        for (double t0 = MPI_Wtime(); MPI_Wtime() - t0 < 50e-6;)
            ;
}

/* ---- the cases */

static MPI_Op amx_ops[3], mat_op_h;
static MPI_Datatype mat_type;

static void setup(struct cs *c, enum kind k, int size)
{
    memset(c, 0, sizeof *c);
    c->kind = k, c->size = size, c->nval = 1, c->count = size;
    switch (k) {
    case F_SUM: c->type = MPI_FLOAT, c->op = MPI_SUM, c->vsize = sizeof(float); break;
    case F_MAX: c->type = MPI_FLOAT, c->op = MPI_MAX, c->vsize = sizeof(float); break;
    case D_SUM: c->type = MPI_DOUBLE, c->op = MPI_SUM, c->vsize = sizeof(double); break;
    case D_MAX: c->type = MPI_DOUBLE, c->op = MPI_MAX, c->vsize = sizeof(double); break;
    case C_SUM: c->type = MPI_C_FLOAT_COMPLEX, c->op = MPI_SUM, c->vsize = sizeof(float complex); break;
    case I_SUM: c->type = MPI_INT, c->op = MPI_SUM, c->vsize = sizeof(int); break;
    case I_MAX: c->type = MPI_INT, c->op = MPI_MAX, c->vsize = sizeof(int); break;
    case MAT: c->type = mat_type, c->op = mat_op_h, c->vsize = 4 * sizeof(float); break;
    case AMX_F: case AMX_D: case AMX_C: {
        /* as BLACS builds it: N values at 0, N unsigned shorts at idist, used with count 1 */
        int n = size ? size : 1;
        MPI_Datatype vt = k == AMX_F ? MPI_FLOAT : k == AMX_D ? MPI_DOUBLE : MPI_C_FLOAT_COMPLEX;
        c->vsize = k == AMX_F ? sizeof(float) : k == AMX_D ? sizeof(double) : sizeof(float complex);
        c->nval = n, c->count = size ? 1 : 0;
        c->idist = n * c->vsize;
        if (c->idist % sizeof(unsigned short))
            c->idist += sizeof(unsigned short) - c->idist % sizeof(unsigned short);
        int len[2] = {n, n};
        MPI_Aint disp[2] = {0, (MPI_Aint)c->idist}, lb, ext;
        MPI_Datatype ts[2] = {vt, MPI_UNSIGNED_SHORT};
        CHECK_SUCCESS(MPI_Type_create_struct(2, len, disp, ts, &c->type));
        CHECK_SUCCESS(MPI_Type_commit(&c->type));
        CHECK_SUCCESS(MPI_Type_get_extent(c->type, &lb, &ext));
        CHECK(lb == 0 && (size_t)ext >= c->idist + n * sizeof(unsigned short),
              "BLACS struct of %d: lb %ld, extent %ld", n, (long)lb, (long)ext);
        c->op = amx_ops[k - AMX_F];
        c->ext = ext;
        return;
    }
    default:
        CHECK(0, "no kind %d", k);
    }
    c->ext = c->vsize;
}

static void run_case(MPI_Comm comm, const char *cname, const struct cs *c, int trial)
{
    int r, n, seq = 0;
    MPI_Comm_rank(comm, &r);
    MPI_Comm_size(comm, &n);
    int cnt = c->count;
    size_t bytes = cnt * c->ext;
    g_nval = c->nval, g_idist = c->idist, g_ext = c->ext;

    /* n*cnt elements (the first cnt for all but Reduce_scatter_block) */
    unsigned char *send = xmalloc(n * bytes), *copy = xmalloc(n * bytes);
    gen(c, send, r, 0, n * cnt, trial, PAD_SEND);
    memcpy(copy, send, n * bytes);
    unsigned char *base = xmalloc(bytes + 2 * GUARD), *exp = xmalloc(bytes), *exp_rs = xmalloc(bytes);
    int nc = cnt * ncomp(c);
    double *scale = xmalloc(nc * sizeof *scale), *scale_rs = xmalloc(nc * sizeof *scale);
    expected(c, n, 0, cnt, trial, exp, scale);

#define WHERE(coll, root)                                                                         \
    snprintf(where, sizeof where, "%s on %s (rank %d of %d, world rank %d), %s, size %d, trial %d%s", \
             coll, cname, r, n, me, kind_name[c->kind], c->size, trial, root)
    unsigned char *recv = fence(base, bytes);
    WHERE("MPI_Allreduce", "");
    jitter(comm, trial, seq++);
    CHECK_SUCCESS(MPI_Allreduce(send, recv, cnt, c->type, c->op, comm));
    check_guards(recv, bytes);
    check_send(send, copy, n * bytes);
    check_value(c, recv, exp, scale, cnt);
    check_same(comm, c, recv, cnt);

    for (int root = 0; root < n; root++) {
        char rs[32];
        snprintf(rs, sizeof rs, ", root %d", root);
        WHERE("MPI_Reduce", rs);
        recv = fence(base, bytes);
        jitter(comm, trial, seq++);
        CHECK_SUCCESS(MPI_Reduce(send, r == root ? recv : NULL, cnt, c->type, c->op, root, comm));
        check_guards(recv, bytes);
        check_send(send, copy, n * bytes);
        if (r == root)
            check_value(c, recv, exp, scale, cnt);
    }

    WHERE("MPI_Iallreduce", "");
    recv = fence(base, bytes);
    MPI_Request req;
    jitter(comm, trial, seq++);
    CHECK_SUCCESS(MPI_Iallreduce(send, recv, cnt, c->type, c->op, comm, &req));
    /* work while it runs: the expected block of Reduce_scatter_block */
    expected(c, n, r * cnt, cnt, trial, exp_rs, scale_rs);
    CHECK_SUCCESS(MPI_Wait(&req, MPI_STATUS_IGNORE));
    CHECK(req == MPI_REQUEST_NULL, "%s: MPI_Wait left the request", where);
    check_guards(recv, bytes);
    check_send(send, copy, n * bytes);
    check_value(c, recv, exp, scale, cnt);
    check_same(comm, c, recv, cnt);

    WHERE("MPI_Reduce_scatter_block", "");
    recv = fence(base, bytes);
    jitter(comm, trial, seq++);
    CHECK_SUCCESS(MPI_Reduce_scatter_block(send, recv, cnt, c->type, c->op, comm));
    check_guards(recv, bytes);
    check_send(send, copy, n * bytes);
    check_value(c, recv, exp_rs, scale_rs, cnt);
#undef WHERE

    free(send), free(copy), free(base), free(exp), free(exp_rs), free(scale), free(scale_rs);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    CHECK_SUCCESS(MPI_Op_create(amx_f_op, 1, &amx_ops[0]));
    CHECK_SUCCESS(MPI_Op_create(amx_d_op, 1, &amx_ops[1]));
    CHECK_SUCCESS(MPI_Op_create(amx_c_op, 1, &amx_ops[2]));
    CHECK_SUCCESS(MPI_Op_create(mat_op, 0, &mat_op_h));
    CHECK_SUCCESS(MPI_Type_contiguous(4, MPI_FLOAT, &mat_type));
    CHECK_SUCCESS(MPI_Type_commit(&mat_type));
    MPI_Comm half; /* odd and even ranks */
    CHECK_SUCCESS(MPI_Comm_split(MPI_COMM_WORLD, me % 2, me, &half));
    MPI_Comm_set_errhandler(half, MPI_ERRORS_RETURN);
    char hname[64];
    snprintf(hname, sizeof hname, "the %s ranks of MPI_COMM_WORLD", me % 2 ? "odd" : "even");

    for (int trial = 0; trial < TRIALS; trial++)
        for (int w = 0; w < 2; w++)
            for (int s = 0; s < NSIZES; s++)
                for (int k = 0; k < NKINDS; k++) {
                    struct cs c;
                    setup(&c, k, sizes[s]);
                    run_case(w ? half : MPI_COMM_WORLD, w ? hname : "MPI_COMM_WORLD", &c, trial);
                    if (is_amx(k))
                        MPI_Type_free(&c.type);
                }

    MPI_Comm_free(&half);
    for (int i = 0; i < 3; i++)
        MPI_Op_free(&amx_ops[i]);
    MPI_Op_free(&mat_op_h);
    MPI_Type_free(&mat_type);
    MPI_Finalize();
    return 0;
}
