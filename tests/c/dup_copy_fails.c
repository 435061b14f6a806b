/* dup_copy_fails.c — MPI_Comm_dup, MPI_Comm_dup_with_info and MPI_Type_dup whose attribute copy
 * callback fails return its error and leave MPI_COMM_NULL / MPI_DATATYPE_NULL, as MPICH does. */
#include "check.h"

static int failing_comm_copy(MPI_Comm c, int k, void *es, void *in, void *out, int *flag)
{
    (void)c, (void)k, (void)es, (void)in, (void)out;
    *flag = 0;
    return MPI_ERR_OTHER;
}

static int failing_type_copy(MPI_Datatype t, int k, void *es, void *in, void *out, int *flag)
{
    (void)t, (void)k, (void)es, (void)in, (void)out;
    *flag = 0;
    return MPI_ERR_OTHER;
}

int main(int argc, char **argv)
{
    MPI_Comm comm, dup = MPI_COMM_WORLD;
    MPI_Datatype pair, tdup = MPI_INT;
    int ckv, tkv;
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    CHECK_SUCCESS(MPI_Comm_dup(MPI_COMM_WORLD, &comm));
    CHECK_SUCCESS(MPI_Comm_create_keyval(failing_comm_copy, MPI_COMM_NULL_DELETE_FN, &ckv, NULL));
    CHECK_SUCCESS(MPI_Comm_set_attr(comm, ckv, NULL));
    CHECK_ERR(MPI_Comm_dup(comm, &dup), MPI_ERR_OTHER, "MPI_Comm_dup", "copy callback");
    CHECK(dup == MPI_COMM_NULL, "MPI_Comm_dup left a communicator after its copy callback failed");
    dup = MPI_COMM_WORLD;
    CHECK_ERR(MPI_Comm_dup_with_info(comm, MPI_INFO_NULL, &dup), MPI_ERR_OTHER, "MPI_Comm_dup_with_info");
    CHECK(dup == MPI_COMM_NULL, "MPI_Comm_dup_with_info left a communicator after its copy callback failed");

    CHECK_SUCCESS(MPI_Type_contiguous(2, MPI_INT, &pair));
    CHECK_SUCCESS(MPI_Type_create_keyval(failing_type_copy, MPI_TYPE_NULL_DELETE_FN, &tkv, NULL));
    CHECK_SUCCESS(MPI_Type_set_attr(pair, tkv, NULL));
    CHECK_ERR(MPI_Type_dup(pair, &tdup), MPI_ERR_OTHER, "MPI_Type_dup", "copy callback");
    CHECK(tdup == MPI_DATATYPE_NULL, "MPI_Type_dup left a datatype after its copy callback failed");

    /* the originals are intact and still work */
    int v = 1, sum = 0;
    CHECK_SUCCESS(MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, comm));
    CHECK_SUCCESS(MPI_Comm_delete_attr(comm, ckv));
    CHECK_SUCCESS(MPI_Comm_dup(comm, &dup));
    CHECK_SUCCESS(MPI_Comm_free(&dup));
    CHECK_SUCCESS(MPI_Comm_free_keyval(&ckv));
    CHECK_SUCCESS(MPI_Type_free_keyval(&tkv));
    CHECK_SUCCESS(MPI_Type_free(&pair));
    CHECK_SUCCESS(MPI_Comm_free(&comm));
    MPI_Finalize();
    return 0;
}
