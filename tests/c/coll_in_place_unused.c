/* coll_in_place_unused.c — where MPI_IN_PLACE makes arguments insignificant (the send side of
 * the gathers, all-gathers and all-to-alls, a scatter root's receive side) they are not checked:
 * -1 counts, MPI_DATATYPE_NULL, NULL arrays, in the blocking, nonblocking and persistent forms. */
#include "check.h"

#define MAXNP 64

enum form { BLOCKING, NONBLOCKING, PERSISTENT };
static const char *const form_name[] = {"blocking", "nonblocking", "persistent"};

static int me, np;

/* COLL(form, MPI_X, MPI_Ix, MPI_X_init, args...): one call of the collective in that form,
 * completed before it returns. */
#define COLL(f, blocking, nonblocking, persistent, ...)                              \
    do {                                                                             \
        MPI_Request rq_;                                                             \
        if ((f) == BLOCKING) {                                                       \
            CHECK_SUCCESS(blocking(__VA_ARGS__));                                    \
        } else if ((f) == NONBLOCKING) {                                             \
            CHECK_SUCCESS(nonblocking(__VA_ARGS__, &rq_));                           \
            CHECK_SUCCESS(MPI_Wait(&rq_, MPI_STATUS_IGNORE));                        \
        } else {                                                                     \
            CHECK_SUCCESS(persistent(__VA_ARGS__, MPI_INFO_NULL, &rq_));             \
            CHECK_SUCCESS(MPI_Start(&rq_));                                          \
            CHECK_SUCCESS(MPI_Wait(&rq_, MPI_STATUS_IGNORE));                        \
            CHECK_SUCCESS(MPI_Request_free(&rq_));                                   \
        }                                                                            \
    } while (0)

/* the value rank `from` contributes for rank `to` in pass `f` */
static int val(int from, int to, int f)
{
    return 1000 * f + 100 * from + to;
}

static void all_gathers(int f)
{
    int buf[MAXNP], counts[MAXNP], displs[MAXNP];
    for (int k = 0; k < np; k++) {
        buf[k] = k == me ? val(me, 0, f) : -1;
        counts[k] = 1;
        displs[k] = k;
    }
    COLL(f, MPI_Allgather, MPI_Iallgather, MPI_Allgather_init, MPI_IN_PLACE, -1, MPI_DATATYPE_NULL, buf, 1, MPI_INT,
         MPI_COMM_WORLD);
    for (int k = 0; k < np; k++)
        CHECK(buf[k] == val(k, 0, f), "%s allgather in place: block %d = %d", form_name[f], k, buf[k]);
    for (int k = 0; k < np; k++)
        buf[k] = k == me ? val(me, 1, f) : -1;
    COLL(f, MPI_Allgatherv, MPI_Iallgatherv, MPI_Allgatherv_init, MPI_IN_PLACE, -1, MPI_DATATYPE_NULL, buf, counts,
         displs, MPI_INT, MPI_COMM_WORLD);
    for (int k = 0; k < np; k++)
        CHECK(buf[k] == val(k, 1, f), "%s allgatherv in place: block %d = %d", form_name[f], k, buf[k]);
}

static void all_to_alls(int f)
{
    int buf[MAXNP], counts[MAXNP], displs[MAXNP], bytes[MAXNP];
    MPI_Datatype types[MAXNP];
    for (int k = 0; k < np; k++) {
        buf[k] = val(me, k, f);
        counts[k] = 1;
        displs[k] = k;
        bytes[k] = k * (int)sizeof(int);
        types[k] = MPI_INT;
    }
    COLL(f, MPI_Alltoall, MPI_Ialltoall, MPI_Alltoall_init, MPI_IN_PLACE, -1, MPI_DATATYPE_NULL, buf, 1, MPI_INT,
         MPI_COMM_WORLD);
    for (int k = 0; k < np; k++)
        CHECK(buf[k] == val(k, me, f), "%s alltoall in place: block %d = %d", form_name[f], k, buf[k]);
    COLL(f, MPI_Alltoallv, MPI_Ialltoallv, MPI_Alltoallv_init, MPI_IN_PLACE, NULL, NULL, MPI_DATATYPE_NULL, buf,
         counts, displs, MPI_INT, MPI_COMM_WORLD);
    for (int k = 0; k < np; k++) /* sent back: every block is home again */
        CHECK(buf[k] == val(me, k, f), "%s alltoallv in place: block %d = %d", form_name[f], k, buf[k]);
    COLL(f, MPI_Alltoallw, MPI_Ialltoallw, MPI_Alltoallw_init, MPI_IN_PLACE, NULL, NULL, NULL, buf, counts, bytes,
         types, MPI_COMM_WORLD);
    for (int k = 0; k < np; k++)
        CHECK(buf[k] == val(k, me, f), "%s alltoallw in place: block %d = %d", form_name[f], k, buf[k]);
}

