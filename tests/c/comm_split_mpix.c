/* comm_split_mpix.c: MPICH's MPIX_COMM_TYPE_NEIGHBORHOOD on the MPICH face (issue 18.10):
 * MPI_COMM_NULL without info, the processes of the node with "nbhd_common_dirname". */
#include "check.h"

#ifdef MPIX_COMM_TYPE_NEIGHBORHOOD /* the MPICH face; the standard-ABI face has no MPIX_ */
int main(void)
{
    MPI_Comm nc = MPI_COMM_WORLD;
    MPI_Info info;
    int size, nsize, wsize;

    CHECK_SUCCESS(MPI_Init(NULL, NULL));
    CHECK_SUCCESS(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_SUCCESS(MPI_Comm_size(MPI_COMM_WORLD, &wsize));
    CHECK_EQ_INT(MPIX_COMM_TYPE_NEIGHBORHOOD, 4); /* MPICH 4.0.2's value */

    /* no info: MPI_COMM_NULL, as MPICH */
    CHECK_SUCCESS(MPI_Comm_split_type(MPI_COMM_WORLD, MPIX_COMM_TYPE_NEIGHBORHOOD, 0, MPI_INFO_NULL, &nc));
    CHECK(nc == MPI_COMM_NULL, "no info: not MPI_COMM_NULL");

    /* a common directory: everyone on this node (the tests run on one node) */
    CHECK_SUCCESS(MPI_Info_create(&info));
    CHECK_SUCCESS(MPI_Info_set(info, "nbhd_common_dirname", "/tmp"));
    CHECK_SUCCESS(MPI_Comm_split_type(MPI_COMM_WORLD, MPIX_COMM_TYPE_NEIGHBORHOOD, 0, info, &nc));
    CHECK(nc != MPI_COMM_NULL, "nbhd_common_dirname: MPI_COMM_NULL");
    CHECK_SUCCESS(MPI_Comm_size(nc, &nsize));
    CHECK_SUCCESS(MPI_Comm_free(&nc));
    CHECK_SUCCESS(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &nc));
    CHECK_SUCCESS(MPI_Comm_size(nc, &size));
    CHECK_EQ_INT(nsize, size);
    CHECK_EQ_INT(nsize, wsize);
    CHECK_SUCCESS(MPI_Comm_free(&nc));
    CHECK_SUCCESS(MPI_Info_free(&info));

    /* still refused: a value that is no split type */
    CHECK_ERR(MPI_Comm_split_type(MPI_COMM_WORLD, 77, 0, MPI_INFO_NULL, &nc), MPI_ERR_ARG, NULL);
    CHECK_SUCCESS(MPI_Finalize());
    return 0;
}
#else
int main(void)
{
    return 0;
}
#endif
