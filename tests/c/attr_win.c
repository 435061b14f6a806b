/* attr_win.c — caching on windows (issue 5): the predefined attributes of every flavor (create,
 * allocate, allocate_shared, dynamic), user keyvals (set/get/replace/delete, delete at
 * MPI_Win_free newest first, a failing delete callback), wrong-kind, predefined and freed keyvals. */
#include "attr_log.h"

#include <stdint.h>

static int extra_marker;
static int fail_delete; /* the failing delete callback fails while this is set */
static int user_code;   /* a user error code the failing callback returns */

#define V(x) ((void *)(intptr_t)(x))

static int copy_never(MPI_Win w, int k, void *extra, void *in, void *out, int *flag)
{
    (void)k, (void)extra, (void)out, (void)flag;
    log_ev('c', (intptr_t)w, in); /* windows are never duplicated */
    return MPI_SUCCESS;
}

static int del_log(MPI_Win w, int k, void *v, void *extra)
{
    (void)k;
    CHECK(extra == &extra_marker, "delete: wrong extra_state");
    log_ev('d', (intptr_t)w, v);
    return MPI_SUCCESS;
}

static int del_fail(MPI_Win w, int k, void *v, void *extra)
{
    (void)k, (void)extra;
    log_ev('d', (intptr_t)w, v);
    return fail_delete ? user_code : MPI_SUCCESS;
}

static void expect_attr(MPI_Win w, int k, int want_flag, intptr_t want)
{
    void *v = V(-7);
    int flag = -1;
    CHECK_SUCCESS(MPI_Win_get_attr(w, k, &v, &flag));
    CHECK_EQ_INT(flag, want_flag);
    if (want_flag)
        CHECK_EQ_INT((intptr_t)v, want);
    else
        CHECK((intptr_t)v == -7, "attribute_val written without an attribute");
}

/* The five predefined attributes of w (MPI-5.0 12.2.6): the base itself, pointers to the size
 * (MPI_Aint), the displacement unit, the flavor and the model (int). */
