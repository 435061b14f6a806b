/* comm_idup.c — MPI_Comm_idup is nonblocking: it completes while ranks do other communication
 * (issue 18.3), several at once on overlapping communicators, hints, inter-communicators,
 * attributes copied at completion and a failing copy callback (issue 5). */
#include <mpi.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static int me, np;

/* Every process sends val + its rank to the right on comm with tag 7 and checks the left's. */
static void ring(MPI_Comm comm, int val)
{
    int r, n, got = -1;
    MPI_Comm_rank(comm, &r);
    MPI_Comm_size(comm, &n);
    CHECK_SUCCESS(MPI_Sendrecv(&(int){val + r}, 1, MPI_INT, (r + 1) % n, 7, &got, 1, MPI_INT, (r + n - 1) % n, 7,
                               comm, MPI_STATUS_IGNORE));
    CHECK_EQ_INT(got, val + (r + n - 1) % n);
}

/* The order: ranks 1.. start an idup, then MPI_Ssend to 0, which receives them all
 * before it starts its idup (deadlocks when idup blocks). */
static void deadlock_order(void)
{
    MPI_Comm c;
    MPI_Request req;
    int x = me;
    if (me == 0) {
        for (int r = 1; r < np; r++) {
            CHECK_SUCCESS(MPI_Recv(&x, 1, MPI_INT, r, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            CHECK_EQ_INT(x, r);
        }
        CHECK_SUCCESS(MPI_Comm_idup(MPI_COMM_WORLD, &c, &req));
    } else {
        CHECK_SUCCESS(MPI_Comm_idup(MPI_COMM_WORLD, &c, &req));
        CHECK_SUCCESS(MPI_Ssend(&x, 1, MPI_INT, 0, 3, MPI_COMM_WORLD));
    }
    CHECK_SUCCESS(MPI_Wait(&req, MPI_STATUS_IGNORE));
    ring(c, 10);
    MPI_Comm_free(&c);
}

/* idups of world, a split and a dup outstanding at once, started and completed in different
 * orders on even and odd ranks, with a blocking dup in the middle: all distinct contexts. */
static void overlapping(void)
{
    MPI_Comm split, dup, parent[3], nc[4];
    MPI_Request req[3];
    CHECK_SUCCESS(MPI_Comm_split(MPI_COMM_WORLD, me % 2, -me, &split));
    CHECK_SUCCESS(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    parent[0] = MPI_COMM_WORLD;
    parent[1] = split;
    parent[2] = dup;
    int odd = me % 2;
    for (int k = 0; k < 3; k++) {
        int i = odd ? 2 - k : k;
        CHECK_SUCCESS(MPI_Comm_idup(parent[i], &nc[i], &req[i]));
        if (k == 1) /* a blocking one while two are pending */
            CHECK_SUCCESS(MPI_Comm_dup(MPI_COMM_WORLD, &nc[3]));
    }
    if (odd) {
        for (int k = 0; k < 3; k++) {
            int idx;
            CHECK_SUCCESS(MPI_Waitany(3, req, &idx, MPI_STATUS_IGNORE));
        }
    } else {
        for (int k = 2; k >= 0; k--)
            CHECK_SUCCESS(MPI_Wait(&req[k], MPI_STATUS_IGNORE));
    }
    for (int i = 0; i < 3; i++) {
        int res, a, b;
        CHECK_SUCCESS(MPI_Comm_compare(parent[i], nc[i], &res));
        CHECK_EQ_INT(res, MPI_CONGRUENT);
        MPI_Comm_size(parent[i], &a);
        MPI_Comm_size(nc[i], &b);
        CHECK_EQ_INT(a, b);
    }
    /* traffic on the four new ones and the parents, same tag, receives posted in an order
     * that would catch crossing: each must get its own value */
    MPI_Comm all[7] = {nc[0], nc[1], nc[2], nc[3], MPI_COMM_WORLD, split, dup};
    MPI_Request rr[7], sr[7];
    int got[7], val[7];
    for (int i = 6; i >= 0; i--) {
        int r, n;
        MPI_Comm_rank(all[i], &r);
        MPI_Comm_size(all[i], &n);
        got[i] = -1;
        CHECK_SUCCESS(MPI_Irecv(&got[i], 1, MPI_INT, MPI_ANY_SOURCE, 5, all[i], &rr[i]));
    }
    for (int i = 0; i < 7; i++) {
        int r, n;
        MPI_Comm_rank(all[i], &r);
        MPI_Comm_size(all[i], &n);
        val[i] = 1000 * i + r;
        CHECK_SUCCESS(MPI_Isend(&val[i], 1, MPI_INT, (r + 1) % n, 5, all[i], &sr[i]));
    }
    CHECK_SUCCESS(MPI_Waitall(7, rr, MPI_STATUSES_IGNORE));
    CHECK_SUCCESS(MPI_Waitall(7, sr, MPI_STATUSES_IGNORE));
    for (int i = 0; i < 7; i++) {
        int r, n;
        MPI_Comm_rank(all[i], &r);
        MPI_Comm_size(all[i], &n);
        CHECK_EQ_INT(got[i], 1000 * i + (r + n - 1) % n);
    }
    /* collectives on them too */
    for (int i = 0; i < 4; i++) {
        int sum = 0, n;
        MPI_Comm_size(nc[i], &n);
        CHECK_SUCCESS(MPI_Allreduce(&(int){1}, &sum, 1, MPI_INT, MPI_SUM, nc[i]));
        CHECK_EQ_INT(sum, n);
        MPI_Comm_free(&nc[i]);
    }
    MPI_Comm_free(&split);
    MPI_Comm_free(&dup);
}

/* idup_with_info keeps info's hints; the parent freed while the idup is pending. */
static void hints(void)
{
    MPI_Comm d, c;
    MPI_Info info, used;
    MPI_Request req;
    char v[MPI_MAX_INFO_VAL];
    int flag = 0;
    CHECK_SUCCESS(MPI_Comm_dup(MPI_COMM_WORLD, &d));
    MPI_Info_create(&info);
    MPI_Info_set(info, "mpi_assert_no_any_tag", "true");
    CHECK_SUCCESS(MPI_Comm_idup_with_info(d, info, &c, &req));
    MPI_Info_free(&info);
    CHECK_SUCCESS(MPI_Comm_free(&d));
    CHECK_SUCCESS(MPI_Wait(&req, MPI_STATUS_IGNORE));
    CHECK_SUCCESS(MPI_Comm_get_info(c, &used));
    MPI_Info_get(used, "mpi_assert_no_any_tag", MPI_MAX_INFO_VAL - 1, v, &flag);
    if (CHECK_SWITCHYARD)
        CHECK(flag && strcmp(v, "true") == 0, "idup_with_info lost the hint");
    MPI_Info_free(&used);
    ring(c, 20);
    MPI_Comm_free(&c);
}

/* An inter-communicator between the halves: idup polled with MPI_Test while the leaders
 * also talk on the parent; traffic between the groups on the new one. */
static void inter(void)
{
    if (np < 2)
        return;
    MPI_Comm half, ic, c;
    MPI_Request req;
    int inA = me < np / 2;
    CHECK_SUCCESS(MPI_Comm_split(MPI_COMM_WORLD, inA, 0, &half));
    CHECK_SUCCESS(MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, inA ? np / 2 : 0, 11, &ic));
    CHECK_SUCCESS(MPI_Comm_idup(ic, &c, &req));
    int lr, x = -1, done = 0, polls = 0;
    MPI_Comm_rank(ic, &lr);
    if (lr == 0) /* the leaders exchange on the parent meanwhile */
        CHECK_SUCCESS(MPI_Sendrecv(&(int){inA}, 1, MPI_INT, 0, 4, &x, 1, MPI_INT, 0, 4, ic, MPI_STATUS_IGNORE));
    while (!done) {
        CHECK_SUCCESS(MPI_Test(&req, &done, MPI_STATUS_IGNORE));
        polls++;
    }
    CHECK(req == MPI_REQUEST_NULL, "idup request not freed by MPI_Test");
    if (lr == 0)
        CHECK_EQ_INT(x, !inA);
    int flag = 0, rs, res;
    MPI_Comm_test_inter(c, &flag);
    CHECK(flag, "idup of an inter-communicator is not an inter-communicator");
    MPI_Comm_remote_size(c, &rs);
    CHECK_EQ_INT(rs, inA ? np - np / 2 : np / 2);
    CHECK_SUCCESS(MPI_Comm_compare(ic, c, &res));
    CHECK_EQ_INT(res, MPI_CONGRUENT);
    /* local rank r talks to remote rank r (when there is one), on the new one and the parent */
    int got[2] = {-1, -1};
    if (lr < rs) {
        MPI_Request q[4];
        CHECK_SUCCESS(MPI_Irecv(&got[1], 1, MPI_INT, lr, 6, ic, &q[0]));
        CHECK_SUCCESS(MPI_Irecv(&got[0], 1, MPI_INT, lr, 6, c, &q[1]));
        CHECK_SUCCESS(MPI_Isend(&(int){100 + inA}, 1, MPI_INT, lr, 6, c, &q[2]));
        CHECK_SUCCESS(MPI_Isend(&(int){200 + inA}, 1, MPI_INT, lr, 6, ic, &q[3]));
        CHECK_SUCCESS(MPI_Waitall(4, q, MPI_STATUSES_IGNORE));
        CHECK_EQ_INT(got[0], 100 + !inA);
        CHECK_EQ_INT(got[1], 200 + !inA);
    }
    CHECK_SUCCESS(MPI_Barrier(c));
    MPI_Comm_free(&c);
    MPI_Comm_free(&ic);
    MPI_Comm_free(&half);
}

/* Attribute callbacks: a log of (kind, value); copies give value + 1. */
static char lk[16];
static long lv[16];
static int nl, user_code;

static void logc(char k, void *v)
{
    CHECK(nl < 16, "too many callback calls");
    lk[nl] = k;
    lv[nl++] = (long)(intptr_t)v;
}

static int copy_inc(MPI_Comm c, int k, void *x, void *in, void *out, int *flag)
{
    (void)c, (void)k, (void)x;
    logc('c', in);
    *(void **)out = (void *)((intptr_t)in + 1);
    *flag = 1;
    return MPI_SUCCESS;
}

static int copy_none(MPI_Comm c, int k, void *x, void *in, void *out, int *flag)
{
    (void)c, (void)k, (void)x, (void)out;
    logc('c', in);
    *flag = 0;
    return MPI_SUCCESS;
}

static int copy_fail(MPI_Comm c, int k, void *x, void *in, void *out, int *flag)
{
    (void)c, (void)k, (void)x, (void)out;
    logc('c', in);
    *flag = 0;
    return user_code;
}

static int del_log(MPI_Comm c, int k, void *v, void *x)
{
    (void)c, (void)k, (void)x;
    logc('d', v);
    return MPI_SUCCESS;
}

static void expect(const char *kinds, const long *vals)
{
    CHECK(nl == (int)strlen(kinds), "%d callback calls, expected %d (%s)", nl, (int)strlen(kinds), kinds);
    for (int i = 0; i < nl; i++)
        CHECK(lk[i] == kinds[i] && lv[i] == vals[i], "call %d: %c %ld, expected %c %ld", i, lk[i], lv[i],
              kinds[i], vals[i]);
    nl = 0;
}

/* MPI_Comm_idup and idup_with_info copy the attributes (copy callbacks, flag 0 left out); a
 * failing copy callback fails the request with its code and undoes the copies made. */
static void attributes(void)
{
    MPI_Comm base, nc;
    MPI_Request req;
    MPI_Info info;
    int ka, kn, kf, cls, flag;
    void *v;
    CHECK_SUCCESS(MPI_Comm_dup(MPI_COMM_WORLD, &base));
    CHECK_SUCCESS(MPI_Comm_set_errhandler(base, MPI_ERRORS_RETURN));
    CHECK_SUCCESS(MPI_Add_error_class(&cls));
    CHECK_SUCCESS(MPI_Add_error_code(cls, &user_code));
    CHECK_SUCCESS(MPI_Comm_create_keyval(copy_inc, del_log, &ka, NULL));
    CHECK_SUCCESS(MPI_Comm_create_keyval(copy_none, del_log, &kn, NULL));
    CHECK_SUCCESS(MPI_Comm_create_keyval(copy_fail, del_log, &kf, NULL));
    CHECK_SUCCESS(MPI_Comm_set_attr(base, kn, (void *)(intptr_t)20));
    CHECK_SUCCESS(MPI_Comm_set_attr(base, ka, (void *)(intptr_t)10));
    CHECK_SUCCESS(MPI_Info_create(&info));
    for (int with_info = 0; with_info < 2; with_info++) {
        if (with_info)
            CHECK_SUCCESS(MPI_Comm_idup_with_info(base, info, &nc, &req));
        else
            CHECK_SUCCESS(MPI_Comm_idup(base, &nc, &req));
        CHECK_SUCCESS(MPI_Wait(&req, MPI_STATUS_IGNORE));
        expect("cc", (long[]){10, 20});
        CHECK_SUCCESS(MPI_Comm_get_attr(nc, ka, &v, &flag));
        CHECK(flag && (intptr_t)v == 11, "idup copy: flag %d value %ld", flag, (long)(intptr_t)v);
        CHECK_SUCCESS(MPI_Comm_get_attr(nc, kn, &v, &flag));
        CHECK(!flag, "an attribute whose copy callback gave flag 0 was copied");
        ring(nc, 40 + with_info);
        CHECK_SUCCESS(MPI_Comm_free(&nc));
        expect("d", (long[]){11});
    }
    /* kf newest: ka's copy is made first, then kf fails and ka's copy is deleted again */
    CHECK_SUCCESS(MPI_Comm_delete_attr(base, ka));
    CHECK_SUCCESS(MPI_Comm_set_attr(base, kf, (void *)(intptr_t)30));
    CHECK_SUCCESS(MPI_Comm_set_attr(base, ka, (void *)(intptr_t)50));
    nl = 0;
    CHECK_SUCCESS(MPI_Comm_idup(base, &nc, &req));
    int rc = MPI_Wait(&req, MPI_STATUS_IGNORE);
    CHECK(rc == user_code, "MPI_Wait returned %d, not the copy callback's code %d", rc, user_code);
    CHECK(req == MPI_REQUEST_NULL, "the failed request was not freed");
    expect("ccd", (long[]){50, 30, 51});
    /* nc has no context: it may only be freed; base still works */
    CHECK_SUCCESS(MPI_Comm_free(&nc));
    expect("", NULL);
    CHECK_SUCCESS(MPI_Comm_delete_attr(base, kf));
    expect("d", (long[]){30});
    CHECK_SUCCESS(MPI_Comm_idup(base, &nc, &req));
    CHECK_SUCCESS(MPI_Wait(&req, MPI_STATUS_IGNORE));
    expect("cc", (long[]){50, 20});
    ring(nc, 50);
    CHECK_SUCCESS(MPI_Comm_free(&nc));
    CHECK_SUCCESS(MPI_Comm_free(&base));
    expect("ddd", (long[]){51, 50, 20}); /* nc: ka's copy; base: ka (newest), then kn */
    CHECK_SUCCESS(MPI_Info_free(&info));
    CHECK_SUCCESS(MPI_Comm_free_keyval(&ka));
    CHECK_SUCCESS(MPI_Comm_free_keyval(&kn));
    CHECK_SUCCESS(MPI_Comm_free_keyval(&kf));
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    deadlock_order();
    overlapping();
    hints();
    inter();
    attributes();
    for (int i = 0; i < 50; i++) /* many in a row: claims are given back */
        deadlock_order();
    MPI_Finalize();
    if (me == 0)
        printf("comm_idup: ok\n");
    return 0;
}
