/* mt.c — threads in MPI, one source for every MPI, 2 ranks. `mt single` initializes at
 * MPI_THREAD_SINGLE, `mt multiple` at MPI_THREAD_MULTIPLE; both print the single-threaded cost
 * of MPI_Comm_rank (st_comm_rank_ns_LEVEL) and of MPI_Comm_get_attr (st_get_attr_ns_LEVEL) and
 * the 8 B ping-pong latency (st_latency_us_LEVEL);
 * `multiple` then prints mt_latency_us T (T = 1, 2, 4 threads per rank ping-pong at once on
 * one communicator, each with its own tag: osu_latency_mt's pattern) and mt_msgrate_Mps T
 * (T = 1, 2 threads per rank, each streaming windows of 64 messages of 8 B on its own
 * communicator: messages per second of all threads). Lines "NAME PARAM VALUE" (report.py). */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#define MAXT 4
#define WINDOW 64

static int rank;
static MPI_Comm comms[MAXT];
static pthread_barrier_t bar;
static double elapsed[MAXT];

/* 8 B ping-pong on comm with tag: seconds per one-way message over iters round trips. */
static double pingpong(MPI_Comm comm, int tag, int iters)
{
    char buf[8] = {0};
    double t0 = 0;
    for (int i = -iters / 10; i < iters; i++) { /* a tenth of them first, unmeasured */
        if (i == 0)
            t0 = MPI_Wtime();
        if (rank == 0) {
            MPI_Send(buf, 8, MPI_BYTE, 1, tag, comm);
            MPI_Recv(buf, 8, MPI_BYTE, 1, tag, comm, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(buf, 8, MPI_BYTE, 0, tag, comm, MPI_STATUS_IGNORE);
            MPI_Send(buf, 8, MPI_BYTE, 0, tag, comm);
        }
    }
    return (MPI_Wtime() - t0) / (2.0 * iters);
}

/* windows of WINDOW messages of 8 B from rank 0 to rank 1 on comm, each window acknowledged:
 * seconds for `windows` windows */
static double stream(MPI_Comm comm, int windows)
{
    char buf[WINDOW][8], ack = 0;
    MPI_Request rq[WINDOW];
    memset(buf, 0, sizeof buf);
    double t0 = 0;
    for (int w = -windows / 10; w < windows; w++) {
        if (w == 0)
            t0 = MPI_Wtime();
        for (int i = 0; i < WINDOW; i++) {
            if (rank == 0)
                MPI_Isend(buf[i], 8, MPI_BYTE, 1, 1, comm, &rq[i]);
            else
                MPI_Irecv(buf[i], 8, MPI_BYTE, 0, 1, comm, &rq[i]);
        }
        MPI_Waitall(WINDOW, rq, MPI_STATUSES_IGNORE);
        if (rank == 0)
            MPI_Recv(&ack, 1, MPI_BYTE, 1, 2, comm, MPI_STATUS_IGNORE);
        else
            MPI_Send(&ack, 1, MPI_BYTE, 0, 2, comm);
    }
    return MPI_Wtime() - t0;
}

struct job {
    int t, kind; /* kind 0: ping-pong on comms[0] with tag t; 1: stream on comms[t] */
};

static void *run(void *arg)
{
    const struct job *j = arg;
    pthread_barrier_wait(&bar);
    elapsed[j->t] = j->kind == 0 ? pingpong(comms[0], j->t, 20000) : stream(comms[j->t], 2000);
    return NULL;
}

/* Runs kind on nt threads at once; returns the longest thread's figure. */
static double threads(int nt, int kind)
{
    pthread_t th[MAXT];
    struct job jobs[MAXT];
    pthread_barrier_init(&bar, NULL, (unsigned)nt);
    MPI_Barrier(MPI_COMM_WORLD);
    for (int t = 0; t < nt; t++) {
        jobs[t] = (struct job){t, kind};
        if (t > 0)
            pthread_create(&th[t], NULL, run, &jobs[t]);
    }
    run(&jobs[0]);
    double worst = elapsed[0];
    for (int t = 1; t < nt; t++) {
        pthread_join(th[t], NULL);
        worst = elapsed[t] > worst ? elapsed[t] : worst;
    }
    pthread_barrier_destroy(&bar);
    return worst;
}

/* Nanoseconds per call, best of 7 runs of a million: MPI_Comm_rank (a read_only call) when
 * attr is 0, else MPI_Comm_get_attr of MPI_TAG_UB (a call made in full: under the lock at
 * MPI_THREAD_MULTIPLE). */
static double per_call_ns(int attr)
{
    double best = 1e30;
    int v = 0, flag = 0;
    void *p = NULL;
    for (int k = 0; k < 7; k++) {
        double t0 = MPI_Wtime();
        for (int i = 0; i < 1000000; i++) {
            if (attr)
                MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &p, &flag);
            else
                MPI_Comm_rank(MPI_COMM_WORLD, &v);
            __asm__ volatile("" ::: "memory");
        }
        double t = (MPI_Wtime() - t0) / 1000000 * 1e9;
        best = t < best ? t : best;
    }
    return best + v * 0.0 + flag * 0.0;
}

int main(int argc, char **argv)
{
    int multiple = argc > 1 && strcmp(argv[1], "multiple") == 0, provided = MPI_THREAD_SINGLE;
    const char *level = multiple ? "multiple" : "single";
    if (multiple)
        MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    else
        MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    double ns = per_call_ns(0), attr_ns = per_call_ns(1);
    double lat = pingpong(MPI_COMM_WORLD, 0, 20000);
    if (rank == 0) {
        printf("st_comm_rank_ns_%s 0 %.3f\n", level, ns);
        printf("st_get_attr_ns_%s 0 %.3f\n", level, attr_ns);
        printf("st_latency_us_%s 8 %.3f\n", level, lat * 1e6);
    }
    if (multiple && provided == MPI_THREAD_MULTIPLE) {
        for (int t = 0; t < MAXT; t++)
            MPI_Comm_dup(MPI_COMM_WORLD, &comms[t]);
        for (int nt = 1; nt <= 4; nt *= 2) {
            double s = threads(nt, 0);
            if (rank == 0)
                printf("mt_latency_us %d %.3f\n", nt, s * 1e6);
        }
        for (int nt = 1; nt <= 2; nt++) {
            double s = threads(nt, 1);
            if (rank == 0)
                printf("mt_msgrate_Mps %d %.3f\n", nt, nt * 2000.0 * WINDOW / s / 1e6);
        }
        for (int t = 0; t < MAXT; t++)
            MPI_Comm_free(&comms[t]);
    } else if (multiple && rank == 0) {
        fprintf(stderr, "mt: MPI_THREAD_MULTIPLE not provided (%d)\n", provided);
    }
    MPI_Finalize();
    return 0;
}
