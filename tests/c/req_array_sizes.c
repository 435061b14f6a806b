/* req_array_sizes.c — the multiple-completion calls on arrays that the C faces convert on the
 * stack (up to 16 requests) and in memory from malloc (more): data, statuses, null requests
 * among the others, and a bad handle named by its index, on either side of the boundary. */
#include <stdint.h>
#include <stdio.h>
#include "check.h"

#define MAXN 40
#define BAD ((MPI_Request)(intptr_t)0x12345677)

/* Posts n requests in r (n even), pair j at 2j and 2j + 1: a receive of tag 2j from `from`,
 * then a send of out[2j + 1] with tag 2j to `to`; every third pair is two MPI_REQUEST_NULL. */
static void post(MPI_Request *r, int n, int *in, int *out, int to, int from)
{
    for (int i = 0; i < n; i++) {
        in[i] = -1;
        out[i] = 1000 + i;
    }
    for (int j = 0; 2 * j < n; j++) {
        if (j % 3 == 2) {
            r[2 * j] = r[2 * j + 1] = MPI_REQUEST_NULL;
            continue;
        }
        CHECK_SUCCESS(MPI_Irecv(&in[2 * j], 1, MPI_INT, from, 2 * j, MPI_COMM_WORLD, &r[2 * j]));
        CHECK_SUCCESS(MPI_Isend(&out[2 * j + 1], 1, MPI_INT, to, 2 * j, MPI_COMM_WORLD, &r[2 * j + 1]));
    }
}

/* Every request of r is null; the receives got their data and statuses, the null entries the
 * empty status. A send's status is not looked at (undefined but for MPI_ERROR). */
static void check_done(const char *what, int n, const MPI_Request *r, MPI_Status *st, const int *in, int from)
{
    for (int i = 0; i < n; i++) {
        CHECK(r[i] == MPI_REQUEST_NULL, "%s of %d: request %d not MPI_REQUEST_NULL", what, n, i);
        if ((i / 2) % 3 == 2) {
            int count = -1;
            MPI_Get_count(&st[i], MPI_INT, &count);
            CHECK(st[i].MPI_SOURCE == MPI_ANY_SOURCE && st[i].MPI_TAG == MPI_ANY_TAG && count == 0,
                  "%s of %d: null request %d: source %d tag %d count %d, want the empty status",
                  what, n, i, st[i].MPI_SOURCE, st[i].MPI_TAG, count);
        } else if (i % 2 == 0) {
            CHECK(in[i] == 1000 + i + 1, "%s of %d: receive %d got %d, want %d", what, n, i, in[i],
                  1000 + i + 1);
            CHECK(st[i].MPI_SOURCE == from && st[i].MPI_TAG == i,
                  "%s of %d: receive %d: source %d tag %d, want %d and %d", what, n, i,
                  st[i].MPI_SOURCE, st[i].MPI_TAG, from, i);
        }
    }
}

int main(int argc, char **argv)
{
    static const int sizes[] = {1, 2, 15, 16, 17, 40};
    int rank, size, in[MAXN], out[MAXN], flag;
    MPI_Request r[MAXN];
    MPI_Status st[MAXN];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int to = (rank + 1) % size, from = (rank + size - 1) % size;

    for (unsigned k = 0; k < sizeof sizes / sizeof *sizes; k++) {
        int n = sizes[k] + sizes[k] % 2; /* whole pairs */
        if (n > MAXN)
            n = MAXN;

        post(r, n, in, out, to, from);
        CHECK_SUCCESS(MPI_Waitall(n, r, st));
        check_done("MPI_Waitall", n, r, st, in, from);

        post(r, n, in, out, to, from);
        for (flag = 0; !flag;)
            CHECK_SUCCESS(MPI_Testall(n, r, &flag, st));
        check_done("MPI_Testall", n, r, st, in, from);

        /* a bad handle among null ones at the first, the last and (longer arrays) the 17th
         * place: the call fails naming that element, and leaves the array alone */
        n = sizes[k];
        int places[] = {0, n - 1, n > 16 ? 16 : 0};
        for (int p = 0; p < 3; p++) {
            char at[64];
            for (int i = 0; i < n; i++)
                r[i] = MPI_REQUEST_NULL;
            r[places[p]] = BAD;
            snprintf(at, sizeof at, "array_of_requests[%d]", places[p]);
            CHECK_ERR(MPI_Waitall(n, r, st), MPI_ERR_REQUEST, "MPI_Waitall", at);
            CHECK_ERR(MPI_Testall(n, r, &flag, MPI_STATUSES_IGNORE), MPI_ERR_REQUEST, "MPI_Testall", at);
            for (int i = 0; i < n; i++)
                CHECK(r[i] == (i == places[p] ? BAD : MPI_REQUEST_NULL),
                      "MPI_Waitall or MPI_Testall of %d: request %d changed by a call that failed", n, i);
        }
    }
    /* MPI_Testall that finds a request pending leaves every status as it was */
    MPI_Request q[3];
    MPI_Status qs[3];
    int v = 0, w = 5;
    CHECK_SUCCESS(MPI_Irecv(&v, 1, MPI_INT, rank, 99, MPI_COMM_WORLD, &q[0]));
    q[1] = MPI_REQUEST_NULL;
    qs[0].MPI_SOURCE = qs[1].MPI_SOURCE = 4242;
    qs[0].MPI_TAG = qs[1].MPI_TAG = 4343;
    CHECK_SUCCESS(MPI_Testall(2, q, &flag, qs));
    CHECK(!flag, "MPI_Testall: a receive of a message never sent is complete");
    CHECK(qs[0].MPI_SOURCE == 4242 && qs[1].MPI_SOURCE == 4242 && qs[0].MPI_TAG == 4343 && qs[1].MPI_TAG == 4343,
          "MPI_Testall with flag false changed the statuses (sources %d %d, tags %d %d)", qs[0].MPI_SOURCE,
          qs[1].MPI_SOURCE, qs[0].MPI_TAG, qs[1].MPI_TAG);
    CHECK_SUCCESS(MPI_Isend(&w, 1, MPI_INT, rank, 99, MPI_COMM_WORLD, &q[2]));
    CHECK_SUCCESS(MPI_Waitall(3, q, qs));
    CHECK(v == 5 && qs[0].MPI_SOURCE == rank && qs[0].MPI_TAG == 99,
          "MPI_Waitall after MPI_Testall: got %d from %d tag %d", v, qs[0].MPI_SOURCE, qs[0].MPI_TAG);

    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
