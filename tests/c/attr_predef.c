/* attr_predef.c — the predefined attributes of MPI_COMM_WORLD read as this face's values:
 * MPI_HOST a rank or this face's MPI_PROC_NULL, MPI_IO this face's MPI_ANY_SOURCE, and
 * MPI_LASTUSEDCODE at least this face's MPI_ERR_LASTCODE (both used to come back with the
 * runtime's numbers on the MPICH face), through both the MPI-2 and the MPI-1 calls. */
#include "check.h"
#ifdef MPI_ABI_VERSION
#include <mpi_legacy.h> /* MPI_Attr_get: the MPI-1 names, outside the standard ABI's mpi.h */
#endif

static int get(int key, const char *name)
{
    int *v = NULL, flag = 0, *w = NULL, flag1 = 0;
    CHECK_SUCCESS(MPI_Comm_get_attr(MPI_COMM_WORLD, key, &v, &flag));
    CHECK(flag && v, "%s not set", name);
    CHECK_SUCCESS(MPI_Attr_get(MPI_COMM_WORLD, key, &w, &flag1));
    CHECK(flag1 && w && *w == *v, "%s: MPI_Attr_get gives %d, MPI_Comm_get_attr %d", name, w ? *w : 0, *v);
    return *v;
}

int main(int argc, char **argv)
{
    int np;
    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    int host = get(MPI_HOST, "MPI_HOST"), io = get(MPI_IO, "MPI_IO");
    CHECK(host == MPI_PROC_NULL || (host >= 0 && host < np), "MPI_HOST = %d: neither a rank nor MPI_PROC_NULL", host);
    CHECK(io == MPI_ANY_SOURCE || io == MPI_PROC_NULL || (io >= 0 && io < np), "MPI_IO = %d", io);
    if (CHECK_SWITCHYARD) /* Switchyard: no host process, every process can do I/O */
        CHECK(host == MPI_PROC_NULL && io == MPI_ANY_SOURCE, "MPI_HOST = %d, MPI_IO = %d", host, io);
    CHECK(get(MPI_TAG_UB, "MPI_TAG_UB") >= 32767, "MPI_TAG_UB below 32767");
    int wg = get(MPI_WTIME_IS_GLOBAL, "MPI_WTIME_IS_GLOBAL");
    CHECK(wg == 0 || wg == 1, "MPI_WTIME_IS_GLOBAL = %d", wg);
    int last = get(MPI_LASTUSEDCODE, "MPI_LASTUSEDCODE");
    CHECK(last >= MPI_ERR_LASTCODE, "MPI_LASTUSEDCODE = %d is below MPI_ERR_LASTCODE = %d", last, MPI_ERR_LASTCODE);
    int cls, code;
    CHECK_SUCCESS(MPI_Add_error_class(&cls));
    CHECK_SUCCESS(MPI_Add_error_code(cls, &code));
    last = get(MPI_LASTUSEDCODE, "MPI_LASTUSEDCODE");
    CHECK(last >= cls, "MPI_LASTUSEDCODE = %d is below the new class %d", last, cls);
    if (CHECK_SWITCHYARD) /* Debian MPICH 4.0.2 counts classes only */
        CHECK(last >= code, "MPI_LASTUSEDCODE = %d is below the new code %d", last, code);
    MPI_Finalize();
    return 0;
}
