! f08_file_errhandler.f90 — an f08 file error handler: a communicator refuses it (MPI_ERR_ARG); real errors run it
! with their file and code (an open of a missing file: MPI_FILE_NULL; a write-only read: the file); freed to NULL.
module f08_feh_record
  use mpi_f08
  implicit none
  integer :: ncalls = 0, last_code = MPI_SUCCESS
  type(MPI_File) :: last_file
contains
  subroutine file_handler(file, error_code)
    type(MPI_File) :: file
    integer :: error_code
    ncalls = ncalls + 1
    last_file = file
    last_code = error_code
  end subroutine file_handler
end module f08_feh_record

program f08_file_errhandler
  use, intrinsic :: iso_c_binding, only: c_int
  use mpi_f08
  use f08_feh_record
  implicit none
  interface
    function c_getpid() bind(C, name='getpid')
      import :: c_int
      integer(c_int) :: c_getpid
    end function c_getpid
  end interface
  type(MPI_Errhandler) :: feh, got
  type(MPI_File) :: fh
  integer :: ierr, cls, slen, dlen, dstat, x
  character(len=MPI_MAX_ERROR_STRING) :: msg
  character(len=512) :: dir, fname

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

  if (ncalls /= 0) stop 8

  call get_environment_variable('TMPDIR', dir, dlen, dstat)
  if (dstat /= 0 .or. dlen == 0) dir = '/tmp'
  write (fname, '(a,a,i0)') trim(dir), '/swy_io_f08_feh_', c_getpid()

  ! MPI_FILE_NULL's handler gets the errors of MPI_File_open: a missing file, not created
  call MPI_File_set_errhandler(MPI_FILE_NULL, feh)
  call MPI_File_open(MPI_COMM_WORLD, trim(fname) // '.missing', MPI_MODE_RDONLY, MPI_INFO_NULL, fh, ierr)
  if (ierr == MPI_SUCCESS) stop 11
  if (ncalls /= 1) stop 12
  if (last_file /= MPI_FILE_NULL) stop 13
  call MPI_Error_class(last_code, cls)
  if (cls /= MPI_ERR_NO_SUCH_FILE) stop 14
  call MPI_Error_class(ierr, cls)
  if (cls /= MPI_ERR_NO_SUCH_FILE) stop 15
  call MPI_File_set_errhandler(MPI_FILE_NULL, MPI_ERRORS_RETURN)

  ! a file's handler gets its errors: a read of a file opened write-only
  call MPI_File_open(MPI_COMM_WORLD, trim(fname), MPI_MODE_CREATE + MPI_MODE_WRONLY, MPI_INFO_NULL, fh, ierr)
  if (ierr /= MPI_SUCCESS) stop 16
  call MPI_File_set_errhandler(fh, feh)
  call MPI_File_read_at(fh, 0_MPI_OFFSET_KIND, x, 1, MPI_INTEGER, MPI_STATUS_IGNORE, ierr)
  if (ierr == MPI_SUCCESS) stop 17
  if (ncalls /= 2) stop 18
  if (last_file /= fh .or. last_file == MPI_FILE_NULL) stop 19
  call MPI_Error_class(last_code, cls)
  if (cls /= MPI_ERR_ACCESS) stop 20
  call MPI_File_close(fh, ierr)
  if (ierr /= MPI_SUCCESS) stop 21
  call MPI_File_delete(trim(fname), MPI_INFO_NULL, ierr)

  ierr = -1
  call MPI_Errhandler_free(feh, ierr)
  if (ierr /= MPI_SUCCESS) stop 9
  if (feh /= MPI_ERRHANDLER_NULL) stop 10

  call MPI_Finalize()
  print '(a)', 'f08_file_errhandler: OK'
end program f08_file_errhandler
