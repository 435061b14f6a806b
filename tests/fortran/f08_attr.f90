! f08_attr.f90 — caching under `mpi_f08`: keyvals with user f08 copy and delete callbacks on a
! communicator, a datatype and a window, the predefined MPI_*_DUP_FN / NULL_COPY_FN / NULL_DELETE_FN.
module f08_attr_cb
  use mpi_f08
  implicit none
  integer :: ncopy = 0, ndelete = 0, last_keyval = -1
  integer(kind=MPI_ADDRESS_KIND) :: last_extra = -1, last_val = -1
  type(MPI_Comm) :: last_comm
  type(MPI_Datatype) :: last_type
  type(MPI_Win) :: last_win
contains
  subroutine comm_copy(oldcomm, comm_keyval, extra_state, attribute_val_in, attribute_val_out, flag, ierror)
    type(MPI_Comm) :: oldcomm
    integer :: comm_keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: extra_state, attribute_val_in, attribute_val_out
    logical :: flag
    ncopy = ncopy + 1
    if (extra_state == 77) then   ! k's: recorded; the other keyval's (extra_state 5) answers .false.
      last_comm = oldcomm
      last_keyval = comm_keyval
      last_extra = extra_state
      last_val = attribute_val_in
    end if
    attribute_val_out = attribute_val_in + 1
    flag = extra_state /= 5
    ierror = MPI_SUCCESS
  end subroutine comm_copy

  subroutine comm_delete(comm, comm_keyval, attribute_val, extra_state, ierror)
    type(MPI_Comm) :: comm
    integer :: comm_keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: attribute_val, extra_state
    ndelete = ndelete + 1
    last_comm = comm
    last_keyval = comm_keyval
    last_extra = extra_state
    last_val = attribute_val
    ierror = MPI_SUCCESS
  end subroutine comm_delete

  subroutine type_copy(oldtype, type_keyval, extra_state, attribute_val_in, attribute_val_out, flag, ierror)
    type(MPI_Datatype) :: oldtype
    integer :: type_keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: extra_state, attribute_val_in, attribute_val_out
    logical :: flag
    ncopy = ncopy + 1
    last_type = oldtype
    last_keyval = type_keyval
    last_extra = extra_state
    last_val = attribute_val_in
    attribute_val_out = attribute_val_in * 2
    flag = .true.
    ierror = MPI_SUCCESS
  end subroutine type_copy

  subroutine type_delete(datatype, type_keyval, attribute_val, extra_state, ierror)
    type(MPI_Datatype) :: datatype
    integer :: type_keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: attribute_val, extra_state
    ndelete = ndelete + 1
    last_type = datatype
    last_keyval = type_keyval
    last_extra = extra_state
    last_val = attribute_val
    ierror = MPI_SUCCESS
  end subroutine type_delete

  subroutine win_delete(win, win_keyval, attribute_val, extra_state, ierror)
    type(MPI_Win) :: win
    integer :: win_keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: attribute_val, extra_state
    ndelete = ndelete + 1
    last_win = win
    last_keyval = win_keyval
    last_extra = extra_state
    last_val = attribute_val
    ierror = MPI_SUCCESS
  end subroutine win_delete
end module f08_attr_cb

