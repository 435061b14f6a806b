/* p2p_self.c — point-to-point on one process (messages to itself, and on MPI_COMM_SELF):
 * every mode, wildcards, order, truncation, probes, cancel, persistent and buffered sends. */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static void fill(int *a, int n, int base)
{
    for (int i = 0; i < n; i++)
        a[i] = base + i;
}

static void expect(const int *a, int n, int base)
{
    for (int i = 0; i < n; i++)
        CHECK(a[i] == base + i, "element %d = %d, expected %d", i, a[i], base + i);
}

int main(int argc, char **argv)
{
    int me, in[64], out[64], count, flag;
    MPI_Status st;
    MPI_Request rq[4];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    /* every blocking-compatible mode to ourselves through a nonblocking receive */
    for (int mode = 0; mode < 3; mode++) {
        fill(out, 64, 100 * mode);
        memset(in, 0, sizeof in);
        CHECK_SUCCESS(MPI_Irecv(in, 64, MPI_INT, me, 7, MPI_COMM_WORLD, &rq[0]));
        if (mode == 0)
            CHECK_SUCCESS(MPI_Send(out, 64, MPI_INT, me, 7, MPI_COMM_WORLD));
        else if (mode == 1)
            CHECK_SUCCESS(MPI_Ssend(out, 64, MPI_INT, me, 7, MPI_COMM_WORLD));
        else
            CHECK_SUCCESS(MPI_Rsend(out, 64, MPI_INT, me, 7, MPI_COMM_WORLD));
        CHECK_SUCCESS(MPI_Wait(&rq[0], &st));
        CHECK(rq[0] == MPI_REQUEST_NULL, "request not freed by MPI_Wait");
        expect(in, 64, 100 * mode);
        CHECK_EQ_INT(st.MPI_SOURCE, me);
        CHECK_EQ_INT(st.MPI_TAG, 7);
        MPI_Get_count(&st, MPI_INT, &count);
        CHECK_EQ_INT(count, 64);
    }

    /* non-overtaking: two messages with the same envelope arrive in order; wildcards */
    fill(out, 4, 1);
    MPI_Send(out, 1, MPI_INT, me, 5, MPI_COMM_WORLD);
    MPI_Send(out + 1, 1, MPI_INT, me, 5, MPI_COMM_WORLD);
    MPI_Send(out + 2, 1, MPI_INT, me, 9, MPI_COMM_WORLD);
    MPI_Recv(in, 1, MPI_INT, MPI_ANY_SOURCE, 5, MPI_COMM_WORLD, &st);
    CHECK_EQ_INT(in[0], 1);
    MPI_Recv(in, 1, MPI_INT, me, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
    CHECK_EQ_INT(in[0], 2);
    CHECK_EQ_INT(st.MPI_TAG, 5);
    MPI_Recv(in, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
    CHECK_EQ_INT(in[0], 3);
    CHECK_EQ_INT(st.MPI_TAG, 9);

    /* communicators never match each other: SELF's message waits for a SELF receive */
    MPI_Send(out, 1, MPI_INT, 0, 3, MPI_COMM_SELF);
    MPI_Iprobe(MPI_ANY_SOURCE, 3, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
    CHECK(!flag, "a message on MPI_COMM_SELF matched a probe on MPI_COMM_WORLD");
    MPI_Recv(in, 1, MPI_INT, 0, 3, MPI_COMM_SELF, MPI_STATUS_IGNORE);

    /* truncation: MPI_ERR_TRUNCATE, nothing written past the buffer */
    fill(out, 8, 50);
    in[4] = -1;
    MPI_Send(out, 8, MPI_INT, me, 1, MPI_COMM_WORLD);
    int err = MPI_Recv(in, 4, MPI_INT, me, 1, MPI_COMM_WORLD, &st);
    CHECK_ERR(err, MPI_ERR_TRUNCATE, "MPI_Recv", "truncated");
    expect(in, 4, 50);
    CHECK_EQ_INT(in[4], -1);

    /* probe, iprobe, mprobe/mrecv, improbe/imrecv, MPI_PROC_NULL */
    MPI_Send(out, 3, MPI_INT, me, 11, MPI_COMM_WORLD);
    MPI_Probe(MPI_ANY_SOURCE, 11, MPI_COMM_WORLD, &st);
    MPI_Get_count(&st, MPI_INT, &count);
    CHECK_EQ_INT(count, 3);
    MPI_Message msg;
    MPI_Mprobe(me, 11, MPI_COMM_WORLD, &msg, &st);
    CHECK(msg != MPI_MESSAGE_NULL, "no message from MPI_Mprobe");
    MPI_Iprobe(me, 11, MPI_COMM_WORLD, &flag, &st);
    CHECK(!flag, "a matched-probed message can still be probed");
    MPI_Mrecv(in, 3, MPI_INT, &msg, &st);
    CHECK(msg == MPI_MESSAGE_NULL, "message handle not reset");
    expect(in, 3, 50);
    MPI_Improbe(me, 12, MPI_COMM_WORLD, &flag, &msg, &st);
    CHECK(!flag, "improbe found a message that was never sent");
    MPI_Send(out, 2, MPI_INT, me, 12, MPI_COMM_WORLD);
    MPI_Improbe(me, 12, MPI_COMM_WORLD, &flag, &msg, &st);
    CHECK(flag, "improbe missed a message");
    MPI_Imrecv(in, 2, MPI_INT, &msg, &rq[0]);
    MPI_Wait(&rq[0], &st);
    expect(in, 2, 50);
    MPI_Mprobe(MPI_PROC_NULL, 0, MPI_COMM_WORLD, &msg, &st);
    CHECK(msg == MPI_MESSAGE_NO_PROC, "MPI_Mprobe from MPI_PROC_NULL gives MPI_MESSAGE_NO_PROC");
    MPI_Mrecv(in, 2, MPI_INT, &msg, &st);
    CHECK_EQ_INT(st.MPI_SOURCE, MPI_PROC_NULL);
    CHECK_SUCCESS(MPI_Send(out, 2, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD));
    CHECK_SUCCESS(MPI_Recv(in, 2, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &st));
    CHECK_EQ_INT(st.MPI_SOURCE, MPI_PROC_NULL);
    MPI_Get_count(&st, MPI_INT, &count);
    CHECK_EQ_INT(count, 0);

    /* cancel a receive nobody sends to */
    MPI_Irecv(in, 1, MPI_INT, me, 99, MPI_COMM_WORLD, &rq[0]);
    MPI_Cancel(&rq[0]);
    MPI_Wait(&rq[0], &st);
    MPI_Test_cancelled(&st, &flag);
    CHECK(flag, "receive not cancelled");

    /* persistent requests started many times; Startall; Request_free of an inactive one */
    MPI_Send_init(out, 4, MPI_INT, me, 21, MPI_COMM_WORLD, &rq[0]);
    MPI_Recv_init(in, 4, MPI_INT, me, 21, MPI_COMM_WORLD, &rq[1]);
    for (int i = 0; i < 10; i++) {
        fill(out, 4, i * 10);
        MPI_Startall(2, rq);
        MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
        CHECK(rq[0] != MPI_REQUEST_NULL, "persistent request freed by a wait");
        expect(in, 4, i * 10);
    }
    MPI_Request_free(&rq[0]);
    MPI_Request_free(&rq[1]);
    CHECK(rq[0] == MPI_REQUEST_NULL && rq[1] == MPI_REQUEST_NULL, "MPI_Request_free did not reset the handles");

    /* Waitany, Testall, Waitsome, Request_get_status */
    MPI_Irecv(in, 1, MPI_INT, me, 31, MPI_COMM_WORLD, &rq[0]);
    MPI_Irecv(in + 1, 1, MPI_INT, me, 32, MPI_COMM_WORLD, &rq[1]);
    MPI_Request_get_status(rq[1], &flag, &st);
    CHECK(!flag, "get_status says complete before a send");
    MPI_Send(out, 1, MPI_INT, me, 32, MPI_COMM_WORLD);
    int index;
    MPI_Waitany(2, rq, &index, &st);
    CHECK_EQ_INT(index, 1);
    MPI_Testall(2, rq, &flag, MPI_STATUSES_IGNORE);
    CHECK(!flag, "testall says all are complete");
    MPI_Send(out, 1, MPI_INT, me, 31, MPI_COMM_WORLD);
    int outcount, idx[2];
    MPI_Waitsome(2, rq, &outcount, idx, MPI_STATUSES_IGNORE);
    CHECK_EQ_INT(outcount, 1);
    CHECK_EQ_INT(idx[0], 0);
    MPI_Waitsome(2, rq, &outcount, idx, MPI_STATUSES_IGNORE);
    CHECK_EQ_INT(outcount, MPI_UNDEFINED);

    /* sendrecv and sendrecv_replace with ourselves */
    fill(out, 8, 7);
    MPI_Sendrecv(out, 8, MPI_INT, me, 41, in, 8, MPI_INT, me, 41, MPI_COMM_WORLD, &st);
    expect(in, 8, 7);
    MPI_Sendrecv_replace(in, 8, MPI_INT, me, 42, me, 42, MPI_COMM_WORLD, &st);
    expect(in, 8, 7);

    /* buffered sends: no buffer -> MPI_ERR_BUFFER; with one they complete at once */
    err = MPI_Bsend(out, 4, MPI_INT, me, 51, MPI_COMM_WORLD);
    CHECK_ERR(err, MPI_ERR_BUFFER, "MPI_Bsend");
    int bsize = 4 * (int)sizeof(int) * 2 + 2 * MPI_BSEND_OVERHEAD;
    char *bbuf = malloc((size_t)bsize);
    MPI_Buffer_attach(bbuf, bsize);
    CHECK_SUCCESS(MPI_Bsend(out, 4, MPI_INT, me, 51, MPI_COMM_WORLD));
    CHECK_SUCCESS(MPI_Ibsend(out, 4, MPI_INT, me, 52, MPI_COMM_WORLD, &rq[0]));
    MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
    MPI_Recv(in, 4, MPI_INT, me, 52, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    expect(in, 4, 7);
    MPI_Recv(in, 4, MPI_INT, me, 51, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    expect(in, 4, 7);
    void *back;
    MPI_Buffer_detach(&back, &bsize);
    CHECK(back == bbuf, "MPI_Buffer_detach returned another buffer");
    free(bbuf);

    /* large messages to ourselves, and status accessors */
    int n = 1 << 20;
    int *big = malloc(sizeof(int) * (size_t)n), *big2 = malloc(sizeof(int) * (size_t)n);
    fill(big, n, 3);
    MPI_Send(big, n, MPI_INT, me, 61, MPI_COMM_WORLD);
    MPI_Recv(big2, n, MPI_INT, me, 61, MPI_COMM_WORLD, &st);
    expect(big2, n, 3);
    MPI_Count c;
    MPI_Get_elements_x(&st, MPI_INT, &c);
    CHECK(c == n, "MPI_Get_elements_x = %lld", (long long)c);
    MPI_Status_set_elements(&st, MPI_DOUBLE, 5);
    MPI_Get_count(&st, MPI_DOUBLE, &count);
    CHECK_EQ_INT(count, 5);
    MPI_Get_count(&st, MPI_INT, &count);
    CHECK_EQ_INT(count, 10);
    free(big);
    free(big2);

    MPI_Finalize();
    return 0;
}
