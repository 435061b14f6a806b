/* type_bounds.c — MPI-1's bound rules: lb is the lowest lb marker (else the lowest data
 * displacement), ub the highest ub marker (else the highest data end), 0 when neither; markers
 * of old types stay (shifted), resized types carry both; negative displacements and extents. */
#include "check.h"

static int failures;

/* Checks lb, extent, true lb, true extent and size of t (freed). */
static void expect(const char *what, MPI_Datatype t, long lb, long ext, long tlb, long text, int size)
{
    MPI_Aint a, b, c, d;
    int s;
    CHECK_SUCCESS(MPI_Type_get_extent(t, &a, &b));
    CHECK_SUCCESS(MPI_Type_get_true_extent(t, &c, &d));
    CHECK_SUCCESS(MPI_Type_size(t, &s));
    if (a != lb || b != ext || c != tlb || d != text || s != size) {
        fprintf(stderr, "%s: lb %ld extent %ld true lb %ld true extent %ld size %d, expected %ld %ld %ld %ld %d\n", what,
                (long)a, (long)b, (long)c, (long)d, s, lb, ext, tlb, text, size);
        failures++;
    }
    MPI_Type_free(&t);
}

static MPI_Datatype st(int n, const int *bl, const MPI_Aint *d, const MPI_Datatype *ty)
{
    MPI_Datatype t;
    CHECK_SUCCESS(MPI_Type_create_struct(n, bl, d, ty, &t));
    return t;
}
#define S1(a, b, c) st(1, (int[]){a}, (MPI_Aint[]){b}, (MPI_Datatype[]){c})
#define S2(a, b, c, d, e, f) st(2, (int[]){a, d}, (MPI_Aint[]){b, e}, (MPI_Datatype[]){c, f})

static MPI_Datatype resized(MPI_Datatype old, MPI_Aint lb, MPI_Aint ext)
{
    MPI_Datatype t;
    CHECK_SUCCESS(MPI_Type_create_resized(old, lb, ext, &t));
    return t;
}

static MPI_Datatype contig(int n, MPI_Datatype old)
{
    MPI_Datatype t;
    CHECK_SUCCESS(MPI_Type_contiguous(n, old, &t));
    return t;
}

