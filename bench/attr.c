/* attr.c — caching benchmark, one source for every MPI: ns per MPI_Comm_set_attr (new
 * attribute), get and delete with 1 and 16 attributes on the communicator, and per MPI_Comm_dup
 * of a communicator carrying 0, 1, 10 and 100 attributes copied by MPI_COMM_DUP_FN. */
#include <mpi.h>
#include <stdio.h>

#define MAXK 100

static int keys[MAXK];
static int values[MAXK];

/* Best of 5 rounds of reps passes over n keyvals: ns per set, get and delete. */
static void set_get_delete(MPI_Comm comm, int n, int reps)
{
    double best[3] = {1e9, 1e9, 1e9};
    for (int round = 0; round < 5; round++) {
        double t[3] = {0, 0, 0};
        for (int r = 0; r < reps; r++) {
            double t0 = MPI_Wtime();
            for (int i = 0; i < n; i++)
                MPI_Comm_set_attr(comm, keys[i], &values[i]);
            double t1 = MPI_Wtime();
            for (int i = 0; i < n; i++) {
                void *v;
                int flag;
                MPI_Comm_get_attr(comm, keys[i], &v, &flag);
            }
            double t2 = MPI_Wtime();
            for (int i = 0; i < n; i++)
                MPI_Comm_delete_attr(comm, keys[i]);
            double t3 = MPI_Wtime();
            t[0] += t1 - t0, t[1] += t2 - t1, t[2] += t3 - t2;
        }
        for (int k = 0; k < 3; k++)
            if (t[k] / (reps * n) < best[k])
                best[k] = t[k] / (reps * n);
    }
    printf("set_ns %d %.1f\nget_ns %d %.1f\ndelete_ns %d %.1f\n", n, best[0] * 1e9, n, best[1] * 1e9, n,
           best[2] * 1e9);
}

/* ns per MPI_Comm_dup of comm carrying n attributes (best of 5 rounds; the frees not timed). */
static void dup_with(MPI_Comm comm, int n, int reps)
{
    for (int i = 0; i < n; i++)
        MPI_Comm_set_attr(comm, keys[i], &values[i]);
    double best = 1e9;
    for (int round = 0; round < 5; round++) {
        double t = 0;
        for (int r = 0; r < reps; r++) {
            MPI_Comm d;
            double t0 = MPI_Wtime();
            MPI_Comm_dup(comm, &d);
            t += MPI_Wtime() - t0;
            MPI_Comm_free(&d);
        }
        if (t / reps < best)
            best = t / reps;
    }
    printf("dup_ns %d %.1f\n", n, best * 1e9);
    for (int i = 0; i < n; i++)
        MPI_Comm_delete_attr(comm, keys[i]);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm comm;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    for (int i = 0; i < MAXK; i++)
        MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &keys[i], NULL);
    set_get_delete(comm, 1, 200000);
    set_get_delete(comm, 16, 20000);
    for (int n = 0; n <= 100; n = n ? n * 10 : 1)
        dup_with(comm, n, 2000);
    for (int i = 0; i < MAXK; i++)
        MPI_Comm_free_keyval(&keys[i]);
    MPI_Comm_free(&comm);
    MPI_Finalize();
    return 0;
}
