/* type_ctor.c — derived datatypes: every constructor sent around a ring and received with a
 * different, type-compatible layout; bounds with resized types; envelope/contents; errors. */
#include <mpi.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static int me, np;

/* Sends count x stype from sbuf to the next rank and receives rcount x rtype from the
 * previous one into rbuf (every rank sends the same data). */
static void ring(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount, MPI_Datatype rtype,
                 MPI_Status *st)
{
    CHECK_SUCCESS(MPI_Sendrecv(sbuf, scount, stype, (me + 1) % np, 3, rbuf, rcount, rtype, (me + np - 1) % np, 3,
                               MPI_COMM_WORLD, st));
}

static void check_ints(const int *got, const int *want, int n, const char *what)
{
    for (int i = 0; i < n; i++)
        CHECK(got[i] == want[i], "%s: element %d = %d, expected %d", what, i, got[i], want[i]);
}

static void check_bounds(MPI_Datatype t, MPI_Aint lb, MPI_Aint ext, MPI_Aint tlb, MPI_Aint text, int size)
{
    MPI_Aint a, b;
    int s;
    CHECK_SUCCESS(MPI_Type_get_extent(t, &a, &b));
    CHECK(a == lb && b == ext, "lb/extent = %ld/%ld, expected %ld/%ld", (long)a, (long)b, (long)lb, (long)ext);
    CHECK_SUCCESS(MPI_Type_get_true_extent(t, &a, &b));
    CHECK(a == tlb && b == text, "true lb/extent = %ld/%ld, expected %ld/%ld", (long)a, (long)b, (long)tlb,
          (long)text);
    CHECK_SUCCESS(MPI_Type_size(t, &s));
    CHECK_EQ_INT(s, size);
}

/* Rebuilds t from its envelope and contents and checks the result has the same layout. */
static void roundtrip(MPI_Datatype t, int want_combiner)
{
    int ni, na, nt, comb, ints[64];
    MPI_Aint addrs[64];
    MPI_Datatype types[64], r = MPI_DATATYPE_NULL;
    CHECK_SUCCESS(MPI_Type_get_envelope(t, &ni, &na, &nt, &comb));
    CHECK_EQ_INT(comb, want_combiner);
    CHECK(ni <= 64 && na <= 64 && nt <= 64, "envelope too large");
    CHECK_SUCCESS(MPI_Type_get_contents(t, ni, na, nt, ints, addrs, types));
    switch (comb) {
    case MPI_COMBINER_CONTIGUOUS: CHECK_SUCCESS(MPI_Type_contiguous(ints[0], types[0], &r)); break;
    case MPI_COMBINER_VECTOR: CHECK_SUCCESS(MPI_Type_vector(ints[0], ints[1], ints[2], types[0], &r)); break;
    case MPI_COMBINER_HVECTOR: CHECK_SUCCESS(MPI_Type_create_hvector(ints[0], ints[1], addrs[0], types[0], &r)); break;
    case MPI_COMBINER_INDEXED:
        CHECK_SUCCESS(MPI_Type_indexed(ints[0], ints + 1, ints + 1 + ints[0], types[0], &r));
        break;
    case MPI_COMBINER_HINDEXED: CHECK_SUCCESS(MPI_Type_create_hindexed(ints[0], ints + 1, addrs, types[0], &r)); break;
    case MPI_COMBINER_INDEXED_BLOCK:
        CHECK_SUCCESS(MPI_Type_create_indexed_block(ints[0], ints[1], ints + 2, types[0], &r));
        break;
    case MPI_COMBINER_HINDEXED_BLOCK:
        CHECK_SUCCESS(MPI_Type_create_hindexed_block(ints[0], ints[1], addrs, types[0], &r));
        break;
    case MPI_COMBINER_STRUCT: CHECK_SUCCESS(MPI_Type_create_struct(ints[0], ints + 1, addrs, types, &r)); break;
    case MPI_COMBINER_RESIZED: CHECK_SUCCESS(MPI_Type_create_resized(types[0], addrs[0], addrs[1], &r)); break;
    case MPI_COMBINER_DUP: CHECK_SUCCESS(MPI_Type_dup(types[0], &r)); break;
    default: CHECK(0, "unexpected combiner %d", comb);
    }
    MPI_Aint l1, e1, l2, e2;
    int s1, s2;
    MPI_Type_get_extent(t, &l1, &e1);
    MPI_Type_get_extent(r, &l2, &e2);
    MPI_Type_size(t, &s1);
    MPI_Type_size(r, &s2);
    CHECK(l1 == l2 && e1 == e2 && s1 == s2, "rebuilt type differs (combiner %d)", comb);
    /* same bytes when packed from the same buffer */
    char src[512], p1[512], p2[512];
    int q1 = 0, q2 = 0;
    for (int i = 0; i < 512; i++)
        src[i] = (char)i;
    MPI_Type_commit(&r);
    CHECK(e1 - l1 <= 256 && l1 >= 0 && s1 <= 512, "test type too large");
    CHECK_SUCCESS(MPI_Pack(src, 1, t, p1, 512, &q1, MPI_COMM_WORLD));
    CHECK_SUCCESS(MPI_Pack(src, 1, r, p2, 512, &q2, MPI_COMM_WORLD));
    CHECK(q1 == q2 && memcmp(p1, p2, (size_t)q1) == 0, "rebuilt type packs differently (combiner %d)", comb);
    MPI_Type_free(&r);
    for (int i = 0; i < nt; i++) {
        int a, b, c, d;
        MPI_Type_get_envelope(types[i], &a, &b, &c, &d);
        if (d != MPI_COMBINER_NAMED)
            CHECK_SUCCESS(MPI_Type_free(&types[i]));
    }
}

