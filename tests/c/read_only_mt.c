/* read_only_mt: the read_only calls' fast path (MPI_Comm_rank/size, MPI_Type_size, no lock) beside
 * threads that make and free thousands of datatypes, communicators and requests at once, so that
 * the object tables grow under the readers' feet, for STRESS_SECONDS (default 5). */
#include "check.h"

#include <pthread.h>
#include <stdint.h>

#define NFIXED 8     /* long-lived datatypes: contiguous of k + 1 ints */
#define NTYPES 3000  /* datatypes a churner holds at its peak (the table doubles 6 times) */
#define NCOMMS 40
#define NREQS 400

static int rank, size;
static MPI_Comm fixed_comm, churn_base[2];
static MPI_Datatype fixed_type[NFIXED];
static double deadline;
static pthread_mutex_t cur_mx = PTHREAD_MUTEX_INITIALIZER;
static MPI_Datatype cur_type = MPI_DATATYPE_NULL; /* a churner's newest type (cur_mx) */
static int cur_size;

static void *reader(void *arg)
{
    long checks = 0;
    (void)arg;
    while (MPI_Wtime() < deadline) {
        for (int i = 0; i < 1000; i++) {
            int r, s, ts;
            CHECK_SUCCESS(MPI_Comm_rank(fixed_comm, &r));
            CHECK_SUCCESS(MPI_Comm_size(fixed_comm, &s));
            CHECK(r == rank && s == size, "rank %d: Comm_rank/size gave %d/%d", rank, r, s);
            int k = i % NFIXED;
            CHECK_SUCCESS(MPI_Type_size(fixed_type[k], &ts));
            CHECK(ts == (k + 1) * (int)sizeof(int), "rank %d: Type_size of type %d gave %d", rank, k, ts);
            checks++;
        }
        pthread_mutex_lock(&cur_mx);
        if (cur_type != MPI_DATATYPE_NULL) {
            int ts;
            CHECK_SUCCESS(MPI_Type_size(cur_type, &ts));
            CHECK(ts == cur_size, "rank %d: Type_size of a new type gave %d, not %d", rank, ts, cur_size);
        }
        pthread_mutex_unlock(&cur_mx);
    }
    return (void *)(intptr_t)(checks > 0);
}

static void *churner(void *arg)
{
    int c = (int)(intptr_t)arg, rounds = 0;
    static MPI_Datatype types[2][NTYPES];
    MPI_Comm comms[NCOMMS];
    MPI_Request reqs[2 * NREQS];
    int sbuf[NREQS], rbuf[NREQS];
    while (MPI_Wtime() < deadline) {
        for (int i = 0; i < NTYPES; i++) {
            CHECK_SUCCESS(MPI_Type_contiguous(i % 50 + 1, MPI_CHAR, &types[c][i]));
            if (i % 100 == 0) {
                CHECK_SUCCESS(MPI_Type_commit(&types[c][i]));
                pthread_mutex_lock(&cur_mx);
                cur_type = types[c][i];
                cur_size = i % 50 + 1;
                pthread_mutex_unlock(&cur_mx);
            }
        }
        for (int i = 0; i < NCOMMS; i++)
            CHECK_SUCCESS(MPI_Comm_dup(churn_base[c], &comms[i]));
        for (int i = 0; i < NREQS; i++) {
            sbuf[i] = rounds * NREQS + i;
            CHECK_SUCCESS(MPI_Irecv(&rbuf[i], 1, MPI_INT, 0, i, comms[i % NCOMMS], &reqs[i]));
            CHECK_SUCCESS(MPI_Isend(&sbuf[i], 1, MPI_INT, 0, i, comms[i % NCOMMS], &reqs[NREQS + i]));
        }
        CHECK_SUCCESS(MPI_Waitall(2 * NREQS, reqs, MPI_STATUSES_IGNORE));
        for (int i = 0; i < NREQS; i++)
            CHECK(rbuf[i] == rounds * NREQS + i, "rank %d churner %d: message %d gave %d", rank, c, i, rbuf[i]);
        pthread_mutex_lock(&cur_mx);
        cur_type = MPI_DATATYPE_NULL;
        pthread_mutex_unlock(&cur_mx);
        for (int i = 0; i < NTYPES; i++)
            CHECK_SUCCESS(MPI_Type_free(&types[c][i]));
        for (int i = 0; i < NCOMMS; i++)
            CHECK_SUCCESS(MPI_Comm_free(&comms[i]));
        rounds++;
    }
    return (void *)(intptr_t)rounds;
}

int main(int argc, char **argv)
{
    int provided;
    const char *secs = getenv("STRESS_SECONDS");
    CHECK_SUCCESS(MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided));
    CHECK(provided == MPI_THREAD_MULTIPLE, "provided = %d, not MPI_THREAD_MULTIPLE", provided);
    CHECK_SUCCESS(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_SUCCESS(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK_SUCCESS(MPI_Comm_dup(MPI_COMM_WORLD, &fixed_comm));
    for (int c = 0; c < 2; c++) /* each churner duplicates its own: no collective on one in two threads */
        CHECK_SUCCESS(MPI_Comm_dup(MPI_COMM_SELF, &churn_base[c]));
    for (int k = 0; k < NFIXED; k++) {
        CHECK_SUCCESS(MPI_Type_contiguous(k + 1, MPI_INT, &fixed_type[k]));
        CHECK_SUCCESS(MPI_Type_commit(&fixed_type[k]));
    }
    deadline = MPI_Wtime() + (secs ? atof(secs) : 5);

    pthread_t rd, ch[2];
    CHECK(pthread_create(&rd, NULL, reader, NULL) == 0, "pthread_create");
    for (int c = 0; c < 2; c++)
        CHECK(pthread_create(&ch[c], NULL, churner, (void *)(intptr_t)c) == 0, "pthread_create");
    void *r;
    pthread_join(rd, &r);
    CHECK(r != NULL, "rank %d: the reader checked nothing", rank);
    int rounds[2];
    for (int c = 0; c < 2; c++) {
        pthread_join(ch[c], &r);
        rounds[c] = (int)(intptr_t)r;
        CHECK(rounds[c] > 0, "rank %d: churner %d finished no round", rank, c);
    }
    for (int k = 0; k < NFIXED; k++)
        CHECK_SUCCESS(MPI_Type_free(&fixed_type[k]));
    for (int c = 0; c < 2; c++)
        CHECK_SUCCESS(MPI_Comm_free(&churn_base[c]));
    CHECK_SUCCESS(MPI_Comm_free(&fixed_comm));
    CHECK_SUCCESS(MPI_Barrier(MPI_COMM_WORLD));
    if (rank == 0)
        printf("read_only_mt: %d ranks, churn rounds %d and %d\n", size, rounds[0], rounds[1]);
    CHECK_SUCCESS(MPI_Finalize());
    return 0;
}
