/* midway.c — tcp_midway's job, 2 ranks over TCP with MPI_ERRORS_RETURN: rank 0 sends rank 1 a
 * 256 MiB message while the other side of the transfer kills itself with SIGKILL once some of
 * it went through (argv[1] "receiver": rank 1 dies while receiving; "sender": rank 0 dies
 * while sending). The survivor's operation must fail, naming the dead rank, within seconds. */
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define BYTES (256u << 20)

/* Keeps request req progressing for ms milliseconds; 1 if it completed meanwhile. */
static int progress_for(MPI_Request *req, int ms)
{
    double end = MPI_Wtime() + ms / 1000.0;
    int done = 0;
    while (!done && MPI_Wtime() < end)
        MPI_Test(req, &done, MPI_STATUS_IGNORE);
    return done;
}

int main(int argc, char **argv)
{
    int rank, rc, len, cls;
    int victim_is_receiver = argc > 1 && strcmp(argv[1], "receiver") == 0;
    char *buf = malloc(BYTES), text[MPI_MAX_ERROR_STRING];
    MPI_Request req;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (!buf)
        MPI_Abort(MPI_COMM_WORLD, 2);
    memset(buf, rank + 1, BYTES);
    MPI_Barrier(MPI_COMM_WORLD);
    int victim = victim_is_receiver ? 1 : 0;
    if (rank == victim) { /* start its side, let bytes flow, then die mid-transfer */
        if (rank == 0)
            MPI_Isend(buf, (int)BYTES, MPI_BYTE, 1, 7, MPI_COMM_WORLD, &req);
        else
            MPI_Irecv(buf, (int)BYTES, MPI_BYTE, 0, 7, MPI_COMM_WORLD, &req);
        if (progress_for(&req, 300)) {
            printf("rank %d: the transfer completed before the kill: the test proves nothing\n", rank);
            fflush(stdout);
            exit(4);
        }
        printf("rank %d: killing myself in the middle of the transfer\n", rank);
        fflush(stdout);
        raise(SIGKILL);
    }
    double t0 = MPI_Wtime();
    if (rank == 0)
        rc = MPI_Send(buf, (int)BYTES, MPI_BYTE, 1, 7, MPI_COMM_WORLD);
    else
        rc = MPI_Recv(buf, (int)BYTES, MPI_BYTE, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Error_class(rc, &cls);
    MPI_Error_string(rc, text, &len);
    printf("rank %d: %s returned class %d after %.1f s: %s\n", rank, rank == 0 ? "MPI_Send" : "MPI_Recv",
           cls, MPI_Wtime() - t0, rc == MPI_SUCCESS ? "success" : text);
    int ok = rc != MPI_SUCCESS && (cls == MPIX_ERR_PROC_FAILED || cls == MPI_ERR_PROC_ABORTED) &&
             strstr(text, victim ? "rank 1" : "rank 0") != NULL;
    printf("rank %d: %s\n", rank, ok ? "the operation failed naming the dead rank" : "WRONG OUTCOME");
    MPI_Finalize();
    free(buf);
    return ok ? 0 : 1;
}
