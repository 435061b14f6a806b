/* peer_dead.c — communication with a dead peer fails through the communicator's error handler
 * and the job goes on (run by tests/sh/p2p_dead_peer.sh under mpiexec -disable-auto-cleanup).
 * 3 ranks: after a barrier rank 2 exits with status 3 without MPI_Finalize; rank 0 then runs
 * MPI_Sendrecv, MPI_Isendrecv + MPI_Wait and MPI_Sendrecv_replace sending to rank 2 and
 * receiving from rank 1, each returning MPIX_ERR_PROC_FAILED (MPI_ERR_PROC_ABORTED on the
 * standard ABI, which has no MPIX classes, and also for MPIX_ERR_PROC_FAILED_PENDING) with a
 * message naming rank 2, the data from rank 1 intact; a Sendrecv whose receive half is the
 * dead one names rank 2 too; receives from rank 2 fail, never hang.
 * MPI_ANY_SOURCE (ULFM): rank 0's MPI_Irecv posted before the death completes with
 * MPIX_ERR_PROC_FAILED_PENDING, a blocking MPI_Recv, MPI_Probe, MPI_Iprobe and MPI_Improbe
 * posted after it fail with MPIX_ERR_PROC_FAILED, and a message rank 1 sends later is still
 * probed (MPI_Iprobe too) and received through
 * MPI_ANY_SOURCE, intact. */
#include "check.h"

#define BIG (1 << 16) /* ints: a large (rendezvous) message the dead rank never takes */

#ifndef MPIX_ERR_PROC_FAILED /* the standard ABI: both are reported as MPI_ERR_PROC_ABORTED */
#define MPIX_ERR_PROC_FAILED MPI_ERR_PROC_ABORTED
#endif
#ifndef MPIX_ERR_PROC_FAILED_PENDING
#define MPIX_ERR_PROC_FAILED_PENDING MPI_ERR_PROC_ABORTED
#endif

/* rc is of class expect with a message naming rank 2 (and function fn unless NULL) */
static void check_class(int rc, int expect, const char *fn, const char *what)
{
    char text[MPI_MAX_ERROR_STRING];
    int cls = -1, len = 0;
    CHECK(rc != MPI_SUCCESS, "%s: returned MPI_SUCCESS, the operation with the dead rank 2 failed\n", what);
    MPI_Error_class(rc, &cls);
    CHECK(cls == expect, "%s: class %d, expected %d\n", what, cls, expect);
    MPI_Error_string(rc, text, &len);
    CHECK(strstr(text, "rank 2") != NULL, "%s: the message does not name rank 2: %s\n", what, text);
    CHECK(!fn || strstr(text, fn) != NULL, "%s: the message does not name %s: %s\n", what, fn, text);
    printf("%s: %s\n", what, text);
}

static void check_failed(int rc, const char *what)
{
    check_class(rc, MPIX_ERR_PROC_FAILED, NULL, what);
}

static void fill(int *b, int n, int base)
{
    for (int i = 0; i < n; i++)
        b[i] = base + i;
}

static void check_data(const int *b, int n, int base, const char *what)
{
    for (int i = 0; i < n; i++)
        CHECK(b[i] == base + i, "%s: element %d is %d, expected %d\n", what, i, b[i], base + i);
}

