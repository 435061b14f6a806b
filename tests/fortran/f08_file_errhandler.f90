! f08_file_errhandler.f90 — MPI_File_create_errhandler in `use mpi_f08` (an f08 procedure of
! interface MPI_File_errhandler_function): a file error handler, which a communicator refuses
! (MPI_ERR_ARG), freed to MPI_ERRHANDLER_NULL. No file runs it: the runtime opens none.
module f08_feh_record
  use mpi_f08
  implicit none
  integer :: ncalls = 0
contains
  subroutine file_handler(file, error_code)
    type(MPI_File) :: file
    integer :: error_code
    ncalls = ncalls + 1
    if (file == MPI_FILE_NULL .and. error_code == MPI_SUCCESS) ncalls = ncalls + 1
  end subroutine file_handler
end module f08_feh_record

program f08_file_errhandler
  use mpi_f08
  use f08_feh_record
  implicit none
  type(MPI_Errhandler) :: feh, got
  integer :: ierr, cls, slen
  character(len=MPI_MAX_ERROR_STRING) :: msg

  call MPI_Init()
  call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN)

  ierr = -1
  call MPI_File_create_errhandler(file_handler, feh, ierr)
  if (ierr /= MPI_SUCCESS) stop 1
  if (feh == MPI_ERRHANDLER_NULL .or. feh == MPI_ERRORS_RETURN .or. feh == MPI_ERRORS_ARE_FATAL) stop 2

  ! made for files: a communicator refuses it, and keeps its own handler
  call MPI_Comm_set_errhandler(MPI_COMM_WORLD, feh, ierr)
  if (ierr == MPI_SUCCESS) stop 3
  call MPI_Error_class(ierr, cls)
  if (cls /= MPI_ERR_ARG) stop 4
  call MPI_Error_string(ierr, msg, slen)
  if (index(msg, 'MPI_File_create_errhandler') == 0) then
    print '(2a)', 'f08_file_errhandler: message: ', trim(msg)
    stop 5
  end if
  call MPI_Comm_get_errhandler(MPI_COMM_WORLD, got)
  if (got /= MPI_ERRORS_RETURN) stop 6

  ! a second one from the same procedure is another handler
  call MPI_File_create_errhandler(file_handler, got)
  if (got == feh .or. got == MPI_ERRHANDLER_NULL) stop 7
  call MPI_Errhandler_free(got)

  ierr = -1
  call MPI_Errhandler_free(feh, ierr)
  if (ierr /= MPI_SUCCESS) stop 8
  if (feh /= MPI_ERRHANDLER_NULL) stop 9
  if (ncalls /= 0) stop 10

  call MPI_Finalize()
  print '(a)', 'f08_file_errhandler: OK'
end program f08_file_errhandler
