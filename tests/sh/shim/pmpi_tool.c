/* pmpi_tool.c — a profiling library for the PMPI test (abi_pmpi.sh), built against the standard
 * ABI with mpicc_abi -shared: it defines MPI_Send, MPI_Recv, MPI_Allreduce and MPI_Comm_rank,
 * counting the calls before calling their PMPI_ twins, and MPI_Finalize, which checks that each
 * process counted what pmpi_prog.c calls (PMPI_TOOL_EXPECT, "Send Recv Allreduce Comm_rank": none
 * of the library's own calls, e.g. inside MPI_Sendrecv, MPI_Bcast or MPI_Init, may reach the tool)
 * and sums the counts over the processes with PMPI_Allreduce (not counted). Rank 0 prints
 * "pmpi_tool: N processes ok ..." on success; any mismatch is printed and aborts the job with 3. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int n_send, n_recv, n_allreduce, n_comm_rank;

int MPI_Send(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
    n_send++;
    return PMPI_Send(buf, count, datatype, dest, tag, comm);
}

int MPI_Recv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Status *status)
{
    n_recv++;
    return PMPI_Recv(buf, count, datatype, source, tag, comm, status);
}

int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    n_allreduce++;
    return PMPI_Allreduce(sendbuf, recvbuf, count, datatype, op, comm);
}

int MPI_Comm_rank(MPI_Comm comm, int *rank)
{
    n_comm_rank++;
    return PMPI_Comm_rank(comm, rank);
}

int MPI_Finalize(void)
{
    int want[4] = {-1, -1, -1, -1}, got[4] = {n_send, n_recv, n_allreduce, n_comm_rank}, sum[4], rank = -1, size = 0;
    const char *e = getenv("PMPI_TOOL_EXPECT");

    if (!e || sscanf(e, "%d %d %d %d", &want[0], &want[1], &want[2], &want[3]) != 4) {
        fprintf(stderr, "pmpi_tool: PMPI_TOOL_EXPECT is not set to four counts\n");
        PMPI_Abort(MPI_COMM_WORLD, 3);
    }
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int i = 0; i < 4; i++)
        if (got[i] != want[i]) {
            fprintf(stderr, "pmpi_tool: rank %d counted Send %d Recv %d Allreduce %d Comm_rank %d, expected %s\n", rank,
                    got[0], got[1], got[2], got[3], e);
            PMPI_Abort(MPI_COMM_WORLD, 3);
        }
    if (PMPI_Allreduce(got, sum, 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD) != MPI_SUCCESS)
        PMPI_Abort(MPI_COMM_WORLD, 3);
    for (int i = 0; i < 4; i++)
        if (sum[i] != size * want[i]) {
            fprintf(stderr, "pmpi_tool: the sum of count %d over %d processes is %d\n", i, size, sum[i]);
            PMPI_Abort(MPI_COMM_WORLD, 3);
        }
    if (n_allreduce != want[2]) /* the tool's own PMPI_Allreduce did not come back to it */
        PMPI_Abort(MPI_COMM_WORLD, 3);
    if (rank == 0)
        printf("pmpi_tool: %d processes ok: Send %d Recv %d Allreduce %d Comm_rank %d in all\n", size, sum[0], sum[1],
               sum[2], sum[3]);
    fflush(stdout);
    return PMPI_Finalize();
}
