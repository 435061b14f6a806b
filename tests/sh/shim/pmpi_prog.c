/* pmpi_prog.c — for the PMPI test (abi_pmpi.sh): on every process, 2 MPI_Send, 2 MPI_Recv (a ring,
 * both directions; to and from MPI_PROC_NULL on 1 process), 1 MPI_Allreduce and 2 MPI_Comm_rank, between calls a profiling tool does not
 * wrap but an MPI library may build from sends, receives and reductions (MPI_Sendrecv, MPI_Bcast,
 * MPI_Reduce, MPI_Barrier, MPI_Allgather, MPI_Comm_dup, MPI_Comm_split); asserts the results. The
 * tool (pmpi_tool.c) checks the counts in MPI_Finalize: PMPI_TOOL_EXPECT="2 2 1 2". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK(c) do { if (!(c)) { fprintf(stderr, "pmpi_prog: %s:%d: %s\n", __FILE__, __LINE__, #c); \
                                   MPI_Abort(MPI_COMM_WORLD, 2); } } while (0)

int main(int argc, char **argv)
{
    int rank = -1, size = 0, r2 = -1, v, got, sum, bc, red, all[64];
    MPI_Comm dup, split;
    MPI_Status st;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(size <= 64);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    for (int dir = 0; dir < 2; dir++) { /* ring right, then left; even ranks send first */
        int to = dir ? left : right, from = dir ? right : left;
        if (size == 1) /* no buffering of a blocking send to self is promised */
            to = from = MPI_PROC_NULL;
        v = 100 * rank + dir;
        got = -1;
        if (rank % 2 == 0) {
            CHECK(MPI_Send(&v, 1, MPI_INT, to, dir, MPI_COMM_WORLD) == MPI_SUCCESS);
            CHECK(MPI_Recv(&got, 1, MPI_INT, from, dir, MPI_COMM_WORLD, &st) == MPI_SUCCESS);
        } else {
            CHECK(MPI_Recv(&got, 1, MPI_INT, from, dir, MPI_COMM_WORLD, &st) == MPI_SUCCESS);
            CHECK(MPI_Send(&v, 1, MPI_INT, to, dir, MPI_COMM_WORLD) == MPI_SUCCESS);
        }
        if (size == 1)
            CHECK(got == -1 && st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG);
        else
            CHECK(got == 100 * from + dir && st.MPI_SOURCE == from && st.MPI_TAG == dir);
    }
    v = rank + 1;
    CHECK(MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD) == MPI_SUCCESS);
    CHECK(sum == size * (size + 1) / 2);
    /* calls the tool does not wrap */
    CHECK(MPI_Sendrecv(&v, 1, MPI_INT, right, 7, &got, 1, MPI_INT, left, 7, MPI_COMM_WORLD, &st) == MPI_SUCCESS);
    CHECK(got == left + 1);
    bc = rank == 0 ? 42 : 0;
    CHECK(MPI_Bcast(&bc, 1, MPI_INT, 0, MPI_COMM_WORLD) == MPI_SUCCESS && bc == 42);
    red = -1;
    CHECK(MPI_Reduce(&v, &red, 1, MPI_INT, MPI_MAX, 0, MPI_COMM_WORLD) == MPI_SUCCESS);
    CHECK(rank != 0 || red == size);
    CHECK(MPI_Allgather(&rank, 1, MPI_INT, all, 1, MPI_INT, MPI_COMM_WORLD) == MPI_SUCCESS);
    for (int i = 0; i < size; i++)
        CHECK(all[i] == i);
    CHECK(MPI_Barrier(MPI_COMM_WORLD) == MPI_SUCCESS);
    CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &dup) == MPI_SUCCESS);
    CHECK(MPI_Comm_split(dup, rank % 2, -rank, &split) == MPI_SUCCESS);
    CHECK(MPI_Comm_rank(split, &r2) == MPI_SUCCESS);
    CHECK(r2 == (size - 1 - rank) / 2);
    MPI_Comm_free(&split);
    MPI_Comm_free(&dup);
    MPI_Finalize();
    return 0;
}
