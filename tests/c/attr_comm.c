/* attr_comm.c — caching on communicators (issue 5): keyvals, set/get/replace/delete, copy on
 * dup with flag 0/1 and MPI_COMM_DUP_FN, delete on free, failing callbacks, freed and
 * wrong-kind keyvals, predefined attributes, MPI_COMM_SELF's attributes at finalize. */
#include "attr_log.h"

#include <stdint.h>
#ifdef MPI_ABI_VERSION
#include <mpi_legacy.h> /* MPI_Attr_get: left out of the standard ABI's mpi.h */
#endif

static int extra_marker;
static int fail_delete; /* the failing delete callback fails while this is set */
static int user_code;   /* a user error code the failing callbacks return */

/* copies value + 1 */
static int copy_inc(MPI_Comm c, int k, void *extra, void *in, void *out, int *flag)
{
    (void)c;
    (void)k;
    CHECK(extra == &extra_marker, "copy: wrong extra_state");
    log_ev('c', 0, in);
    *(void **)out = (void *)((intptr_t)in + 1);
    *flag = 1;
    return MPI_SUCCESS;
}

/* does not copy */
static int copy_none(MPI_Comm c, int k, void *extra, void *in, void *out, int *flag)
{
    (void)c;
    (void)k;
    (void)extra;
    (void)out;
    log_ev('c', 0, in);
    *flag = 0;
    return MPI_SUCCESS;
}

static int copy_fail(MPI_Comm c, int k, void *extra, void *in, void *out, int *flag)
{
    (void)c;
    (void)k;
    (void)extra;
    (void)out;
    log_ev('c', 0, in);
    *flag = 1;
    return user_code;
}

static int del_log(MPI_Comm c, int k, void *v, void *extra)
{
    (void)c;
    (void)k;
    CHECK(extra == &extra_marker, "delete: wrong extra_state");
    log_ev('d', 0, v);
    return MPI_SUCCESS;
}

static int del_fail(MPI_Comm c, int k, void *v, void *extra)
{
    (void)c;
    (void)k;
    (void)extra;
    log_ev('d', 0, v);
    return fail_delete ? MPI_ERR_OTHER : MPI_SUCCESS;
}

/* checks the comm and keyval arguments of a delete callback */
static MPI_Comm want_comm;
static int want_key;
static int del_check_args(MPI_Comm c, int k, void *v, void *extra)
{
    CHECK(c == want_comm, "delete: wrong communicator");
    CHECK(k == want_key, "delete: keyval %d, expected %d", k, want_key);
    return del_log(c, k, v, extra);
}

/* MPI_COMM_SELF at finalize: must run first in MPI_Finalize, newest first */
static int self_order[8], nself;
static int del_self(MPI_Comm c, int k, void *v, void *extra)
{
    int fin = 1, rank = -1;
    (void)k;
    (void)extra;
    MPI_Finalized(&fin);
    if (fin || c != MPI_COMM_SELF || MPI_Comm_rank(MPI_COMM_WORLD, &rank) != MPI_SUCCESS)
        self_order[nself++] = -1;
    else if (nself < 8)
        self_order[nself++] = (int)(intptr_t)v;
    return MPI_SUCCESS;
}

#define V(x) ((void *)(intptr_t)(x))

static void *get(MPI_Comm c, int k, int want_flag)
{
    void *v = V(-7);
    int flag = -1;
    CHECK_SUCCESS(MPI_Comm_get_attr(c, k, &v, &flag));
    CHECK_EQ_INT(flag, want_flag);
    return v;
}

static void set_get_replace_delete(void)
{
    int k;
    CHECK_SUCCESS(MPI_Comm_create_keyval(copy_inc, del_check_args, &k, &extra_marker));
    CHECK(k != MPI_KEYVAL_INVALID, "create gave MPI_KEYVAL_INVALID");
    want_comm = MPI_COMM_WORLD;
    want_key = k;
    get(MPI_COMM_WORLD, k, 0);
    CHECK_SUCCESS(MPI_Comm_set_attr(MPI_COMM_WORLD, k, V(100)));
    CHECK(get(MPI_COMM_WORLD, k, 1) == V(100), "get after set");
    expect_log("", NULL);
    CHECK_SUCCESS(MPI_Comm_set_attr(MPI_COMM_WORLD, k, V(101))); /* replace: delete(100) */
    expect_log("d", (intptr_t[]){100});
    CHECK(get(MPI_COMM_WORLD, k, 1) == V(101), "get after replace");
    CHECK_SUCCESS(MPI_Comm_delete_attr(MPI_COMM_WORLD, k));
    expect_log("d", (intptr_t[]){101});
    get(MPI_COMM_WORLD, k, 0);
    CHECK_SUCCESS(MPI_Comm_delete_attr(MPI_COMM_WORLD, k)); /* nothing there: no call */
    expect_log("", NULL);
    CHECK_SUCCESS(MPI_Comm_free_keyval(&k));
    CHECK(k == MPI_KEYVAL_INVALID, "free_keyval did not set MPI_KEYVAL_INVALID");
}

