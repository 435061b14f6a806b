/* lock_bias: MPI_THREAD_MULTIPLE's lock is biased towards the thread that initialized MPI until
 * another thread calls; the hand-over must keep calls exclusive and let a blocked caller's peer in. */
#include "check.h"

#include <pthread.h>
#include <time.h>

static int in_op;        /* the main thread is inside MPI_Reduce_local's user op (atomic) */
static int helper_step;  /* what the helper has done (atomic) */
static int rank;

static void nap(long us)
{
    nanosleep(&(struct timespec){us / 1000000, (us % 1000000) * 1000}, NULL);
}

/* A user op that stays inside the library for 200 ms: the helper's call meanwhile must wait. */
static void slow_sum(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    __atomic_store_n(&in_op, 1, __ATOMIC_SEQ_CST);
    nap(200000);
    for (int i = 0; i < *len; i++)
        ((int *)inout)[i] += ((int *)in)[i];
    __atomic_store_n(&in_op, 0, __ATOMIC_SEQ_CST);
}

static void *helper(void *arg)
{
    (void)arg;
    /* 1: the main thread is inside the library through the bias: this call waits for it */
    while (!__atomic_load_n(&in_op, __ATOMIC_SEQ_CST))
        nap(100);
    void *v;
    int flag;
    CHECK_SUCCESS(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &v, &flag));
    /* Switchyard has one lock (docs/internals.md, "Threads"); other MPIs may let the call run */
    if (CHECK_SWITCHYARD)
        CHECK(!__atomic_load_n(&in_op, __ATOMIC_SEQ_CST), "a call ran while another thread was inside the library");
    CHECK(flag && *(int *)v >= 32767, "MPI_TAG_UB: flag %d", flag);
    __atomic_store_n(&helper_step, 1, __ATOMIC_SEQ_CST);
    /* 2: the main thread waits in MPI_Recv for the message this thread sends it */
    nap(50000);
    int x = 4242;
    CHECK_SUCCESS(MPI_Send(&x, 1, MPI_INT, rank, 7, MPI_COMM_WORLD));
    /* 3: both threads call at once, many times */
    for (int i = 0; i < 20000; i++) {
        int y = i, z = -1;
        CHECK_SUCCESS(MPI_Sendrecv(&y, 1, MPI_INT, 0, 8, &z, 1, MPI_INT, 0, 8, MPI_COMM_SELF, MPI_STATUS_IGNORE));
        CHECK(z == i, "self message %d came back as %d", i, z);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int provided;
    CHECK_SUCCESS(MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided));
    CHECK(provided == MPI_THREAD_MULTIPLE, "provided %d", provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);

    pthread_t t;
    CHECK(pthread_create(&t, NULL, helper, NULL) == 0, "pthread_create");
    MPI_Op op;
    CHECK_SUCCESS(MPI_Op_create(slow_sum, 1, &op));
    int a[4] = {1, 2, 3, 4}, b[4] = {10, 20, 30, 40};
    CHECK_SUCCESS(MPI_Reduce_local(a, b, 4, MPI_INT, op));
    CHECK(b[0] == 11 && b[3] == 44, "MPI_Reduce_local gave %d %d", b[0], b[3]);
    while (!__atomic_load_n(&helper_step, __ATOMIC_SEQ_CST))
        nap(100);
    int x = 0;
    CHECK_SUCCESS(MPI_Recv(&x, 1, MPI_INT, rank, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK(x == 4242, "received %d from the other thread", x);
    for (int i = 0; i < 20000; i++) {
        void *v;
        int flag;
        CHECK_SUCCESS(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &v, &flag));
        CHECK(flag, "MPI_TAG_UB not found");
    }
    CHECK(pthread_join(t, NULL) == 0, "pthread_join");
    CHECK_SUCCESS(MPI_Op_free(&op));
    CHECK_SUCCESS(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_SUCCESS(MPI_Finalize());
    return 0;
}
