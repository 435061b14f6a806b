/* fault.c — a job where rank 1 fails while the others wait for it in MPI_Recv. argv[1]:
 * "abort" (MPI_Abort with code 7), "segv" (a signal), "exit" (exit(3) without
 * MPI_Finalize). Run by tests/sh/p2p_faults.sh, which checks how the job ends. */
#include <mpi.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    int me, v = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    /* some traffic first, so that the transports are up and in use */
    MPI_Sendrecv_replace(&v, 1, MPI_INT, me ^ 1, 0, me ^ 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (me == 1) {
        if (argc > 1 && strcmp(argv[1], "abort") == 0)
            MPI_Abort(MPI_COMM_WORLD, 7);
        if (argc > 1 && strcmp(argv[1], "segv") == 0)
            raise(SIGSEGV);
        exit(3);
    }
    MPI_Recv(&v, 1, MPI_INT, 1, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* never comes */
    MPI_Finalize();
    return 0;
}
