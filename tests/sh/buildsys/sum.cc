// sum.cc — the build-system tests' C++ program: rank 0 prints the library's name, the size and
// the sum of the ranks, through std::cout (so the C++ runtime must be linked too).
#include <mpi.h>
#include <iostream>
#include <string>

int main(int argc, char **argv)
{
    char lib[MPI_MAX_LIBRARY_VERSION_STRING];
    int rank, size, sum, len;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Get_library_version(lib, &len);
    if (rank == 0)
        std::cout << "cxx size " << size << " sum " << sum << " lib " << std::string(lib, 10) << std::endl;
    MPI_Finalize();
    return 0;
}
