/* coll_dead_peer.c — every collective returns on every survivor after a rank is killed (run by
 * tests/sh/coll_dead_peer.sh under mpiexec -disable-auto-cleanup, issue 35 item 2).
 * 4 ranks, argv[1]: the rank that dies (SIGKILL, after the communicators are made), argv[2]:
 * elements per block (small: eager messages; large: rendezvous). Each survivor then runs every
 * blocking, nonblocking (MPI_I* + MPI_Wait) and persistent (*_init + MPI_Start + MPI_Wait)
 * collective, the rooted ones with the dead rank as root and with a live root, each on its own
 * communicator (dup'd before the death) under MPI_ERRORS_RETURN. Every call must return:
 * MPI_SUCCESS, or MPIX_ERR_PROC_FAILED (MPI_ERR_PROC_ABORTED on the standard ABI) with a message;
 * an error where the survivor's result depends on the dead rank's data. Then the collectives
 * that make communicators (MPI_Comm_dup, _idup, _split, _create), which need every member's
 * part: each fails on every survivor. The last line a survivor prints is
 * "rank R: all N cases returned". */
#include "check.h"

#include <signal.h>

#ifndef MPIX_ERR_PROC_FAILED /* the standard ABI: reported as MPI_ERR_PROC_ABORTED */
#define MPIX_ERR_PROC_FAILED MPI_ERR_PROC_ABORTED
#endif

#define NPROCS 4

enum coll {
    BARRIER, BCAST, REDUCE, ALLREDUCE, GATHER, GATHERV, SCATTER, SCATTERV, ALLGATHER, ALLGATHERV,
    ALLTOALL, ALLTOALLV, ALLTOALLW, REDUCE_SCATTER, REDUCE_SCATTER_BLOCK, SCAN, EXSCAN, NCOLL
};
static const char *const names[NCOLL] = {
    "Barrier", "Bcast", "Reduce", "Allreduce", "Gather", "Gatherv", "Scatter", "Scatterv", "Allgather",
    "Allgatherv", "Alltoall", "Alltoallv", "Alltoallw", "Reduce_scatter", "Reduce_scatter_block", "Scan",
    "Exscan"};
enum mode { BLOCKING, NONBLOCKING, PERSISTENT, NMODES };

static int rooted(int c)
{
    return c == BCAST || c == REDUCE || c == GATHER || c == GATHERV || c == SCATTER || c == SCATTERV;
}

/* Whether rank me's result of collective c (root root) depends on the data of rank dead:
 * then it cannot succeed. */
static int must_fail(int c, int me, int root, int dead)
{
    switch (c) {
    case BCAST: case SCATTER: case SCATTERV:
        return root == dead;
    case REDUCE: case GATHER: case GATHERV:
        return me == root;
    case SCAN: case EXSCAN:
        return me > dead;
    default: /* the barrier and every all-to-all pattern */
        return 1;
    }
}

static int n;                   /* elements per block */
static int *sbuf, *rbuf;        /* NPROCS blocks each */
static int counts[NPROCS], displs[NPROCS], bytes_displs[NPROCS];
static MPI_Datatype types[NPROCS];

/* The three forms of collective Name (nonblocking: IName) with arguments ...: returns the
 * blocking form's code, or the start's with the request in *req. */
#define FORMS(Name, IName, ...)                                                                        \
    return mode == BLOCKING      ? MPI_##Name(__VA_ARGS__)                                             \
           : mode == NONBLOCKING ? MPI_##IName(__VA_ARGS__, req)                                       \
                                 : MPI_##Name##_init(__VA_ARGS__, MPI_INFO_NULL, req)