int main(int argc, char **argv)
{
    int rank, size;
    static int out[BIG], in[BIG];
    MPI_Status st;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(size == 3, "needs 3 ranks, got %d\n", size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Request anyreq = MPI_REQUEST_NULL; /* rank 0: an MPI_ANY_SOURCE receive nobody matches */
    static int anybuf[100];
    if (rank == 0)
        CHECK(MPI_Irecv(anybuf, 100, MPI_INT, MPI_ANY_SOURCE, 7, MPI_COMM_WORLD, &anyreq) == MPI_SUCCESS, "Irecv\n");
    MPI_Barrier(MPI_COMM_WORLD); /* the handshake: everyone is up */
    if (rank == 2) {
        fflush(stdout);
        exit(3); /* without MPI_Finalize */
    }
    if (rank == 1) {
        fill(out, 100, 1000);
        MPI_Send(out, 100, MPI_INT, 0, 1, MPI_COMM_WORLD);
        fill(out, 100, 2000);
        MPI_Send(out, 100, MPI_INT, 0, 2, MPI_COMM_WORLD);
        fill(out, 100, 3000);
        MPI_Send(out, 100, MPI_INT, 0, 3, MPI_COMM_WORLD);
        /* a receive posted before or after the death: an error, not a hang */
        int rc = MPI_Recv(in, 1, MPI_INT, 2, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        check_failed(rc, "rank 1: MPI_Recv from rank 2");
        CHECK(MPI_Recv(in, 100, MPI_INT, 0, 4, MPI_COMM_WORLD, &st) == MPI_SUCCESS, "recv from rank 0\n");
        check_data(in, 100, 4000, "rank 1: data from rank 0");
        /* rank 0 has seen the death: this one goes through its MPI_ANY_SOURCE probe and receive */
        fill(out, 100, 7000);
        MPI_Send(out, 100, MPI_INT, 0, 7, MPI_COMM_WORLD);
    } else {
        /* ULFM: the MPI_ANY_SOURCE receive posted before the death cannot complete normally */
        MPI_Status ast;
        int rc0 = MPI_Wait(&anyreq, &ast);
        check_class(rc0, MPIX_ERR_PROC_FAILED_PENDING, "MPI_Wait", "MPI_Irecv(MPI_ANY_SOURCE) + MPI_Wait");
        /* a blocking one posted after it fails rather than hangs; so does a blocking probe */
        rc0 = MPI_Recv(anybuf, 100, MPI_INT, MPI_ANY_SOURCE, 8, MPI_COMM_WORLD, &ast);
        check_class(rc0, MPIX_ERR_PROC_FAILED, "MPI_Recv", "MPI_Recv(MPI_ANY_SOURCE) after the death");
        rc0 = MPI_Probe(MPI_ANY_SOURCE, 8, MPI_COMM_WORLD, &ast);
        check_class(rc0, MPIX_ERR_PROC_FAILED, "MPI_Probe", "MPI_Probe(MPI_ANY_SOURCE) after the death");
        rc0 = MPI_Probe(2, 8, MPI_COMM_WORLD, &ast);
        check_class(rc0, MPIX_ERR_PROC_FAILED, "MPI_Probe", "MPI_Probe(2) after the death");
        /* nonblocking probes say so too, instead of flag = 0 forever */
        int aflag = -1;
        MPI_Message amsg = MPI_MESSAGE_NULL;
        rc0 = MPI_Iprobe(MPI_ANY_SOURCE, 8, MPI_COMM_WORLD, &aflag, &ast);
        check_class(rc0, MPIX_ERR_PROC_FAILED, "MPI_Iprobe", "MPI_Iprobe(MPI_ANY_SOURCE) after the death");
        rc0 = MPI_Iprobe(2, 8, MPI_COMM_WORLD, &aflag, &ast);
        check_class(rc0, MPIX_ERR_PROC_FAILED, "MPI_Iprobe", "MPI_Iprobe(2) after the death");
        rc0 = MPI_Improbe(MPI_ANY_SOURCE, 8, MPI_COMM_WORLD, &aflag, &amsg, &ast);
        check_class(rc0, MPIX_ERR_PROC_FAILED, "MPI_Improbe", "MPI_Improbe(MPI_ANY_SOURCE) after the death");
        CHECK(amsg == MPI_MESSAGE_NULL, "MPI_Improbe returned a message\n");

        /* the send half fails (a rendezvous send: it cannot have gone anywhere), the receive
         * half succeeds */
        fill(out, BIG, 0);
        int rc = MPI_Sendrecv(out, BIG, MPI_INT, 2, 1, in, 100, MPI_INT, 1, 1, MPI_COMM_WORLD, &st);
        check_failed(rc, "MPI_Sendrecv");
        check_data(in, 100, 1000, "MPI_Sendrecv: data from rank 1");
        int count = -1;
        MPI_Get_count(&st, MPI_INT, &count);
        CHECK(st.MPI_SOURCE == 1 && st.MPI_TAG == 1 && count == 100, "MPI_Sendrecv status: source %d tag %d count %d\n",
              st.MPI_SOURCE, st.MPI_TAG, count);

        /* a receive from the dead rank posted after its death is known */
        rc = MPI_Recv(in, 1, MPI_INT, 2, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        check_failed(rc, "MPI_Recv from rank 2");

        MPI_Request req;
        memset(in, 0, 100 * sizeof *in);
        rc = MPI_Isendrecv(out, 10, MPI_INT, 2, 2, in, 100, MPI_INT, 1, 2, MPI_COMM_WORLD, &req);
        CHECK(rc == MPI_SUCCESS, "MPI_Isendrecv: %d\n", rc);
        rc = MPI_Wait(&req, &st);
        check_failed(rc, "MPI_Isendrecv + MPI_Wait");
        CHECK(req == MPI_REQUEST_NULL, "the request was not freed\n");
        check_data(in, 100, 2000, "MPI_Isendrecv: data from rank 1");

        fill(in, 100, -5);
        rc = MPI_Sendrecv_replace(in, 100, MPI_INT, 2, 3, 1, 3, MPI_COMM_WORLD, &st);
        check_failed(rc, "MPI_Sendrecv_replace");
        check_data(in, 100, 3000, "MPI_Sendrecv_replace: data from rank 1");

        /* now the receive half is the dead one: the message names its peer, rank 2 */
        fill(out, 100, 4000);
        rc = MPI_Sendrecv(out, 100, MPI_INT, 1, 4, in, 1, MPI_INT, 2, 4, MPI_COMM_WORLD, &st);
        check_failed(rc, "MPI_Sendrecv receiving from rank 2");

        /* rank 1's message after the death: once queued, MPI_ANY_SOURCE probes and receives it */
        CHECK(MPI_Probe(1, 7, MPI_COMM_WORLD, &st) == MPI_SUCCESS, "MPI_Probe(1, 7)\n");
        int flag = 0;
        CHECK(MPI_Iprobe(MPI_ANY_SOURCE, 7, MPI_COMM_WORLD, &flag, &st) == MPI_SUCCESS && flag &&
              st.MPI_SOURCE == 1, "MPI_Iprobe(MPI_ANY_SOURCE, 7): flag %d source %d\n", flag, st.MPI_SOURCE);
        CHECK(MPI_Probe(MPI_ANY_SOURCE, 7, MPI_COMM_WORLD, &st) == MPI_SUCCESS && st.MPI_SOURCE == 1,
              "MPI_Probe(MPI_ANY_SOURCE, 7): source %d\n", st.MPI_SOURCE);
        memset(in, 0, 100 * sizeof *in);
        rc = MPI_Recv(in, 100, MPI_INT, MPI_ANY_SOURCE, 7, MPI_COMM_WORLD, &st);
        CHECK(rc == MPI_SUCCESS, "MPI_Recv(MPI_ANY_SOURCE, 7) of rank 1's message: %d\n", rc);
        MPI_Get_count(&st, MPI_INT, &count);
        CHECK(st.MPI_SOURCE == 1 && st.MPI_TAG == 7 && count == 100, "MPI_ANY_SOURCE status: source %d tag %d count %d\n",
              st.MPI_SOURCE, st.MPI_TAG, count);
        check_data(in, 100, 7000, "MPI_Recv(MPI_ANY_SOURCE): data from rank 1");
    }
    printf("rank %d: all checks passed\n", rank);
    MPI_Finalize();
    return 0;
}
