! f90_null_names.f90 — MPI_COMM/TYPE/WIN_GET_NAME accept the null handles from Fortran and
! give their names (MPI-4.1), blank-padded.
program f90_null_names
  use mpi
  implicit none
  integer :: ierr, n
  character(len=MPI_MAX_OBJECT_NAME) :: name

  call MPI_INIT(ierr)
  call MPI_COMM_GET_NAME(MPI_COMM_NULL, name, n, ierr)
  if (ierr /= MPI_SUCCESS .or. name /= 'MPI_COMM_NULL' .or. n /= 13) stop 1
  call MPI_TYPE_GET_NAME(MPI_DATATYPE_NULL, name, n, ierr)
  if (ierr /= MPI_SUCCESS .or. name /= 'MPI_DATATYPE_NULL' .or. n /= 17) stop 2
  call MPI_WIN_GET_NAME(MPI_WIN_NULL, name, n, ierr)
  if (ierr /= MPI_SUCCESS .or. name /= 'MPI_WIN_NULL' .or. n /= 12) stop 3
  call MPI_FINALIZE(ierr)
end program f90_null_names
