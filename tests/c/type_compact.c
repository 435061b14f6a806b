/* type_compact.c — datatype layouts are proportional to the constructor tree (huge vectors commit
 * in little memory), and packing, sending, unpacking, counting and external32 through random
 * nested types agree with a reference typemap walked from MPI_Type_get_contents. */
#include <mpi.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "check.h"

/* ------------------------------------------------------------ reference typemap */

struct tm {
    MPI_Aint off;
    int size;
    MPI_Datatype type; /* the predefined type of this basic element */
};
static struct tm *tmv;
static int ntm, captm;

static void push(MPI_Aint off, int size, MPI_Datatype type)
{
    if (ntm == captm) {
        captm = captm ? 2 * captm : 256;
        tmv = realloc(tmv, (size_t)captm * sizeof *tmv);
        CHECK(tmv, "out of memory");
    }
    tmv[ntm++] = (struct tm){off, size, type};
}

static MPI_Aint extent_of(MPI_Datatype t)
{
    MPI_Aint lb, ext;
    CHECK_SUCCESS(MPI_Type_get_extent(t, &lb, &ext));
    return ext;
}

/* Appends t's basic elements at base, in typemap order, from its constructor's arguments. */
static void walk(MPI_Datatype t, MPI_Aint base)
{
    int ni, na, nd, comb;
    CHECK_SUCCESS(MPI_Type_get_envelope(t, &ni, &na, &nd, &comb));
    if (comb == MPI_COMBINER_NAMED) {
        int sz;
        MPI_Type_size(t, &sz);
        push(base, sz, t);
        return;
    }
    int ints[64];
    MPI_Aint addrs[64];
    MPI_Datatype types[64];
    CHECK(ni <= 64 && na <= 64 && nd <= 64, "constructor too large for the reference");
    CHECK_SUCCESS(MPI_Type_get_contents(t, ni, na, nd, ints, addrs, types));
    MPI_Aint x = extent_of(types[0]);
    int n = ints[0];
    switch (comb) {
    case MPI_COMBINER_CONTIGUOUS:
        for (int i = 0; i < n; i++)
            walk(types[0], base + i * x);
        break;
    case MPI_COMBINER_VECTOR:
    case MPI_COMBINER_HVECTOR:
        for (int i = 0; i < n; i++)
            for (int j = 0; j < ints[1]; j++)
                walk(types[0], base + (comb == MPI_COMBINER_VECTOR ? (MPI_Aint)ints[2] * x : addrs[0]) * i + j * x);
        break;
    case MPI_COMBINER_INDEXED:
    case MPI_COMBINER_HINDEXED:
        for (int i = 0; i < n; i++)
            for (int j = 0; j < ints[1 + i]; j++)
                walk(types[0], base + (comb == MPI_COMBINER_INDEXED ? ints[1 + n + i] * x : addrs[i]) + j * x);
        break;
    case MPI_COMBINER_INDEXED_BLOCK:
    case MPI_COMBINER_HINDEXED_BLOCK:
        for (int i = 0; i < n; i++)
            for (int j = 0; j < ints[1]; j++)
                walk(types[0], base + (comb == MPI_COMBINER_INDEXED_BLOCK ? ints[2 + i] * x : addrs[i]) + j * x);
        break;
    case MPI_COMBINER_STRUCT:
        for (int i = 0; i < n; i++)
            for (int j = 0; j < ints[1 + i]; j++)
                walk(types[i], base + addrs[i] + j * extent_of(types[i]));
        break;
    case MPI_COMBINER_RESIZED:
    case MPI_COMBINER_DUP:
        walk(types[0], base);
        break;
    default:
        CHECK(0, "combiner %d not in the reference", comb);
    }
    for (int i = 0; i < nd; i++) {
        int ci, ca, cd, cc;
        MPI_Type_get_envelope(types[i], &ci, &ca, &cd, &cc);
        if (cc != MPI_COMBINER_NAMED)
            MPI_Type_free(&types[i]);
    }
}

/* A new type built by calling t's constructor again with what MPI_Type_get_contents returns
 * (its inner types rebuilt the same way): it must be an equal type. */
