/* attr_freed_keyval.c — a keyval freed while attributes use it (issue 36, item 5): its old handle
 * works for every call until the last attribute goes, then it is MPI_ERR_KEYVAL. */
#include "check.h"

#include <stdint.h>
#ifdef MPI_ABI_VERSION
#include <mpi_legacy.h> /* MPI_Keyval_create, MPI_Attr_*: left out of the standard ABI's mpi.h */
#endif

#define V(x) ((void *)(intptr_t)(x))

static int ndel;        /* delete callback calls */
static intptr_t lastv;  /* the value the last one got */
static int lastk;       /* the keyval it got */

static void deleted(int k, void *v)
{
    ndel++;
    lastv = (intptr_t)v;
    lastk = k;
}

static int del_comm(MPI_Comm c, int k, void *v, void *extra)
{
    (void)c;
    (void)extra;
    deleted(k, v);
    return MPI_SUCCESS;
}

static int del_type(MPI_Datatype t, int k, void *v, void *extra)
{
    (void)t;
    (void)extra;
    deleted(k, v);
    return MPI_SUCCESS;
}

static int del_win(MPI_Win w, int k, void *v, void *extra)
{
    (void)w;
    (void)extra;
    deleted(k, v);
    return MPI_SUCCESS;
}

/* The delete callbacks ran n times since the last check, the last one with value v. */
static void expect_del(int n, intptr_t v, int line)
{
    CHECK(ndel == n, "line %d: %d delete callback calls, expected %d", line, ndel, n);
    CHECK(n == 0 || lastv == v, "line %d: delete callback got %ld, expected %ld", line, (long)lastv, (long)v);
    ndel = 0;
}
#define EXPECT_DEL(n, v) expect_del((n), (v), __LINE__)

/* call, a get into v_ and f_, succeeds with flag want_flag and (if set) value want_v. */
#define EXPECT_GET(call, want_flag, want_v)                                                         \
    do {                                                                                          \
        void *v_ = NULL;                                                                          \
        int f_ = -1;                                                                              \
        CHECK_SUCCESS(call);                                                                      \
        CHECK(f_ == (want_flag), "%s: flag %d, expected %d", #call, f_, (want_flag));             \
        CHECK(!f_ || v_ == V(want_v), "%s: value %ld, expected %ld", #call, (long)(intptr_t)v_,   \
              (long)(want_v));                                                                    \
    } while (0)

static MPI_Comm new_comm(void)
{
    MPI_Comm c;
    CHECK_SUCCESS(MPI_Comm_dup(MPI_COMM_SELF, &c));
    CHECK_SUCCESS(MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN));
    return c;
}

/* MPI_Comm_*_keyval / MPI_Comm_*_attr. */
static void comm_keyval(void)
{
    MPI_Comm c1 = new_comm(), c2 = new_comm();
    int k, saved, k2, more[4];

    CHECK_SUCCESS(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, del_comm, &k, NULL));
    saved = k;
    CHECK_SUCCESS(MPI_Comm_set_attr(c1, k, V(10)));
    CHECK_SUCCESS(MPI_Comm_free_keyval(&k));
    CHECK(k == MPI_KEYVAL_INVALID, "MPI_Comm_free_keyval did not set MPI_KEYVAL_INVALID");
    EXPECT_DEL(0, 0);
    /* in use: a new keyval never takes its handle value */
    for (int i = 0; i < 4; i++) {
        CHECK_SUCCESS(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &more[i], NULL));
        CHECK(more[i] != saved, "a new keyval reuses the handle of a freed keyval still in use");
    }
    for (int i = 0; i < 4; i++)
        CHECK_SUCCESS(MPI_Comm_free_keyval(&more[i]));
    /* every call takes the old handle while an attribute uses it */
    EXPECT_GET(MPI_Comm_get_attr(c1, saved, &v_, &f_), 1, 10);
    EXPECT_GET(MPI_Comm_get_attr(c2, saved, &v_, &f_), 0, 0);
    CHECK_SUCCESS(MPI_Comm_set_attr(c1, saved, V(11))); /* replaces: the old value is deleted */
    EXPECT_DEL(1, 10);
    CHECK(lastk == saved, "the delete callback got keyval %d, not its old handle %d", lastk, saved);
    CHECK_SUCCESS(MPI_Comm_set_attr(c2, saved, V(20))); /* a new attribute */
    EXPECT_DEL(0, 0);
    k2 = saved;
    CHECK_SUCCESS(MPI_Comm_free_keyval(&k2)); /* a second free: nothing more happens */
    CHECK(k2 == MPI_KEYVAL_INVALID, "a second MPI_Comm_free_keyval did not set MPI_KEYVAL_INVALID");
    EXPECT_GET(MPI_Comm_get_attr(c1, saved, &v_, &f_), 1, 11);
    CHECK_SUCCESS(MPI_Comm_delete_attr(c1, saved));
    EXPECT_DEL(1, 11);
    CHECK_SUCCESS(MPI_Comm_delete_attr(c1, saved)); /* none there: nothing called */
    EXPECT_DEL(0, 0);
    EXPECT_GET(MPI_Comm_get_attr(c2, saved, &v_, &f_), 1, 20);
    CHECK_SUCCESS(MPI_Comm_delete_attr(c2, saved)); /* the last attribute: the keyval goes */
    EXPECT_DEL(1, 20);
    /* gone (MPICH 4.0.2 still takes it, reading freed memory) */
    if (CHECK_SWITCHYARD) {
        void *v;
        int flag;
        CHECK_ERR(MPI_Comm_get_attr(c1, saved, &v, &flag), MPI_ERR_KEYVAL, "MPI_Comm_get_attr", "comm_keyval",
                  "freed");
        CHECK_ERR(MPI_Comm_set_attr(c1, saved, V(1)), MPI_ERR_KEYVAL, "MPI_Comm_set_attr", "freed");
        CHECK_ERR(MPI_Comm_delete_attr(c2, saved), MPI_ERR_KEYVAL, "MPI_Comm_delete_attr", "freed");
        k2 = saved;
        CHECK_ERR(MPI_Comm_free_keyval(&k2), MPI_ERR_KEYVAL, "MPI_Comm_free_keyval", "freed");
    }
    EXPECT_DEL(0, 0);

    /* the last attribute goes with its communicator */
    CHECK_SUCCESS(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, del_comm, &k, NULL));
    saved = k;
    CHECK_SUCCESS(MPI_Comm_set_attr(c1, k, V(30)));
    CHECK_SUCCESS(MPI_Comm_free_keyval(&k));
    k2 = saved;
    CHECK_SUCCESS(MPI_Comm_free_keyval(&k2));
    EXPECT_GET(MPI_Comm_get_attr(c1, saved, &v_, &f_), 1, 30);
    CHECK_SUCCESS(MPI_Comm_free(&c1));
    EXPECT_DEL(1, 30);
    if (CHECK_SWITCHYARD) {
        void *v;
        int flag;
        CHECK_ERR(MPI_Comm_get_attr(c2, saved, &v, &flag), MPI_ERR_KEYVAL, "MPI_Comm_get_attr", "freed");
    }
    CHECK_SUCCESS(MPI_Comm_free(&c2));
    EXPECT_DEL(0, 0);
}