static void copy_on_dup(void)
{
    int kinc, knone, kdup, knull;
    MPI_Comm c1, c2, c3;
    CHECK_SUCCESS(MPI_Comm_create_keyval(copy_inc, del_log, &kinc, &extra_marker));
    CHECK_SUCCESS(MPI_Comm_create_keyval(copy_none, del_log, &knone, &extra_marker));
    CHECK_SUCCESS(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, del_log, &kdup, &extra_marker));
    CHECK_SUCCESS(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &knull, NULL));
    CHECK_SUCCESS(MPI_Comm_dup(MPI_COMM_WORLD, &c1));
    CHECK_SUCCESS(MPI_Comm_set_attr(c1, kinc, V(10)));
    CHECK_SUCCESS(MPI_Comm_set_attr(c1, knone, V(20)));
    CHECK_SUCCESS(MPI_Comm_set_attr(c1, kdup, V(30)));
    CHECK_SUCCESS(MPI_Comm_set_attr(c1, knull, V(40)));
    CHECK_SUCCESS(MPI_Comm_dup(c1, &c2));
    /* one copy call per attribute with a copy function (none for DUP_FN / NULL_COPY_FN) */
    CHECK(nev == 2, "%d copy calls, expected 2", nev);
    CHECK(ev_kind[0] == 'c' && ev_kind[1] == 'c', "copy calls");
    CHECK((ev_val[0] == 10 && ev_val[1] == 20) || (ev_val[0] == 20 && ev_val[1] == 10), "copy values");
    nev = 0;
    CHECK(get(c2, kinc, 1) == V(11), "copied value");
    get(c2, knone, 0);
    CHECK(get(c2, kdup, 1) == V(30), "MPI_COMM_DUP_FN value");
    get(c2, knull, 0);
    CHECK(get(c1, kinc, 1) == V(10), "the original is unchanged");
    /* dup_with_info copies too */
    MPI_Info info;
    CHECK_SUCCESS(MPI_Info_create(&info));
    CHECK_SUCCESS(MPI_Comm_dup_with_info(c2, info, &c3));
    CHECK_SUCCESS(MPI_Info_free(&info));
    expect_log("c", (intptr_t[]){11});
    CHECK(get(c3, kinc, 1) == V(12), "dup_with_info copied value");
    CHECK(get(c3, kdup, 1) == V(30), "dup_with_info DUP_FN value");
    /* free: delete callbacks, newest first (knull has none) */
    CHECK_SUCCESS(MPI_Comm_free(&c3));
    expect_log("dd", (intptr_t[]){30, 12});
    CHECK_SUCCESS(MPI_Comm_free(&c2));
    expect_log("dd", (intptr_t[]){30, 11});
    CHECK_SUCCESS(MPI_Comm_free(&c1));
    expect_log("ddd", (intptr_t[]){30, 20, 10});
    CHECK_SUCCESS(MPI_Comm_free_keyval(&kinc));
    CHECK_SUCCESS(MPI_Comm_free_keyval(&knone));
    CHECK_SUCCESS(MPI_Comm_free_keyval(&kdup));
    CHECK_SUCCESS(MPI_Comm_free_keyval(&knull));
    expect_log("", NULL);
}

