! f90_status_error.f90 — status(MPI_ERROR) from Fortran: left alone by single-completion calls
! (MPI_RECV, MPI_WAIT, MPI_PROBE), set by MPI_WAITALL only when it returns MPI_ERR_IN_STATUS.
program f90_status_error
  use mpi
  implicit none
  integer, parameter :: poison = 4242
  integer :: ierr, cls, req, reqs(2), x(2), y(2)
  integer :: status(MPI_STATUS_SIZE), statuses(MPI_STATUS_SIZE, 2)

  call MPI_INIT(ierr)
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_SELF, MPI_ERRORS_RETURN, ierr)
  x = (/ 1, 2 /)

  call MPI_ISEND(x, 1, MPI_INTEGER, 0, 1, MPI_COMM_SELF, req, ierr)
  status(MPI_ERROR) = poison
  call MPI_PROBE(0, 1, MPI_COMM_SELF, status, ierr)
  if (ierr /= MPI_SUCCESS .or. status(MPI_ERROR) /= poison) stop 1
  status(MPI_ERROR) = poison
  call MPI_RECV(y, 1, MPI_INTEGER, 0, 1, MPI_COMM_SELF, status, ierr)
  if (ierr /= MPI_SUCCESS .or. status(MPI_ERROR) /= poison) stop 2
  if (status(MPI_TAG) /= 1) stop 3
  status(MPI_ERROR) = poison
  call MPI_WAIT(req, status, ierr)
  if (ierr /= MPI_SUCCESS .or. status(MPI_ERROR) /= poison) stop 4

  call MPI_IRECV(y(1), 1, MPI_INTEGER, 0, 2, MPI_COMM_SELF, reqs(1), ierr)
  call MPI_IRECV(y(2), 1, MPI_INTEGER, 0, 3, MPI_COMM_SELF, reqs(2), ierr)
  call MPI_SEND(x, 1, MPI_INTEGER, 0, 2, MPI_COMM_SELF, ierr)
  call MPI_SEND(x, 1, MPI_INTEGER, 0, 3, MPI_COMM_SELF, ierr)
  statuses(MPI_ERROR, :) = poison
  call MPI_WAITALL(2, reqs, statuses, ierr)
  if (ierr /= MPI_SUCCESS) stop 5
  if (statuses(MPI_ERROR, 1) /= poison .or. statuses(MPI_ERROR, 2) /= poison) stop 6

  call MPI_IRECV(y(1), 1, MPI_INTEGER, 0, 4, MPI_COMM_SELF, reqs(1), ierr)
  call MPI_IRECV(y(2), 1, MPI_INTEGER, 0, 5, MPI_COMM_SELF, reqs(2), ierr)
  call MPI_SEND(x, 1, MPI_INTEGER, 0, 4, MPI_COMM_SELF, ierr)
  call MPI_SEND(x, 2, MPI_INTEGER, 0, 5, MPI_COMM_SELF, ierr)
  statuses(MPI_ERROR, :) = poison
  call MPI_WAITALL(2, reqs, statuses, ierr)
  call MPI_ERROR_CLASS(ierr, cls, ierr)
  if (cls /= MPI_ERR_IN_STATUS) stop 7
  if (statuses(MPI_ERROR, 1) /= MPI_SUCCESS) stop 8
  call MPI_ERROR_CLASS(statuses(MPI_ERROR, 2), cls, ierr)
  if (cls /= MPI_ERR_TRUNCATE) stop 9

  call MPI_FINALIZE(ierr)
end program f90_status_error
