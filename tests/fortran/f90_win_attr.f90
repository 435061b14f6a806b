! f90_win_attr.f90 — window attributes from Fortran (`use mpi`): the predefined ones are integer
! values (base address, size, disp_unit, flavor, model) for every flavor; a Fortran delete callback at MPI_WIN_FREE.
module f90_win_attr_cb
  use mpi
  implicit none
  integer, parameter :: ak = MPI_ADDRESS_KIND
  integer :: nlog = 0
  integer(kind=ak) :: logv(16)
contains
  subroutine my_delete(win, keyval, val, extra, ierr)
    integer :: win, keyval, ierr
    integer(kind=ak) :: val, extra
    if (extra /= 2_ak**40 + 5 .or. win == MPI_WIN_NULL .or. keyval == MPI_KEYVAL_INVALID) stop 91
    nlog = nlog + 1
    logv(nlog) = val
    ierr = MPI_SUCCESS
  end subroutine my_delete

  ! The five predefined attributes of win must be base, size, disp, flavor, MPI_WIN_UNIFIED;
  ! they cannot be set or deleted. Stops with code + 1..7 otherwise.
  subroutine expect(win, base, size, disp, flavor, code)
    integer :: win, disp, flavor, code, ierr
    integer(kind=ak) :: base, size, v
    logical :: flag
    call MPI_WIN_GET_ATTR(win, MPI_WIN_BASE, v, flag, ierr)
    if (ierr /= MPI_SUCCESS .or. .not. flag .or. v /= base) stop code + 1
    call MPI_WIN_GET_ATTR(win, MPI_WIN_SIZE, v, flag, ierr)
    if (ierr /= MPI_SUCCESS .or. .not. flag .or. v /= size) stop code + 2
    call MPI_WIN_GET_ATTR(win, MPI_WIN_DISP_UNIT, v, flag, ierr)
    if (ierr /= MPI_SUCCESS .or. .not. flag .or. v /= disp) stop code + 3
    call MPI_WIN_GET_ATTR(win, MPI_WIN_CREATE_FLAVOR, v, flag, ierr)
    if (ierr /= MPI_SUCCESS .or. .not. flag .or. v /= flavor) stop code + 4
    call MPI_WIN_GET_ATTR(win, MPI_WIN_MODEL, v, flag, ierr)
    if (ierr /= MPI_SUCCESS .or. .not. flag .or. v /= MPI_WIN_UNIFIED) stop code + 5
    call MPI_WIN_SET_ATTR(win, MPI_WIN_SIZE, 1_ak, ierr)
    if (ierr == MPI_SUCCESS) stop code + 6
    call MPI_WIN_DELETE_ATTR(win, MPI_WIN_BASE, ierr)
    if (ierr == MPI_SUCCESS) stop code + 7
  end subroutine expect
end module f90_win_attr_cb

program f90_win_attr
  use mpi
  use f90_win_attr_cb
  implicit none
  integer :: ierr, rank, win, k1, k2, ck, cls
  integer :: buf(100)
  integer(kind=ak) :: size, addr, baseptr, v
  logical :: flag

  call MPI_INIT(ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
  size = 40 * (rank + 1)

  call MPI_WIN_CREATE(buf, size, 4, MPI_INFO_NULL, MPI_COMM_WORLD, win, ierr)
  call MPI_WIN_SET_ERRHANDLER(win, MPI_ERRORS_RETURN, ierr)
  call MPI_GET_ADDRESS(buf, addr, ierr)
  call expect(win, addr, size, 4, MPI_WIN_FLAVOR_CREATE, 10)
  call MPI_WIN_FREE(win, ierr)
  if (ierr /= MPI_SUCCESS .or. win /= MPI_WIN_NULL) stop 18

  call MPI_WIN_ALLOCATE(size, 8, MPI_INFO_NULL, MPI_COMM_WORLD, baseptr, win, ierr)
  call MPI_WIN_SET_ERRHANDLER(win, MPI_ERRORS_RETURN, ierr)
  call expect(win, baseptr, size, 8, MPI_WIN_FLAVOR_ALLOCATE, 20)
  call MPI_WIN_FREE(win, ierr)

  call MPI_WIN_ALLOCATE_SHARED(size, 2, MPI_INFO_NULL, MPI_COMM_WORLD, baseptr, win, ierr)
  call MPI_WIN_SET_ERRHANDLER(win, MPI_ERRORS_RETURN, ierr)
  call expect(win, baseptr, size, 2, MPI_WIN_FLAVOR_SHARED, 30)
  call MPI_WIN_FREE(win, ierr)

  call MPI_WIN_CREATE_DYNAMIC(MPI_INFO_NULL, MPI_COMM_WORLD, win, ierr)
  call MPI_WIN_SET_ERRHANDLER(win, MPI_ERRORS_RETURN, ierr)
  call expect(win, 0_ak, 0_ak, 1, MPI_WIN_FLAVOR_DYNAMIC, 40)

  ! a Fortran keyval: set, get, replace, delete at MPI_WIN_FREE (newest first)
  call MPI_WIN_CREATE_KEYVAL(MPI_WIN_NULL_COPY_FN, my_delete, k1, 2_ak**40 + 5, ierr)
  call MPI_WIN_CREATE_KEYVAL(MPI_WIN_DUP_FN, my_delete, k2, 2_ak**40 + 5, ierr)
  call MPI_WIN_GET_ATTR(win, k1, v, flag, ierr)
  if (ierr /= MPI_SUCCESS .or. flag) stop 50
  call MPI_WIN_SET_ATTR(win, k1, 2_ak**35 + 1, ierr)
  call MPI_WIN_GET_ATTR(win, k1, v, flag, ierr)
  if (ierr /= MPI_SUCCESS .or. .not. flag .or. v /= 2_ak**35 + 1) stop 51
  call MPI_WIN_SET_ATTR(win, k1, 11_ak, ierr)
  if (nlog /= 1 .or. logv(1) /= 2_ak**35 + 1) stop 52
  call MPI_WIN_SET_ATTR(win, k2, 12_ak, ierr)
  call MPI_WIN_DELETE_ATTR(win, k2, ierr)
  if (ierr /= MPI_SUCCESS .or. nlog /= 2 .or. logv(2) /= 12) stop 53
  call MPI_WIN_SET_ATTR(win, k2, 13_ak, ierr)
  ! a communicator keyval on a window: MPI_ERR_KEYVAL
  call MPI_COMM_CREATE_KEYVAL(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, ck, 0_ak, ierr)
  call MPI_WIN_SET_ATTR(win, ck, 1_ak, ierr)
  if (ierr == MPI_SUCCESS) stop 54
  call MPI_ERROR_CLASS(ierr, cls, ierr)
  if (cls /= MPI_ERR_KEYVAL) stop 55
  call MPI_COMM_FREE_KEYVAL(ck, ierr)
  nlog = 0
  call MPI_WIN_FREE(win, ierr)
  if (ierr /= MPI_SUCCESS .or. nlog /= 2 .or. logv(1) /= 13 .or. logv(2) /= 11) stop 56
  call MPI_WIN_FREE_KEYVAL(k1, ierr)
  call MPI_WIN_FREE_KEYVAL(k2, ierr)
  if (ierr /= MPI_SUCCESS .or. k2 /= MPI_KEYVAL_INVALID) stop 57
  call MPI_FINALIZE(ierr)
end program f90_win_attr
