/* p2p_complete_once.c — every send mode into preposted and late receives, to itself and to
 * a neighbour, with contiguous and non-contiguous types: data intact, each request completes once. */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

#define N 4096 /* elements: large enough for the rendezvous path between processes */

/* Starts a send of count elements of type t in one of the four modes. */
static int send_mode(int mode, const int *buf, int count, MPI_Datatype t, int dst, int tag, MPI_Request *rq)
{
    switch (mode) {
    case 0: return MPI_Isend(buf, count, t, dst, tag, MPI_COMM_WORLD, rq);
    case 1: return MPI_Issend(buf, count, t, dst, tag, MPI_COMM_WORLD, rq);
    case 2: return MPI_Irsend(buf, count, t, dst, tag, MPI_COMM_WORLD, rq);
    default: return MPI_Ibsend(buf, count, t, dst, tag, MPI_COMM_WORLD, rq);
    }
}

/* One round: peer's data arrives in `in` through a receive posted before (pre = 1) or after
 * the send; the sender's buffer is overwritten as soon as its send completes. */
static void round_trip(int me, int peer, int mode, int pre, int count, MPI_Datatype stype, int *out, int *in)
{
    MPI_Request rr, sr;
    int tag = 100 + mode * 2 + pre;
    for (int i = 0; i < 2 * N; i++)
        out[i] = me * 1000000 + mode * 100000 + i;
    memset(in, 0, N * sizeof *in);
    if (pre || mode == 2)
        CHECK_SUCCESS(MPI_Irecv(in, count, MPI_INT, peer, tag, MPI_COMM_WORLD, &rr));
    if (mode == 2 && peer != me) /* ready mode: the peer's receive must be posted */
        CHECK_SUCCESS(MPI_Sendrecv(NULL, 0, MPI_INT, peer, 1, NULL, 0, MPI_INT, peer, 1, MPI_COMM_WORLD,
                                   MPI_STATUS_IGNORE));
    CHECK_SUCCESS(send_mode(mode, out, count, stype, peer, tag, &sr));
    if (!(pre || mode == 2))
        CHECK_SUCCESS(MPI_Irecv(in, count, MPI_INT, peer, tag, MPI_COMM_WORLD, &rr));
    CHECK_SUCCESS(MPI_Wait(&sr, MPI_STATUS_IGNORE));
    CHECK(sr == MPI_REQUEST_NULL, "send request not freed");
    memset(out, 0xff, 2 * N * sizeof *out); /* the send is complete: its buffer is ours again */
    MPI_Status st;
    CHECK_SUCCESS(MPI_Wait(&rr, &st));
    int got;
    MPI_Get_count(&st, MPI_INT, &got);
    CHECK_EQ_INT(got, count);
    int stride = stype == MPI_INT ? 1 : 2;
    for (int i = 0; i < count; i++)
        CHECK(in[i] == peer * 1000000 + mode * 100000 + i * stride,
              "mode %d pre %d count %d: element %d = %d, expected %d", mode, pre, count, i, in[i],
              peer * 1000000 + mode * 100000 + i * stride);
}

int main(int argc, char **argv)
{
    int me, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    int bsize = 4 * (N * (int)sizeof(int) + MPI_BSEND_OVERHEAD);
    void *battach = malloc((size_t)bsize);
    CHECK_SUCCESS(MPI_Buffer_attach(battach, bsize));

    /* every other int: a resized one-int type of extent 2 ints (non-contiguous) */
    MPI_Datatype every_other;
    CHECK_SUCCESS(MPI_Type_create_resized(MPI_INT, 0, 2 * (MPI_Aint)sizeof(int), &every_other));
    CHECK_SUCCESS(MPI_Type_commit(&every_other));

    int *out = malloc(2 * N * sizeof *out), *in = malloc(N * sizeof *in);
    int counts[] = {1, 64, N};
    MPI_Datatype types[] = {MPI_INT, every_other};
    /* to itself, then to the next rank (receiving from the previous one) */
    for (int iter = 0; iter < 20; iter++)
        for (int mode = 0; mode < 4; mode++)
            for (int pre = 0; pre < 2; pre++)
                for (int c = 0; c < 3; c++)
                    for (int t = 0; t < 2; t++)
                        round_trip(me, me, mode, pre, counts[c], types[t], out, in);
    if (size == 2) {
        int peer = 1 - me;
        for (int iter = 0; iter < 5; iter++)
            for (int mode = 0; mode < 4; mode++)
                for (int pre = 0; pre < 2; pre++)
                    for (int c = 0; c < 3; c++)
                        for (int t = 0; t < 2; t++)
                            round_trip(me, peer, mode, pre, counts[c], types[t], out, in);
    }

    /* a synchronous send to itself freed before it completes: completes once, no leak */
    for (int i = 0; i < 100; i++) {
        MPI_Request sr, rr;
        out[0] = i;
        CHECK_SUCCESS(MPI_Irecv(in, 1, MPI_INT, me, 9, MPI_COMM_WORLD, &rr));
        CHECK_SUCCESS(MPI_Issend(out, 1, every_other, me, 9, MPI_COMM_WORLD, &sr));
        CHECK_SUCCESS(MPI_Request_free(&sr));
        CHECK_SUCCESS(MPI_Wait(&rr, MPI_STATUS_IGNORE));
        CHECK_EQ_INT(in[0], i);
    }

    MPI_Type_free(&every_other);
    int sz;
    void *b;
    CHECK_SUCCESS(MPI_Buffer_detach(&b, &sz));
    free(battach);
    free(out);
    free(in);
    MPI_Finalize();
    return 0;
}