static MPI_Datatype rebuild(MPI_Datatype t)
{
    int ni, na, nd, comb;
    MPI_Type_get_envelope(t, &ni, &na, &nd, &comb);
    if (comb == MPI_COMBINER_NAMED)
        return t;
    int ints[64];
    MPI_Aint addrs[64];
    MPI_Datatype types[64], inner[64], r = MPI_DATATYPE_NULL;
    CHECK_SUCCESS(MPI_Type_get_contents(t, ni, na, nd, ints, addrs, types));
    for (int i = 0; i < nd; i++)
        inner[i] = rebuild(types[i]);
    int n = ints[0];
    switch (comb) {
    case MPI_COMBINER_CONTIGUOUS: MPI_Type_contiguous(n, inner[0], &r); break;
    case MPI_COMBINER_VECTOR: MPI_Type_vector(n, ints[1], ints[2], inner[0], &r); break;
    case MPI_COMBINER_HVECTOR: MPI_Type_create_hvector(n, ints[1], addrs[0], inner[0], &r); break;
    case MPI_COMBINER_INDEXED: MPI_Type_indexed(n, ints + 1, ints + 1 + n, inner[0], &r); break;
    case MPI_COMBINER_HINDEXED: MPI_Type_create_hindexed(n, ints + 1, addrs, inner[0], &r); break;
    case MPI_COMBINER_INDEXED_BLOCK: MPI_Type_create_indexed_block(n, ints[1], ints + 2, inner[0], &r); break;
    case MPI_COMBINER_HINDEXED_BLOCK: MPI_Type_create_hindexed_block(n, ints[1], addrs, inner[0], &r); break;
    case MPI_COMBINER_STRUCT: MPI_Type_create_struct(n, ints + 1, addrs, inner, &r); break;
    case MPI_COMBINER_RESIZED: MPI_Type_create_resized(inner[0], addrs[0], addrs[1], &r); break;
    case MPI_COMBINER_DUP: MPI_Type_dup(inner[0], &r); break;
    default: CHECK(0, "combiner %d not rebuilt", comb);
    }
    for (int i = 0; i < nd; i++) {
        int c, x;
        MPI_Type_get_envelope(types[i], &x, &x, &x, &c);
        if (c != MPI_COMBINER_NAMED) {
            MPI_Type_free(&types[i]);
            MPI_Type_free(&inner[i]);
        }
    }
    return r;
}

/* ------------------------------------------------------------ random nested types */

static unsigned rng;
static int rnd(int n)
{
    rng = rng * 1103515245u + 12345u;
    return (int)((rng >> 16) % (unsigned)n);
}

static MPI_Datatype basic(void)
{
    static MPI_Datatype b[4];
    b[0] = MPI_INT, b[1] = MPI_DOUBLE, b[2] = MPI_CHAR, b[3] = MPI_SHORT;
    return b[rnd(4)];
}

/* t resized to its own bounds: *marked set (explicit bounds are sticky, MPI 5.0 §5.1.7: a
 * struct whose members mix them takes its bounds from the marked ones only). */
static MPI_Datatype marked_copy(MPI_Datatype t, int *marked)
{
    MPI_Aint lb, ext;
    MPI_Datatype r;
    MPI_Type_get_extent(t, &lb, &ext);
    MPI_Type_create_resized(t, lb, ext, &r);
    *marked = 1;
    return r;
}

/* A random type whose blocks never overlap (strides at least a block, extents never shrunk);
 * *marked: it carries explicit bounds. */
