/* null_buffer.c — a NULL buffer with a positive count of a datatype holding data is
 * MPI_ERR_BUFFER in point-to-point calls and collectives (it crashed or hung); count 0, a
 * zero-size datatype and MPI_BOTTOM with a datatype of absolute addresses stay legal. */
#include "check.h"

struct pair {
    int i;
    double d;
};

/* a struct datatype of the absolute addresses of p->i and p->d (for MPI_BOTTOM) */
static MPI_Datatype abs_struct(struct pair *p)
{
    MPI_Aint at[2];
    MPI_Datatype t, types[2] = {MPI_INT, MPI_DOUBLE};
    MPI_Get_address(&p->i, &at[0]);
    MPI_Get_address(&p->d, &at[1]);
    MPI_Type_create_struct(2, (int[]){1, 1}, at, types, &t);
    MPI_Type_commit(&t);
    return t;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm c = MPI_COMM_SELF, w = MPI_COMM_WORLD;
    MPI_Request r = MPI_REQUEST_NULL;

    /* point-to-point: NULL with a positive count */
    CHECK_ERR(MPI_Send(NULL, 5, MPI_INT, 0, 1, c), MPI_ERR_BUFFER, "MPI_Send",
              "invalid argument 'buf' = NULL with count = 5 of a datatype of size 4");
    CHECK_ERR(MPI_Ssend(NULL, 1, MPI_DOUBLE, 0, 1, c), MPI_ERR_BUFFER, "MPI_Ssend", "count = 1", "size 8");
    CHECK_ERR(MPI_Isend(NULL, 2, MPI_INT, 0, 1, c, &r), MPI_ERR_BUFFER, "MPI_Isend", "'buf' = NULL with count = 2");
    CHECK(r == MPI_REQUEST_NULL, "a refused MPI_Isend returned a request");
    CHECK_ERR(MPI_Irecv(NULL, 4, MPI_INT, 0, 1, c, &r), MPI_ERR_BUFFER, "MPI_Irecv", "'buf' = NULL with count = 4");
    CHECK(r == MPI_REQUEST_NULL, "a refused MPI_Irecv returned a request");
    CHECK_ERR(MPI_Recv(NULL, 4, MPI_INT, 0, 1, c, MPI_STATUS_IGNORE), MPI_ERR_BUFFER, "MPI_Recv",
              "'buf' = NULL with count = 4 of a datatype of size 4");
    CHECK_ERR(MPI_Send_init(NULL, 4, MPI_INT, 0, 1, c, &r), MPI_ERR_BUFFER, "MPI_Send_init");
    CHECK(r == MPI_REQUEST_NULL, "a refused call returned a request");
    CHECK_ERR(MPI_Sendrecv(&rank, 1, MPI_INT, 0, 1, NULL, 3, MPI_INT, 0, 1, c, MPI_STATUS_IGNORE), MPI_ERR_BUFFER,
              "MPI_Sendrecv", "'recvbuf' = NULL with recvcount = 3");

    /* collectives: every process refuses, so none waits for the others */
    int v[4] = {1, 2, 3, 4};
    CHECK_ERR(MPI_Bcast(NULL, 3, MPI_INT, 0, w), MPI_ERR_BUFFER, "MPI_Bcast",
              "invalid argument 'buffer' = NULL with count = 3 of a datatype of size 4");
    CHECK_ERR(MPI_Allreduce(NULL, v, 2, MPI_INT, MPI_SUM, w), MPI_ERR_BUFFER, "MPI_Allreduce",
              "'sendbuf' = NULL with count = 2");
    CHECK_ERR(MPI_Allreduce(v, NULL, 2, MPI_INT, MPI_SUM, w), MPI_ERR_BUFFER, "MPI_Allreduce",
              "'recvbuf' = NULL with count = 2");
    CHECK_ERR(MPI_Allreduce(MPI_IN_PLACE, NULL, 1, MPI_DOUBLE, MPI_MAX, w), MPI_ERR_BUFFER, "MPI_Allreduce",
              "'recvbuf' = NULL with count = 1 of a datatype of size 8");

    /* count 0: nothing to read or write (a blocking send to self may wait for its receive,
     * as on MPICH, so self traffic posts the receive first; ranks 0 and 1 use MPI_Send/Recv) */
    MPI_Request rr[2];
    MPI_Status sts[2];
    CHECK_SUCCESS(MPI_Sendrecv(NULL, 0, MPI_INT, 0, 2, NULL, 0, MPI_INT, 0, 2, c, MPI_STATUS_IGNORE));
    CHECK_SUCCESS(MPI_Irecv(NULL, 0, MPI_INT, 0, 2, c, &rr[0]));
    CHECK_SUCCESS(MPI_Isend(NULL, 0, MPI_INT, 0, 2, c, &rr[1]));
    CHECK_SUCCESS(MPI_Waitall(2, rr, sts));
    if (rank == 0 && size > 1)
        CHECK_SUCCESS(MPI_Send(NULL, 0, MPI_INT, 1, 2, w));
    else if (rank == 1)
        CHECK_SUCCESS(MPI_Recv(NULL, 0, MPI_INT, 0, 2, w, MPI_STATUS_IGNORE));
    CHECK_SUCCESS(MPI_Bcast(NULL, 0, MPI_INT, 0, w));
    CHECK_SUCCESS(MPI_Allreduce(NULL, NULL, 0, MPI_INT, MPI_SUM, w));

    /* a datatype of size 0: a positive count moves nothing */
    MPI_Datatype z;
    MPI_Type_contiguous(0, MPI_INT, &z);
    MPI_Type_commit(&z);
    MPI_Status st;
    int n = -1;
    CHECK_SUCCESS(MPI_Sendrecv(NULL, 5, z, 0, 3, NULL, 5, z, 0, 3, c, &st));
    MPI_Get_count(&st, MPI_INT, &n);
    CHECK_EQ_INT(n, 0);
    CHECK_SUCCESS(MPI_Irecv(NULL, 2, z, 0, 3, c, &rr[0]));
    CHECK_SUCCESS(MPI_Isend(NULL, 2, z, 0, 3, c, &rr[1]));
    CHECK_SUCCESS(MPI_Waitall(2, rr, sts));
    if (rank == 0 && size > 1)
        CHECK_SUCCESS(MPI_Send(NULL, 5, z, 1, 3, w));
    else if (rank == 1)
        CHECK_SUCCESS(MPI_Recv(NULL, 5, z, 0, 3, w, MPI_STATUS_IGNORE));
    CHECK_SUCCESS(MPI_Bcast(NULL, 7, z, 0, w));
    MPI_Type_free(&z);

    /* MPI_BOTTOM with a struct of absolute addresses */
    struct pair a = {11, 2.5}, b = {0, 0.0};
    MPI_Datatype ta = abs_struct(&a), tb = abs_struct(&b);
    CHECK_SUCCESS(MPI_Sendrecv(MPI_BOTTOM, 1, ta, 0, 4, MPI_BOTTOM, 1, tb, 0, 4, c, MPI_STATUS_IGNORE));
    CHECK(b.i == 11 && b.d == 2.5, "received {%d, %g}, expected {11, 2.5}", b.i, b.d);
    b = (struct pair){0, 0.0};
    CHECK_SUCCESS(MPI_Irecv(MPI_BOTTOM, 1, tb, 0, 5, c, &rr[0]));
    CHECK_SUCCESS(MPI_Isend(MPI_BOTTOM, 1, ta, 0, 5, c, &rr[1]));
    CHECK_SUCCESS(MPI_Waitall(2, rr, sts));
    CHECK(b.i == 11 && b.d == 2.5, "received {%d, %g}, expected {11, 2.5}", b.i, b.d);
    if (size > 1 && rank < 2) {
        b = (struct pair){0, 0.0};
        if (rank == 0)
            CHECK_SUCCESS(MPI_Send(MPI_BOTTOM, 1, ta, 1, 6, w));
        else
            CHECK_SUCCESS(MPI_Recv(MPI_BOTTOM, 1, tb, 0, 6, w, MPI_STATUS_IGNORE));
        if (rank == 1)
            CHECK(b.i == 11 && b.d == 2.5, "received {%d, %g}, expected {11, 2.5}", b.i, b.d);
    }
    /* the root's pair reaches everyone */
    b = rank == 0 ? (struct pair){42, -1.25} : (struct pair){0, 0.0};
    CHECK_SUCCESS(MPI_Bcast(MPI_BOTTOM, 1, tb, 0, w));
    CHECK(b.i == 42 && b.d == -1.25, "rank %d: broadcast {%d, %g}, expected {42, -1.25}", rank, b.i, b.d);
    MPI_Type_free(&ta);
    MPI_Type_free(&tb);
    /* a reduction into absolute addresses: two ints (MPICH 4.0.2 has no predefined op on a
     * derived datatype) */
    int x[2] = {rank + 1, 10 * (rank + 1)};
    MPI_Aint xa[2];
    MPI_Get_address(&x[0], &xa[0]);
    MPI_Get_address(&x[1], &xa[1]);
    MPI_Datatype tx;
    MPI_Type_create_hindexed(2, (int[]){1, 1}, xa, MPI_INT, &tx);
    MPI_Type_commit(&tx);
    if (CHECK_SWITCHYARD) {
        CHECK_SUCCESS(MPI_Allreduce(MPI_IN_PLACE, MPI_BOTTOM, 1, tx, MPI_SUM, w));
        CHECK_EQ_INT(x[0], size * (size + 1) / 2);
        CHECK_EQ_INT(x[1], 10 * size * (size + 1) / 2);
    }
    MPI_Type_free(&tx);

    /* nothing refused above was queued or left a collective behind */
    int y = 0;
    CHECK_SUCCESS(MPI_Sendrecv(&rank, 1, MPI_INT, 0, 1, &y, 1, MPI_INT, 0, 1, c, MPI_STATUS_IGNORE));
    CHECK_EQ_INT(y, rank);
    int s = 0;
    CHECK_SUCCESS(MPI_Allreduce(&rank, &s, 1, MPI_INT, MPI_SUM, w));
    CHECK_EQ_INT(s, size * (size - 1) / 2);
    MPI_Finalize();
    return 0;
}
