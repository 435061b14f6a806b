! f90_callback_gap.f90 — a Fortran procedure given as a callback (MPI_OP_CREATE here) either
! works (a sum computed by it is checked) or, where the face cannot call Fortran back yet
! (over the standard ABI, libmpifort_abi), fails with MPI_ERR_UNSUPPORTED_OPERATION and a
! message naming the procedure; the job goes on either way.
subroutine add_ints(invec, inoutvec, n, datatype)
  implicit none
  integer :: n, datatype, i
  integer :: invec(n), inoutvec(n)
  do i = 1, n
    inoutvec(i) = inoutvec(i) + invec(i)
  end do
end subroutine add_ints

program f90_callback_gap
  use mpi
  implicit none
  external :: add_ints
  integer :: ierr, me, np, op, cls, rlen, x, total
  character(len=MPI_MAX_ERROR_STRING) :: msg

  call MPI_INIT(ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, me, ierr)
  call MPI_COMM_SIZE(MPI_COMM_WORLD, np, ierr)
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
  call MPI_OP_CREATE(add_ints, .true., op, ierr)
  if (ierr == MPI_SUCCESS) then
    x = me + 1
    call MPI_ALLREDUCE(x, total, 1, MPI_INTEGER, op, MPI_COMM_WORLD, ierr)
    if (ierr /= MPI_SUCCESS .or. total /= np * (np + 1) / 2) stop 1
    call MPI_OP_FREE(op, ierr)
  else
    call MPI_ERROR_CLASS(ierr, cls, rlen)
    if (cls /= MPI_ERR_UNSUPPORTED_OPERATION) stop 2
    call MPI_ERROR_STRING(ierr, msg, rlen, cls)
    if (index(msg(1:rlen), 'MPI_OP_CREATE') == 0) then
      print '(a)', msg(1:rlen)
      stop 3
    end if
    if (me == 0) print '(a)', msg(1:rlen)
  end if
  ! the job goes on
  x = 1
  call MPI_ALLREDUCE(x, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (ierr /= MPI_SUCCESS .or. total /= np) stop 4
  call MPI_FINALIZE(ierr)
end program f90_callback_gap
