/* late.c — tcp_late_peer's job: rank 1 starts its connections to every other rank (one eager
 * send each), stops itself with SIGSTOP before it can answer their challenges, and is resumed
 * by a child of its own 3 s later; then every rank checks a ring exchange and an allreduce. */
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/types.h>
#include <unistd.h>

#define LATE 1      /* the rank that is late */
#define STOP_S 3    /* for this long */

/* Forks a child that sends SIGCONT to this process after STOP_S seconds, then stops. */
static void stop_for_a_while(void)
{
    pid_t me = getpid(), child = fork();

    if (child < 0) {
        perror("fork");
        MPI_Abort(MPI_COMM_WORLD, 3);
    }
    if (child == 0) {
        sleep(STOP_S);
        kill(me, SIGCONT);
        _exit(0);
    }
    raise(SIGSTOP);
}

int main(int argc, char **argv)
{
    int rank, size, out, in, left, right, sum, bad = 0;
    int *vals;
    MPI_Request *reqs;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    vals = calloc((size_t)size, sizeof *vals);
    reqs = calloc((size_t)size, sizeof *reqs);
    if (!vals || !reqs)
        MPI_Abort(MPI_COMM_WORLD, 2);
    if (rank == LATE) { /* connects to everyone, then is stopped mid-handshake */
        int n = 0;
        for (int r = 0; r < size; r++)
            if (r != LATE) {
                vals[r] = 1000 + r;
                MPI_Isend(&vals[r], 1, MPI_INT, r, 5, MPI_COMM_WORLD, &reqs[n++]);
            }
        stop_for_a_while();
        MPI_Waitall(n, reqs, MPI_STATUSES_IGNORE);
    } else {
        MPI_Recv(&in, 1, MPI_INT, LATE, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (in != 1000 + rank) {
            printf("rank %d: got %d from rank %d, expected %d\n", rank, in, LATE, 1000 + rank);
            bad = 1;
        }
    }
    right = (rank + 1) % size;
    left = (rank + size - 1) % size;
    out = rank * 7;
    MPI_Sendrecv(&out, 1, MPI_INT, right, 6, &in, 1, MPI_INT, left, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (in != left * 7) {
        printf("rank %d: ring gave %d, expected %d\n", rank, in, left * 7);
        bad = 1;
    }
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (sum != size * (size - 1) / 2) {
        printf("rank %d: allreduce gave %d, expected %d\n", rank, sum, size * (size - 1) / 2);
        bad = 1;
    }
    if (!bad)
        printf("rank %d: ok\n", rank);
    fflush(stdout);
    free(vals);
    free(reqs);
    MPI_Finalize();
    return bad;
}
