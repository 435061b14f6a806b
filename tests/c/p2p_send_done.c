/* p2p_send_done.c — small sends that complete at once (they may share one request, as
 * MPICH's lightweight requests do): each handle still behaves as its own request under
 * MPI_Cancel, MPI_Request_free, MPI_Request_get_status, MPI_Wait/Test/Waitall, after the
 * communicator is freed, and every message arrives intact and in order. */
#include "check.h"

enum { N = 200 };

int main(int argc, char **argv)
{
    int me, np, flag, cancelled;
    CHECK_SUCCESS(MPI_Init(&argc, &argv));
    CHECK_SUCCESS(MPI_Comm_rank(MPI_COMM_WORLD, &me));
    CHECK_SUCCESS(MPI_Comm_size(MPI_COMM_WORLD, &np));
    CHECK(np == 2, "run on 2 processes, not %d", np);
    MPI_Comm dup;
    CHECK_SUCCESS(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    int out[N], in[N];
    MPI_Request r[N];
    MPI_Status st;
    for (int i = 0; i < N; i++) {
        out[i] = 1000 * me + i;
        in[i] = -1;
    }
    if (me == 0) {
        for (int i = 0; i < N; i++)
            CHECK_SUCCESS(MPI_Isend(&out[i], 1, MPI_INT, 1, i % 7, dup, &r[i]));
        int ack = 0; /* every message was received: no MPI can cancel one now */
        CHECK_SUCCESS(MPI_Recv(&ack, 1, MPI_INT, 1, 50, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        /* a cancelled send that already went: MPI_Test_cancelled says no, for it and the others */
        CHECK_SUCCESS(MPI_Cancel(&r[0]));
        CHECK_SUCCESS(MPI_Wait(&r[0], &st));
        CHECK(r[0] == MPI_REQUEST_NULL, "MPI_Wait left the send request non-null");
        CHECK_SUCCESS(MPI_Test_cancelled(&st, &cancelled));
        CHECK(!cancelled, "an eager send that was delivered is reported cancelled");
        CHECK_SUCCESS(MPI_Request_get_status(r[1], &flag, &st));
        CHECK(flag, "MPI_Request_get_status: a small send is still pending after it was copied");
        CHECK_SUCCESS(MPI_Test_cancelled(&st, &cancelled));
        CHECK(!cancelled, "the cancel of another send shows on request 1");
        CHECK(r[1] != MPI_REQUEST_NULL, "MPI_Request_get_status freed the request");
        CHECK_SUCCESS(MPI_Request_free(&r[2]));
        CHECK(r[2] == MPI_REQUEST_NULL, "MPI_Request_free left the request non-null");
        CHECK_SUCCESS(MPI_Test(&r[3], &flag, MPI_STATUS_IGNORE));
        CHECK(flag && r[3] == MPI_REQUEST_NULL, "MPI_Test of a completed send: flag %d", flag);
        /* the communicator goes first; the requests stay usable */
        CHECK_SUCCESS(MPI_Comm_free(&dup));
        CHECK_SUCCESS(MPI_Waitall(N - 4, &r[4], MPI_STATUSES_IGNORE));
        for (int i = 1; i < N; i++)
            CHECK(i == 1 || r[i] == MPI_REQUEST_NULL, "request %d not null after completion", i);
        CHECK_SUCCESS(MPI_Wait(&r[1], MPI_STATUS_IGNORE));
        CHECK(r[1] == MPI_REQUEST_NULL, "request 1 not null after MPI_Wait");
        /* blocking sends of the same kind, then the receiver's answer */
        for (int i = 0; i < N; i++)
            CHECK_SUCCESS(MPI_Send(&out[i], 1, MPI_INT, 1, 99, MPI_COMM_WORLD));
        int sum = 0;
        CHECK_SUCCESS(MPI_Recv(&sum, 1, MPI_INT, 1, 100, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK_EQ_INT(sum, N * (N - 1) / 2 * 2);
    } else {
        for (int i = 0; i < N; i++) /* in order per tag: message i is the (i / 7)th of tag i % 7 */
            CHECK_SUCCESS(MPI_Irecv(&in[i], 1, MPI_INT, 0, i % 7, dup, &r[i]));
        CHECK_SUCCESS(MPI_Waitall(N, r, MPI_STATUSES_IGNORE));
        for (int i = 0; i < N; i++)
            CHECK_EQ_INT(in[i], i);
        CHECK_SUCCESS(MPI_Send(&me, 1, MPI_INT, 0, 50, MPI_COMM_WORLD));
        CHECK_SUCCESS(MPI_Comm_free(&dup));
        int sum = 0;
        for (int i = 0; i < N; i++) {
            int v = -1;
            CHECK_SUCCESS(MPI_Recv(&v, 1, MPI_INT, 0, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            CHECK_EQ_INT(v, i);
            sum += v;
        }
        sum *= 2;
        CHECK_SUCCESS(MPI_Send(&sum, 1, MPI_INT, 0, 100, MPI_COMM_WORLD));
    }
    CHECK(MPI_Finalize() == MPI_SUCCESS, "MPI_Finalize failed");
    if (me == 0)
        printf("p2p_send_done: ok\n");
    return 0;
}
