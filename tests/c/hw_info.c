/* hw_info.c — MPI_Get_hw_resource_info (MPI-4.1) gives a new info describing this node,
 * with a positive processor count; the info is the caller's to free. */
#include <mpi.h>
#include <stdlib.h>

#include "check.h"

int main(int argc, char **argv)
{
    MPI_Info info;
    char value[64];
    int buflen = sizeof value, flag, nkeys;
    MPI_Init(&argc, &argv);
    CHECK_SUCCESS(MPI_Get_hw_resource_info(&info));
    MPI_Info_get_nkeys(info, &nkeys);
    CHECK(nkeys >= 1, "no keys");
    MPI_Info_get_string(info, "mpi_hw_processors", &buflen, value, &flag);
    CHECK(flag && atoi(value) > 0, "mpi_hw_processors = '%s'", flag ? value : "(absent)");
    MPI_Info_free(&info);
    CHECK(info == MPI_INFO_NULL, "MPI_Info_free did not reset the handle");
    MPI_Finalize();
    return 0;
}
