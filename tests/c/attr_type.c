/* attr_type.c — caching on datatypes (issue 5): set/get/replace/delete on derived and predefined
 * types, copy on MPI_Type_dup (flag 0/1, DUP_FN, NULL_COPY_FN), delete at MPI_Type_free (also
 * while another type still holds the freed one), failing callbacks, wrong-kind and freed keyvals. */
#include "attr_log.h"

#include <stdint.h>

static int extra_marker;
static int fail_delete; /* the failing delete callback fails while this is set */
static int user_code;   /* a user error code the failing callbacks return */

#define V(x) ((void *)(intptr_t)(x))

static int copy_inc(MPI_Datatype t, int k, void *extra, void *in, void *out, int *flag)
{
    (void)k;
    CHECK(extra == &extra_marker, "copy: wrong extra_state");
    log_ev('c', (intptr_t)t, in);
    *(void **)out = (void *)((intptr_t)in + 1);
    *flag = 1;
    return MPI_SUCCESS;
}

static int copy_none(MPI_Datatype t, int k, void *extra, void *in, void *out, int *flag)
{
    (void)k;
    (void)extra;
    (void)out;
    log_ev('c', (intptr_t)t, in);
    *flag = 0;
    return MPI_SUCCESS;
}

static int copy_fail(MPI_Datatype t, int k, void *extra, void *in, void *out, int *flag)
{
    (void)k;
    (void)extra;
    (void)out;
    log_ev('c', (intptr_t)t, in);
    *flag = 1;
    return user_code;
}

static int del_log(MPI_Datatype t, int k, void *v, void *extra)
{
    (void)k;
    CHECK(extra == &extra_marker, "delete: wrong extra_state");
    log_ev('d', (intptr_t)t, v);
    return MPI_SUCCESS;
}

static int del_fail(MPI_Datatype t, int k, void *v, void *extra)
{
    (void)k;
    (void)extra;
    log_ev('d', (intptr_t)t, v);
    return fail_delete ? user_code : MPI_SUCCESS;
}

