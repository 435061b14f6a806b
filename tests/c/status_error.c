/* status_error.c — status.MPI_ERROR is left as it was by every call that returns one status
 * (MPI-5.0 3.2.5), and set by the multiple-completion calls only when they return MPI_ERR_IN_STATUS. */
#include "check.h"

#define POISON 4242

static MPI_Status poisoned(void)
{
    MPI_Status s;
    memset(&s, 0x5a, sizeof s);
    s.MPI_ERROR = POISON;
    return s;
}

#define UNTOUCHED(s, what) CHECK((s).MPI_ERROR == POISON, "%s: MPI_ERROR = %d, the call must leave it alone", what, (s).MPI_ERROR)

int main(int argc, char **argv)
{
    int rank, size, x = 7, y = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int peer = (rank + 1) % size, from = (rank + size - 1) % size;
    MPI_Status s;
    MPI_Request r, rs[3];
    MPI_Message m;
    int flag, idx;

    /* blocking receive, probes, matched probes */
    CHECK_SUCCESS(MPI_Isend(&x, 1, MPI_INT, peer, 1, MPI_COMM_WORLD, &r));
    s = poisoned();
    CHECK_SUCCESS(MPI_Probe(from, 1, MPI_COMM_WORLD, &s));
    UNTOUCHED(s, "MPI_Probe");
    CHECK_EQ_INT(s.MPI_SOURCE, from);
    s = poisoned();
    flag = 0;
    while (!flag)
        CHECK_SUCCESS(MPI_Iprobe(from, 1, MPI_COMM_WORLD, &flag, &s));
    UNTOUCHED(s, "MPI_Iprobe");
    s = poisoned();
    CHECK_SUCCESS(MPI_Recv(&y, 1, MPI_INT, from, 1, MPI_COMM_WORLD, &s));
    UNTOUCHED(s, "MPI_Recv");
    CHECK_EQ_INT(s.MPI_TAG, 1);
    s = poisoned();
    CHECK_SUCCESS(MPI_Wait(&r, &s));
    UNTOUCHED(s, "MPI_Wait (send)");

    CHECK_SUCCESS(MPI_Isend(&x, 1, MPI_INT, peer, 2, MPI_COMM_WORLD, &r));
    s = poisoned();
    CHECK_SUCCESS(MPI_Mprobe(from, 2, MPI_COMM_WORLD, &m, &s));
    UNTOUCHED(s, "MPI_Mprobe");
    s = poisoned();
    CHECK_SUCCESS(MPI_Mrecv(&y, 1, MPI_INT, &m, &s));
    UNTOUCHED(s, "MPI_Mrecv");
    CHECK_SUCCESS(MPI_Wait(&r, MPI_STATUS_IGNORE));

    CHECK_SUCCESS(MPI_Isend(&x, 1, MPI_INT, peer, 3, MPI_COMM_WORLD, &r));
    s = poisoned();
    flag = 0;
    while (!flag)
        CHECK_SUCCESS(MPI_Improbe(from, 3, MPI_COMM_WORLD, &flag, &m, &s));
    UNTOUCHED(s, "MPI_Improbe");
    CHECK_SUCCESS(MPI_Mrecv(&y, 1, MPI_INT, &m, MPI_STATUS_IGNORE));
    s = poisoned();
    flag = 0;
    while (!flag)
        CHECK_SUCCESS(MPI_Test(&r, &flag, &s));
    UNTOUCHED(s, "MPI_Test");

    /* sendrecv */
    s = poisoned();
    CHECK_SUCCESS(MPI_Sendrecv(&x, 1, MPI_INT, peer, 4, &y, 1, MPI_INT, from, 4, MPI_COMM_WORLD, &s));
    UNTOUCHED(s, "MPI_Sendrecv");
    s = poisoned();
    CHECK_SUCCESS(MPI_Sendrecv_replace(&y, 1, MPI_INT, peer, 5, from, 5, MPI_COMM_WORLD, &s));
    UNTOUCHED(s, "MPI_Sendrecv_replace");

    /* nonblocking receive completed by each single-completion call */
    CHECK_SUCCESS(MPI_Irecv(&y, 1, MPI_INT, from, 6, MPI_COMM_WORLD, &r));
    CHECK_SUCCESS(MPI_Send(&x, 1, MPI_INT, peer, 6, MPI_COMM_WORLD));
    s = poisoned();
    flag = 0;
    while (!flag)
        CHECK_SUCCESS(MPI_Request_get_status(r, &flag, &s));
    UNTOUCHED(s, "MPI_Request_get_status");
    s = poisoned();
    CHECK_SUCCESS(MPI_Wait(&r, &s));
    UNTOUCHED(s, "MPI_Wait (receive)");

    rs[0] = MPI_REQUEST_NULL;
    CHECK_SUCCESS(MPI_Irecv(&y, 1, MPI_INT, from, 7, MPI_COMM_WORLD, &rs[1]));
    CHECK_SUCCESS(MPI_Send(&x, 1, MPI_INT, peer, 7, MPI_COMM_WORLD));
    s = poisoned();
    CHECK_SUCCESS(MPI_Waitany(2, rs, &idx, &s));
    CHECK_EQ_INT(idx, 1);
    UNTOUCHED(s, "MPI_Waitany");
    CHECK_SUCCESS(MPI_Irecv(&y, 1, MPI_INT, from, 8, MPI_COMM_WORLD, &rs[1]));
    CHECK_SUCCESS(MPI_Send(&x, 1, MPI_INT, peer, 8, MPI_COMM_WORLD));
    s = poisoned();
    flag = 0;
    while (!flag)
        CHECK_SUCCESS(MPI_Testany(2, rs, &idx, &flag, &s));
    CHECK_EQ_INT(idx, 1);
    UNTOUCHED(s, "MPI_Testany");

    /* a collective request */
    CHECK_SUCCESS(MPI_Ibarrier(MPI_COMM_WORLD, &r));
    s = poisoned();
    CHECK_SUCCESS(MPI_Wait(&r, &s));
    UNTOUCHED(s, "MPI_Wait (MPI_Ibarrier)");
    CHECK_SUCCESS(MPI_Ibarrier(MPI_COMM_WORLD, &r));
    s = poisoned();
    flag = 0;
    while (!flag)
        CHECK_SUCCESS(MPI_Test(&r, &flag, &s));
    UNTOUCHED(s, "MPI_Test (MPI_Ibarrier)");

    /* a failed single completion reports through the return value only */
    {
        int big[2] = {1, 2};
        CHECK_SUCCESS(MPI_Isend(big, 2, MPI_INT, peer, 9, MPI_COMM_WORLD, &r));
        s = poisoned();
        CHECK_ERR(MPI_Recv(&y, 1, MPI_INT, from, 9, MPI_COMM_WORLD, &s), MPI_ERR_TRUNCATE, NULL);
        UNTOUCHED(s, "MPI_Recv (truncated)");
        CHECK_SUCCESS(MPI_Wait(&r, MPI_STATUS_IGNORE));
    }

    /* multiple completions that succeed: MPI_ERROR untouched */
    {
        MPI_Status ss[3];
        int ys[3], ind[3], n, done = 0;
        for (int i = 0; i < 3; i++)
            CHECK_SUCCESS(MPI_Irecv(&ys[i], 1, MPI_INT, from, 10 + i, MPI_COMM_WORLD, &rs[i]));
        for (int i = 0; i < 3; i++)
            CHECK_SUCCESS(MPI_Send(&x, 1, MPI_INT, peer, 10 + i, MPI_COMM_WORLD));
        for (int i = 0; i < 3; i++)
            ss[i] = poisoned();
        CHECK_SUCCESS(MPI_Waitall(3, rs, ss));
        for (int i = 0; i < 3; i++) {
            UNTOUCHED(ss[i], "MPI_Waitall (success)");
            CHECK_EQ_INT(ss[i].MPI_TAG, 10 + i);
        }

        for (int i = 0; i < 3; i++)
            CHECK_SUCCESS(MPI_Irecv(&ys[i], 1, MPI_INT, from, 20 + i, MPI_COMM_WORLD, &rs[i]));
        for (int i = 0; i < 3; i++)
            CHECK_SUCCESS(MPI_Send(&x, 1, MPI_INT, peer, 20 + i, MPI_COMM_WORLD));
        for (int i = 0; i < 3; i++)
            ss[i] = poisoned();
        flag = 0;
        while (!flag)
            CHECK_SUCCESS(MPI_Testall(3, rs, &flag, ss));
        for (int i = 0; i < 3; i++)
            UNTOUCHED(ss[i], "MPI_Testall (success)");

        for (int i = 0; i < 3; i++)
            CHECK_SUCCESS(MPI_Irecv(&ys[i], 1, MPI_INT, from, 30 + i, MPI_COMM_WORLD, &rs[i]));
        for (int i = 0; i < 3; i++)
            CHECK_SUCCESS(MPI_Send(&x, 1, MPI_INT, peer, 30 + i, MPI_COMM_WORLD));
        while (done < 3) {
            for (int i = 0; i < 3; i++)
                ss[i] = poisoned();
            CHECK_SUCCESS(MPI_Waitsome(3, rs, &n, ind, ss));
            for (int i = 0; i < n; i++)
                UNTOUCHED(ss[i], "MPI_Waitsome (success)");
            done += n;
        }

        for (int i = 0; i < 3; i++)
            CHECK_SUCCESS(MPI_Irecv(&ys[i], 1, MPI_INT, from, 40 + i, MPI_COMM_WORLD, &rs[i]));
        for (int i = 0; i < 3; i++)
            CHECK_SUCCESS(MPI_Send(&x, 1, MPI_INT, peer, 40 + i, MPI_COMM_WORLD));
        for (done = 0; done < 3;) {
            for (int i = 0; i < 3; i++)
                ss[i] = poisoned();
            CHECK_SUCCESS(MPI_Testsome(3, rs, &n, ind, ss));
            for (int i = 0; i < n; i++)
                UNTOUCHED(ss[i], "MPI_Testsome (success)");
            done += n;
        }

        /* one of them truncated: MPI_ERR_IN_STATUS, and every MPI_ERROR is set */
        int big[2] = {1, 2};
        CHECK_SUCCESS(MPI_Irecv(&ys[0], 1, MPI_INT, from, 50, MPI_COMM_WORLD, &rs[0]));
        CHECK_SUCCESS(MPI_Irecv(&ys[1], 1, MPI_INT, from, 51, MPI_COMM_WORLD, &rs[1]));
        CHECK_SUCCESS(MPI_Send(big, 1, MPI_INT, peer, 50, MPI_COMM_WORLD));
        CHECK_SUCCESS(MPI_Send(big, 2, MPI_INT, peer, 51, MPI_COMM_WORLD));
        for (int i = 0; i < 2; i++)
            ss[i] = poisoned();
        CHECK_ERR(MPI_Waitall(2, rs, ss), MPI_ERR_IN_STATUS, NULL);
        CHECK_EQ_INT(ss[0].MPI_ERROR, MPI_SUCCESS);
        CHECK_EQ_INT(error_class(ss[1].MPI_ERROR), MPI_ERR_TRUNCATE);
    }

    MPI_Finalize();
    return 0;
}