/* The MPI-1 names: MPI_Keyval_free, MPI_Attr_put/get/delete. */
static void mpi1_keyval(void)
{
    MPI_Comm c = new_comm();
    int k, saved, k2;

    CHECK_SUCCESS(MPI_Keyval_create(MPI_NULL_COPY_FN, del_comm, &k, NULL));
    saved = k;
    CHECK_SUCCESS(MPI_Attr_put(c, k, V(40)));
    CHECK_SUCCESS(MPI_Keyval_free(&k));
    CHECK(k == MPI_KEYVAL_INVALID, "MPI_Keyval_free did not set MPI_KEYVAL_INVALID");
    EXPECT_GET(MPI_Attr_get(c, saved, &v_, &f_), 1, 40);
    CHECK_SUCCESS(MPI_Attr_put(c, saved, V(41)));
    EXPECT_DEL(1, 40);
    k2 = saved;
    CHECK_SUCCESS(MPI_Keyval_free(&k2));
    CHECK(k2 == MPI_KEYVAL_INVALID, "a second MPI_Keyval_free did not set MPI_KEYVAL_INVALID");
    EXPECT_GET(MPI_Attr_get(c, saved, &v_, &f_), 1, 41);
    CHECK_SUCCESS(MPI_Attr_delete(c, saved));
    EXPECT_DEL(1, 41);
    if (CHECK_SWITCHYARD) {
        void *v;
        int flag;
        CHECK_ERR(MPI_Attr_get(c, saved, &v, &flag), MPI_ERR_KEYVAL, "MPI_Attr_get", "keyval", "freed");
        CHECK_ERR(MPI_Attr_put(c, saved, V(1)), MPI_ERR_KEYVAL, "MPI_Attr_put", "freed");
        CHECK_ERR(MPI_Attr_delete(c, saved), MPI_ERR_KEYVAL, "MPI_Attr_delete", "freed");
        k2 = saved;
        CHECK_ERR(MPI_Keyval_free(&k2), MPI_ERR_KEYVAL, "MPI_Keyval_free", "freed");
    }
    CHECK_SUCCESS(MPI_Comm_free(&c));
    EXPECT_DEL(0, 0);
}

