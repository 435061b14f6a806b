/* fault.c — a job where one rank fails while the others wait for it. Run by
 * tests/sh/p2p_faults.sh and tests/sh/launch_fault_inject.sh, which check how the job ends.
 *
 *   fault KIND [VICTIM [WHEN [CODE [PIDFILE]]]]
 *
 * KIND: "abort" (MPI_Abort(MPI_COMM_WORLD, CODE), CODE 7 by default), "exit" (exit(CODE)
 * without MPI_Finalize, CODE 3 by default), "segv" (raise(SIGSEGV)), "access" (a store
 * through an invalid pointer: a real SIGSEGV), "abrt" (abort(): SIGABRT), "kill" (raise
 * SIGKILL), "wait" (create PIDFILE.wait, then wait to be killed from outside). With a
 * PIDFILE, the victim writes "PID JOBID" there right after MPI_Init.
 * VICTIM: the failing rank (1 by default). WHEN: "now" (right after MPI_Init, before any
 * traffic), "recv" (the default: the others wait for it in MPI_Recv), "barrier" (in
 * MPI_Barrier), "allreduce" (in MPI_Allreduce). */
#include <mpi.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static void fail(const char *kind, int code, const char *pidfile)
{
    if (strcmp(kind, "abort") == 0)
        MPI_Abort(MPI_COMM_WORLD, code);
    if (strcmp(kind, "segv") == 0)
        raise(SIGSEGV);
    if (strcmp(kind, "access") == 0) {
        volatile uintptr_t bad = 16; /* the first page is never mapped */
        *(volatile int *)bad = 1;
    }
    if (strcmp(kind, "abrt") == 0)
        abort();
    if (strcmp(kind, "kill") == 0)
        raise(SIGKILL);
    if (strcmp(kind, "wait") == 0 && pidfile) {
        char path[4096];
        snprintf(path, sizeof path, "%s.wait", pidfile);
        FILE *f = fopen(path, "w"); /* now the test kills it */
        if (f)
            fclose(f);
        for (;;)
            pause();
    }
    exit(code);
}

int main(int argc, char **argv)
{
    const char *kind = argc > 1 ? argv[1] : "exit";
    int victim = argc > 2 ? atoi(argv[2]) : 1;
    const char *when = argc > 3 ? argv[3] : "recv";
    int code = argc > 4 ? atoi(argv[4]) : strcmp(kind, "abort") == 0 ? 7 : 3;
    const char *pidfile = argc > 5 ? argv[5] : NULL;
    int me, size, v = 0, sum = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (me == victim && pidfile) { /* "PID JOBID", for the test to check */
        char tmp[4096];
        snprintf(tmp, sizeof tmp, "%s.tmp", pidfile);
        FILE *f = fopen(tmp, "w");
        if (f) {
            const char *id = getenv("SWITCHYARD_JOBID");
            fprintf(f, "%d %s\n", (int)getpid(), id ? id : "-");
            fclose(f);
            rename(tmp, pidfile); /* the file appears whole */
        }
    }
    if (me == victim && strcmp(when, "now") == 0)
        fail(kind, code, pidfile);
    /* some traffic first, so that the transports are up and in use */
    MPI_Sendrecv_replace(&v, 1, MPI_INT, (me + 1) % size, 0, (me + size - 1) % size, 0,
                         MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (me == victim) {
        /* give the others the time to block where they wait for it */
        struct timespec ts = { 0, 20 * 1000 * 1000 };
        nanosleep(&ts, NULL);
        fail(kind, code, pidfile);
    }
    if (strcmp(when, "barrier") == 0)
        MPI_Barrier(MPI_COMM_WORLD); /* never completes */
    else if (strcmp(when, "allreduce") == 0)
        MPI_Allreduce(&me, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    else
        MPI_Recv(&v, 1, MPI_INT, victim, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* never comes */
    MPI_Finalize();
    return 0;
}