program f08_attr
  use mpi_f08
  use f08_attr_cb
  implicit none
  integer, parameter :: big = 2**30
  type(MPI_Comm) :: comm, dup, dup2
  type(MPI_Datatype) :: t, tdup
  type(MPI_Win) :: win
  integer :: me, k, knoflag, kdup, knull, tk, wk, ierr, oldk
  integer :: ival
  integer(kind=MPI_ADDRESS_KIND) :: val, big_val
  integer :: buf(4)
  logical :: flag

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, me)
  call MPI_Comm_dup(MPI_COMM_WORLD, comm)
  big_val = int(big, MPI_ADDRESS_KIND) * 8 + me   ! needs more than 32 bits

  ! user copy and delete callbacks on a communicator
  call MPI_Comm_create_keyval(comm_copy, comm_delete, k, 77_MPI_ADDRESS_KIND, ierr)
  if (ierr /= MPI_SUCCESS) stop 1
  call MPI_Comm_get_attr(comm, k, val, flag)
  if (flag) stop 2
  call MPI_Comm_set_attr(comm, k, big_val, ierr)
  if (ierr /= MPI_SUCCESS) stop 3
  val = 0
  call MPI_Comm_get_attr(comm, k, val, flag, ierr)
  if (ierr /= MPI_SUCCESS .or. .not. flag .or. val /= big_val) stop 4
  ! a copy callback answering flag = .false.
  call MPI_Comm_create_keyval(comm_copy, comm_delete, knoflag, 5_MPI_ADDRESS_KIND)
  call MPI_Comm_set_attr(comm, knoflag, 11_MPI_ADDRESS_KIND)
  ! the predefined callbacks
  call MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, kdup, 0_MPI_ADDRESS_KIND)
  call MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, knull, 0_MPI_ADDRESS_KIND)
  call MPI_Comm_set_attr(comm, kdup, 42_MPI_ADDRESS_KIND)
  call MPI_Comm_set_attr(comm, knull, 43_MPI_ADDRESS_KIND)

  ncopy = 0
  call MPI_Comm_dup(comm, dup)
  if (ncopy /= 2) stop 5
  if (last_comm /= comm .or. last_keyval /= k .or. last_extra /= 77 .or. last_val /= big_val) stop 5
  call MPI_Comm_get_attr(dup, k, val, flag)
  if (.not. flag .or. val /= big_val + 1) stop 6
  call MPI_Comm_get_attr(dup, knoflag, val, flag)
  if (flag) stop 7
  call MPI_Comm_get_attr(dup, kdup, val, flag)
  if (.not. flag .or. val /= 42) stop 8
  call MPI_Comm_get_attr(dup, knull, val, flag)
  if (flag) stop 9

  ! delete on the original: the delete callback gets the value and extra_state
  ndelete = 0
  call MPI_Comm_delete_attr(comm, k, ierr)
  if (ierr /= MPI_SUCCESS .or. ndelete /= 1) stop 10
  if (last_comm /= comm .or. last_keyval /= k .or. last_extra /= 77 .or. last_val /= big_val) stop 11
  call MPI_Comm_get_attr(comm, k, val, flag)
  if (flag) stop 12
  ! freeing the dup deletes its copy (k's; knoflag's was not copied)
  ndelete = 0
  dup2 = dup
  call MPI_Comm_free(dup)
  if (ndelete /= 1 .or. last_keyval /= k .or. last_val /= big_val + 1 .or. last_comm /= dup2) stop 13
  call MPI_Comm_free_keyval(k, ierr)
  if (ierr /= MPI_SUCCESS .or. k /= MPI_KEYVAL_INVALID) stop 14
  ndelete = 0
  call MPI_Comm_free(comm)   ! knoflag's attribute: extra_state 5, value 11
  if (ndelete /= 1 .or. last_extra /= 5 .or. last_val /= 11) stop 15
  call MPI_Comm_free_keyval(knoflag)
  call MPI_Comm_free_keyval(kdup)
  call MPI_Comm_free_keyval(knull)

  ! a datatype
  call MPI_Type_contiguous(2, MPI_INTEGER, t)
  call MPI_Type_create_keyval(type_copy, type_delete, tk, 9_MPI_ADDRESS_KIND, ierr)
  if (ierr /= MPI_SUCCESS) stop 20
  call MPI_Type_set_attr(t, tk, 21_MPI_ADDRESS_KIND)
  call MPI_Type_get_attr(t, tk, val, flag)
  if (.not. flag .or. val /= 21) stop 21
  ncopy = 0
  call MPI_Type_dup(t, tdup)
  if (ncopy /= 1 .or. last_type /= t .or. last_keyval /= tk .or. last_extra /= 9 .or. last_val /= 21) stop 22
  call MPI_Type_get_attr(tdup, tk, val, flag)
  if (.not. flag .or. val /= 42) stop 23
  ndelete = 0
  call MPI_Type_delete_attr(tdup, tk)
  if (ndelete /= 1 .or. last_type /= tdup .or. last_val /= 42) stop 24
  call MPI_Type_free(tdup)
  if (ndelete /= 1) stop 25
  call MPI_Type_free(t)
  if (ndelete /= 2 .or. last_val /= 21) stop 26
  call MPI_Type_free_keyval(tk)
  call MPI_Type_create_keyval(MPI_TYPE_DUP_FN, MPI_TYPE_NULL_DELETE_FN, tk, 0_MPI_ADDRESS_KIND)
  call MPI_Type_contiguous(3, MPI_INTEGER, t)
  call MPI_Type_set_attr(t, tk, big_val)
  call MPI_Type_dup(t, tdup)
  call MPI_Type_get_attr(tdup, tk, val, flag)
  if (.not. flag .or. val /= big_val) stop 27
  call MPI_Type_free(tdup)
  call MPI_Type_free(t)
  call MPI_Type_free_keyval(tk)

  ! a window
  call MPI_Win_create(buf, 16_MPI_ADDRESS_KIND, 4, MPI_INFO_NULL, MPI_COMM_WORLD, win)
  call MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, win_delete, wk, 13_MPI_ADDRESS_KIND, ierr)
  if (ierr /= MPI_SUCCESS) stop 30
  call MPI_Win_set_attr(win, wk, big_val, ierr)
  if (ierr /= MPI_SUCCESS) stop 31
  call MPI_Win_get_attr(win, wk, val, flag)
  if (.not. flag .or. val /= big_val) stop 32
  call MPI_Win_get_attr(win, MPI_WIN_SIZE, val, flag)
  if (.not. flag .or. val /= 16) stop 33
  ndelete = 0
  call MPI_Win_free(win)
  if (ndelete /= 1 .or. last_keyval /= wk .or. last_extra /= 13 .or. last_val /= big_val) stop 34
  call MPI_Win_free_keyval(wk)
  call MPI_Win_create_keyval(MPI_WIN_DUP_FN, MPI_WIN_NULL_DELETE_FN, wk, 0_MPI_ADDRESS_KIND)
  call MPI_Win_free_keyval(wk)

  ! the deprecated MPI-1 calls (INTEGER values) with the predefined MPI_DUP_FN
  call MPI_Keyval_create(MPI_DUP_FN, MPI_NULL_DELETE_FN, oldk, 0, ierr)
  if (ierr /= MPI_SUCCESS) stop 40
  call MPI_Comm_dup(MPI_COMM_WORLD, comm)
  call MPI_Attr_put(comm, oldk, 1234 + me)
  call MPI_Comm_dup(comm, dup)
  ival = 0
  call MPI_Attr_get(dup, oldk, ival, flag)
  if (.not. flag .or. ival /= 1234 + me) stop 41
  call MPI_Comm_free(dup)
  call MPI_Comm_free(comm)
  call MPI_Keyval_free(oldk)

  call MPI_Finalize()
end program f08_attr