/* Starts (or runs) collective c in mode with root on comm. */
static int call(int c, int mode, int root, MPI_Comm comm, MPI_Request *req)
{
    switch (c) {
    case BARRIER: FORMS(Barrier, Ibarrier, comm);
    case BCAST: FORMS(Bcast, Ibcast, rbuf, n, MPI_INT, root, comm);
    case REDUCE: FORMS(Reduce, Ireduce, sbuf, rbuf, n, MPI_INT, MPI_SUM, root, comm);
    case ALLREDUCE: FORMS(Allreduce, Iallreduce, sbuf, rbuf, n, MPI_INT, MPI_SUM, comm);
    case GATHER: FORMS(Gather, Igather, sbuf, n, MPI_INT, rbuf, n, MPI_INT, root, comm);
    case GATHERV: FORMS(Gatherv, Igatherv, sbuf, n, MPI_INT, rbuf, counts, displs, MPI_INT, root, comm);
    case SCATTER: FORMS(Scatter, Iscatter, sbuf, n, MPI_INT, rbuf, n, MPI_INT, root, comm);
    case SCATTERV: FORMS(Scatterv, Iscatterv, sbuf, counts, displs, MPI_INT, rbuf, n, MPI_INT, root, comm);
    case ALLGATHER: FORMS(Allgather, Iallgather, sbuf, n, MPI_INT, rbuf, n, MPI_INT, comm);
    case ALLGATHERV: FORMS(Allgatherv, Iallgatherv, sbuf, n, MPI_INT, rbuf, counts, displs, MPI_INT, comm);
    case ALLTOALL: FORMS(Alltoall, Ialltoall, sbuf, n, MPI_INT, rbuf, n, MPI_INT, comm);
    case ALLTOALLV:
        FORMS(Alltoallv, Ialltoallv, sbuf, counts, displs, MPI_INT, rbuf, counts, displs, MPI_INT, comm);
    case ALLTOALLW:
        FORMS(Alltoallw, Ialltoallw, sbuf, counts, bytes_displs, types, rbuf, counts, bytes_displs, types, comm);
    case REDUCE_SCATTER: FORMS(Reduce_scatter, Ireduce_scatter, sbuf, rbuf, counts, MPI_INT, MPI_SUM, comm);
    case REDUCE_SCATTER_BLOCK:
        FORMS(Reduce_scatter_block, Ireduce_scatter_block, sbuf, rbuf, n, MPI_INT, MPI_SUM, comm);
    case SCAN: FORMS(Scan, Iscan, sbuf, rbuf, n, MPI_INT, MPI_SUM, comm);
    default: FORMS(Exscan, Iexscan, sbuf, rbuf, n, MPI_INT, MPI_SUM, comm);
    }
}

/* The name of collective c's form mode ("MPI_Ibcast") in what. */
static void call_name(char *what, size_t room, int c, int mode)
{
    if (mode == NONBLOCKING)
        snprintf(what, room, "MPI_I%c%s", names[c][0] - 'A' + 'a', names[c] + 1);
    else
        snprintf(what, room, "MPI_%s%s", names[c], mode == PERSISTENT ? "_init" : "");
}

/* Runs one case to its end; returns its code. */
static int run(int c, int mode, int root, MPI_Comm comm)
{
    MPI_Request req = MPI_REQUEST_NULL;
    int rc = call(c, mode, root, comm, &req);
    if (mode == BLOCKING || rc != MPI_SUCCESS)
        return rc;
    if (mode == PERSISTENT && (rc = MPI_Start(&req)) != MPI_SUCCESS)
        return rc;
    rc = MPI_Wait(&req, MPI_STATUS_IGNORE);
    if (mode == PERSISTENT)
        MPI_Request_free(&req);
    return rc;
}