static void failing_callbacks(void)
{
    int kfail, kinc, kdel, cls, rc;
    MPI_Comm c, c2 = MPI_COMM_NULL;
    CHECK_SUCCESS(MPI_Add_error_class(&cls));
    CHECK_SUCCESS(MPI_Add_error_code(cls, &user_code));
    CHECK_SUCCESS(MPI_Comm_create_keyval(copy_fail, del_log, &kfail, &extra_marker));
    CHECK_SUCCESS(MPI_Comm_create_keyval(copy_inc, del_log, &kinc, &extra_marker));
    CHECK_SUCCESS(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, del_fail, &kdel, &extra_marker));
    CHECK_SUCCESS(MPI_Comm_dup(MPI_COMM_WORLD, &c));
    CHECK_SUCCESS(MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN));
    CHECK_SUCCESS(MPI_Comm_set_attr(c, kfail, V(1)));
    CHECK_SUCCESS(MPI_Comm_set_attr(c, kinc, V(2))); /* newest: copied first */
    /* the copy of kinc is made, kfail fails: the dup fails with the callback's code and
     * the copy already made goes through its delete callback */
    rc = MPI_Comm_dup(c, &c2);
    CHECK_EQ_INT(rc, user_code);
    CHECK(c2 == MPI_COMM_NULL, "a failed dup set newcomm");
    if (CHECK_SWITCHYARD) /* MPICH 4.0.2 leaves the copy made (value 3) undeleted */
        expect_log("ccd", (intptr_t[]){2, 1, 3});
    else
        expect_log("cc", (intptr_t[]){2, 1});
    CHECK_SUCCESS(MPI_Comm_delete_attr(c, kfail));
    CHECK_SUCCESS(MPI_Comm_delete_attr(c, kinc));
    expect_log("dd", (intptr_t[]){1, 2});
    /* failing delete callback: delete_attr, replacing set and free fail, the value stays */
    fail_delete = 1;
    CHECK_SUCCESS(MPI_Comm_set_attr(c, kdel, V(5)));
    CHECK_ERR(MPI_Comm_delete_attr(c, kdel), MPI_ERR_OTHER, "MPI_Comm_delete_attr", "delete callback");
    CHECK(get(c, kdel, 1) == V(5), "a failed delete removed the attribute");
    CHECK_ERR(MPI_Comm_set_attr(c, kdel, V(6)), MPI_ERR_OTHER, "MPI_Comm_set_attr");
    CHECK(get(c, kdel, 1) == V(5), "a failed replace changed the attribute");
    MPI_Comm keep = c;
    CHECK_ERR(MPI_Comm_free(&c), MPI_ERR_OTHER, "MPI_Comm_free");
    CHECK(c == keep, "a failed free changed the handle");
    expect_log("ddd", (intptr_t[]){5, 5, 5});
    fail_delete = 0;
    CHECK_SUCCESS(MPI_Comm_free(&c));
    CHECK(c == MPI_COMM_NULL, "free did not set MPI_COMM_NULL");
    if (CHECK_SWITCHYARD) /* the attribute stayed after the failed free (MPICH drops it) */
        expect_log("d", (intptr_t[]){5});
    nev = 0;
    CHECK_SUCCESS(MPI_Comm_free_keyval(&kfail));
    CHECK_SUCCESS(MPI_Comm_free_keyval(&kinc));
    CHECK_SUCCESS(MPI_Comm_free_keyval(&kdel));
}

static void keyval_in_use(void)
{
    int k, saved;
    MPI_Comm c, c2;
    CHECK_SUCCESS(MPI_Comm_create_keyval(copy_inc, del_check_args, &k, &extra_marker));
    saved = k;
    CHECK_SUCCESS(MPI_Comm_dup(MPI_COMM_WORLD, &c));
    CHECK_SUCCESS(MPI_Comm_set_attr(c, k, V(50)));
    CHECK_SUCCESS(MPI_Comm_free_keyval(&k));
    CHECK(k == MPI_KEYVAL_INVALID, "free_keyval did not set MPI_KEYVAL_INVALID");
    /* its old handle stays valid while the attribute uses it (every call: attr_freed_keyval) */
    CHECK(get(c, saved, 1) == V(50), "get through a freed keyval still in use");
    /* but the attribute still uses it: copied on dup, deleted on free with its handle */
    CHECK_SUCCESS(MPI_Comm_dup(c, &c2));
    expect_log("c", (intptr_t[]){50});
    want_key = saved;
    want_comm = c2;
    CHECK_SUCCESS(MPI_Comm_free(&c2));
    want_comm = c;
    CHECK_SUCCESS(MPI_Comm_free(&c));
    expect_log("dd", (intptr_t[]){51, 50});
}

