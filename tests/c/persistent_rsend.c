/* persistent_rsend.c — persistent ready sends and receives (MPICH's prsend pattern in C): started
 * with MPI_Startall, completed by MPI_Waitsome until the receive's index comes out, by
 * MPI_Waitall and by an MPI_Testall loop; inactive requests then complete with empty statuses. */
#include "check.h"

#define N 600

static void empty_status(const MPI_Status *st, const char *what)
{
    int count = -1;
    CHECK(st->MPI_SOURCE == MPI_ANY_SOURCE && st->MPI_TAG == MPI_ANY_TAG, "%s: status not empty", what);
    CHECK_SUCCESS(MPI_Get_count(st, MPI_INT, &count));
    CHECK(count == 0, "%s: count %d", what, count);
}

int main(int argc, char **argv)
{
    int me, np, out[N], in[N], outcount, indices[2], idx, flag;
    MPI_Request rq[2];
    MPI_Status sts[2], st;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    CHECK(np >= 2, "needs 2 ranks");
    if (me < 2) {
        int peer = 1 - me;
        CHECK_SUCCESS(MPI_Rsend_init(out, N, MPI_INT, peer, 7, MPI_COMM_WORLD, &rq[0]));
        CHECK_SUCCESS(MPI_Recv_init(in, N, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &rq[1]));
        for (int it = 0; it < 9; it++) {
            for (int i = 0; i < N; i++)
                in[i] = -1;
            if (me == 0) { /* sends first, once the peer's receive is posted */
                for (int i = 0; i < N; i++)
                    out[i] = it * 1000 + i;
                CHECK_SUCCESS(MPI_Recv(NULL, 0, MPI_INT, peer, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
                CHECK_SUCCESS(MPI_Startall(2, rq));
                if (it % 3 == 0) {
                    for (idx = -1; idx != 1;) {
                        CHECK_SUCCESS(MPI_Waitsome(2, rq, &outcount, indices, sts));
                        for (int k = 0; k < outcount; k++)
                            if (indices[k] == 1) {
                                idx = 1;
                                CHECK(sts[k].MPI_SOURCE == peer && sts[k].MPI_TAG == 7, "waitsome status");
                            }
                    }
                    CHECK_SUCCESS(MPI_Wait(&rq[0], MPI_STATUS_IGNORE));
                } else if (it % 3 == 1) {
                    CHECK_SUCCESS(MPI_Waitall(2, rq, sts));
                    CHECK(sts[1].MPI_SOURCE == peer && sts[1].MPI_TAG == 7, "waitall status");
                } else {
                    for (flag = 0; !flag;)
                        CHECK_SUCCESS(MPI_Testall(2, rq, &flag, sts));
                    CHECK(sts[1].MPI_SOURCE == peer && sts[1].MPI_TAG == 7, "testall status");
                }
                for (int i = 0; i < N; i++)
                    CHECK(in[i] == -(it * 1000 + i), "data back at %d: %d", i, in[i]);
            } else { /* receives, then sends the negated data back */
                CHECK_SUCCESS(MPI_Start(&rq[1]));
                CHECK_SUCCESS(MPI_Send(NULL, 0, MPI_INT, peer, 8, MPI_COMM_WORLD));
                for (flag = 0; !flag;)
                    CHECK_SUCCESS(MPI_Test(&rq[1], &flag, &st));
                CHECK(st.MPI_SOURCE == peer && st.MPI_TAG == 7, "test status");
                for (int i = 0; i < N; i++) {
                    CHECK(in[i] == it * 1000 + i, "data at %d: %d", i, in[i]);
                    out[i] = -in[i];
                }
                CHECK_SUCCESS(MPI_Start(&rq[0]));
                CHECK_SUCCESS(MPI_Wait(&rq[0], MPI_STATUS_IGNORE));
            }
        }
        CHECK_SUCCESS(MPI_Waitany(2, rq, &idx, &st));
        CHECK(idx == MPI_UNDEFINED, "waitany of inactive requests: index %d", idx);
        empty_status(&st, "waitany of inactive requests");
        CHECK_SUCCESS(MPI_Testsome(2, rq, &outcount, indices, sts));
        CHECK(outcount == MPI_UNDEFINED, "testsome of inactive requests: outcount %d", outcount);
        CHECK_SUCCESS(MPI_Request_free(&rq[0]));
        CHECK_SUCCESS(MPI_Request_free(&rq[1]));
    }
    MPI_Finalize();
    return 0;
}