int main(int argc, char **argv)
{
    MPI_Status st;
    MPI_Datatype t, u;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);

    int src[32], got[32], n;
    double d[16], dgot[16];
    for (int i = 0; i < 32; i++)
        src[i] = 100 + i;
    for (int i = 0; i < 16; i++)
        d[i] = i + 0.5;

    /* vector of doubles received as contiguous doubles */
    CHECK_SUCCESS(MPI_Type_vector(4, 2, 3, MPI_DOUBLE, &t));
    CHECK_SUCCESS(MPI_Type_commit(&t));
    check_bounds(t, 0, 88, 0, 88, 64);
    memset(dgot, 0, sizeof dgot);
    ring(d, 1, t, dgot, 8, MPI_DOUBLE, &st);
    for (int i = 0; i < 8; i++)
        CHECK(dgot[i] == d[(i / 2) * 3 + i % 2], "vector: element %d = %g", i, dgot[i]);
    MPI_Get_count(&st, MPI_DOUBLE, &n);
    CHECK_EQ_INT(n, 8);
    /* and the other way round: contiguous sent, vector received */
    for (int i = 0; i < 16; i++)
        dgot[i] = -1;
    ring(d, 8, MPI_DOUBLE, dgot, 1, t, &st);
    for (int i = 0; i < 12; i++)
        CHECK(dgot[i] == (i % 3 == 2 ? -1 : d[(i / 3) * 2 + i % 3]), "vector recv: element %d = %g", i, dgot[i]);
    MPI_Get_elements(&st, t, &n);
    CHECK_EQ_INT(n, 8);
    roundtrip(t, MPI_COMBINER_VECTOR);
    /* dup keeps the layout and the committed state */
    CHECK_SUCCESS(MPI_Type_dup(t, &u));
    check_bounds(u, 0, 88, 0, 88, 64);
    ring(d, 1, u, dgot, 8, MPI_DOUBLE, &st);
    for (int i = 0; i < 8; i++)
        CHECK(dgot[i] == d[(i / 2) * 3 + i % 2], "dup: element %d = %g", i, dgot[i]);
    roundtrip(u, MPI_COMBINER_DUP);
    MPI_Type_free(&u);
    CHECK_SUCCESS(MPI_Type_free(&t));
    CHECK(t == MPI_DATATYPE_NULL, "MPI_Type_free did not set the handle to MPI_DATATYPE_NULL");

    /* a large strided message (beyond the eager size), received contiguous and as a vector */
    {
        enum { N = 100000 };
        double *big = malloc(2 * N * sizeof *big), *bgot = malloc(2 * N * sizeof *bgot);
        CHECK(big && bgot, "out of memory");
        for (int i = 0; i < 2 * N; i++)
            big[i] = i;
        CHECK_SUCCESS(MPI_Type_vector(N, 1, 2, MPI_DOUBLE, &t));
        MPI_Type_commit(&t);
        ring(big, 1, t, bgot, N, MPI_DOUBLE, &st);
        for (int i = 0; i < N; i++)
            CHECK(bgot[i] == 2.0 * i, "large vector: element %d = %g", i, bgot[i]);
        memset(bgot, 0, 2 * N * sizeof *bgot);
        ring(big, N, MPI_DOUBLE, bgot, 1, t, &st);
        for (int i = 0; i < 2 * N; i++)
            CHECK(bgot[i] == (i % 2 ? 0.0 : i / 2), "large vector recv: element %d = %g", i, bgot[i]);
        MPI_Type_free(&t);
        free(big);
        free(bgot);
    }

    /* contiguous: one block */
    CHECK_SUCCESS(MPI_Type_contiguous(5, MPI_INT, &t));
    MPI_Type_commit(&t);
    check_bounds(t, 0, 20, 0, 20, 20);
    ring(src, 2, t, got, 10, MPI_INT, &st);
    check_ints(got, src, 10, "contiguous");
    roundtrip(t, MPI_COMBINER_CONTIGUOUS);
    MPI_Type_free(&t);

    /* hvector: every fourth int */
    CHECK_SUCCESS(MPI_Type_create_hvector(3, 1, 16, MPI_INT, &t));
    MPI_Type_commit(&t);
    check_bounds(t, 0, 36, 0, 36, 12);
    ring(src, 1, t, got, 3, MPI_INT, &st);
    check_ints(got, (int[]){100, 104, 108}, 3, "hvector");
    roundtrip(t, MPI_COMBINER_HVECTOR);
    MPI_Type_free(&t);

    /* indexed: blocks out of order */
    CHECK_SUCCESS(MPI_Type_indexed(3, (int[]){2, 1, 3}, (int[]){5, 0, 8}, MPI_INT, &t));
    MPI_Type_commit(&t);
    check_bounds(t, 0, 44, 0, 44, 24);
    ring(src, 1, t, got, 6, MPI_INT, &st);
    check_ints(got, (int[]){105, 106, 100, 108, 109, 110}, 6, "indexed");
    roundtrip(t, MPI_COMBINER_INDEXED);
    /* two elements: the second starts one extent later */
    ring(src, 2, t, got, 12, MPI_INT, &st);
    check_ints(got + 6, (int[]){116, 117, 111, 119, 120, 121}, 6, "indexed x2");
    MPI_Type_free(&t);

    /* hindexed */
    CHECK_SUCCESS(MPI_Type_create_hindexed(2, (int[]){1, 2}, (MPI_Aint[]){12, 0}, MPI_INT, &t));
    MPI_Type_commit(&t);
    ring(src, 1, t, got, 3, MPI_INT, &st);
    check_ints(got, (int[]){103, 100, 101}, 3, "hindexed");
    roundtrip(t, MPI_COMBINER_HINDEXED);
    MPI_Type_free(&t);

    /* indexed_block of shorts received as shorts */
    short s[16], sgot[8];
    for (int i = 0; i < 16; i++)
        s[i] = (short)(i * 3);
    CHECK_SUCCESS(MPI_Type_create_indexed_block(3, 2, (int[]){4, 0, 8}, MPI_SHORT, &t));
    MPI_Type_commit(&t);
    check_bounds(t, 0, 20, 0, 20, 12);
    ring(s, 1, t, sgot, 6, MPI_SHORT, &st);
    static const int sidx[6] = {4, 5, 0, 1, 8, 9};
    for (int i = 0; i < 6; i++)
        CHECK(sgot[i] == s[sidx[i]], "indexed_block: element %d = %d", i, sgot[i]);
    roundtrip(t, MPI_COMBINER_INDEXED_BLOCK);
    MPI_Type_free(&t);

    /* hindexed_block */
    CHECK_SUCCESS(MPI_Type_create_hindexed_block(2, 1, (MPI_Aint[]){8, 0}, MPI_DOUBLE, &t));
    MPI_Type_commit(&t);
    ring(d, 1, t, dgot, 2, MPI_DOUBLE, &st);
    CHECK(dgot[0] == d[1] && dgot[1] == d[0], "hindexed_block: %g %g", dgot[0], dgot[1]);
    roundtrip(t, MPI_COMBINER_HINDEXED_BLOCK);
    MPI_Type_free(&t);

    /* struct: C layout (padded extent) sent, received into a packed layout */
    struct rec { int i; double x; char c; } rs[2] = {{1, 2.5, 'a'}, {3, 4.5, 'b'}};
    struct { char b[13]; } packed[2];
    MPI_Datatype pt;
    CHECK_SUCCESS(MPI_Type_create_struct(3, (int[]){1, 1, 1},
                                         (MPI_Aint[]){offsetof(struct rec, i), offsetof(struct rec, x),
                                                      offsetof(struct rec, c)},
                                         (MPI_Datatype[]){MPI_INT, MPI_DOUBLE, MPI_CHAR}, &t));
    MPI_Type_commit(&t);
    check_bounds(t, 0, sizeof(struct rec), 0, offsetof(struct rec, c) + 1, 13);
    CHECK_SUCCESS(MPI_Type_create_struct(3, (int[]){1, 1, 1}, (MPI_Aint[]){0, 4, 12},
                                         (MPI_Datatype[]){MPI_INT, MPI_DOUBLE, MPI_CHAR}, &u));
    CHECK_SUCCESS(MPI_Type_create_resized(u, 0, 13, &pt));
    MPI_Type_free(&u); /* pt keeps it alive */
    MPI_Type_commit(&pt);
    check_bounds(pt, 0, 13, 0, 13, 13);
    ring(rs, 2, t, packed, 2, pt, &st);
    for (int k = 0; k < 2; k++) {
        int iv;
        double xv;
        memcpy(&iv, packed[k].b, 4);
        memcpy(&xv, packed[k].b + 4, 8);
        CHECK(iv == rs[k].i && xv == rs[k].x && packed[k].b[12] == rs[k].c, "struct: record %d differs", k);
    }
    MPI_Get_elements(&st, pt, &n);
    CHECK_EQ_INT(n, 6);
    roundtrip(t, MPI_COMBINER_STRUCT);
    roundtrip(pt, MPI_COMBINER_RESIZED);
    /* partial element: one int and one double of a {int, double, char} */
    ring(rs, 1, MPI_INT, packed, 1, pt, &st);
    MPI_Get_elements(&st, pt, &n);
    CHECK_EQ_INT(n, 1);
    MPI_Get_count(&st, pt, &n);
    CHECK_EQ_INT(n, MPI_UNDEFINED);
    /* MPI_Status_set_elements on a mixed type: 2 basic elements = an int and a double */
    CHECK_SUCCESS(MPI_Status_set_elements(&st, pt, 2));
    MPI_Get_elements(&st, pt, &n);
    CHECK_EQ_INT(n, 2);
    CHECK_SUCCESS(MPI_Status_set_elements(&st, pt, 7));
    MPI_Get_count(&st, pt, &n);
    CHECK_EQ_INT(n, MPI_UNDEFINED);
    MPI_Get_elements(&st, pt, &n);
    CHECK_EQ_INT(n, 7);
    MPI_Type_free(&pt);
    MPI_Type_free(&t);

    /* Fortran parameterized types and MPI_Type_match_size */
    {
        MPI_Datatype f1, f2;
        int ni, na, nt, comb, ints[2], sz;
        CHECK_SUCCESS(MPI_Type_create_f90_integer(9, &f1));
        CHECK_SUCCESS(MPI_Type_create_f90_integer(9, &f2));
        CHECK(f1 == f2, "the same F90 integer type twice");
        MPI_Type_size(f1, &sz);
        CHECK_EQ_INT(sz, 4);
        CHECK_SUCCESS(MPI_Type_get_envelope(f1, &ni, &na, &nt, &comb));
        CHECK(comb == MPI_COMBINER_F90_INTEGER && ni == 1 && na == 0 && nt == 0, "F90 integer envelope");
        CHECK_SUCCESS(MPI_Type_get_contents(f1, 2, 0, 0, ints, NULL, NULL));
        CHECK_EQ_INT(ints[0], 9);
        CHECK_ERR(MPI_Type_free(&f1), MPI_ERR_TYPE, NULL);
        CHECK_SUCCESS(MPI_Type_create_f90_real(10, MPI_UNDEFINED, &f1));
        MPI_Type_size(f1, &sz);
        CHECK_EQ_INT(sz, 8);
        CHECK_SUCCESS(MPI_Type_create_f90_complex(MPI_UNDEFINED, 30, &f1));
        MPI_Type_size(f1, &sz);
        CHECK_EQ_INT(sz, 8);
        CHECK_SUCCESS(MPI_Type_get_envelope(f1, &ni, &na, &nt, &comb));
        CHECK(comb == MPI_COMBINER_F90_COMPLEX && ni == 2, "F90 complex envelope");
        CHECK_ERR(MPI_Type_create_f90_integer(40, &f1), MPI_ERR_ARG, NULL);
        CHECK_SUCCESS(MPI_Type_match_size(MPI_TYPECLASS_INTEGER, 8, &f1));
        CHECK(f1 == MPI_INTEGER8, "match_size integer 8");
        CHECK_SUCCESS(MPI_Type_match_size(MPI_TYPECLASS_REAL, 4, &f1));
        CHECK(f1 == MPI_REAL, "match_size real 4");
        CHECK_SUCCESS(MPI_Type_match_size(MPI_TYPECLASS_COMPLEX, 16, &f1));
        CHECK(f1 == MPI_DOUBLE_COMPLEX, "match_size complex 16");
        CHECK_ERR(MPI_Type_match_size(MPI_TYPECLASS_REAL, 3, &f1), MPI_ERR_ARG, NULL);
    }

    /* resized: a strided view through a contiguous of resized ints */
    CHECK_SUCCESS(MPI_Type_create_resized(MPI_INT, 0, 12, &u));
    check_bounds(u, 0, 12, 0, 4, 4);
    CHECK_SUCCESS(MPI_Type_contiguous(4, u, &t));
    MPI_Type_commit(&t);
    check_bounds(t, 0, 48, 0, 40, 16);
    ring(src, 1, t, got, 4, MPI_INT, &st);
    check_ints(got, (int[]){100, 103, 106, 109}, 4, "resized");
    MPI_Type_free(&t);
    MPI_Type_free(&u);
    CHECK_SUCCESS(MPI_Type_create_resized(MPI_INT, -4, 16, &u));
    check_bounds(u, -4, 16, 0, 4, 4);
    /* a struct over the resized type keeps its explicit bounds (no padding) */
    CHECK_SUCCESS(MPI_Type_create_struct(2, (int[]){1, 1}, (MPI_Aint[]){0, 100},
                                         (MPI_Datatype[]){u, MPI_CHAR}, &t));
    check_bounds(t, -4, 16, 0, 101, 5);
    MPI_Type_free(&t);
    MPI_Type_free(&u);

