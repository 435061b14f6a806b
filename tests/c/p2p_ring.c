/* p2p_ring.c — point-to-point between processes (2 to 8 ranks): a ring in every send mode,
 * MPI_ANY_SOURCE gathering, order of same-envelope messages, synchronous-send semantics,
 * large messages both ways, and sendrecv_replace around the ring. */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

int main(int argc, char **argv)
{
    int me, np;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    CHECK(np >= 2, "needs at least 2 processes, has %d", np);
    int right = (me + 1) % np, left = (me + np - 1) % np;

    /* a ring in every mode, sizes from 0 to 1 MiB */
    static const int sizes[] = {0, 1, 7, 1000, 16384, 65536, 262144};
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++)
        for (int mode = 0; mode < 4; mode++) {
            int n = sizes[s];
            int *out = malloc(sizeof(int) * (size_t)(n + 1)), *in = malloc(sizeof(int) * (size_t)(n + 1));
            for (int i = 0; i < n; i++)
                out[i] = me * 1000003 + i + mode;
            MPI_Request r;
            MPI_Status st;
            MPI_Irecv(in, n, MPI_INT, left, mode, MPI_COMM_WORLD, &r);
            switch (mode) {
            case 0: MPI_Send(out, n, MPI_INT, right, mode, MPI_COMM_WORLD); break;
            case 1: MPI_Ssend(out, n, MPI_INT, right, mode, MPI_COMM_WORLD); break;
            case 2: { MPI_Request q; MPI_Isend(out, n, MPI_INT, right, mode, MPI_COMM_WORLD, &q); MPI_Wait(&q, MPI_STATUS_IGNORE); break; }
            default: { MPI_Request q; MPI_Issend(out, n, MPI_INT, right, mode, MPI_COMM_WORLD, &q); MPI_Wait(&q, MPI_STATUS_IGNORE); break; }
            }
            MPI_Wait(&r, &st);
            CHECK_EQ_INT(st.MPI_SOURCE, left);
            int count;
            MPI_Get_count(&st, MPI_INT, &count);
            CHECK_EQ_INT(count, n);
            for (int i = 0; i < n; i++)
                CHECK(in[i] == left * 1000003 + i + mode, "size %d mode %d: element %d wrong", n, mode, i);
            free(out);
            free(in);
        }

    /* everyone sends to rank 0 twice with the same tag; rank 0 takes them with
     * MPI_ANY_SOURCE and sees each sender's two messages in order */
    if (me == 0) {
        int *seen = calloc((size_t)np, sizeof(int));
        for (int k = 0; k < 2 * (np - 1); k++) {
            int v[2];
            MPI_Status st;
            MPI_Recv(v, 2, MPI_INT, MPI_ANY_SOURCE, 77, MPI_COMM_WORLD, &st);
            CHECK_EQ_INT(v[0], st.MPI_SOURCE);
            CHECK_EQ_INT(v[1], seen[st.MPI_SOURCE]);
            seen[st.MPI_SOURCE]++;
        }
        for (int r = 1; r < np; r++)
            CHECK_EQ_INT(seen[r], 2);
        free(seen);
    } else {
        for (int k = 0; k < 2; k++) {
            int v[2] = {me, k};
            MPI_Send(v, 2, MPI_INT, 0, 77, MPI_COMM_WORLD);
        }
    }

    /* a synchronous send does not complete before the receive is posted */
    if (me == 0) {
        MPI_Request q;
        int v = 5, flag = 0;
        MPI_Issend(&v, 1, MPI_INT, 1, 88, MPI_COMM_WORLD, &q);
        double t = MPI_Wtime();
        while (MPI_Wtime() - t < 0.2) {
            MPI_Test(&q, &flag, MPI_STATUS_IGNORE);
            CHECK(!flag, "MPI_Issend completed before the receive was posted");
        }
        MPI_Send(&v, 1, MPI_INT, 1, 89, MPI_COMM_WORLD); /* tells rank 1 to receive now */
        MPI_Wait(&q, MPI_STATUS_IGNORE);
    } else if (me == 1) {
        int v;
        MPI_Recv(&v, 1, MPI_INT, 0, 89, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(&v, 1, MPI_INT, 0, 88, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        CHECK_EQ_INT(v, 5);
    }

    /* 4 MiB around the ring with sendrecv_replace, and a large message probed first */
    int n = 1 << 20;
    int *buf = malloc(sizeof(int) * (size_t)n);
    for (int i = 0; i < n; i++)
        buf[i] = me + i;
    MPI_Sendrecv_replace(buf, n, MPI_INT, right, 3, left, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (int i = 0; i < n; i++)
        CHECK(buf[i] == left + i, "sendrecv_replace: element %d wrong", i);
    MPI_Request q;
    MPI_Isend(buf, n, MPI_INT, right, 4, MPI_COMM_WORLD, &q);
    MPI_Status st;
    MPI_Probe(left, 4, MPI_COMM_WORLD, &st);
    int count;
    MPI_Get_count(&st, MPI_INT, &count);
    CHECK_EQ_INT(count, n);
    int *in = malloc(sizeof(int) * (size_t)n);
    MPI_Recv(in, n, MPI_INT, left, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Wait(&q, MPI_STATUS_IGNORE);
    for (int i = 0; i < n; i++)
        CHECK(in[i] == (left + np - 1) % np + i, "probed large message: element %d wrong", i);
    free(in);
    free(buf);
    MPI_Finalize();
    return 0;
}