/* MPI_Type_*_keyval / MPI_Type_*_attr. */
static void type_keyval(void)
{
    MPI_Datatype t1, t2;
    int k, saved, k2;

    CHECK_SUCCESS(MPI_Type_contiguous(2, MPI_INT, &t1));
    CHECK_SUCCESS(MPI_Type_contiguous(3, MPI_INT, &t2));
    CHECK_SUCCESS(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, del_type, &k, NULL));
    saved = k;
    CHECK_SUCCESS(MPI_Type_set_attr(t1, k, V(50)));
    CHECK_SUCCESS(MPI_Type_free_keyval(&k));
    CHECK(k == MPI_KEYVAL_INVALID, "MPI_Type_free_keyval did not set MPI_KEYVAL_INVALID");
    EXPECT_GET(MPI_Type_get_attr(t1, saved, &v_, &f_), 1, 50);
    EXPECT_GET(MPI_Type_get_attr(t2, saved, &v_, &f_), 0, 0);
    CHECK_SUCCESS(MPI_Type_set_attr(t1, saved, V(51)));
    EXPECT_DEL(1, 50);
    CHECK_SUCCESS(MPI_Type_set_attr(t2, saved, V(60)));
    k2 = saved;
    CHECK_SUCCESS(MPI_Type_free_keyval(&k2));
    CHECK(k2 == MPI_KEYVAL_INVALID, "a second MPI_Type_free_keyval did not set MPI_KEYVAL_INVALID");
    CHECK_SUCCESS(MPI_Type_delete_attr(t1, saved));
    EXPECT_DEL(1, 51);
    EXPECT_GET(MPI_Type_get_attr(t2, saved, &v_, &f_), 1, 60);
    CHECK_SUCCESS(MPI_Type_free(&t2)); /* the last attribute goes with its datatype */
    EXPECT_DEL(1, 60);
    if (CHECK_SWITCHYARD) {
        void *v;
        int flag;
        CHECK_ERR(MPI_Type_get_attr(t1, saved, &v, &flag), MPI_ERR_KEYVAL, "MPI_Type_get_attr", "type_keyval",
                  "freed");
        CHECK_ERR(MPI_Type_set_attr(t1, saved, V(1)), MPI_ERR_KEYVAL, "MPI_Type_set_attr", "freed");
        CHECK_ERR(MPI_Type_delete_attr(t1, saved), MPI_ERR_KEYVAL, "MPI_Type_delete_attr", "freed");
        k2 = saved;
        CHECK_ERR(MPI_Type_free_keyval(&k2), MPI_ERR_KEYVAL, "MPI_Type_free_keyval", "freed");
    }
    CHECK_SUCCESS(MPI_Type_free(&t1));
    EXPECT_DEL(0, 0);
}

/* MPI_Win_*_keyval / MPI_Win_*_attr. */
static void win_keyval(void)
{
    static int buf[4];
    MPI_Win w;
    int k, saved, k2;

    CHECK_SUCCESS(MPI_Win_create(buf, sizeof buf, 1, MPI_INFO_NULL, MPI_COMM_SELF, &w));
    CHECK_SUCCESS(MPI_Win_set_errhandler(w, MPI_ERRORS_RETURN));
    CHECK_SUCCESS(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, del_win, &k, NULL));
    saved = k;
    CHECK_SUCCESS(MPI_Win_set_attr(w, k, V(70)));
    CHECK_SUCCESS(MPI_Win_free_keyval(&k));
    CHECK(k == MPI_KEYVAL_INVALID, "MPI_Win_free_keyval did not set MPI_KEYVAL_INVALID");
    EXPECT_GET(MPI_Win_get_attr(w, saved, &v_, &f_), 1, 70);
    CHECK_SUCCESS(MPI_Win_set_attr(w, saved, V(71)));
    EXPECT_DEL(1, 70);
    k2 = saved;
    CHECK_SUCCESS(MPI_Win_free_keyval(&k2));
    CHECK(k2 == MPI_KEYVAL_INVALID, "a second MPI_Win_free_keyval did not set MPI_KEYVAL_INVALID");
    EXPECT_GET(MPI_Win_get_attr(w, saved, &v_, &f_), 1, 71);
    CHECK_SUCCESS(MPI_Win_delete_attr(w, saved));
    EXPECT_DEL(1, 71);
    if (CHECK_SWITCHYARD) {
        void *v;
        int flag;
        CHECK_ERR(MPI_Win_get_attr(w, saved, &v, &flag), MPI_ERR_KEYVAL, "MPI_Win_get_attr", "win_keyval", "freed");
        CHECK_ERR(MPI_Win_set_attr(w, saved, V(1)), MPI_ERR_KEYVAL, "MPI_Win_set_attr", "freed");
        CHECK_ERR(MPI_Win_delete_attr(w, saved), MPI_ERR_KEYVAL, "MPI_Win_delete_attr", "freed");
        k2 = saved;
        CHECK_ERR(MPI_Win_free_keyval(&k2), MPI_ERR_KEYVAL, "MPI_Win_free_keyval", "freed");
    }
    /* the last attribute goes with its window */
    CHECK_SUCCESS(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, del_win, &k, NULL));
    saved = k;
    CHECK_SUCCESS(MPI_Win_set_attr(w, k, V(80)));
    CHECK_SUCCESS(MPI_Win_free_keyval(&k));
    EXPECT_GET(MPI_Win_get_attr(w, saved, &v_, &f_), 1, 80);
    CHECK_SUCCESS(MPI_Win_free(&w));
    EXPECT_DEL(1, 80);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    comm_keyval();
    mpi1_keyval();
    type_keyval();
    win_keyval();
    MPI_Finalize();
    return 0;
}
