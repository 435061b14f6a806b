/* partitioned: MPI-4 partitioned communication over a ring (rank r sends to r+1): data checked
 * byte for byte, differing partition counts, Pready orders and forms, rounds, early Parrived,
 * threads marking partitions, a non-contiguous type, a size mismatch and bad input. */
#include "check.h"

#include <pthread.h>

static int rank, size, next, prev;

static int val(int round, int from, long i)
{
    return (int)(round * 1000003 + from * 7919 + i * 31 + 5);
}

/* One transfer of total = ps * sc ints: ps send partitions, pr receive partitions; order
 * 0 = in order, 1 = reverse, 2 = Pready_range in halves, 3 = Pready_list shuffled. */
static void transfer(int ps, int pr, int total, int order, int rounds)
{
    int *sbuf = malloc(sizeof(int) * (size_t)total), *rbuf = malloc(sizeof(int) * (size_t)total);
    MPI_Request s, r;
    CHECK_SUCCESS(MPI_Precv_init(rbuf, pr, total / pr, MPI_INT, prev, 7, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
    CHECK_SUCCESS(MPI_Psend_init(sbuf, ps, total / ps, MPI_INT, next, 7, MPI_COMM_WORLD, MPI_INFO_NULL, &s));
    for (int round = 0; round < rounds; round++) {
        for (int i = 0; i < total; i++)
            sbuf[i] = val(round, rank, i);
        memset(rbuf, 0xee, sizeof(int) * (size_t)total);
        MPI_Request both[2] = {r, s};
        CHECK_SUCCESS(MPI_Startall(2, both));
        if (order == 0)
            for (int p = 0; p < ps; p++)
                CHECK_SUCCESS(MPI_Pready(p, s));
        else if (order == 1)
            for (int p = ps - 1; p >= 0; p--)
                CHECK_SUCCESS(MPI_Pready(p, s));
        else if (order == 2) {
            CHECK_SUCCESS(MPI_Pready_range(ps / 2, ps - 1, s));
            if (ps / 2 > 0)
                CHECK_SUCCESS(MPI_Pready_range(0, ps / 2 - 1, s));
        } else {
            int *list = malloc(sizeof(int) * (size_t)ps);
            for (int p = 0; p < ps; p++)
                list[p] = p;
            unsigned seed = (unsigned)(round * 13 + rank + 1);
            for (int p = ps - 1; p > 0; p--) {
                seed = seed * 1103515245u + 12345u;
                int q = (int)((seed >> 8) % (unsigned)(p + 1)), t = list[p];
                list[p] = list[q];
                list[q] = t;
            }
            CHECK_SUCCESS(MPI_Pready_list(ps, list, s));
            free(list);
        }
        MPI_Status st[2];
        CHECK_SUCCESS(MPI_Waitall(2, both, st));
        CHECK_EQ_INT(st[0].MPI_SOURCE, prev);
        CHECK_EQ_INT(st[0].MPI_TAG, 7);
        int got = -1;
        MPI_Get_count(&st[0], MPI_INT, &got);
        CHECK_EQ_INT(got, total);
        for (int i = 0; i < total; i++)
            CHECK(rbuf[i] == val(round, prev, i), "ps %d pr %d order %d round %d: rbuf[%d] = %d, expected %d", ps,
                  pr, order, round, i, rbuf[i], val(round, prev, i));
        for (int p = 0; p < pr && CHECK_SWITCHYARD; p++) { /* MPICH 4.0.2 refuses an inactive request */
            int flag = 0;
            CHECK_SUCCESS(MPI_Parrived(r, p, &flag)); /* inactive: true, as MPI_Test says */
            CHECK_EQ_INT(flag, 1);
        }
    }
    CHECK_SUCCESS(MPI_Request_free(&r));
    CHECK_SUCCESS(MPI_Request_free(&s));
    free(sbuf);
    free(rbuf);
}

/* Partition 0 arrives while the sender holds the rest back until the receiver says so. */
static void early(int ps, int pr)
{
    enum { TOTAL = 64 };
    int sbuf[TOTAL], rbuf[TOTAL];
    MPI_Request s, r;
    CHECK_SUCCESS(MPI_Precv_init(rbuf, pr, TOTAL / pr, MPI_INT, prev, 8, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
    CHECK_SUCCESS(MPI_Psend_init(sbuf, ps, TOTAL / ps, MPI_INT, next, 8, MPI_COMM_WORLD, MPI_INFO_NULL, &s));
    for (int i = 0; i < TOTAL; i++)
        sbuf[i] = val(9, rank, i), rbuf[i] = -1;
    CHECK_SUCCESS(MPI_Start(&r));
    CHECK_SUCCESS(MPI_Start(&s));
    /* enough send partitions to cover receive partition 0 */
    int cover = (TOTAL / pr + TOTAL / ps - 1) / (TOTAL / ps);
    CHECK_SUCCESS(MPI_Pready_range(0, cover - 1, s));
    int flag = 0;
    while (!flag)
        CHECK_SUCCESS(MPI_Parrived(r, 0, &flag));
    for (int i = 0; i < TOTAL / pr; i++)
        CHECK_EQ_INT(rbuf[i], val(9, prev, i));
    CHECK_SUCCESS(MPI_Parrived(r, pr - 1, &flag));
    CHECK(!flag, "Parrived(%d) says true while the sender holds it back", pr - 1);
    int go = 1, got = 0;
    MPI_Request g;
    CHECK_SUCCESS(MPI_Isend(&go, 1, MPI_INT, prev, 9, MPI_COMM_WORLD, &g));
    CHECK_SUCCESS(MPI_Recv(&got, 1, MPI_INT, next, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK_SUCCESS(MPI_Wait(&g, MPI_STATUS_IGNORE));
    if (cover < ps)
        CHECK_SUCCESS(MPI_Pready_range(cover, ps - 1, s));
    for (int p = 0; p < pr; p++) /* each partition arrives */
        for (flag = 0; !flag;)
            CHECK_SUCCESS(MPI_Parrived(r, p, &flag));
    CHECK_SUCCESS(MPI_Wait(&s, MPI_STATUS_IGNORE));
    CHECK_SUCCESS(MPI_Wait(&r, MPI_STATUS_IGNORE));
    for (int i = 0; i < TOTAL; i++)
        CHECK_EQ_INT(rbuf[i], val(9, prev, i));
    CHECK_SUCCESS(MPI_Request_free(&r));
    CHECK_SUCCESS(MPI_Request_free(&s));
}

enum { TPARTS = 32, TCOUNT = 50, NTHREADS = 4 };
static MPI_Request treq;

static void *marker(void *arg)
{
    int t = (int)(long)arg;
    for (int p = TPARTS - 1 - t; p >= 0; p -= NTHREADS)
        CHECK_SUCCESS(MPI_Pready(p, treq));
    return NULL;
}

/* Partitions marked ready by several threads. */
static void threads(void)
{
    static int sbuf[TPARTS * TCOUNT], rbuf[TPARTS * TCOUNT];
    MPI_Request r;
    CHECK_SUCCESS(MPI_Precv_init(rbuf, TPARTS / 4, TCOUNT * 4, MPI_INT, prev, 10, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
    CHECK_SUCCESS(MPI_Psend_init(sbuf, TPARTS, TCOUNT, MPI_INT, next, 10, MPI_COMM_WORLD, MPI_INFO_NULL, &treq));
    for (int round = 0; round < 3; round++) {
        for (int i = 0; i < TPARTS * TCOUNT; i++)
            sbuf[i] = val(round + 20, rank, i), rbuf[i] = -1;
        CHECK_SUCCESS(MPI_Start(&r));
        CHECK_SUCCESS(MPI_Start(&treq));
        pthread_t th[NTHREADS];
        for (long t = 0; t < NTHREADS; t++)
            CHECK(pthread_create(&th[t], NULL, marker, (void *)t) == 0, "pthread_create");
        for (int t = 0; t < NTHREADS; t++)
            pthread_join(th[t], NULL);
        CHECK_SUCCESS(MPI_Wait(&treq, MPI_STATUS_IGNORE));
        CHECK_SUCCESS(MPI_Wait(&r, MPI_STATUS_IGNORE));
        for (int i = 0; i < TPARTS * TCOUNT; i++)
            CHECK_EQ_INT(rbuf[i], val(round + 20, prev, i));
    }
    CHECK_SUCCESS(MPI_Request_free(&r));
    CHECK_SUCCESS(MPI_Request_free(&treq));
}

/* Send partitions of a strided type (every other int), received as 3 contiguous partitions. */
static void strided(void)
{
    enum { PS = 6, CNT = 5, TOTAL = PS * CNT };
    int sbuf[2 * TOTAL], rbuf[TOTAL];
    MPI_Datatype every_other;
    CHECK_SUCCESS(MPI_Type_vector(1, 1, 2, MPI_INT, &every_other));
    CHECK_SUCCESS(MPI_Type_create_resized(every_other, 0, 2 * sizeof(int), &every_other));
    CHECK_SUCCESS(MPI_Type_commit(&every_other));
    for (int i = 0; i < 2 * TOTAL; i++)
        sbuf[i] = i % 2 ? -7 : val(30, rank, i / 2);
    MPI_Request s, r;
    CHECK_SUCCESS(MPI_Precv_init(rbuf, 3, TOTAL / 3, MPI_INT, prev, 11, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
    CHECK_SUCCESS(MPI_Psend_init(sbuf, PS, CNT, every_other, next, 11, MPI_COMM_WORLD, MPI_INFO_NULL, &s));
    CHECK_SUCCESS(MPI_Start(&r));
    CHECK_SUCCESS(MPI_Start(&s));
    for (int p = PS - 1; p >= 0; p--)
        CHECK_SUCCESS(MPI_Pready(p, s));
    CHECK_SUCCESS(MPI_Wait(&s, MPI_STATUS_IGNORE));
    CHECK_SUCCESS(MPI_Wait(&r, MPI_STATUS_IGNORE));
    for (int i = 0; i < TOTAL; i++)
        CHECK_EQ_INT(rbuf[i], val(30, prev, i));
    CHECK_SUCCESS(MPI_Request_free(&r));
    CHECK_SUCCESS(MPI_Request_free(&s));
    CHECK_SUCCESS(MPI_Type_free(&every_other));
}

/* Bad input and a size mismatch (Switchyard's classes and messages). */
static void bad_input(void)
{
    MPI_Comm comm;
    CHECK_SUCCESS(MPI_Comm_dup(MPI_COMM_WORLD, &comm));
    CHECK_SUCCESS(MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN));
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int sbuf[8] = {0}, rbuf[8];
    MPI_Request s, r;
    CHECK_SUCCESS(MPI_Precv_init(rbuf, 4, 2, MPI_INT, prev, 1, comm, MPI_INFO_NULL, &r));
    CHECK_SUCCESS(MPI_Psend_init(sbuf, 4, 2, MPI_INT, next, 1, comm, MPI_INFO_NULL, &s));
    CHECK_ERR(MPI_Pready(0, s), MPI_ERR_REQUEST, "MPI_Pready", "request", "MPI_Start");
    CHECK_SUCCESS(MPI_Start(&r));
    CHECK_SUCCESS(MPI_Start(&s));
    CHECK_ERR(MPI_Pready(4, s), MPI_ERR_ARG, "MPI_Pready", "'partition' = 4");
    CHECK_ERR(MPI_Pready(-1, s), MPI_ERR_ARG, "MPI_Pready", "'partition' = -1");
    CHECK_ERR(MPI_Pready(0, r), MPI_ERR_ARG, "MPI_Pready", "request", "receive");
    int flag;
    CHECK_ERR(MPI_Parrived(s, 0, &flag), MPI_ERR_ARG, "MPI_Parrived", "request", "send");
    CHECK_ERR(MPI_Parrived(r, 9, &flag), MPI_ERR_ARG, "MPI_Parrived", "'partition' = 9");
    CHECK_SUCCESS(MPI_Pready(1, s));
    CHECK_ERR(MPI_Pready(1, s), MPI_ERR_ARG, "MPI_Pready", "'partition' = 1", "already");
    CHECK_ERR(MPI_Pready_range(3, 2, s), MPI_ERR_ARG, "MPI_Pready_range", "partition_low");
    CHECK_ERR(MPI_Pready_range(2, 4, s), MPI_ERR_ARG, "MPI_Pready_range", "'partition_high' = 4");
    int dup[2] = {2, 2};
    CHECK_ERR(MPI_Pready_list(2, dup, s), MPI_ERR_ARG, "MPI_Pready_list", "array_of_partitions[1]");
    int one[1] = {1};
    CHECK_ERR(MPI_Pready_list(1, one, s), MPI_ERR_ARG, "MPI_Pready_list", "array_of_partitions[0]", "already");
    int rest[3] = {3, 0, 2};
    CHECK_SUCCESS(MPI_Pready_list(3, rest, s));
    CHECK_SUCCESS(MPI_Wait(&s, MPI_STATUS_IGNORE));
    CHECK_SUCCESS(MPI_Wait(&r, MPI_STATUS_IGNORE));
    MPI_Request plain;
    CHECK_SUCCESS(MPI_Send_init(sbuf, 1, MPI_INT, next, 1, comm, &plain));
    CHECK_ERR(MPI_Pready(0, plain), MPI_ERR_REQUEST, "MPI_Pready", "not a partitioned request");
    CHECK_SUCCESS(MPI_Request_free(&plain));
    CHECK_ERR(MPI_Psend_init(sbuf, -1, 2, MPI_INT, next, 1, comm, MPI_INFO_NULL, &plain), MPI_ERR_ARG,
              "MPI_Psend_init", "'partitions' = -1");
    CHECK_SUCCESS(MPI_Request_free(&r));
    CHECK_SUCCESS(MPI_Request_free(&s));

    /* 4 x 2 ints sent, 2 x 3 ints expected: the receive fails, the send completes */
    CHECK_SUCCESS(MPI_Precv_init(rbuf, 2, 3, MPI_INT, prev, 2, comm, MPI_INFO_NULL, &r));
    CHECK_SUCCESS(MPI_Psend_init(sbuf, 4, 2, MPI_INT, next, 2, comm, MPI_INFO_NULL, &s));
    for (int round = 0; round < 2; round++) {
        CHECK_SUCCESS(MPI_Start(&r));
        CHECK_SUCCESS(MPI_Start(&s));
        CHECK_SUCCESS(MPI_Pready_range(0, 3, s));
        CHECK_SUCCESS(MPI_Wait(&s, MPI_STATUS_IGNORE));
        CHECK_ERR(MPI_Wait(&r, MPI_STATUS_IGNORE), MPI_ERR_TRUNCATE, "MPI_Wait", "4 partitions of 8 bytes",
                  "2 partitions of 12 bytes");
    }
    CHECK_SUCCESS(MPI_Request_free(&r));
    CHECK_SUCCESS(MPI_Request_free(&s));
    CHECK_SUCCESS(MPI_Comm_free(&comm));
}

int main(int argc, char **argv)
{
    int provided;
    CHECK_SUCCESS(MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided));
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    next = (rank + 1) % size;
    prev = (rank + size - 1) % size;
    for (int order = 0; order < 4; order++) {
        transfer(8, 8, 8 * 16, order, 3);
        transfer(8, 2, 8 * 16, order, 2);
        transfer(2, 8, 8 * 16, order, 2);
        transfer(5, 3, 15 * 1000, order, 2); /* partitions cut across each other's */
    }
    transfer(1, 1, 1 << 18, 0, 2); /* 1 MiB in one partition */
    transfer(64, 4, 1 << 18, 3, 2);
    if (CHECK_SWITCHYARD) { /* MPICH 4.0.2 moves the data only after the last MPI_Pready: the
                             * standard allows that, and this check would wait forever there */
        early(4, 4);
        early(8, 2);
        early(2, 8);
    }
    strided();
    if (provided == MPI_THREAD_MULTIPLE)
        threads();
    if (CHECK_SWITCHYARD)
        bad_input();
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf("partitioned: OK on %d ranks\n", size);
    MPI_Finalize();
    return 0;
}
