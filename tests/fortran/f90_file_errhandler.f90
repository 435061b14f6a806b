! f90_file_errhandler.f90 — a `use mpi` file error handler run by real errors gets the INTEGER file and the error:
! MPI_FILE_NULL and MPI_ERR_NO_SUCH_FILE for an open of a missing file, the file and MPI_ERR_ACCESS for a write-only read.
module f90_feh_record
    use mpi
    implicit none
    integer :: ncalls = 0, last_file = -1, last_code = MPI_SUCCESS
contains
    subroutine file_handler(file, error_code)
        integer :: file, error_code
        ncalls = ncalls + 1
        last_file = file
        last_code = error_code
    end subroutine file_handler
end module f90_feh_record

program f90_file_errhandler
    use, intrinsic :: iso_c_binding, only: c_int
    use mpi
    use f90_feh_record
    implicit none
    interface
        function c_getpid() bind(C, name='getpid')
            import :: c_int
            integer(c_int) :: c_getpid
        end function c_getpid
    end interface
    integer :: ierr, me, cls, feh, fh, dlen, dstat, x
    integer :: st(MPI_STATUS_SIZE)
    character(len=512) :: dir, fname

    call MPI_INIT(ierr)
    call MPI_COMM_RANK(MPI_COMM_WORLD, me, ierr)
    if (me == 0) then
        call get_environment_variable('TMPDIR', dir, dlen, dstat)
        if (dstat /= 0 .or. dlen == 0) dir = '/tmp'
        write (fname, '(a,a,i0)') trim(dir), '/swy_io_f90_feh_', c_getpid()
    end if
    call MPI_BCAST(fname, len(fname), MPI_CHARACTER, 0, MPI_COMM_WORLD, ierr)

    call MPI_FILE_CREATE_ERRHANDLER(file_handler, feh, ierr)
    call check(ierr == MPI_SUCCESS .and. feh /= MPI_ERRHANDLER_NULL, 'MPI_FILE_CREATE_ERRHANDLER')

    ! MPI_FILE_NULL's handler gets the errors of MPI_FILE_OPEN: a missing file, not created
    call MPI_FILE_SET_ERRHANDLER(MPI_FILE_NULL, feh, ierr)
    call check(ierr == MPI_SUCCESS, 'MPI_FILE_SET_ERRHANDLER(MPI_FILE_NULL)')
    call MPI_FILE_OPEN(MPI_COMM_WORLD, trim(fname) // '.missing', MPI_MODE_RDONLY, MPI_INFO_NULL, fh, ierr)
    call check(ierr /= MPI_SUCCESS, 'opening a missing file fails')
    call check(ncalls == 1, 'the handler ran once for the open')
    if (last_file /= MPI_FILE_NULL) print '(a,i0,a,i0)', 'f90_file_errhandler: FILE ', last_file, &
        ' instead of MPI_FILE_NULL ', MPI_FILE_NULL
    call check(last_file == MPI_FILE_NULL, 'the handler of an open got MPI_FILE_NULL')
    call MPI_ERROR_CLASS(last_code, cls, ierr)
    call check(cls == MPI_ERR_NO_SUCH_FILE, 'the handler of an open got MPI_ERR_NO_SUCH_FILE')
    call MPI_FILE_SET_ERRHANDLER(MPI_FILE_NULL, MPI_ERRORS_RETURN, ierr)

    ! a file's handler gets its errors: a read of a file opened write-only
    call MPI_FILE_OPEN(MPI_COMM_WORLD, trim(fname), MPI_MODE_CREATE + MPI_MODE_WRONLY, MPI_INFO_NULL, fh, ierr)
    call check(ierr == MPI_SUCCESS .and. fh /= MPI_FILE_NULL, 'MPI_FILE_OPEN write-only')
    call MPI_FILE_SET_ERRHANDLER(fh, feh, ierr)
    call check(ierr == MPI_SUCCESS, 'MPI_FILE_SET_ERRHANDLER(fh)')
    call MPI_FILE_READ_AT(fh, 0_MPI_OFFSET_KIND, x, 1, MPI_INTEGER, st, ierr)
    call check(ierr /= MPI_SUCCESS, 'reading a write-only file fails')
    call check(ncalls == 2, 'the handler ran once for the read')
    if (last_file /= fh) print '(a,i0,a,i0)', 'f90_file_errhandler: FILE ', last_file, ' instead of ', fh
    call check(last_file == fh, 'the handler of a read got the file')
    call MPI_ERROR_CLASS(last_code, cls, ierr)
    call check(cls == MPI_ERR_ACCESS, 'the handler of a read got MPI_ERR_ACCESS')

    call MPI_FILE_CLOSE(fh, ierr)
    call check(ierr == MPI_SUCCESS, 'MPI_FILE_CLOSE')
    call MPI_BARRIER(MPI_COMM_WORLD, ierr)
    if (me == 0) call MPI_FILE_DELETE(trim(fname), MPI_INFO_NULL, ierr)
    call MPI_ERRHANDLER_FREE(feh, ierr)
    call check(ierr == MPI_SUCCESS .and. feh == MPI_ERRHANDLER_NULL, 'MPI_ERRHANDLER_FREE')

    call MPI_FINALIZE(ierr)
    if (me == 0) print '(a)', 'f90_file_errhandler: OK'
contains
    subroutine check(cond, what)
        logical, intent(in) :: cond
        character(len=*), intent(in) :: what
        integer :: e
        if (.not. cond) then
            print '(3a)', 'f90_file_errhandler: FAILED: ', what, ''
            call MPI_ABORT(MPI_COMM_WORLD, 1, e)
        end if
    end subroutine check
end program f90_file_errhandler