static void expect_attr(MPI_Datatype t, int k, int want_flag, intptr_t want)
{
    void *v = V(-7);
    int flag = -1;
    CHECK_SUCCESS(MPI_Type_get_attr(t, k, &v, &flag));
    CHECK_EQ_INT(flag, want_flag);
    if (want_flag)
        CHECK_EQ_INT((intptr_t)v, want);
    else
        CHECK((intptr_t)v == -7, "attribute_val written without an attribute");
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int cls;
    CHECK_SUCCESS(MPI_Add_error_class(&cls));
    CHECK_SUCCESS(MPI_Add_error_code(cls, &user_code));

    int k1, k2, k3, k4, kf, kd;
    CHECK_SUCCESS(MPI_Type_create_keyval(copy_inc, del_log, &k1, &extra_marker));
    CHECK_SUCCESS(MPI_Type_create_keyval(copy_none, del_log, &k2, &extra_marker));
    CHECK_SUCCESS(MPI_Type_create_keyval(MPI_TYPE_DUP_FN, del_log, &k3, &extra_marker));
    CHECK_SUCCESS(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &k4, &extra_marker));
    CHECK_SUCCESS(MPI_Type_create_keyval(copy_fail, del_log, &kf, &extra_marker));
    CHECK_SUCCESS(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, del_fail, &kd, &extra_marker));

    MPI_Datatype t, d;
    CHECK_SUCCESS(MPI_Type_contiguous(3, MPI_INT, &t));
    CHECK_SUCCESS(MPI_Type_commit(&t));

    /* set, get, replace (delete callback with the old value), delete */
    expect_attr(t, k1, 0, 0);
    CHECK_SUCCESS(MPI_Type_set_attr(t, k1, V(10)));
    expect_attr(t, k1, 1, 10);
    CHECK_SUCCESS(MPI_Type_set_attr(t, k1, V(20)));
    expect_log("d", (intptr_t[]){10});
    CHECK(ev_obj[0] == (intptr_t)t, "delete callback got another datatype");
    expect_attr(t, k1, 1, 20);
    CHECK_SUCCESS(MPI_Type_delete_attr(t, k1));
    expect_log("d", (intptr_t[]){20});
    expect_attr(t, k1, 0, 0);
    CHECK_SUCCESS(MPI_Type_delete_attr(t, k1)); /* not set: nothing called */
    expect_log("", NULL);

    /* copies on MPI_Type_dup: k1 +1, k2 flag 0, k3 DUP_FN, k4 NULL_COPY_FN; list order */
    CHECK_SUCCESS(MPI_Type_set_attr(t, k1, V(100)));
    CHECK_SUCCESS(MPI_Type_set_attr(t, k2, V(200)));
    CHECK_SUCCESS(MPI_Type_set_attr(t, k3, V(300)));
    CHECK_SUCCESS(MPI_Type_set_attr(t, k4, V(400)));
    CHECK_SUCCESS(MPI_Type_dup(t, &d));
    if (CHECK_SWITCHYARD) /* newest first (MPICH: oldest first); k4 and k3 (DUP_FN) call nothing */
        expect_log("cc", (intptr_t[]){200, 100});
    nev = 0;
    expect_attr(d, k1, 1, 101);
    expect_attr(d, k2, 0, 0);
    expect_attr(d, k3, 1, 300);
    expect_attr(d, k4, 0, 0);
    int size = 0;
    CHECK_SUCCESS(MPI_Type_size(d, &size));
    CHECK_EQ_INT(size, 3 * (int)sizeof(int));

    /* MPI_Type_free deletes, newest first, with the user's handle */
    MPI_Datatype dh = d;
    CHECK_SUCCESS(MPI_Type_free(&d));
    CHECK(d == MPI_DATATYPE_NULL, "MPI_Type_free did not set MPI_DATATYPE_NULL");
    CHECK(nev == 2 && ev_obj[0] == (intptr_t)dh && ev_obj[1] == (intptr_t)dh, "delete callbacks at free: %d, other datatype", nev);
    if (CHECK_SWITCHYARD) /* (MPICH: oldest first) */
        expect_log("dd", (intptr_t[]){300, 101});
    nev = 0;

    /* a failing copy callback fails the dup with its code; the copies made are deleted */
    CHECK_SUCCESS(MPI_Type_set_attr(t, kf, V(500)));
    d = MPI_DATATYPE_NULL;
    int rc = MPI_Type_dup(t, &d);
    CHECK_ERR(rc, cls, NULL); /* the callback's own code: no message of ours */
    CHECK(rc == user_code || !CHECK_SWITCHYARD, "MPI_Type_dup returned %d, not the callback's code %d", rc, user_code);
    CHECK(d == MPI_DATATYPE_NULL, "a failed MPI_Type_dup set newtype");
    if (CHECK_SWITCHYARD)
        expect_log("c", (intptr_t[]){500}); /* kf is newest: it fails first, nothing copied yet */
    nev = 0;
    CHECK_SUCCESS(MPI_Type_delete_attr(t, kf));
    expect_log("d", (intptr_t[]){500});
    /* again with kf older than k1 and k3: their copies are made, then deleted */
    CHECK_SUCCESS(MPI_Type_delete_attr(t, k1));
    CHECK_SUCCESS(MPI_Type_delete_attr(t, k2));
    CHECK_SUCCESS(MPI_Type_delete_attr(t, k3));
    nev = 0;
    CHECK_SUCCESS(MPI_Type_set_attr(t, kf, V(600)));
    CHECK_SUCCESS(MPI_Type_set_attr(t, k3, V(601)));
    CHECK_SUCCESS(MPI_Type_set_attr(t, k1, V(602)));
    rc = MPI_Type_dup(t, &d);
    CHECK_ERR(rc, cls, NULL);
    CHECK(d == MPI_DATATYPE_NULL, "a failed MPI_Type_dup set newtype");
    if (CHECK_SWITCHYARD) /* copy k1, (k3 by DUP_FN), fail at kf, delete the copies in order */
        expect_log("ccdd", (intptr_t[]){602, 600, 603, 601});
    nev = 0;
    CHECK_SUCCESS(MPI_Type_delete_attr(t, kf));
    nev = 0;

    /* a failing delete callback fails MPI_Type_free; the type stays valid (MPICH 4.0.2 frees
     * it and returns success) */
    if (CHECK_SWITCHYARD) {
        CHECK_SUCCESS(MPI_Type_set_attr(t, kd, V(700)));
        fail_delete = 1;
        MPI_Datatype th = t;
        rc = MPI_Type_free(&t);
        CHECK_ERR(rc, cls, NULL);
        CHECK_EQ_INT(rc, user_code);
        CHECK(t == th, "a failed MPI_Type_free changed the handle");
        expect_log("d", (intptr_t[]){700});
        expect_attr(t, kd, 1, 700);
        expect_attr(t, k1, 1, 602);
        CHECK_SUCCESS(MPI_Type_size(t, &size));
        fail_delete = 0;
    }

    /* a type freed while another still holds it: its attributes go at MPI_Type_free */
    MPI_Datatype outer;
    CHECK_SUCCESS(MPI_Type_vector(2, 1, 2, t, &outer));
    CHECK_SUCCESS(MPI_Type_commit(&outer));
    CHECK_SUCCESS(MPI_Type_set_attr(outer, k1, V(800)));
    CHECK_SUCCESS(MPI_Type_free(&t));
    if (CHECK_SWITCHYARD) /* kd, k1, k3: newest first (k4: none); MPICH 4.0.2: only when t dies */
        expect_log("ddd", (intptr_t[]){700, 602, 601});
    nev = 0;
    CHECK_SUCCESS(MPI_Type_size(outer, &size));
    CHECK_EQ_INT(size, 6 * (int)sizeof(int));

    /* predefined datatypes cache too */
    CHECK_SUCCESS(MPI_Type_set_attr(MPI_INT, k1, V(900)));
    expect_attr(MPI_INT, k1, 1, 900);
    expect_attr(MPI_DOUBLE, k1, 0, 0);
    CHECK_SUCCESS(MPI_Type_delete_attr(MPI_INT, k1));
    expect_log("d", (intptr_t[]){900});
    CHECK(ev_obj[0] == (intptr_t)MPI_INT, "delete callback on MPI_INT got another datatype");
    nev = 0;

    /* a keyval freed while in use: its old handle stays valid, its callbacks still run */
    int saved = k1;
    CHECK_SUCCESS(MPI_Type_free_keyval(&k1));
    CHECK(k1 == MPI_KEYVAL_INVALID, "MPI_Type_free_keyval did not set MPI_KEYVAL_INVALID");
    expect_attr(outer, saved, 1, 800);
    CHECK_SUCCESS(MPI_Type_dup(outer, &d));
    expect_log("c", (intptr_t[]){800});
    CHECK_SUCCESS(MPI_Type_free(&d));
    CHECK_SUCCESS(MPI_Type_free(&outer));
    if (CHECK_SWITCHYARD) /* (MPICH 4.0.2 deletes t's attributes only now, when t dies) */
        expect_log("dd", (intptr_t[]){801, 800});
    nev = 0;

    /* wrong kinds and invalid keyvals */
    int ck, inv = MPI_KEYVAL_INVALID;
    void *v;
    int flag;
    CHECK_SUCCESS(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &ck, NULL));
    CHECK_ERR(MPI_Type_set_attr(MPI_INT, ck, V(1)), MPI_ERR_KEYVAL, "MPI_Type_set_attr", "type_keyval",
              "communicator keyval");
    CHECK_ERR(MPI_Type_get_attr(MPI_INT, ck, &v, &flag), MPI_ERR_KEYVAL, "MPI_Type_get_attr", "communicator");
    CHECK_ERR(MPI_Type_delete_attr(MPI_INT, ck), MPI_ERR_KEYVAL, "MPI_Type_delete_attr");
    CHECK_ERR(MPI_Type_free_keyval(&ck), MPI_ERR_KEYVAL, "MPI_Type_free_keyval", "communicator");
    CHECK_SUCCESS(MPI_Comm_free_keyval(&ck));
    CHECK_ERR(MPI_Type_get_attr(MPI_INT, MPI_TAG_UB, &v, &flag), MPI_ERR_KEYVAL, "MPI_TAG_UB");
    CHECK_ERR(MPI_Type_set_attr(MPI_INT, MPI_KEYVAL_INVALID, V(1)), MPI_ERR_KEYVAL, "type_keyval");
    CHECK_ERR(MPI_Type_free_keyval(&inv), MPI_ERR_KEYVAL, "MPI_Type_free_keyval");
    CHECK_ERR(MPI_Comm_set_attr(MPI_COMM_WORLD, k2, V(1)), MPI_ERR_KEYVAL, "datatype keyval");

    /* an attribute left on a predefined type at finalize: dropped */
    CHECK_SUCCESS(MPI_Type_set_attr(MPI_CHAR, k2, V(1000)));
    CHECK_SUCCESS(MPI_Type_free_keyval(&k2));
    CHECK_SUCCESS(MPI_Type_free_keyval(&k3));
    CHECK_SUCCESS(MPI_Type_free_keyval(&k4));
    CHECK_SUCCESS(MPI_Type_free_keyval(&kf));
    CHECK_SUCCESS(MPI_Type_free_keyval(&kd));
    nev = 0;
    MPI_Finalize();
    return 0;
}