int main(int argc, char **argv)
{
    MPI_Datatype t, u;
    MPI_Init(&argc, &argv);

#ifdef MPI_LB /* the MPI-1 markers (not in the standard ABI) */
    expect("{(LB,10)}", S1(1, 10, MPI_LB), 10, -10, 0, 0, 0);
    {
        MPI_Datatype old;
        CHECK_SUCCESS(MPI_Type_struct(1, (int[]){1}, (MPI_Aint[]){10}, (MPI_Datatype[]){MPI_LB}, &old));
        expect("MPI_Type_struct {(LB,10)}", old, 10, -10, 0, 0, 0);
    }
    expect("{(LB,-10)}", S1(1, -10, MPI_LB), -10, 10, 0, 0, 0);
    expect("{(UB,10)}", S1(1, 10, MPI_UB), 0, 10, 0, 0, 0);
    expect("{(UB,-10)}", S1(1, -10, MPI_UB), 0, -10, 0, 0, 0);
    expect("{(LB,10),(UB,4)}", S2(1, 10, MPI_LB, 1, 4, MPI_UB), 10, -6, 0, 0, 0);
    expect("{(LB,10),(LB,3)}", S2(1, 10, MPI_LB, 1, 3, MPI_LB), 3, -3, 0, 0, 0);
    expect("{(UB,10),(UB,3)}", S2(1, 10, MPI_UB, 1, 3, MPI_UB), 0, 10, 0, 0, 0);
    expect("{(LB,20),(INT,0)}", S2(1, 20, MPI_LB, 1, 0, MPI_INT), 20, -16, 0, 4, 4);
    expect("{(UB,-4),(INT,0)}", S2(1, -4, MPI_UB, 1, 0, MPI_INT), 0, -4, 0, 4, 4);
    expect("{(LB,-5),(INT,0)}", S2(1, -5, MPI_LB, 1, 0, MPI_INT), -5, 9, 0, 4, 4);
    expect("{0 x INT at 4, (LB,10)}", S2(0, 4, MPI_INT, 1, 10, MPI_LB), 10, -10, 0, 0, 0);
    /* markers of old types stay, shifted and repeated */
    t = S1(1, 10, MPI_LB);
    expect("{({(LB,10)},5)}", S1(1, 5, t), 15, -15, 0, 0, 0);
    expect("{3 x {(LB,10)} at 5}", S1(3, 5, t), -5, 5, 0, 0, 0);
    expect("{({(LB,10)},5),(INT,0)}", S2(1, 5, t, 1, 0, MPI_INT), 15, -11, 0, 4, 4);
    expect("contiguous(3, {(LB,10)})", contig(3, t), -10, 10, 0, 0, 0);
    u = S1(1, -10, MPI_UB);
    expect("{({(UB,-10)},0),(INT,0)}", S2(1, 0, u, 1, 0, MPI_INT), 0, -10, 0, 4, 4);
    expect("{({(LB,10)},0),({(UB,-10)},0)}", S2(1, 0, t, 1, 0, u), 10, -20, 0, 0, 0);
    MPI_Type_free(&t);
    MPI_Type_free(&u);
    /* a resized type's bounds are markers too */
    t = resized(MPI_INT, -4, 12);
    expect("{(resized(INT,-4,12),0),(LB,10)}", S2(1, 0, t, 1, 10, MPI_LB), -4, 12, 0, 4, 4);
    expect("{(resized(INT,-4,12),0),(UB,2)}", S2(1, 0, t, 1, 2, MPI_UB), -4, 12, 0, 4, 4);
    MPI_Type_free(&t);
#endif

    /* negative displacements, no markers */
    expect("{(INT,-8)}", S1(1, -8, MPI_INT), -8, 4, -8, 4, 4);
    expect("{(INT,-8),(CHAR,0)}", S2(1, -8, MPI_INT, 1, 0, MPI_CHAR), -8, 12, -8, 9, 5);
    expect("{(CHAR,0),(DOUBLE,-8)}", S2(1, 0, MPI_CHAR, 1, -8, MPI_DOUBLE), -8, 16, -8, 9, 9);
    {
        MPI_Datatype v;
        CHECK_SUCCESS(MPI_Type_create_hvector(2, 1, -20, MPI_INT, &v));
        expect("hvector(2,1,-20,INT)", v, -20, 24, -20, 24, 8);
    }
    /* an empty type adds nothing, wherever it is placed */
    t = contig(0, MPI_INT);
    expect("{(empty,100),(CHAR,0)}", S2(1, 100, t, 1, 0, MPI_CHAR), 0, 1, 0, 1, 1);
    expect("{(empty,-100),(CHAR,0)}", S2(1, -100, t, 1, 0, MPI_CHAR), 0, 1, 0, 1, 1);
    expect("{(empty,100)}", S1(1, 100, t), 0, 0, 0, 0, 0);
    /* resized types: explicit bounds, negative extents */
    u = resized(t, 10, -10);
    expect("resized(empty,10,-10)", resized(t, 10, -10), 10, -10, 0, 0, 0);
    expect("{(resized(empty,10,-10),0),(INT,0)}", S2(1, 0, u, 1, 0, MPI_INT), 10, -10, 0, 4, 4);
    expect("contiguous(3, resized(empty,10,-10))", contig(3, u), -10, 10, 0, 0, 0);
    MPI_Type_free(&u);
    MPI_Type_free(&t);
    t = resized(MPI_INT, -4, 12);
    expect("resized(INT,-4,12)", resized(MPI_INT, -4, 12), -4, 12, 0, 4, 4);
    expect("contiguous(2, resized(INT,-4,12))", contig(2, t), -4, 24, 0, 16, 8);
    expect("{(2 x resized(INT,-4,12),-16),(DOUBLE,8)}",
           st(2, (int[]){2, 1}, (MPI_Aint[]){-16, 8}, (MPI_Datatype[]){t, MPI_DOUBLE}), -20, 24, -16, 32, 16);
    MPI_Type_free(&t);
    t = resized(MPI_INT, 8, -4);
    expect("resized(INT,8,-4)", resized(MPI_INT, 8, -4), 8, -4, 0, 4, 4);
    expect("contiguous(3, resized(INT,8,-4))", contig(3, t), 0, 4, -8, 12, 12);
    expect("{(3 x resized(INT,8,-4),0),(CHAR,0)}", S2(3, 0, t, 1, 0, MPI_CHAR), 0, 4, -8, 12, 13);
    MPI_Type_free(&t);

    CHECK(failures == 0, "%d bound(s) wrong", failures);
    MPI_Finalize();
    return 0;
}