static void bad_keyvals(void)
{
    int tk, wk = MPI_WIN_BASE, pk = MPI_TAG_UB, inv = MPI_KEYVAL_INVALID, flag = 0;
    void *v;
    CHECK_ERR(MPI_Comm_set_attr(MPI_COMM_WORLD, MPI_KEYVAL_INVALID, V(1)), MPI_ERR_KEYVAL, "MPI_Comm_set_attr",
              "comm_keyval");
    CHECK_ERR(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_KEYVAL_INVALID, &v, &flag), MPI_ERR_KEYVAL, "comm_keyval");
    CHECK_ERR(MPI_Comm_delete_attr(MPI_COMM_WORLD, MPI_KEYVAL_INVALID), MPI_ERR_KEYVAL, "MPI_Comm_delete_attr");
    CHECK_ERR(MPI_Comm_free_keyval(&inv), MPI_ERR_KEYVAL, "MPI_Comm_free_keyval");
    CHECK_ERR(MPI_Comm_set_attr(MPI_COMM_WORLD, 12345, V(1)), MPI_ERR_KEYVAL, "comm_keyval");
    /* a datatype keyval on a communicator */
    CHECK_SUCCESS(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &tk, NULL));
    CHECK(tk != MPI_KEYVAL_INVALID, "type keyval");
    char hex[32];
    snprintf(hex, sizeof hex, "0x%08x", (unsigned)tk);
    CHECK_ERR(MPI_Comm_set_attr(MPI_COMM_WORLD, tk, V(1)), MPI_ERR_KEYVAL, "MPI_Comm_set_attr", "comm_keyval", hex,
              "datatype keyval, not a communicator keyval");
    CHECK_ERR(MPI_Comm_get_attr(MPI_COMM_WORLD, tk, &v, &flag), MPI_ERR_KEYVAL, "MPI_Comm_get_attr", "datatype");
    CHECK_ERR(MPI_Attr_get(MPI_COMM_WORLD, tk, &v, &flag), MPI_ERR_KEYVAL, "MPI_Attr_get", "'keyval'");
    CHECK_ERR(MPI_Comm_delete_attr(MPI_COMM_WORLD, tk), MPI_ERR_KEYVAL, "datatype");
    int tk2 = tk;
    CHECK_ERR(MPI_Comm_free_keyval(&tk2), MPI_ERR_KEYVAL, "MPI_Comm_free_keyval", "datatype");
    CHECK_SUCCESS(MPI_Type_free_keyval(&tk));
    CHECK(tk == MPI_KEYVAL_INVALID, "type free_keyval");
    /* a window keyval (predefined) on a communicator */
    CHECK_ERR(MPI_Comm_get_attr(MPI_COMM_WORLD, wk, &v, &flag), MPI_ERR_KEYVAL, "MPI_WIN_BASE", "window keyval");
    /* predefined attributes: readable, not settable, not deletable, not freeable */
    v = NULL;
    CHECK_SUCCESS(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &v, &flag));
    CHECK(flag && v && *(int *)v >= 32767, "MPI_TAG_UB");
    CHECK_ERR(MPI_Comm_set_attr(MPI_COMM_WORLD, MPI_TAG_UB, V(1)), MPI_ERR_KEYVAL, "MPI_TAG_UB", "cannot be set");
    CHECK_ERR(MPI_Comm_delete_attr(MPI_COMM_WORLD, MPI_HOST), MPI_ERR_KEYVAL, "MPI_HOST", "cannot be deleted");
    CHECK_ERR(MPI_Comm_free_keyval(&pk), MPI_ERR_KEYVAL, "MPI_TAG_UB");
    CHECK_SUCCESS(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &v, &flag));
    CHECK(flag && *(int *)v >= 32767, "MPI_TAG_UB still there");
}

static void self_at_finalize(void)
{
    int k[3];
    for (int i = 0; i < 3; i++)
        CHECK_SUCCESS(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, del_self, &k[i], NULL));
    CHECK_SUCCESS(MPI_Comm_set_attr(MPI_COMM_SELF, k[1], V(1)));
    CHECK_SUCCESS(MPI_Comm_set_attr(MPI_COMM_SELF, k[0], V(2)));
    CHECK_SUCCESS(MPI_Comm_set_attr(MPI_COMM_SELF, k[2], V(3)));
    /* the keyvals may be freed: the attributes keep them */
    for (int i = 0; i < 3; i++)
        CHECK_SUCCESS(MPI_Comm_free_keyval(&k[i]));
}

int main(int argc, char **argv)
{
    CHECK_SUCCESS(MPI_Init(&argc, &argv));
    CHECK_SUCCESS(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    set_get_replace_delete();
    copy_on_dup();
    failing_callbacks();
    keyval_in_use();
    bad_keyvals();
    self_at_finalize();
    CHECK_EQ_INT(nself, 0);
    CHECK_SUCCESS(MPI_Finalize());
    CHECK_EQ_INT(nself, 3);
    CHECK(self_order[0] == 3 && self_order[1] == 2 && self_order[2] == 1,
          "MPI_COMM_SELF's attributes deleted in order %d %d %d, expected 3 2 1", self_order[0], self_order[1],
          self_order[2]);
    return 0;
}