#ifdef MPI_LB
    {   /* removed MPI-1 interfaces */
        MPI_Aint e, a1, a2;
        CHECK_SUCCESS(MPI_Type_struct(3, (int[]){1, 1, 1}, (MPI_Aint[]){-8, 0, 24},
                                      (MPI_Datatype[]){MPI_LB, MPI_INT, MPI_UB}, &t));
        CHECK_SUCCESS(MPI_Type_extent(t, &e));
        CHECK_EQ_INT(e, 32);
        CHECK_SUCCESS(MPI_Type_lb(t, &e));
        CHECK_EQ_INT(e, -8);
        CHECK_SUCCESS(MPI_Type_ub(t, &e));
        CHECK_EQ_INT(e, 24);
        MPI_Type_free(&t);
        CHECK_SUCCESS(MPI_Type_hvector(2, 1, 8, MPI_INT, &t));
        MPI_Type_commit(&t);
        ring(src, 1, t, got, 2, MPI_INT, &st);
        check_ints(got, (int[]){100, 102}, 2, "MPI_Type_hvector");
        MPI_Type_free(&t);
        CHECK_SUCCESS(MPI_Type_hindexed(2, (int[]){1, 1}, (MPI_Aint[]){4, 0}, MPI_INT, &t));
        MPI_Type_commit(&t);
        ring(src, 1, t, got, 2, MPI_INT, &st);
        check_ints(got, (int[]){101, 100}, 2, "MPI_Type_hindexed");
        MPI_Type_free(&t);
        CHECK_SUCCESS(MPI_Address(&src[0], &a1));
        CHECK_SUCCESS(MPI_Address(&src[3], &a2));
        CHECK_EQ_INT(a2 - a1, 12);
    }
