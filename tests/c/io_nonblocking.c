/* io_nonblocking.c — nonblocking independent accesses: many in flight at once on every pointer,
 * completed by MPI_Waitall, MPI_Test loops and MPI_Waitany, non-contiguous memory on both sides. */
#include "io_test.h"


enum { N = 4096, K = 8 }; /* K accesses of N ints per rank */

static int value(int rank, int k, int i)
{
    return rank * 1000003 + k * N + i;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, np;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    MPI_File fh = io_scratch_open("nb");
    static int out[K][N], in[K][N];
    MPI_Request req[K];
    MPI_Status st[K];
    MPI_Offset block = (MPI_Offset)N * sizeof(int);

    /* explicit offsets: K writes in flight, then K reads of the next rank's blocks */
    for (int k = 0; k < K; k++) {
        for (int i = 0; i < N; i++)
            out[k][i] = value(rank, k, i);
        CHECK_SUCCESS(MPI_File_iwrite_at(fh, ((MPI_Offset)rank * K + k) * block, out[k], N, MPI_INT, &req[k]));
    }
    CHECK_SUCCESS(MPI_Waitall(K, req, st));
    for (int k = 0; k < K; k++) {
        int c;
        MPI_Get_count(&st[k], MPI_INT, &c);
        CHECK_EQ_INT(c, N);
        CHECK(req[k] == MPI_REQUEST_NULL, "request %d not freed by MPI_Waitall", k);
    }
    CHECK_SUCCESS(MPI_File_sync(fh));
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_SUCCESS(MPI_File_sync(fh));
    int next = (rank + 1) % np;
    for (int k = 0; k < K; k++)
        CHECK_SUCCESS(MPI_File_iread_at(fh, ((MPI_Offset)next * K + k) * block, in[k], N, MPI_INT, &req[k]));
    for (int left = K; left > 0; left--) { /* MPI_Waitany, in whatever order they finish */
        int idx;
        MPI_Status s;
        CHECK_SUCCESS(MPI_Waitany(K, req, &idx, &s));
        CHECK(idx >= 0 && idx < K, "MPI_Waitany index %d", idx);
        int c;
        MPI_Get_count(&s, MPI_INT, &c);
        CHECK_EQ_INT(c, N);
        for (int i = 0; i < N; i++)
            CHECK(in[idx][i] == value(next, idx, i), "read %d: element %d is %d, expected %d", idx, i, in[idx][i],
                  value(next, idx, i));
    }

    MPI_Barrier(MPI_COMM_WORLD); /* every rank has read the blocks the next phase overwrites */

    /* the individual pointer: it moves at the start, so back-to-back iwrites land one after the other */
    CHECK_SUCCESS(MPI_File_seek(fh, ((MPI_Offset)rank * K) * block, MPI_SEEK_SET));
    for (int k = 0; k < K; k++) {
        for (int i = 0; i < N; i++)
            out[k][i] = -value(rank, k, i);
        CHECK_SUCCESS(MPI_File_iwrite(fh, out[k], N, MPI_INT, &req[k]));
    }
    MPI_Offset pos;
    CHECK_SUCCESS(MPI_File_get_position(fh, &pos));
    CHECK_EQ_INT(pos, ((MPI_Offset)rank * K + K) * block);
    for (int k = 0; k < K; k++) { /* MPI_Test until each is done */
        int flag = 0;
        while (!flag)
            CHECK_SUCCESS(MPI_Test(&req[k], &flag, MPI_STATUS_IGNORE));
    }
    /* read it back into every other int of a strided buffer (a vector type) */
    MPI_Datatype every_other;
    MPI_Type_vector(N, 1, 2, MPI_INT, &every_other);
    MPI_Type_commit(&every_other);
    static int strided[2 * N];
    for (int i = 0; i < 2 * N; i++)
        strided[i] = 7;
    MPI_Request r;
    MPI_Status s;
    CHECK_SUCCESS(MPI_File_iread_at(fh, ((MPI_Offset)rank * K + 3) * block, strided, 1, every_other, &r));
    CHECK_SUCCESS(MPI_Wait(&r, &s));
    int c;
    MPI_Get_count(&s, every_other, &c);
    CHECK_EQ_INT(c, 1);
    for (int i = 0; i < N; i++) {
        CHECK(strided[2 * i] == -value(rank, 3, i), "strided read: element %d is %d", i, strided[2 * i]);
        CHECK(strided[2 * i + 1] == 7, "strided read: the gap after element %d was written", i);
    }
    MPI_Type_free(&every_other);

    /* the shared pointer: every rank's record exactly once */
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_SUCCESS(MPI_File_seek_shared(fh, 0, MPI_SEEK_SET));
    int rec[2] = {rank, -rank};
    CHECK_SUCCESS(MPI_File_iwrite_shared(fh, rec, 2, MPI_INT, &r));
    CHECK_SUCCESS(MPI_Wait(&r, MPI_STATUS_IGNORE));
    CHECK_SUCCESS(MPI_File_sync(fh));
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_SUCCESS(MPI_File_sync(fh));
    int *all = malloc(sizeof *all * 2 * (size_t)np), seen = 0;
    CHECK_SUCCESS(MPI_File_read_at(fh, 0, all, 2 * np, MPI_INT, MPI_STATUS_IGNORE));
    for (int q = 0; q < np; q++) {
        CHECK(all[2 * q + 1] == -all[2 * q] && all[2 * q] >= 0 && all[2 * q] < np, "record %d is (%d, %d)", q,
              all[2 * q], all[2 * q + 1]);
        seen |= 1 << all[2 * q];
    }
    CHECK_EQ_INT(seen, (1 << np) - 1);
    free(all);
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_SUCCESS(MPI_File_close(&fh));
    MPI_Finalize();
    return 0;
}
