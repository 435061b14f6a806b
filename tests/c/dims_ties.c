/* dims_ties.c — MPI_Dims_create gives MPICH's grid: the most balanced one and, among equally
 * balanced ones, MPICH's choice (the larger smallest part, then the next up: 5040 in 3 dims is
 * 21x16x15, not 20x18x14). The table holds answers of Debian's MPICH 4.0.2. */
#include <mpi.h>

#include "check.h"

struct dims_case {
    int nnodes, ndims;
    int given[4];  /* the dims passed in (0: free) */
    int want[4];   /* MPICH's answer */
};

/* Sizes up to 100,000 in 2 to 4 dimensions: ties (most of them ones Switchyard once broke
 * differently), grids without a tie, then grids with given dimensions. */
static const struct dims_case cases[] = {
    {1, 2, {0}, {1, 1, 0, 0}},
    {1, 3, {0}, {1, 1, 1, 0}},
    {1, 4, {0}, {1, 1, 1, 1}},
    {6, 4, {0}, {3, 2, 1, 1}},
    {7, 2, {0}, {7, 1, 0, 0}},
    {12, 3, {0}, {3, 2, 2, 0}},
    {16, 4, {0}, {2, 2, 2, 2}},
    {30, 3, {0}, {5, 3, 2, 0}},
    {97, 4, {0}, {97, 1, 1, 1}},
    {360, 3, {0}, {10, 6, 6, 0}},
    {406, 4, {0}, {29, 7, 2, 1}},
    {1404, 4, {0}, {13, 6, 6, 3}},
    {1836, 4, {0}, {17, 6, 6, 3}},
    {2160, 4, {0}, {10, 6, 6, 6}},
    {2295, 4, {0}, {17, 9, 5, 3}},
    {2452, 4, {0}, {613, 2, 2, 1}},
    {2520, 4, {0}, {10, 7, 6, 6}},
    {2880, 4, {0}, {10, 8, 6, 6}},
    {3240, 4, {0}, {10, 9, 6, 6}},
    {3696, 3, {0}, {22, 14, 12, 0}},
    {5040, 3, {0}, {21, 16, 15, 0}},
    {6240, 3, {0}, {26, 16, 15, 0}},
    {10800, 3, {0}, {27, 20, 20, 0}},
    {11556, 4, {0}, {107, 6, 6, 3}},
    {13104, 4, {0}, {14, 13, 9, 8}},
    {13464, 3, {0}, {34, 22, 18, 0}},
    {19152, 3, {0}, {38, 24, 21, 0}},
    {23940, 3, {0}, {38, 30, 21, 0}},
    {30240, 3, {0}, {36, 30, 28, 0}},
    {31200, 3, {0}, {40, 30, 26, 0}},
    {34776, 3, {0}, {46, 28, 27, 0}},
    {45000, 3, {0}, {50, 30, 30, 0}},
    {48048, 4, {0}, {22, 14, 13, 12}},
    {49500, 3, {0}, {50, 33, 30, 0}},
    {51744, 4, {0}, {22, 14, 14, 12}},
    {55440, 3, {0}, {44, 36, 35, 0}},
    {59136, 4, {0}, {22, 16, 14, 12}},
    {62832, 4, {0}, {22, 17, 14, 12}},
    {63483, 4, {0}, {3023, 7, 3, 1}},
    {65536, 4, {0}, {16, 16, 16, 16}},
    {66120, 3, {0}, {58, 38, 30, 0}},
    {66528, 4, {0}, {22, 18, 14, 12}},
    {68904, 3, {0}, {58, 36, 33, 0}},
    {70224, 4, {0}, {22, 19, 14, 12}},
    {70655, 4, {0}, {1087, 13, 5, 1}},
    {71400, 3, {0}, {51, 40, 35, 0}},
    {75600, 4, {0}, {21, 16, 15, 15}},
    {80640, 4, {0}, {21, 16, 16, 15}},
    {81308, 4, {0}, {20327, 2, 2, 1}},
    {84816, 3, {0}, {62, 38, 36, 0}},
    {85680, 4, {0}, {21, 17, 16, 15}},
    {90720, 4, {0}, {21, 18, 16, 15}},
    {91728, 3, {0}, {52, 42, 42, 0}},
    {93344, 4, {0}, {2917, 4, 4, 2}},
    {95760, 4, {0}, {21, 19, 16, 15}},
    {97234, 4, {0}, {797, 61, 2, 1}},
    {99840, 4, {0}, {26, 16, 16, 15}},
    {99991, 3, {0}, {99991, 1, 1, 0}},
    {100000, 2, {0}, {400, 250, 0, 0}},
    {100000, 3, {0}, {50, 50, 40, 0}},
    {100000, 4, {0}, {25, 20, 20, 10}},
    /* given dimensions: the free ones are balanced as above (5040 and 360 in 3) */
    {720, 4, {0, 2, 0, 0}, {10, 2, 6, 6}},
    {10080, 4, {0, 0, 0, 2}, {21, 16, 15, 2}},
    {15120, 4, {3, 0, 0, 0}, {3, 21, 16, 15}},
};

int main(int argc, char **argv)
{
    int failed = 0;

    MPI_Init(&argc, &argv);
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        const struct dims_case *t = &cases[c];
        int d[4], ok = 1;

        memcpy(d, t->given, sizeof d);
        CHECK_SUCCESS(MPI_Dims_create(t->nnodes, t->ndims, d));
        for (int i = 0; i < t->ndims; i++)
            ok &= d[i] == t->want[i];
        if (!ok) {
            fprintf(stderr, "MPI_Dims_create(%d, %d): got", t->nnodes, t->ndims);
            for (int i = 0; i < t->ndims; i++)
                fprintf(stderr, " %d", d[i]);
            fprintf(stderr, ", MPICH gives");
            for (int i = 0; i < t->ndims; i++)
                fprintf(stderr, " %d", t->want[i]);
            fprintf(stderr, "\n");
            failed++;
        }
    }
    CHECK(failed == 0, "%d of %zu grids differ from MPICH's", failed,
          sizeof cases / sizeof cases[0]);
    MPI_Finalize();
    return 0;
}
