! sum.f90 — the build-system tests' Fortran program (`use mpi`): rank 0 prints the size and the
! sum of the ranks (an allreduce).
program sum
    use mpi
    implicit none
    integer :: rank, size, total, ierr
    call MPI_Init(ierr)
    call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
    call MPI_Comm_size(MPI_COMM_WORLD, size, ierr)
    call MPI_Allreduce(rank, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
    if (rank == 0) print '(a,i0,a,i0)', 'fortran size ', size, ' sum ', total
    call MPI_Finalize(ierr)
end program sum