static void expect_predefined(MPI_Win w, void *base, MPI_Aint size, int disp_unit, int flavor)
{
    void *v = NULL;
    int flag = 0;
    CHECK_SUCCESS(MPI_Win_get_attr(w, MPI_WIN_BASE, &v, &flag));
    /* (Debian MPICH 4.0.2 on 2 ranks: MPI_WIN_BASE of rank 1's allocated or shared window is
     * not the baseptr it returned: 8 bytes below it for allocate) */
    CHECK(flag == 1 && (v == base || (!CHECK_SWITCHYARD && (flavor == MPI_WIN_FLAVOR_ALLOCATE ||
                                                            flavor == MPI_WIN_FLAVOR_SHARED))),
          "MPI_WIN_BASE: flag %d, %p, expected %p (flavor %d)", flag, v, base, flavor);
    CHECK_SUCCESS(MPI_Win_get_attr(w, MPI_WIN_SIZE, &v, &flag));
    CHECK(flag == 1 && v, "MPI_WIN_SIZE: flag %d", flag);
    CHECK_EQ_INT(*(MPI_Aint *)v, size);
    CHECK_SUCCESS(MPI_Win_get_attr(w, MPI_WIN_DISP_UNIT, &v, &flag));
    CHECK(flag == 1 && v, "MPI_WIN_DISP_UNIT: flag %d", flag);
    CHECK_EQ_INT(*(int *)v, disp_unit);
    CHECK_SUCCESS(MPI_Win_get_attr(w, MPI_WIN_CREATE_FLAVOR, &v, &flag));
    CHECK(flag == 1 && v, "MPI_WIN_CREATE_FLAVOR: flag %d", flag);
    CHECK_EQ_INT(*(int *)v, flavor);
    CHECK_SUCCESS(MPI_Win_get_attr(w, MPI_WIN_MODEL, &v, &flag));
    CHECK(flag == 1 && v, "MPI_WIN_MODEL: flag %d", flag);
    CHECK_EQ_INT(*(int *)v, MPI_WIN_UNIFIED);
    /* they cannot be set or deleted */
    CHECK_ERR(MPI_Win_set_attr(w, MPI_WIN_BASE, V(1)), MPI_ERR_KEYVAL, "MPI_Win_set_attr", "MPI_WIN_BASE");
    CHECK_ERR(MPI_Win_set_attr(w, MPI_WIN_SIZE, V(1)), MPI_ERR_KEYVAL, "MPI_Win_set_attr", "MPI_WIN_SIZE");
    CHECK_ERR(MPI_Win_delete_attr(w, MPI_WIN_DISP_UNIT), MPI_ERR_KEYVAL, "MPI_Win_delete_attr", "MPI_WIN_DISP_UNIT");
    CHECK_ERR(MPI_Win_delete_attr(w, MPI_WIN_CREATE_FLAVOR), MPI_ERR_KEYVAL, "MPI_WIN_CREATE_FLAVOR");
    CHECK_ERR(MPI_Win_delete_attr(w, MPI_WIN_MODEL), MPI_ERR_KEYVAL, "MPI_WIN_MODEL");
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int rank, cls;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    CHECK_SUCCESS(MPI_Add_error_class(&cls));
    CHECK_SUCCESS(MPI_Add_error_code(cls, &user_code));

    /* every flavor's predefined attributes */
    MPI_Aint size = 40 * (rank + 1);
    int buf[100];
    void *base;
    MPI_Win w;
    CHECK_SUCCESS(MPI_Win_create(buf, size, 4, MPI_INFO_NULL, MPI_COMM_WORLD, &w));
    MPI_Win_set_errhandler(w, MPI_ERRORS_RETURN);
    expect_predefined(w, buf, size, 4, MPI_WIN_FLAVOR_CREATE);
    CHECK_SUCCESS(MPI_Win_free(&w));
    CHECK_SUCCESS(MPI_Win_create(NULL, 0, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &w)); /* size 0 */
    MPI_Win_set_errhandler(w, MPI_ERRORS_RETURN);
    expect_predefined(w, NULL, 0, 1, MPI_WIN_FLAVOR_CREATE);
    CHECK_SUCCESS(MPI_Win_free(&w));
    CHECK_SUCCESS(MPI_Win_allocate(size, 8, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &w));
    MPI_Win_set_errhandler(w, MPI_ERRORS_RETURN);
    expect_predefined(w, base, size, 8, MPI_WIN_FLAVOR_ALLOCATE);
    CHECK_SUCCESS(MPI_Win_free(&w));
    CHECK_SUCCESS(MPI_Win_allocate_shared(size, 2, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &w));
    MPI_Win_set_errhandler(w, MPI_ERRORS_RETURN);
    expect_predefined(w, base, size, 2, MPI_WIN_FLAVOR_SHARED);
    CHECK_SUCCESS(MPI_Win_free(&w));
    CHECK_SUCCESS(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &w));
    MPI_Win_set_errhandler(w, MPI_ERRORS_RETURN);
    expect_predefined(w, MPI_BOTTOM, 0, 1, MPI_WIN_FLAVOR_DYNAMIC); /* MPI_BOTTOM and 0 */
    CHECK_SUCCESS(MPI_Win_attach(w, buf, sizeof buf));
    expect_predefined(w, MPI_BOTTOM, 0, 1, MPI_WIN_FLAVOR_DYNAMIC); /* attaching changes nothing */
    CHECK_SUCCESS(MPI_Win_detach(w, buf));

    /* user keyvals on the dynamic window: set, get, replace, delete */
    int k1, k2, k3, kd;
    CHECK_SUCCESS(MPI_Win_create_keyval(copy_never, del_log, &k1, &extra_marker));
    CHECK_SUCCESS(MPI_Win_create_keyval(MPI_WIN_DUP_FN, del_log, &k2, &extra_marker));
    CHECK_SUCCESS(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, MPI_WIN_NULL_DELETE_FN, &k3, &extra_marker));
    CHECK_SUCCESS(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, del_fail, &kd, &extra_marker));
    CHECK(k1 != MPI_KEYVAL_INVALID && k1 != k2, "keyvals not distinct");
    expect_attr(w, k1, 0, 0);
    CHECK_SUCCESS(MPI_Win_set_attr(w, k1, V(10)));
    expect_attr(w, k1, 1, 10);
    CHECK_SUCCESS(MPI_Win_set_attr(w, k1, V(20)));
    expect_log("d", (intptr_t[]){10});
    CHECK(ev_obj[0] == (intptr_t)w, "delete callback got another window");
    expect_attr(w, k1, 1, 20);
    CHECK_SUCCESS(MPI_Win_delete_attr(w, k1));
    expect_log("d", (intptr_t[]){20});
    expect_attr(w, k1, 0, 0);
    CHECK_SUCCESS(MPI_Win_delete_attr(w, k1)); /* not set: nothing called */
    expect_log("", NULL);
    CHECK_SUCCESS(MPI_Win_set_attr(w, k3, V(30)));
    CHECK_SUCCESS(MPI_Win_delete_attr(w, k3)); /* NULL_DELETE_FN: nothing called */
    expect_log("", NULL);

    /* MPI_Win_free deletes newest first, with the user's handle */
    CHECK_SUCCESS(MPI_Win_set_attr(w, k1, V(100)));
    CHECK_SUCCESS(MPI_Win_set_attr(w, k2, V(200)));
    CHECK_SUCCESS(MPI_Win_set_attr(w, k3, V(300)));
    CHECK_SUCCESS(MPI_Win_set_attr(w, k1, V(101))); /* replaced: keeps its place */
    expect_log("d", (intptr_t[]){100});
    MPI_Win wh = w;
    CHECK_SUCCESS(MPI_Win_free(&w));
    CHECK(w == MPI_WIN_NULL, "MPI_Win_free did not set MPI_WIN_NULL");
    CHECK(nev == 2 && ev_obj[0] == (intptr_t)wh && ev_obj[1] == (intptr_t)wh, "delete callbacks at free: %d, other window", nev);
    if (CHECK_SWITCHYARD)
        expect_log("dd", (intptr_t[]){200, 101});
    nev = 0;

    /* a failing delete callback fails MPI_Win_free (on every process here) and the window stays */
    CHECK_SUCCESS(MPI_Win_allocate(size, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &w));
    MPI_Win_set_errhandler(w, MPI_ERRORS_RETURN);
    CHECK_SUCCESS(MPI_Win_set_attr(w, k1, V(400)));
    CHECK_SUCCESS(MPI_Win_set_attr(w, kd, V(401)));
    CHECK_SUCCESS(MPI_Win_set_attr(w, k2, V(402)));
    if (CHECK_SWITCHYARD) {
        fail_delete = 1;
        wh = w;
        int rc = MPI_Win_free(&w);
        CHECK_ERR(rc, cls, NULL);
        CHECK_EQ_INT(rc, user_code);
        CHECK(w == wh, "a failed MPI_Win_free changed the handle");
        expect_log("dd", (intptr_t[]){402, 401}); /* k2 deleted, kd failed: kd and k1 stay */
        expect_attr(w, k2, 0, 0);
        expect_attr(w, kd, 1, 401);
        expect_attr(w, k1, 1, 400);
        expect_predefined(w, base, size, 1, MPI_WIN_FLAVOR_ALLOCATE);
        fail_delete = 0;
    }

    /* a keyval freed while in use: its old handle stays valid, its callback still runs */
    int saved = k1;
    CHECK_SUCCESS(MPI_Win_free_keyval(&k1));
    CHECK(k1 == MPI_KEYVAL_INVALID, "MPI_Win_free_keyval did not set MPI_KEYVAL_INVALID");
    expect_attr(w, saved, 1, 400);
    nev = 0;
    CHECK_SUCCESS(MPI_Win_free(&w));
    if (CHECK_SWITCHYARD)
        expect_log("dd", (intptr_t[]){401, 400});
    nev = 0;

    /* wrong kinds, predefined and invalid keyvals */
    int ck, tk, inv = MPI_KEYVAL_INVALID, flag;
    void *v;
    CHECK_SUCCESS(MPI_Win_create(buf, sizeof buf, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &w));
    MPI_Win_set_errhandler(w, MPI_ERRORS_RETURN);
    CHECK_SUCCESS(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &ck, NULL));
    CHECK_SUCCESS(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &tk, NULL));
    CHECK_ERR(MPI_Win_set_attr(w, ck, V(1)), MPI_ERR_KEYVAL, "MPI_Win_set_attr", "win_keyval", "communicator keyval");
    CHECK_ERR(MPI_Win_get_attr(w, ck, &v, &flag), MPI_ERR_KEYVAL, "MPI_Win_get_attr", "communicator");
    CHECK_ERR(MPI_Win_delete_attr(w, tk), MPI_ERR_KEYVAL, "MPI_Win_delete_attr", "datatype keyval");
    CHECK_ERR(MPI_Win_get_attr(w, MPI_TAG_UB, &v, &flag), MPI_ERR_KEYVAL, "MPI_TAG_UB");
    CHECK_ERR(MPI_Win_set_attr(w, MPI_KEYVAL_INVALID, V(1)), MPI_ERR_KEYVAL, "win_keyval");
    CHECK_ERR(MPI_Win_free_keyval(&ck), MPI_ERR_KEYVAL, "MPI_Win_free_keyval", "communicator");
    CHECK_ERR(MPI_Win_free_keyval(&inv), MPI_ERR_KEYVAL, "MPI_Win_free_keyval");
    CHECK_ERR(MPI_Win_free_keyval(&(int){MPI_WIN_BASE}), MPI_ERR_KEYVAL, "MPI_Win_free_keyval", "MPI_WIN_BASE");
    CHECK_ERR(MPI_Comm_set_attr(MPI_COMM_WORLD, k2, V(1)), MPI_ERR_KEYVAL, "window keyval");
    CHECK_ERR(MPI_Comm_free_keyval(&k2), MPI_ERR_KEYVAL, "window keyval");
    CHECK_ERR(MPI_Type_set_attr(MPI_INT, k2, V(1)), MPI_ERR_KEYVAL, "window keyval");
    CHECK_ERR(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_WIN_SIZE, &v, &flag), MPI_ERR_KEYVAL, "MPI_WIN_SIZE");
    CHECK_SUCCESS(MPI_Comm_free_keyval(&ck));
    CHECK_SUCCESS(MPI_Type_free_keyval(&tk));
    CHECK_SUCCESS(MPI_Win_free(&w));
    expect_log("", NULL);

    CHECK_SUCCESS(MPI_Win_free_keyval(&k2));
    CHECK_SUCCESS(MPI_Win_free_keyval(&k3));
    CHECK_SUCCESS(MPI_Win_free_keyval(&kd));
    MPI_Finalize();
    return 0;
}