#endif
    {
        MPI_Aint a1, a2;
        CHECK_SUCCESS(MPI_Get_address(&d[0], &a1));
        CHECK_SUCCESS(MPI_Get_address(&d[2], &a2));
        CHECK_EQ_INT(a2 - a1, 16);
        /* absolute addresses with MPI_BOTTOM */
        CHECK_SUCCESS(MPI_Type_create_hindexed(2, (int[]){1, 1}, (MPI_Aint[]){a2, a1}, MPI_DOUBLE, &t));
        MPI_Type_commit(&t);
        ring(MPI_BOTTOM, 1, t, dgot, 2, MPI_DOUBLE, &st);
        CHECK(dgot[0] == d[2] && dgot[1] == d[0], "MPI_BOTTOM: %g %g", dgot[0], dgot[1]);
        MPI_Type_free(&t);
    }

    /* names */
    {
        char name[MPI_MAX_OBJECT_NAME];
        int len;
        CHECK_SUCCESS(MPI_Type_get_name(MPI_INT, name, &len));
        CHECK(strcmp(name, "MPI_INT") == 0 && len == 7, "predefined name '%s'", name);
        MPI_Type_contiguous(2, MPI_INT, &t);
        CHECK_SUCCESS(MPI_Type_get_name(t, name, &len));
        CHECK(len == 0 && name[0] == 0, "unnamed type has name '%s'", name);
        CHECK_SUCCESS(MPI_Type_set_name(t, "pair of ints"));
        CHECK_SUCCESS(MPI_Type_get_name(t, name, &len));
        CHECK(strcmp(name, "pair of ints") == 0 && len == 12, "name '%s'", name);
        int ni, na, nt, comb;
        CHECK_SUCCESS(MPI_Type_get_envelope(MPI_DOUBLE, &ni, &na, &nt, &comb));
        CHECK(comb == MPI_COMBINER_NAMED && ni == 0 && na == 0 && nt == 0, "MPI_DOUBLE envelope");
        MPI_Type_free(&t);
    }

    /* errors */
    {
        int ia[4];
        CHECK_SUCCESS(MPI_Type_vector(2, 1, 2, MPI_INT, &t));
        CHECK_ERR(MPI_Send(src, 1, t, me, 0, MPI_COMM_WORLD), MPI_ERR_TYPE, "committed");
        CHECK_ERR(MPI_Pack(src, 1, t, ia, 16, &n, MPI_COMM_WORLD), MPI_ERR_TYPE, NULL);
        MPI_Type_free(&t);
        CHECK_ERR(MPI_Type_contiguous(-1, MPI_INT, &t), MPI_ERR_COUNT, NULL);
        /* a negative count is MPI_ERR_COUNT, a negative scalar blocklength MPI_ERR_ARG, as a
         * negative element of array_of_blocklengths (MPICH's and Open MPI's classes) */
        CHECK_ERR(MPI_Type_vector(-1, 1, 2, MPI_INT, &t), MPI_ERR_COUNT, "MPI_Type_vector", "count", "-1");
        CHECK_ERR(MPI_Type_vector(2, -1, 2, MPI_INT, &t), MPI_ERR_ARG, "MPI_Type_vector", "blocklength", "-1");
        CHECK_ERR(MPI_Type_create_hvector(2, -2, 8, MPI_INT, &t), MPI_ERR_ARG, "MPI_Type_create_hvector", "blocklength", "-2");
        CHECK_ERR(MPI_Type_create_indexed_block(2, -1, (int[]){0, 2}, MPI_INT, &t), MPI_ERR_ARG,
                  "MPI_Type_create_indexed_block", "blocklength");
        CHECK_ERR(MPI_Type_create_hindexed_block(2, -1, (MPI_Aint[]){0, 8}, MPI_INT, &t), MPI_ERR_ARG,
                  "MPI_Type_create_hindexed_block", "blocklength");
        CHECK_ERR(MPI_Type_indexed(2, (int[]){1, -1}, (int[]){0, 2}, MPI_INT, &t), MPI_ERR_ARG, NULL);
        CHECK_ERR(MPI_Type_contiguous(2, MPI_DATATYPE_NULL, &t), MPI_ERR_TYPE, NULL);
        CHECK_ERR(MPI_Type_size(MPI_DATATYPE_NULL, &n), MPI_ERR_TYPE, NULL);
        MPI_Datatype pre = MPI_INT;
        CHECK_ERR(MPI_Type_free(&pre), MPI_ERR_TYPE, NULL);
#ifndef MPI_ABI_VERSION /* standard ABI: a user handle is the object's address (freed memory) */
        MPI_Type_contiguous(2, MPI_INT, &t);
        MPI_Datatype stale = t;
        MPI_Type_free(&t);
        CHECK_ERR(MPI_Type_size(stale, &n), MPI_ERR_TYPE, NULL);
#endif
        CHECK_ERR(MPI_Type_get_contents(MPI_INT, 0, 0, 0, ia, NULL, NULL), MPI_ERR_TYPE, NULL);
        MPI_Type_contiguous(2, MPI_INT, &t);
        CHECK_ERR(MPI_Type_get_contents(t, 0, 0, 1, ia, NULL, &u), MPI_ERR_ARG, NULL);
        MPI_Type_free(&t);
    }

    MPI_Finalize();
    return 0;
}