int main(int argc, char **argv)
{
    int me, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(size == NPROCS && argc == 3, "usage: mpiexec -n %d %s DEAD_RANK COUNT\n", NPROCS, argv[0]);
    int dead = atoi(argv[1]), live_root = (dead + 1) % NPROCS;
    n = atoi(argv[2]);
    sbuf = calloc((size_t)NPROCS * (size_t)n, sizeof *sbuf);
    rbuf = calloc((size_t)NPROCS * (size_t)n, sizeof *rbuf);
    CHECK(sbuf && rbuf, "out of memory\n");
    for (int i = 0; i < NPROCS; i++) {
        counts[i] = n;
        displs[i] = i * n;
        bytes_displs[i] = i * n * (int)sizeof(int);
        types[i] = MPI_INT;
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN); /* the dups inherit it */
    MPI_Comm comms[NCOLL][NMODES][2];
    for (int c = 0; c < NCOLL; c++)
        for (int mode = 0; mode < NMODES; mode++)
            for (int live = 0; live < 1 + rooted(c); live++)
                CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &comms[c][mode][live]) == MPI_SUCCESS, "MPI_Comm_dup\n");
    enum { DUP, IDUP, SPLIT, CREATE, NMAKE };
    static const char *const makers[NMAKE] = {"MPI_Comm_dup", "MPI_Comm_idup", "MPI_Comm_split", "MPI_Comm_create"};
    MPI_Comm parents[NMAKE];
    MPI_Group world_group;
    MPI_Comm_group(MPI_COMM_WORLD, &world_group);
    for (int m = 0; m < NMAKE; m++)
        CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &parents[m]) == MPI_SUCCESS, "MPI_Comm_dup\n");
    MPI_Barrier(MPI_COMM_WORLD);
    if (me == dead) {
        fflush(stdout);
        raise(SIGKILL);
    }
    int done = 0;
    for (int c = 0; c < NCOLL; c++)
        for (int mode = 0; mode < NMODES; mode++)
            for (int live = 0; live < 1 + rooted(c); live++, done++) {
                int root = live ? live_root : dead;
                double t0 = MPI_Wtime();
                int rc = run(c, mode, root, comms[c][mode][live]);
                char what[80], text[MPI_MAX_ERROR_STRING] = "";
                call_name(what, sizeof what, c, mode);
                if (rooted(c))
                    snprintf(what + strlen(what), sizeof what - strlen(what), " (root %d)", root);
                int cls = MPI_SUCCESS, len = 0;
                if (rc != MPI_SUCCESS) {
                    MPI_Error_class(rc, &cls);
                    MPI_Error_string(rc, text, &len);
                }
                printf("rank %d: %s returned in %.3f s: %s\n", me, what, MPI_Wtime() - t0,
                       rc == MPI_SUCCESS ? "MPI_SUCCESS" : text);
                fflush(stdout);
                CHECK(rc == MPI_SUCCESS || cls == MPIX_ERR_PROC_FAILED, "rank %d: %s: class %d, expected %d\n", me,
                      what, cls, MPIX_ERR_PROC_FAILED);
                CHECK(rc != MPI_SUCCESS || !must_fail(c, me, root, dead),
                      "rank %d: %s succeeded, but its result depends on the dead rank %d\n", me, what, dead);
            }
    for (int m = 0; m < NMAKE; m++, done++) {
        MPI_Comm made = MPI_COMM_NULL;
        MPI_Request req;
        double t0 = MPI_Wtime();
        int rc = m == DUP     ? MPI_Comm_dup(parents[m], &made)
                 : m == IDUP  ? MPI_Comm_idup(parents[m], &made, &req)
                 : m == SPLIT ? MPI_Comm_split(parents[m], 0, me, &made)
                              : MPI_Comm_create(parents[m], world_group, &made);
        if (m == IDUP && rc == MPI_SUCCESS)
            rc = MPI_Wait(&req, MPI_STATUS_IGNORE);
        char text[MPI_MAX_ERROR_STRING] = "";
        int cls = MPI_SUCCESS, len = 0;
        if (rc != MPI_SUCCESS) {
            MPI_Error_class(rc, &cls);
            MPI_Error_string(rc, text, &len);
        }
        printf("rank %d: %s returned in %.3f s: %s\n", me, makers[m], MPI_Wtime() - t0,
               rc == MPI_SUCCESS ? "MPI_SUCCESS" : text);
        fflush(stdout);
        CHECK(rc != MPI_SUCCESS, "rank %d: %s succeeded without the dead rank %d's part\n", me, makers[m], dead);
        CHECK(cls == MPIX_ERR_PROC_FAILED, "rank %d: %s: class %d, expected %d\n", me, makers[m], cls,
              MPIX_ERR_PROC_FAILED);
    }
    MPI_Group_free(&world_group);
    printf("rank %d: all %d cases returned\n", me, done);
    fflush(stdout);
    MPI_Finalize();
    return 0;
}
