/* abi_version: MPI_Abi_get_version returns the MPI_ABI_VERSION.SUBVERSION of
 * the header (1.0) and MPI_Abi_get_info gives the sizes of MPI_Aint etc. */
#include "check.h"

static void check_size_key(MPI_Info info, const char *key, size_t want)
{
    char val[MPI_MAX_INFO_VAL];
    int buflen = (int)sizeof val, flag = 0;

    CHECK_SUCCESS(MPI_Info_get_string(info, key, &buflen, val, &flag));
    CHECK(flag, "MPI_Abi_get_info: no key '%s'", key);
    CHECK(atoi(val) == (int)want, "'%s' = '%s', expected %d", key, val, (int)want);
}

int main(void)
{
    int major = -1, minor = -1;
    MPI_Info info = MPI_INFO_NULL;

    CHECK_EQ_INT(MPI_ABI_VERSION, 1);
    CHECK_EQ_INT(MPI_ABI_SUBVERSION, 0);
    CHECK_SUCCESS(MPI_Abi_get_version(&major, &minor)); /* allowed before MPI_Init */
    CHECK_EQ_INT(major, MPI_ABI_VERSION);
    CHECK_EQ_INT(minor, MPI_ABI_SUBVERSION);
    CHECK_SUCCESS(MPI_Init(NULL, NULL));
    major = minor = -1;
    CHECK_SUCCESS(MPI_Abi_get_version(&major, &minor));
    CHECK_EQ_INT(major, MPI_ABI_VERSION);
    CHECK_EQ_INT(minor, MPI_ABI_SUBVERSION);

    CHECK_SUCCESS(MPI_Abi_get_info(&info));
    CHECK(info != MPI_INFO_NULL, "MPI_Abi_get_info gave MPI_INFO_NULL");
    check_size_key(info, "mpi_aint_size", sizeof(MPI_Aint));
    check_size_key(info, "mpi_count_size", sizeof(MPI_Count));
    check_size_key(info, "mpi_offset_size", sizeof(MPI_Offset));
    CHECK_SUCCESS(MPI_Info_free(&info));
    CHECK_SUCCESS(MPI_Finalize());
    return 0;
}
