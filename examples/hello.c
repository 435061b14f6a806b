/* hello.c — the README's first program: every process says who it is, rank 0 checks
 * that MPI_COMM_WORLD and MPI_COMM_SELF answer consistently. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size, version, subversion, len;
    char name[MPI_MAX_PROCESSOR_NAME], lib[MPI_MAX_LIBRARY_VERSION_STRING];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Get_processor_name(name, &len);
    MPI_Get_version(&version, &subversion);
    MPI_Get_library_version(lib, &len);
    printf("Hello from rank %d of %d on %s: MPI %d.%d, %s\n", rank, size, name, version, subversion, lib);
    MPI_Finalize();
    return 0;
}
