/* topo_cart.c — Cartesian topologies: MPI_Dims_create, create (smaller grids), get, rank, coords,
 * shifts at the edges of periodic and non-periodic dimensions, sub, map, and bad input. */
#include <mpi.h>
#include <stdlib.h>

#include "check.h"

static void dims_case(int nnodes, int ndims, const int *given, const int *want)
{
    int d[8];
    for (int i = 0; i < ndims; i++)
        d[i] = given ? given[i] : 0;
    CHECK_SUCCESS(MPI_Dims_create(nnodes, ndims, d));
    for (int i = 0; i < ndims; i++)
        CHECK(d[i] == want[i], "MPI_Dims_create(%d, %d): dims[%d] = %d, expected %d", nnodes, ndims, i, d[i], want[i]);
}

int main(int argc, char **argv)
{
    int me, np, res;
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);

    /* MPI_Dims_create: balanced, non-increasing, given entries kept */
    dims_case(6, 2, NULL, (int[]){3, 2});
    dims_case(12, 3, NULL, (int[]){3, 2, 2});
    dims_case(16, 3, NULL, (int[]){4, 2, 2});
    dims_case(24, 3, NULL, (int[]){4, 3, 2});
    dims_case(7, 2, NULL, (int[]){7, 1});
    dims_case(36, 2, NULL, (int[]){6, 6});
    dims_case(1, 3, NULL, (int[]){1, 1, 1});
    dims_case(12, 2, (int[]){0, 3}, (int[]){4, 3});
    dims_case(24, 3, (int[]){0, 4, 0}, (int[]){3, 4, 2});
    dims_case(8, 2, (int[]){2, 4}, (int[]){2, 4});
    int bad[2] = {3, 0};
    CHECK_ERR(MPI_Dims_create(10, 2, bad), MPI_ERR_DIMS, "MPI_Dims_create");
    int neg[2] = {-1, 0};
    CHECK_ERR(MPI_Dims_create(4, 2, neg), MPI_ERR_DIMS, NULL);

    /* a 2-D grid: dimension 0 periodic, dimension 1 not */
    int dims[2] = {0, 0}, periods[2] = {1, 0}, coords[2], d2[2], p2[2];
    MPI_Dims_create(np, 2, dims);
    MPI_Comm cart;
    CHECK_SUCCESS(MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 1, &cart));
    int topo, nd, rank;
    CHECK_SUCCESS(MPI_Topo_test(cart, &topo));
    CHECK_EQ_INT(topo, MPI_CART);
    CHECK_SUCCESS(MPI_Cartdim_get(cart, &nd));
    CHECK_EQ_INT(nd, 2);
    MPI_Comm_rank(cart, &rank);
    CHECK_SUCCESS(MPI_Cart_get(cart, 2, d2, p2, coords));
    CHECK(d2[0] == dims[0] && d2[1] == dims[1], "dims %d x %d", d2[0], d2[1]);
    CHECK(p2[0] == 1 && p2[1] == 0, "periods %d %d", p2[0], p2[1]);
    CHECK_EQ_INT(coords[0], rank / dims[1]); /* row-major */
    CHECK_EQ_INT(coords[1], rank % dims[1]);
    for (int r = 0; r < np; r++) { /* coords and rank are inverse */
        int c[2], back;
        CHECK_SUCCESS(MPI_Cart_coords(cart, r, 2, c));
        CHECK_SUCCESS(MPI_Cart_rank(cart, c, &back));
        CHECK_EQ_INT(back, r);
    }
    int wrap[2] = {coords[0] + dims[0], coords[1]}, back; /* the periodic dimension wraps */
    CHECK_SUCCESS(MPI_Cart_rank(cart, wrap, &back));
    CHECK_EQ_INT(back, rank);
    wrap[0] = coords[0] - 3 * dims[0];
    CHECK_SUCCESS(MPI_Cart_rank(cart, wrap, &back));
    CHECK_EQ_INT(back, rank);

    /* shifts: periodic dimension 0 wraps, non-periodic dimension 1 ends in MPI_PROC_NULL */
    int src, dst;
    CHECK_SUCCESS(MPI_Cart_shift(cart, 0, 1, &src, &dst));
    CHECK_EQ_INT(src, ((coords[0] + dims[0] - 1) % dims[0]) * dims[1] + coords[1]);
    CHECK_EQ_INT(dst, ((coords[0] + 1) % dims[0]) * dims[1] + coords[1]);
    CHECK_SUCCESS(MPI_Cart_shift(cart, 1, 1, &src, &dst));
    CHECK_EQ_INT(src, coords[1] == 0 ? MPI_PROC_NULL : rank - 1);
    CHECK_EQ_INT(dst, coords[1] == dims[1] - 1 ? MPI_PROC_NULL : rank + 1);
    CHECK_SUCCESS(MPI_Cart_shift(cart, 1, -2, &src, &dst));
    CHECK_EQ_INT(src, coords[1] + 2 >= dims[1] ? MPI_PROC_NULL : rank + 2);
    CHECK_EQ_INT(dst, coords[1] - 2 < 0 ? MPI_PROC_NULL : rank - 2);
    CHECK_SUCCESS(MPI_Cart_shift(cart, 0, 0, &src, &dst));
    CHECK(src == rank && dst == rank, "a zero shift moved: %d %d", src, dst);
    /* a message along each direction (MPI_PROC_NULL at the edges leaves the buffer alone) */
    for (int dir = 0; dir < 2; dir++) {
        MPI_Cart_shift(cart, dir, 1, &src, &dst);
        int got = -7;
        CHECK_SUCCESS(MPI_Sendrecv(&rank, 1, MPI_INT, dst, dir, &got, 1, MPI_INT, src, dir, cart, MPI_STATUS_IGNORE));
        CHECK_EQ_INT(got, src == MPI_PROC_NULL ? -7 : src);
    }

    /* sub-grids: rows (keep dimension 1) and columns (keep dimension 0) */
    MPI_Comm row, col, point;
    CHECK_SUCCESS(MPI_Cart_sub(cart, (int[]){0, 1}, &row));
    CHECK_SUCCESS(MPI_Cart_sub(cart, (int[]){1, 0}, &col));
    int n, r;
    MPI_Comm_size(row, &n);
    MPI_Comm_rank(row, &r);
    CHECK_EQ_INT(n, dims[1]);
    CHECK_EQ_INT(r, coords[1]);
    MPI_Cartdim_get(row, &nd);
    CHECK_EQ_INT(nd, 1);
    int c1[1];
    MPI_Cart_get(row, 1, d2, p2, c1);
    CHECK_EQ_INT(c1[0], coords[1]);
    CHECK(d2[0] == dims[1] && p2[0] == 0, "row grid %d periodic %d", d2[0], p2[0]);
    MPI_Comm_size(col, &n);
    MPI_Comm_rank(col, &r);
    CHECK_EQ_INT(n, dims[0]);
    CHECK_EQ_INT(r, coords[0]);
    MPI_Cart_shift(col, 0, 1, &src, &dst); /* still periodic */
    CHECK_EQ_INT(dst, (coords[0] + 1) % dims[0]);
    if (CHECK_SWITCHYARD) { /* nothing kept: alone, 0-D (MPICH 4.0 gets this wrong) */
        CHECK_SUCCESS(MPI_Cart_sub(cart, (int[]){0, 0}, &point));
        MPI_Cartdim_get(point, &nd);
        CHECK_EQ_INT(nd, 0);
        MPI_Comm_size(point, &n);
        CHECK_EQ_INT(n, 1);
        MPI_Comm_free(&point);
    }
    MPI_Comm_free(&row);
    MPI_Comm_free(&col);

    /* a dup keeps the topology */
    MPI_Comm cdup;
    MPI_Comm_dup(cart, &cdup);
    MPI_Topo_test(cdup, &topo);
    CHECK_EQ_INT(topo, MPI_CART);
    MPI_Cart_shift(cdup, 1, 1, &src, &dst);
    CHECK_EQ_INT(src, coords[1] == 0 ? MPI_PROC_NULL : rank - 1);
    MPI_Comm_free(&cdup);

    /* a 1-D ring smaller than the world: the last process is left out */
    MPI_Comm ring;
    int rd = np > 1 ? np - 1 : 1, rp = 1;
    CHECK_SUCCESS(MPI_Cart_create(MPI_COMM_WORLD, 1, &rd, &rp, 0, &ring));
    if (np > 1 && me == np - 1) {
        CHECK(ring == MPI_COMM_NULL, "a process outside the grid got a communicator");
    } else {
        MPI_Cart_shift(ring, 0, 1, &src, &dst);
        CHECK_EQ_INT(dst, (me + 1) % rd);
        CHECK_EQ_INT(src, (me + rd - 1) % rd);
        MPI_Comm_free(&ring);
    }
    int newrank;
    CHECK_SUCCESS(MPI_Cart_map(MPI_COMM_WORLD, 1, &rd, &rp, &newrank));
    CHECK_EQ_INT(newrank, np > 1 && me == np - 1 ? MPI_UNDEFINED : me);

    /* a 3-D torus on 8 processes */
    if (np == 8) {
        int d3[3] = {0, 0, 0}, p3[3] = {1, 1, 1}, c3[3];
        MPI_Dims_create(8, 3, d3);
        MPI_Comm torus;
        CHECK_SUCCESS(MPI_Cart_create(MPI_COMM_WORLD, 3, d3, p3, 0, &torus));
        MPI_Comm_rank(torus, &rank);
        MPI_Cart_coords(torus, rank, 3, c3);
        CHECK_EQ_INT(rank, c3[0] * 4 + c3[1] * 2 + c3[2]);
        MPI_Cart_shift(torus, 2, 1, &src, &dst);
        CHECK_EQ_INT(dst, rank ^ 1);
        CHECK_EQ_INT(src, rank ^ 1);
        MPI_Comm_free(&torus);
    }

    /* bad input */
    MPI_Comm nc;
    int big = np + 1, zero = 0;
    CHECK_ERR(MPI_Cart_create(MPI_COMM_WORLD, 1, &big, &rp, 0, &nc), MPI_ERR_ARG, "MPI_Cart_create");
    if (CHECK_SWITCHYARD) /* MPICH takes an empty dimension */
        CHECK_ERR(MPI_Cart_create(MPI_COMM_WORLD, 1, &zero, &rp, 0, &nc), MPI_ERR_DIMS, NULL);
    CHECK_ERR(MPI_Cart_coords(cart, np, 2, coords), MPI_ERR_RANK, "MPI_Cart_coords");
    CHECK_ERR(MPI_Cart_shift(cart, 2, 1, &src, &dst), MPI_ERR_ARG, "direction");
    CHECK_ERR(MPI_Cart_shift(MPI_COMM_WORLD, 0, 1, &src, &dst), MPI_ERR_TOPOLOGY, "MPI_Cart_shift");
    CHECK_ERR(MPI_Cartdim_get(MPI_COMM_WORLD, &nd), MPI_ERR_TOPOLOGY, NULL);
    if (CHECK_SWITCHYARD) /* MPICH 4.0 crashes */
        CHECK_ERR(MPI_Cart_get(MPI_COMM_SELF, 2, d2, p2, coords), MPI_ERR_TOPOLOGY, NULL);
    if (dims[1] > 1) {
        int off[2] = {0, dims[1]};
        CHECK_ERR(MPI_Cart_rank(cart, off, &back), MPI_ERR_ARG, "MPI_Cart_rank");
    }
    MPI_Topo_test(MPI_COMM_WORLD, &res);
    CHECK_EQ_INT(res, MPI_UNDEFINED);

    MPI_Comm_free(&cart);
    MPI_Finalize();
    return 0;
}
