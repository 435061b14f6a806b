/* peer_dead.c — communication with a dead peer fails through the communicator's error handler
 * and the job goes on (run by tests/sh/p2p_dead_peer.sh under mpiexec -disable-auto-cleanup).
 * 3 ranks: after a barrier rank 2 exits with status 3 without MPI_Finalize; rank 0 then runs
 * MPI_Sendrecv, MPI_Isendrecv + MPI_Wait and MPI_Sendrecv_replace sending to rank 2 and
 * receiving from rank 1, each returning MPIX_ERR_PROC_FAILED (MPI_ERR_OTHER where the face
 * has no such class) with a message naming rank 2, the data from rank 1 intact; a Sendrecv
 * whose receive half is the dead one names rank 2 too; receives from rank 2 fail, never hang. */
#include "check.h"

#define BIG (1 << 16) /* ints: a large (rendezvous) message the dead rank never takes */

static void check_failed(int rc, const char *what)
{
    char text[MPI_MAX_ERROR_STRING];
    int cls = -1, len = 0;
    CHECK(rc != MPI_SUCCESS, "%s: returned MPI_SUCCESS, the send to the dead rank 2 failed\n", what);
    MPI_Error_class(rc, &cls);
#ifdef MPIX_ERR_PROC_FAILED
    CHECK(cls == MPIX_ERR_PROC_FAILED, "%s: class %d, expected MPIX_ERR_PROC_FAILED\n", what, cls);
#else
    CHECK(cls == MPI_ERR_OTHER, "%s: class %d, expected MPI_ERR_OTHER\n", what, cls);
#endif
    MPI_Error_string(rc, text, &len);
    CHECK(strstr(text, "rank 2") != NULL, "%s: the message does not name rank 2: %s\n", what, text);
    printf("%s: %s\n", what, text);
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
    } else {
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
    }
    printf("rank %d: all checks passed\n", rank);
    MPI_Finalize();
    return 0;
}
