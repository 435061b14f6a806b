/* attr_legacy.c — an MPI-1 style caching program (issue 5): MPI_Keyval_create with MPI_DUP_FN
 * and with MPI-1 callbacks, MPI_Attr_put/get/delete, MPI_Keyval_free, attributes on dup. */
#include "check.h"

#include <stdint.h>
#ifdef MPI_ABI_VERSION
#include <mpi_legacy.h> /* the MPI-1 names: left out of the standard ABI's mpi.h */
#endif

static int copies, deletes;

static int my_copy(MPI_Comm c, int k, void *extra, void *in, void *out, int *flag)
{
    (void)c;
    (void)k;
    CHECK(extra == (void *)&copies, "extra_state");
    copies++;
    *(int **)out = (int *)in; /* share the same counter */
    ++*(int *)in;
    *flag = 1;
    return MPI_SUCCESS;
}

static int my_delete(MPI_Comm c, int k, void *v, void *extra)
{
    (void)c;
    (void)k;
    (void)extra;
    deletes++;
    --*(int *)v;
    return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
    static int data = 42, refs = 1;
    int kdup, kref, flag = 0;
    void *v = NULL;
    MPI_Comm dup;

    MPI_Init(&argc, &argv);
    CHECK_SUCCESS(MPI_Keyval_create(MPI_DUP_FN, MPI_NULL_DELETE_FN, &kdup, NULL));
    CHECK_SUCCESS(MPI_Keyval_create(my_copy, my_delete, &kref, &copies));
    CHECK_SUCCESS(MPI_Attr_put(MPI_COMM_WORLD, kdup, &data));
    CHECK_SUCCESS(MPI_Attr_put(MPI_COMM_WORLD, kref, &refs));
    CHECK_SUCCESS(MPI_Attr_get(MPI_COMM_WORLD, kdup, &v, &flag));
    CHECK(flag && v == &data && *(int *)v == 42, "MPI_Attr_get");
    CHECK_SUCCESS(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    CHECK_EQ_INT(copies, 1);
    CHECK_EQ_INT(refs, 2);
    v = NULL;
    CHECK_SUCCESS(MPI_Attr_get(dup, kdup, &v, &flag));
    CHECK(flag && v == &data, "MPI_DUP_FN copied the pointer");
    CHECK_SUCCESS(MPI_Attr_get(dup, kref, &v, &flag));
    CHECK(flag && v == &refs, "copy callback's value");
    /* MPI-1 and MPI-2 names share the keyvals */
    CHECK_SUCCESS(MPI_Comm_get_attr(dup, kref, &v, &flag));
    CHECK(flag && v == &refs, "MPI_Comm_get_attr on an MPI-1 keyval");
    CHECK_SUCCESS(MPI_Attr_delete(dup, kref));
    CHECK_EQ_INT(deletes, 1);
    CHECK_EQ_INT(refs, 1);
    CHECK_SUCCESS(MPI_Attr_get(dup, kref, &v, &flag));
    CHECK_EQ_INT(flag, 0);
    CHECK_SUCCESS(MPI_Comm_free(&dup));
    CHECK_EQ_INT(deletes, 1);
    CHECK_SUCCESS(MPI_Keyval_free(&kref));
    CHECK(kref == MPI_KEYVAL_INVALID, "MPI_Keyval_free");
    CHECK_SUCCESS(MPI_Attr_delete(MPI_COMM_WORLD, kdup));
    CHECK_SUCCESS(MPI_Keyval_free(&kdup));
    /* the attribute on WORLD outlives its freed keyval and is deleted at finalize or never:
     * either is allowed for WORLD; kref's last attribute is still on WORLD */
    MPI_Finalize();
    return 0;
}