static MPI_Datatype gen(int depth, int *marked)
{
    *marked = 0;
    if (depth == 0 || rnd(5) == 0)
        return basic();
    MPI_Datatype o = gen(depth - 1, marked), t = MPI_DATATYPE_NULL;
    MPI_Aint x = extent_of(o);
    int n = 1 + rnd(4), bl = 1 + rnd(3), bls[4], disps[4];
    MPI_Aint hd[4];
    int pos = rnd(2);
    for (int i = 0; i < n; i++) {
        bls[i] = 1 + rnd(3);
        disps[i] = pos;
        hd[i] = pos * x;
        pos += bls[i] + rnd(3);
    }
    switch (rnd(10)) {
    case 0: MPI_Type_contiguous(n, o, &t); break;
    case 1: MPI_Type_vector(n, bl, bl + rnd(3), o, &t); break;
    case 2: MPI_Type_vector(n, bl, -(bl + rnd(2)), o, &t); break; /* negative stride */
    case 3: MPI_Type_create_hvector(n, bl, (bl + rnd(2)) * x + 8 * rnd(2), o, &t); break;
    case 4: MPI_Type_indexed(n, bls, disps, o, &t); break;
    case 5: MPI_Type_create_hindexed(n, bls, hd, o, &t); break;
    case 6: { /* regular displacements: one strided piece */
        int step = bl + rnd(3);
        for (int i = 0; i < n; i++)
            disps[i] = i * step;
        MPI_Type_create_indexed_block(n, bl, disps, o, &t);
        break;
    }
    case 7: {
        for (int i = 0; i < n; i++)
            hd[i] = disps[i] * x;
        MPI_Type_create_hindexed_block(n, 1, hd, o, &t);
        break;
    }
    case 8: {
        int m1;
        MPI_Datatype ts[2] = {o, gen(depth - 1, &m1)};
        if (*marked != m1) { /* both with explicit bounds, or neither */
            MPI_Datatype u = *marked ? ts[1] : ts[0];
            int c;
            *(*marked ? &ts[1] : &ts[0]) = marked_copy(u, marked);
            MPI_Type_get_envelope(u, &n, &n, &n, &c);
            if (c != MPI_COMBINER_NAMED)
                MPI_Type_free(&u);
            o = ts[0];
            x = extent_of(o);
        }
        MPI_Aint lb0, lb1, e1;
        MPI_Type_get_extent(o, &lb0, &e1);
        MPI_Type_get_extent(ts[1], &lb1, &e1);
        int sbl[2] = {bl, 1 + rnd(2)};
        MPI_Aint sd[2] = {0, lb0 + bl * x - lb1 + 8 * rnd(2)}; /* the second block after the first */
        MPI_Type_create_struct(2, sbl, sd, ts, &t);
        int c;
        MPI_Type_get_envelope(ts[1], &n, &n, &n, &c);
        if (c != MPI_COMBINER_NAMED)
            MPI_Type_free(&ts[1]);
        break;
    }
    default: {
        MPI_Aint lb, ext;
        MPI_Type_get_extent(o, &lb, &ext);
        int down = rnd(2);
        *marked = 1;
        MPI_Type_create_resized(o, lb - 8 * down, ext + 8 * (down + rnd(3)), &t); /* never shrunk */
        break;
    }
    }
    int c;
    MPI_Type_get_envelope(o, &n, &n, &n, &c);
    if (c != MPI_COMBINER_NAMED)
        MPI_Type_free(&o); /* t keeps it alive */
    return t;
}

/* ------------------------------------------------------------ one random type checked */

