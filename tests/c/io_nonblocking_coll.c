/* io_nonblocking_coll.c — nonblocking collective accesses (MPI_File_iwrite_at_all, iread_at_all,
 * iwrite_all, iread_all) start locally: each rank starts its access, then passes a large message
 * down a chain of ranks, before any waits (a start that waited for the other ranks would deadlock);
 * two in flight at once, completed in reverse order and by MPI_Test; the data checked. */
#include "io_test.h"

enum { N = 3000, BIG = 1 << 20 }; /* ints per rank and access; bytes of the chain's message */

static int value(int rank, int k, int i)
{
    return rank * 1000003 + k * N + i;
}

/* Receives the chain's message from rank - 1 (none on rank 0). */
static void chain_in(char *msg, int rank)
{
    if (rank > 0) {
        CHECK_SUCCESS(MPI_Recv(msg, BIG, MPI_BYTE, rank - 1, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK(msg[0] == (char)(rank - 1) && msg[BIG - 1] == (char)(rank - 1), "the chain's message is wrong");
    }
}

/* Sends it on to rank + 1 (none on the last rank). */
static void chain_out(char *msg, int rank, int np)
{
    if (rank + 1 < np) {
        memset(msg, rank, BIG);
        CHECK_SUCCESS(MPI_Send(msg, BIG, MPI_BYTE, rank + 1, 7, MPI_COMM_WORLD));
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, np;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    MPI_File fh = io_scratch_open("nbcoll");
    char *msg = malloc(BIG);
    static int out[2][N], in[2][N];
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < N; i++)
            out[k][i] = value(rank, k, i);

    /* the ranks' ints interleaved one by one: a view every rank's access crosses */
    MPI_Datatype vec, ft;
    MPI_Type_vector(N, 1, np, MPI_INT, &vec);
    MPI_Type_create_resized(vec, 0, (MPI_Aint)N * np * 4, &ft); /* filetypes tile without overlap */
    MPI_Type_commit(&ft);
    CHECK_SUCCESS(MPI_File_set_view(fh, (MPI_Offset)rank * 4, MPI_INT, ft, "native", MPI_INFO_NULL));

    /* two writes in flight (the second past the first's filetype), started before the chain */
    MPI_Request req[2];
    MPI_Status st[2];
    chain_in(msg, rank);
    CHECK_SUCCESS(MPI_File_iwrite_at_all(fh, 0, out[0], N, MPI_INT, &req[0]));
    CHECK_SUCCESS(MPI_File_iwrite_at_all(fh, N, out[1], N, MPI_INT, &req[1]));
    chain_out(msg, rank, np);
    CHECK_SUCCESS(MPI_Wait(&req[1], &st[1]));
    CHECK_SUCCESS(MPI_Wait(&req[0], &st[0]));
    for (int k = 0; k < 2; k++) {
        int c;
        MPI_Get_count(&st[k], MPI_INT, &c);
        CHECK_EQ_INT(c, N);
    }
    CHECK_SUCCESS(MPI_File_sync(fh));
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_SUCCESS(MPI_File_sync(fh));

    /* read back the next rank's ints through its view's place, completed by MPI_Test */
    int next = (rank + 1) % np;
    CHECK_SUCCESS(MPI_File_set_view(fh, (MPI_Offset)next * 4, MPI_INT, ft, "native", MPI_INFO_NULL));
    chain_in(msg, rank);
    CHECK_SUCCESS(MPI_File_iread_at_all(fh, 0, in[0], N, MPI_INT, &req[0]));
    CHECK_SUCCESS(MPI_File_iread_at_all(fh, N, in[1], N, MPI_INT, &req[1]));
    chain_out(msg, rank, np);
    for (int k = 1; k >= 0; k--) {
        int done = 0;
        while (!done)
            CHECK_SUCCESS(MPI_Test(&req[k], &done, &st[k]));
    }
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < N; i++)
            CHECK(in[k][i] == value(next, k, i), "rank %d's int %d of access %d: %d", next, i, k, in[k][i]);

    /* the individual file pointer: iwrite_all moves it at the start, iread_all reads what the
     * ranks wrote there */
    CHECK_SUCCESS(MPI_File_set_view(fh, (MPI_Offset)rank * 4, MPI_INT, ft, "native", MPI_INFO_NULL));
    CHECK_SUCCESS(MPI_File_seek(fh, 2 * N, MPI_SEEK_SET));
    chain_in(msg, rank);
    CHECK_SUCCESS(MPI_File_iwrite_all(fh, out[1], N, MPI_INT, &req[0]));
    MPI_Offset pos;
    CHECK_SUCCESS(MPI_File_get_position(fh, &pos));
    CHECK_EQ_INT(pos, 3 * N);
    chain_out(msg, rank, np);
    CHECK_SUCCESS(MPI_Wait(&req[0], MPI_STATUS_IGNORE));
    CHECK_SUCCESS(MPI_File_sync(fh));
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_SUCCESS(MPI_File_sync(fh));
    CHECK_SUCCESS(MPI_File_seek(fh, 2 * N, MPI_SEEK_SET));
    memset(in[0], 0, sizeof in[0]);
    CHECK_SUCCESS(MPI_File_iread_all(fh, in[0], N, MPI_INT, &req[0]));
    CHECK_SUCCESS(MPI_Wait(&req[0], &st[0]));
    for (int i = 0; i < N; i++)
        CHECK(in[0][i] == out[1][i], "int %d at the individual pointer: %d, wrote %d", i, in[0][i], out[1][i]);

    MPI_Type_free(&ft);
    MPI_Type_free(&vec);
    free(msg);
    CHECK_SUCCESS(MPI_File_close(&fh));
    MPI_Finalize();
    return 0;
}
