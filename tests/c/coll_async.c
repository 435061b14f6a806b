/* coll_async.c — nonblocking collectives complete while a process computes without calling
 * MPI: rank 0 starts an MPI_Ibarrier and an MPI_Iallreduce, then computes; the others wait for
 * theirs (which need rank 0's later rounds) and tell rank 0; when rank 0 stops computing, every
 * message is already there. */
#include <time.h>

#include "check.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    int me, np;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    CHECK(np >= 3, "coll_async needs 3 or more processes");
    enum { N = 50000 };
    double *in = malloc(sizeof(double) * N), *out = malloc(sizeof(double) * N);
    for (int i = 0; i < N; i++)
        in[i] = me + i;
    MPI_Request rq[2];
    CHECK_SUCCESS(MPI_Ibarrier(MPI_COMM_WORLD, &rq[0]));
    CHECK_SUCCESS(MPI_Iallreduce(in, out, N, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &rq[1]));
    if (me == 0) {
        volatile double x = 0; /* compute, without any MPI call, for a while */
        for (double t0 = now(); now() - t0 < 0.5;)
            x += 1.0;
        int got = 0;
        for (int r = 1; r < np; r++) {
            int flag = 0;
            CHECK_SUCCESS(MPI_Iprobe(r, 9, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE));
            got += flag;
        }
        CHECK(got == np - 1, "only %d of %d processes finished while rank 0 computed", got, np - 1);
        for (int r = 1; r < np; r++)
            CHECK_SUCCESS(MPI_Recv(&got, 1, MPI_INT, r, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK_SUCCESS(MPI_Waitall(2, rq, MPI_STATUSES_IGNORE));
    } else {
        CHECK_SUCCESS(MPI_Waitall(2, rq, MPI_STATUSES_IGNORE));
        CHECK_SUCCESS(MPI_Send(&me, 1, MPI_INT, 0, 9, MPI_COMM_WORLD));
    }
    for (int i = 0; i < N; i += 997)
        CHECK(out[i] == (double)np * (np - 1) / 2 + (double)np * i, "allreduce [%d] = %g", i, out[i]);
    free(in);
    free(out);
    MPI_Finalize();
    return 0;
}