static void check_type(int iter, MPI_Datatype t, int count, int me, int np)
{
    int size;
    MPI_Aint lb, ext;
    CHECK_SUCCESS(MPI_Type_size(t, &size));
    MPI_Type_get_extent(t, &lb, &ext);
    ntm = 0;
    for (int e = 0; e < count; e++)
        walk(t, e * ext);
    MPI_Aint lo = 0, hi = 0, total = 0;
    for (int i = 0; i < ntm; i++) {
        lo = i == 0 || tmv[i].off < lo ? tmv[i].off : lo;
        hi = i == 0 || tmv[i].off + tmv[i].size > hi ? tmv[i].off + tmv[i].size : hi;
        total += tmv[i].size;
    }
    CHECK(total == (MPI_Aint)size * count, "iter %d: reference has %ld bytes, MPI_Type_size %d x %d", iter,
          (long)total, size, count);
    size_t span = (size_t)(hi - lo) + 1;
    unsigned char *mem = malloc(span), *back = malloc(span), *want = calloc(1, span), *packed = malloc(total + 1),
                  *ref = malloc(total + 1), *ext32 = malloc(total + 1), *ext_ref = malloc(total + 1);
    CHECK(mem && back && want && packed && ref && ext32 && ext_ref, "out of memory");
    for (size_t i = 0; i < span; i++)
        mem[i] = (unsigned char)(i * 7 + iter);
    char *base = (char *)mem - lo, *bback = (char *)back - lo;
    MPI_Aint p = 0;
    for (int i = 0; i < ntm; i++) { /* the reference packed stream, unpacked image, external32 */
        memcpy(ref + p, base + tmv[i].off, (size_t)tmv[i].size);
        memcpy(want + (tmv[i].off - lo), base + tmv[i].off, (size_t)tmv[i].size);
        for (int b = 0; b < tmv[i].size; b++) /* little-endian host: each basic element reversed */
            ext_ref[p + b] = ref[p + tmv[i].size - 1 - b];
        p += tmv[i].size;
    }
    int pos = 0;
    CHECK_SUCCESS(MPI_Pack(base, count, t, packed, (int)total + 1, &pos, MPI_COMM_SELF));
    CHECK(pos == total, "iter %d: MPI_Pack wrote %d bytes, expected %ld", iter, pos, (long)total);
    for (MPI_Aint i = 0; i < total; i++)
        CHECK(packed[i] == ref[i], "iter %d: packed byte %ld = %d, expected %d", iter, (long)i, packed[i], ref[i]);

    /* the type rebuilt from its contents: same bounds, same packed bytes */
    MPI_Datatype again = rebuild(t);
    MPI_Aint lb2, ext2, tlb, text, tlb2, text2;
    int size2;
    CHECK_SUCCESS(MPI_Type_commit(&again));
    MPI_Type_size(again, &size2);
    MPI_Type_get_extent(again, &lb2, &ext2);
    MPI_Type_get_true_extent(t, &tlb, &text);
    MPI_Type_get_true_extent(again, &tlb2, &text2);
    CHECK(size2 == size && lb2 == lb && ext2 == ext && tlb2 == tlb && text2 == text,
          "iter %d: rebuilt type differs: size %d/%d lb %ld/%ld extent %ld/%ld true %ld+%ld/%ld+%ld", iter, size2,
          size, (long)lb2, (long)lb, (long)ext2, (long)ext, (long)tlb2, (long)text2, (long)tlb, (long)text);
    pos = 0;
    CHECK_SUCCESS(MPI_Pack(base, count, again, packed, (int)total + 1, &pos, MPI_COMM_SELF));
    CHECK(pos == total && memcmp(packed, ref, (size_t)total) == 0, "iter %d: rebuilt type packs otherwise", iter);
    MPI_Type_free(&again);
    memset(back, 0, span);
    pos = 0;
    CHECK_SUCCESS(MPI_Unpack(packed, (int)total, &pos, bback, count, t, MPI_COMM_SELF));
    CHECK(memcmp(back, want, span) == 0, "iter %d: MPI_Unpack image differs", iter);
    MPI_Aint xpos = 0;
    CHECK_SUCCESS(MPI_Pack_external("external32", base, count, t, ext32, total + 1, &xpos));
    CHECK(xpos == total && memcmp(ext32, ext_ref, (size_t)total) == 0, "iter %d: external32 differs", iter);
    memset(back, 0, span);
    xpos = 0;
    CHECK_SUCCESS(MPI_Unpack_external("external32", ext32, total, &xpos, bback, count, t));
    CHECK(memcmp(back, want, span) == 0, "iter %d: MPI_Unpack_external image differs", iter);

    /* through the transport: typed send, packed receive; packed prefix send, typed receive */
    int peer = (me + 1) % np, from = (me + np - 1) % np, cut = rnd((int)total + 1);
    MPI_Request rq;
    MPI_Status st;
    memset(&st, 0, sizeof st); /* MPI_Recv leaves MPI_ERROR as it was */
    CHECK_SUCCESS(MPI_Isend(base, count, t, peer, iter, MPI_COMM_WORLD, &rq));
    CHECK_SUCCESS(MPI_Recv(packed, (int)total, MPI_BYTE, from, iter, MPI_COMM_WORLD, &st));
    CHECK_SUCCESS(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    for (MPI_Aint i = 0; i < total; i++)
        CHECK(packed[i] == ref[i], "iter %d: received byte %ld = %d, expected %d", iter, (long)i, packed[i], ref[i]);
    CHECK_SUCCESS(MPI_Isend(ref, cut, MPI_BYTE, peer, iter, MPI_COMM_WORLD, &rq));
    memset(back, 0, span);
    CHECK_SUCCESS(MPI_Recv(bback, count, t, from, iter, MPI_COMM_WORLD, &st));
    CHECK_SUCCESS(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    int elems = 0, got, at = 0, whole = 1;
    for (int i = 0; i < ntm && at < cut; i++) { /* basic elements wholly inside the prefix */
        if (at + tmv[i].size > cut) {
            whole = 0;
            break;
        }
        at += tmv[i].size;
        elems++;
    }
    CHECK_SUCCESS(MPI_Get_elements(&st, t, &got));
    CHECK(got == (whole ? elems : MPI_UNDEFINED), "iter %d: MPI_Get_elements of %d bytes = %d, expected %d", iter,
          cut, got, whole ? elems : MPI_UNDEFINED);
    for (int i = 0, q = 0; i < ntm; q += tmv[i].size, i++) { /* the prefix landed, nothing after it */
        if (q < cut && q + tmv[i].size > cut)
            continue; /* a basic element cut in two: its bytes are undefined */
        for (int b = 0; b < tmv[i].size; b++) {
            unsigned char w = q < cut ? ref[q + b] : 0;
            CHECK(bback[tmv[i].off + b] == (char)w, "iter %d: received element %d byte %d wrong", iter, i, b);
        }
    }
    /* a type-compatible but different layout: every basic element in its own 16-byte slot,
     * in reverse order, as one struct */
    int *ones = malloc((size_t)ntm * sizeof *ones);
    MPI_Aint *slot = malloc((size_t)ntm * sizeof *slot);
    MPI_Datatype *bt = malloc((size_t)ntm * sizeof *bt), rev;
    char *slots = calloc((size_t)ntm, 16);
    CHECK(ones && slot && bt && slots, "out of memory");
    for (int i = 0; i < ntm; i++)
        ones[i] = 1, slot[i] = (MPI_Aint)(ntm - 1 - i) * 16, bt[i] = tmv[i].type;
    CHECK_SUCCESS(MPI_Type_create_struct(ntm, ones, slot, bt, &rev));
    CHECK_SUCCESS(MPI_Type_commit(&rev));
    CHECK_SUCCESS(MPI_Isend(base, count, t, peer, iter, MPI_COMM_WORLD, &rq));
    CHECK_SUCCESS(MPI_Recv(slots, 1, rev, from, iter, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK_SUCCESS(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    for (int i = 0, q = 0; i < ntm; q += tmv[i].size, i++)
        CHECK(memcmp(slots + (ntm - 1 - i) * 16, ref + q, (size_t)tmv[i].size) == 0,
              "iter %d: element %d received into the reversed struct differs", iter, i);
    MPI_Type_free(&rev);
    free(ones), free(slot), free(bt), free(slots);

    MPI_Status s2 = st; /* MPI_ERROR too: the calls read the whole status */
    CHECK_SUCCESS(MPI_Status_set_elements(&s2, t, elems));
    CHECK_SUCCESS(MPI_Get_elements(&s2, t, &got));
    CHECK(got == elems, "iter %d: MPI_Status_set_elements(%d) read back as %d", iter, elems, got);
    free(mem), free(back), free(want), free(packed), free(ref), free(ext32), free(ext_ref);
}

/* Many elements of t (over a MiB of data: the rendezvous path, in pipelined pieces) sent typed
 * and received packed, then sent packed and received typed, against MPI_Pack / MPI_Unpack. */
static void check_large(int iter, MPI_Datatype t, int me, int np)
{
    int size, count, pos = 0;
    MPI_Aint lb, ext, tlb, text;
    MPI_Type_size(t, &size);
    MPI_Type_get_extent(t, &lb, &ext);
    MPI_Type_get_true_extent(t, &tlb, &text);
    count = (1 << 20) / size + 1 + rnd(1000);
    size_t span = (size_t)(text + (MPI_Aint)(count - 1) * ext), total = (size_t)size * (size_t)count;
    char *mem = malloc(span), *back = calloc(1, span), *want = calloc(1, span), *ref = malloc(total),
         *got = malloc(total);
    CHECK(mem && back && want && ref && got, "out of memory");
    for (size_t i = 0; i < span; i++)
        mem[i] = (char)(i * 13 + (size_t)iter);
    char *base = mem - tlb;
    CHECK_SUCCESS(MPI_Pack(base, count, t, ref, (int)total, &pos, MPI_COMM_SELF));
    pos = 0;
    CHECK_SUCCESS(MPI_Unpack(ref, (int)total, &pos, want - tlb, count, t, MPI_COMM_SELF));
    int peer = (me + 1) % np, from = (me + np - 1) % np;
    MPI_Request rq;
    CHECK_SUCCESS(MPI_Isend(base, count, t, peer, iter, MPI_COMM_WORLD, &rq));
    CHECK_SUCCESS(MPI_Recv(got, (int)total, MPI_BYTE, from, iter, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK_SUCCESS(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    for (size_t i = 0; i < total; i++)
        CHECK(got[i] == ref[i], "large %d: %d elements, received byte %zu of %zu wrong", iter, count, i, total);
    CHECK_SUCCESS(MPI_Isend(ref, (int)total, MPI_BYTE, peer, iter, MPI_COMM_WORLD, &rq));
    CHECK_SUCCESS(MPI_Recv(back - tlb, count, t, from, iter, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK_SUCCESS(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    CHECK(memcmp(back, want, span) == 0, "large %d: typed receive of %d elements differs", iter, count);
    free(mem), free(back), free(want), free(ref), free(got);
}

static long max_rss_kb(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

int main(int argc, char **argv)
{
    int me, np;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);

    /* a vector of 10^8 single ints: its description must not grow with the count */
    long rss0 = max_rss_kb();
    MPI_Datatype big, huge, nest;
    CHECK_SUCCESS(MPI_Type_vector(100000000, 1, 2, MPI_INT, &big));
    CHECK_SUCCESS(MPI_Type_commit(&big));
    CHECK_SUCCESS(MPI_Type_contiguous(1000, big, &nest)); /* 10^11 ints, still a few items */
    CHECK_SUCCESS(MPI_Type_commit(&nest));
    long grown = max_rss_kb() - rss0;
    CHECK(grown < 65536, "10^8-block vector grew the resident set by %ld KiB", grown);
    MPI_Count sz, lb, ext;
    CHECK_SUCCESS(MPI_Type_size_x(big, &sz));
    CHECK_EQ_INT(sz, 400000000);
    CHECK_SUCCESS(MPI_Type_get_extent_x(big, &lb, &ext));
    CHECK_EQ_INT(ext, (100000000LL - 1) * 8 + 4);
    CHECK_SUCCESS(MPI_Type_size_x(nest, &sz));
    CHECK_EQ_INT(sz, 400000000000LL);
    /* pack the head of the big vector: every other int */
    int src[64], dst[16], pos = 0;
    for (int i = 0; i < 64; i++)
        src[i] = i * 3 + 1;
    MPI_Datatype head;
    CHECK_SUCCESS(MPI_Type_vector(16, 1, 2, MPI_INT, &head));
    CHECK_SUCCESS(MPI_Type_commit(&head));
    CHECK_SUCCESS(MPI_Pack(src, 1, head, dst, sizeof dst, &pos, MPI_COMM_SELF));
    for (int i = 0; i < 16; i++)
        CHECK_EQ_INT(dst[i], src[2 * i]);

    /* the legal MPI_Type_vector(INT_MAX, INT_MAX, INT_MAX, MPI_BYTE): INT_MAX^2 bytes of data */
    CHECK_SUCCESS(MPI_Type_vector(INT_MAX, INT_MAX, INT_MAX, MPI_BYTE, &huge));
    CHECK_SUCCESS(MPI_Type_commit(&huge));
    CHECK_SUCCESS(MPI_Type_size_x(huge, &sz));
    CHECK_EQ_INT(sz, (long long)INT_MAX * INT_MAX);
    int isz = 0;
    CHECK_SUCCESS(MPI_Type_size(huge, &isz));
    CHECK_EQ_INT(isz, MPI_UNDEFINED);
    MPI_Type_free(&huge);
    MPI_Type_free(&nest);
    MPI_Type_free(&big);
    MPI_Type_free(&head);

    /* random nested types against the reference */
    for (int iter = 0; iter < 400; iter++) {
        rng = 12345u + (unsigned)iter * 7919u;
        int marked;
        MPI_Datatype t = gen(1 + iter % 4, &marked);
        int c, n;
        MPI_Type_get_envelope(t, &n, &n, &n, &c);
        if (c == MPI_COMBINER_NAMED) {
            MPI_Type_contiguous(1, t, &t);
        }
        CHECK_SUCCESS(MPI_Type_commit(&t));
        check_type(iter, t, 1 + rnd(3), me, np);
        MPI_Type_free(&t);
    }
    for (int iter = 0; iter < 24; iter++) { /* large messages of random types */
        rng = 777u + (unsigned)iter * 104729u;
        int marked;
        MPI_Datatype t = gen(2 + iter % 3, &marked);
        MPI_Datatype c;
        CHECK_SUCCESS(MPI_Type_contiguous(1, t, &c)); /* never a predefined one */
        int n, comb;
        MPI_Type_get_envelope(t, &n, &n, &n, &comb);
        if (comb != MPI_COMBINER_NAMED)
            MPI_Type_free(&t);
        CHECK_SUCCESS(MPI_Type_commit(&c));
        check_large(iter, c, me, np);
        MPI_Type_free(&c);
    }
    free(tmv);
    MPI_Finalize();
    return 0;
}
