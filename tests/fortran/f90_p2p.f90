! f90_p2p.f90 — point-to-point from Fortran (use mpi): a ring of blocking and nonblocking
! messages, statuses as INTEGER arrays, MPI_STATUS_IGNORE, wildcards, MPI_GET_COUNT, probes.
program f90_p2p
  use mpi
  implicit none
  integer :: ierr, me, np, left, right, i, count, req(2)
  integer :: status(MPI_STATUS_SIZE), statuses(MPI_STATUS_SIZE, 2)
  double precision :: out(100), in(100)
  logical :: flag

  call MPI_INIT(ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, me, ierr)
  call MPI_COMM_SIZE(MPI_COMM_WORLD, np, ierr)
  right = mod(me + 1, np)
  left = mod(me + np - 1, np)
  do i = 1, 100
    out(i) = me * 1000 + i
  end do

  call MPI_IRECV(in, 100, MPI_DOUBLE_PRECISION, left, 5, MPI_COMM_WORLD, req(1), ierr)
  call MPI_SEND(out, 100, MPI_DOUBLE_PRECISION, right, 5, MPI_COMM_WORLD, ierr)
  call MPI_WAIT(req(1), status, ierr)
  if (ierr /= MPI_SUCCESS) stop 1
  if (req(1) /= MPI_REQUEST_NULL) stop 2
  if (status(MPI_SOURCE) /= left .or. status(MPI_TAG) /= 5) stop 3
  call MPI_GET_COUNT(status, MPI_DOUBLE_PRECISION, count, ierr)
  if (count /= 100) stop 4
  do i = 1, 100
    if (in(i) /= left * 1000 + i) stop 5
  end do

  ! nonblocking both ways, statuses array, wildcards
  call MPI_IRECV(in, 50, MPI_DOUBLE_PRECISION, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, req(1), ierr)
  call MPI_ISEND(out, 50, MPI_DOUBLE_PRECISION, right, 6, MPI_COMM_WORLD, req(2), ierr)
  call MPI_WAITALL(2, req, statuses, ierr)
  if (statuses(MPI_SOURCE, 1) /= left .or. statuses(MPI_TAG, 1) /= 6) stop 6
  if (in(50) /= left * 1000 + 50) stop 7

  ! probe (until the message is there), then receive with MPI_STATUS_IGNORE; the send to
  ! itself is nonblocking, as MPI_SEND may wait for the receive (MPICH does)
  call MPI_ISEND(out, 3, MPI_DOUBLE_PRECISION, 0, 7, MPI_COMM_SELF, req(2), ierr)
  flag = .false.
  do i = 1, 1000000
    call MPI_IPROBE(0, 7, MPI_COMM_SELF, flag, status, ierr)
    if (flag) exit
  end do
  if (.not. flag) stop 8
  call MPI_GET_COUNT(status, MPI_DOUBLE_PRECISION, count, ierr)
  if (count /= 3) stop 9
  call MPI_RECV(in, 3, MPI_DOUBLE_PRECISION, 0, 7, MPI_COMM_SELF, MPI_STATUS_IGNORE, ierr)
  call MPI_WAIT(req(2), MPI_STATUS_IGNORE, ierr)
  if (in(3) /= me * 1000 + 3) stop 10

  call MPI_FINALIZE(ierr)
end program f90_p2p