/* at the root, MPI_IN_PLACE; elsewhere the root-only arguments are as bad as at the root */
static void rooted(int f)
{
    int buf[MAXNP], counts[MAXNP], displs[MAXNP], mine;
    for (int root = 0; root < np; root++) {
        int r = me == root;
        for (int k = 0; k < np; k++) {
            buf[k] = r && k == me ? val(me, root, f) : -1;
            counts[k] = 1;
            displs[k] = k;
        }
        mine = val(me, root, f);
        if (r)
            COLL(f, MPI_Gather, MPI_Igather, MPI_Gather_init, MPI_IN_PLACE, -1, MPI_DATATYPE_NULL, buf, 1, MPI_INT,
                 root, MPI_COMM_WORLD);
        else
            COLL(f, MPI_Gather, MPI_Igather, MPI_Gather_init, &mine, 1, MPI_INT, NULL, -1, MPI_DATATYPE_NULL, root,
                 MPI_COMM_WORLD);
        for (int k = 0; r && k < np; k++)
            CHECK(buf[k] == val(k, root, f), "%s gather in place: block %d = %d", form_name[f], k, buf[k]);
        if (r)
            COLL(f, MPI_Gatherv, MPI_Igatherv, MPI_Gatherv_init, MPI_IN_PLACE, -1, MPI_DATATYPE_NULL, buf, counts,
                 displs, MPI_INT, root, MPI_COMM_WORLD);
        else
            COLL(f, MPI_Gatherv, MPI_Igatherv, MPI_Gatherv_init, &mine, 1, MPI_INT, NULL, NULL, NULL,
                 MPI_DATATYPE_NULL, root, MPI_COMM_WORLD);
        for (int k = 0; r && k < np; k++)
            CHECK(buf[k] == val(k, root, f), "%s gatherv in place: block %d = %d", form_name[f], k, buf[k]);

        for (int k = 0; k < np; k++) /* the root's blocks go back out; its own stays */
            buf[k] = r ? val(root, k, f) + 7 : -1;
        mine = -1;
        if (r)
            COLL(f, MPI_Scatter, MPI_Iscatter, MPI_Scatter_init, buf, 1, MPI_INT, MPI_IN_PLACE, -1,
                 MPI_DATATYPE_NULL, root, MPI_COMM_WORLD);
        else
            COLL(f, MPI_Scatter, MPI_Iscatter, MPI_Scatter_init, NULL, -1, MPI_DATATYPE_NULL, &mine, 1, MPI_INT,
                 root, MPI_COMM_WORLD);
        CHECK(r ? buf[me] == val(root, me, f) + 7 : mine == val(root, me, f) + 7, "%s scatter in place from %d",
              form_name[f], root);
        mine = -1;
        if (r)
            COLL(f, MPI_Scatterv, MPI_Iscatterv, MPI_Scatterv_init, buf, counts, displs, MPI_INT, MPI_IN_PLACE, -1,
                 MPI_DATATYPE_NULL, root, MPI_COMM_WORLD);
        else
            COLL(f, MPI_Scatterv, MPI_Iscatterv, MPI_Scatterv_init, NULL, NULL, NULL, MPI_DATATYPE_NULL, &mine, 1,
                 MPI_INT, root, MPI_COMM_WORLD);
        CHECK(r ? buf[me] == val(root, me, f) + 7 : mine == val(root, me, f) + 7, "%s scatterv in place from %d",
              form_name[f], root);
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    CHECK(np <= MAXNP, "at most %d ranks", MAXNP);
    for (int f = BLOCKING; f <= PERSISTENT; f++) {
        all_gathers(f);
        all_to_alls(f);
        rooted(f);
    }
    MPI_Finalize();
    return 0;
}
