/* job.c — tcp_auth's job: a ring exchange of checked messages (eager and rendezvous) that runs
 * until the attacker is done (the file done in $TCP_AUTH_DIR) and for at least 3 s. With the
 * argument "idle", one exchange, then every rank waits for that file outside MPI (no call at
 * all: only the library's own threads can answer the attacker), then one more exchange. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define BIG 100000 /* ints: 400 kB, through RTS / CTS / DATA */

static int value(int from, int iter, int i) { return from * 1000003 + iter * 31 + i; }

int main(int argc, char **argv)
{
    int rank, size, iter, stop = 0, bad = 0, idle = argc > 1 && strcmp(argv[1], "idle") == 0;
    const char *dir = getenv("TCP_AUTH_DIR");
    char path[4096], tmp[4096];
    int *out = malloc(BIG * sizeof *out), *in = malloc(BIG * sizeof *in);
    double t0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (!dir || !out || !in) {
        fprintf(stderr, "rank %d: TCP_AUTH_DIR unset or no memory\n", rank);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    snprintf(tmp, sizeof tmp, "%s/pid.%d.tmp", dir, rank); /* the attacker finds us by pid */
    snprintf(path, sizeof path, "%s/pid.%d", dir, rank);
    FILE *f = fopen(tmp, "w");
    if (!f || fprintf(f, "%ld\n", (long)getpid()) < 0 || fclose(f) != 0 || rename(tmp, path) != 0)
        MPI_Abort(MPI_COMM_WORLD, 2);
    t0 = MPI_Wtime();
    for (iter = 0; !stop; iter++) {
        int n = iter % 10 == 0 ? BIG : 1000, to = (rank + 1) % size, from = (rank + size - 1) % size, i;
        MPI_Status st;

        for (i = 0; i < n; i++)
            out[i] = value(rank, iter, i);
        memset(in, 0, (size_t)n * sizeof *in);
        MPI_Sendrecv(out, n, MPI_INT, to, iter, in, n, MPI_INT, from, iter, MPI_COMM_WORLD, &st);
        for (i = 0; i < n; i++)
            if (in[i] != value(from, iter, i) && bad++ < 5)
                fprintf(stderr, "rank %d: iteration %d: element %d is %d, expected %d\n", rank, iter, i,
                        in[i], value(from, iter, i));
        if (rank == 0) {
            snprintf(path, sizeof path, "%s/done", dir);
            stop = (access(path, F_OK) == 0 && MPI_Wtime() - t0 >= 3.0) || MPI_Wtime() - t0 > 60.0;
        }
        MPI_Bcast(&stop, 1, MPI_INT, 0, MPI_COMM_WORLD);
        usleep(2000);
        if (idle && iter == 0) { /* connected to our neighbours: now away from MPI */
            snprintf(path, sizeof path, "%s/done", dir);
            for (int ms = 0; access(path, F_OK) != 0 && ms < 60000; ms += 10)
                usleep(10000);
        }
        if (idle && iter == 1)
            stop = 1;
    }
    MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    printf("rank %d: %s after %d iterations in %.1f s\n", rank, bad ? "BAD MESSAGES" : "ok", iter,
           MPI_Wtime() - t0);
    MPI_Finalize();
    free(out);
    free(in);
    return bad ? 1 : 0;
}
