! f08_errhandler.f90 — `mpi_f08` error handlers made from f08 procedures (MPI_Comm_errhandler_function,
! MPI_Win_errhandler_function): called with the right handle and code, by hand and on a real error.
module f08_eh_record
  use mpi_f08
  implicit none
  integer :: ncalls = 0, last_code = -1
  type(MPI_Comm) :: last_comm
  type(MPI_Win) :: last_win
contains
  subroutine comm_handler(comm, error_code)
    type(MPI_Comm) :: comm
    integer :: error_code
    ncalls = ncalls + 1
    last_comm = comm
    last_code = error_code
  end subroutine comm_handler

  subroutine win_handler(win, error_code)
    type(MPI_Win) :: win
    integer :: error_code
    ncalls = ncalls + 1
    last_win = win
    last_code = error_code
  end subroutine win_handler
end module f08_eh_record

program f08_errhandler
  use mpi_f08
  use f08_eh_record
  implicit none
  type(MPI_Errhandler) :: eh, weh
  type(MPI_Comm) :: comm
  type(MPI_Win) :: win
  integer :: ierr, code, cls, buf(2)
  integer(kind=MPI_ADDRESS_KIND) :: val
  logical :: flag

  call MPI_Init()
  call MPI_Comm_dup(MPI_COMM_WORLD, comm)
  call MPI_Comm_create_errhandler(comm_handler, eh, ierr)
  if (ierr /= MPI_SUCCESS .or. eh == MPI_ERRHANDLER_NULL) stop 1
  call MPI_Comm_set_errhandler(comm, eh)
  ! by hand
  call MPI_Comm_call_errhandler(comm, MPI_ERR_OTHER, ierr)
  if (ierr /= MPI_SUCCESS .or. ncalls /= 1 .or. last_comm /= comm .or. last_code /= MPI_ERR_OTHER) stop 2
  ! on a real error: the handler gets the call's code, which the call returns
  call MPI_Comm_get_attr(comm, MPI_KEYVAL_INVALID, val, flag, code)
  if (code == MPI_SUCCESS .or. ncalls /= 2 .or. last_comm /= comm .or. last_code /= code) stop 3
  call MPI_Error_class(code, cls)
  if (cls /= MPI_ERR_KEYVAL) stop 4
  call MPI_Errhandler_free(eh)
  call MPI_Comm_free(comm)

  call MPI_Win_create(buf, 8_MPI_ADDRESS_KIND, 4, MPI_INFO_NULL, MPI_COMM_WORLD, win)
  call MPI_Win_create_errhandler(win_handler, weh, ierr)
  if (ierr /= MPI_SUCCESS .or. weh == MPI_ERRHANDLER_NULL) stop 5
  call MPI_Win_set_errhandler(win, weh)
  call MPI_Win_call_errhandler(win, MPI_ERR_WIN, ierr)
  if (ierr /= MPI_SUCCESS .or. ncalls /= 3 .or. last_win /= win .or. last_code /= MPI_ERR_WIN) stop 6
  call MPI_Errhandler_free(weh)
  call MPI_Win_free(win)

  call MPI_Finalize()
end program f08_errhandler
