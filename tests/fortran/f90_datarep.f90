! f90_datarep: MPI_REGISTER_DATAREP with Fortran conversion and extent functions. On Switchyard
! they convert the data of a view (each INTEGER stored as an INTEGER(KIND=8) plus 1000, 8 bytes in
! the file); with MPI_CONVERSION_FN_NULL the name is registered, then taken. Over MPICH and Open
! MPI (standard ABI) the test checks what those libraries answer (they refuse conversion functions).
module datarep_fns
    use mpi
    implicit none
    integer :: nwrites = 0, nreads = 0, nextents = 0
contains
    subroutine write_fn(userbuf, datatype, count, filebuf, position, extra_state, ierror)
        integer :: userbuf(*)
        integer(kind=8) :: filebuf(*)
        integer :: datatype, count, ierror, i
        integer(kind=MPI_OFFSET_KIND) :: position
        integer(kind=MPI_ADDRESS_KIND) :: extra_state
        nwrites = nwrites + 1
        ierror = MPI_SUCCESS
        if (datatype /= MPI_INTEGER .or. extra_state /= 1000) then
            ierror = MPI_ERR_TYPE
            return
        end if
        do i = 1, count
            filebuf(i) = int(userbuf(position + i), 8) + extra_state
        end do
    end subroutine write_fn

    subroutine read_fn(userbuf, datatype, count, filebuf, position, extra_state, ierror)
        integer :: userbuf(*)
        integer(kind=8) :: filebuf(*)
        integer :: datatype, count, ierror, i
        integer(kind=MPI_OFFSET_KIND) :: position
        integer(kind=MPI_ADDRESS_KIND) :: extra_state
        nreads = nreads + 1
        ierror = MPI_SUCCESS
        if (datatype /= MPI_INTEGER) then
            ierror = MPI_ERR_TYPE
            return
        end if
        do i = 1, count
            userbuf(position + i) = int(filebuf(i) - extra_state)
        end do
    end subroutine read_fn

    subroutine extent(datatype, file_extent, extra_state, ierror)
        integer :: datatype, ierror
        integer(kind=MPI_ADDRESS_KIND) :: file_extent, extra_state, lb
        nextents = nextents + 1
        call MPI_TYPE_GET_EXTENT(datatype, lb, file_extent, ierror)
        if (datatype == MPI_INTEGER .and. extra_state >= 0) file_extent = 8
    end subroutine extent
end module datarep_fns

program f90_datarep
    use mpi
    use datarep_fns
    implicit none
    integer :: ierr, vlen
    integer(kind=MPI_ADDRESS_KIND) :: extra = 0
    character(len=MPI_MAX_LIBRARY_VERSION_STRING) :: version
    character(len=16) :: backend

    call MPI_INIT(ierr)
    call MPI_COMM_SET_ERRHANDLER(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
    call MPI_GET_LIBRARY_VERSION(version, vlen, ierr)
    backend = 'switchyard'
    if (index(version, 'shim over: MPICH') > 0) backend = 'mpich'
    if (index(version, 'shim over: Open MPI') > 0) backend = 'openmpi'
    print '(2a)', 'f90_datarep: backend ', trim(backend)

    ! Fortran conversion functions: the backends refuse them (they convert no data)
    extra = 1000
    call MPI_REGISTER_DATAREP('f90_datarep_conv', read_fn, write_fn, extent, extra, ierr)
    if (backend == 'switchyard') then
        call expect(ierr, MPI_SUCCESS, 'conversion functions', '')
        call convert_through_view()
    else
        call expect(ierr, MPI_ERR_CONVERSION, 'conversion functions', '')
    end if

    ! MPI_CONVERSION_FN_NULL reaches the library as its null procedure: registered, then the name is taken
    call MPI_REGISTER_DATAREP('f90_datarep_null', MPI_CONVERSION_FN_NULL, MPI_CONVERSION_FN_NULL, extent, extra, ierr)
    if (backend == 'openmpi') then  ! Open MPI 4.1.4 registers it but says MPI_ERR_OTHER (natively too)
        call expect(ierr, MPI_ERR_OTHER, 'MPI_CONVERSION_FN_NULL', '')
    else
        call expect(ierr, MPI_SUCCESS, 'MPI_CONVERSION_FN_NULL', '')
    end if
    call MPI_REGISTER_DATAREP('f90_datarep_null', MPI_CONVERSION_FN_NULL, MPI_CONVERSION_FN_NULL, extent, extra, ierr)
    call expect(ierr, MPI_ERR_DUP_DATAREP, 'the same name again', '')

    call MPI_FINALIZE(ierr)
    print '(a)', 'f90_datarep: OK'

contains

    ! Each rank's N INTEGERs interleaved with the others' through a vector view in
    ! 'f90_datarep_conv': 8 bytes each in the file, as INTEGER(KIND=8) values plus 1000.
    subroutine convert_through_view()
        integer, parameter :: N = 16
        integer :: fh, rank, np, vec, i, k, v(N), w(N), status(MPI_STATUS_SIZE), cnt
        integer(kind=8) :: raw(N * 8)
        integer(kind=MPI_ADDRESS_KIND) :: x
        character(len=256) :: path
        character(len=32) :: pid
        call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
        call MPI_COMM_SIZE(MPI_COMM_WORLD, np, ierr)
        call check(np <= 8, 'at most 8 ranks')
        call get_environment_variable('TMPDIR', path)
        if (len_trim(path) == 0) path = '/tmp'
        write (pid, '(i0)') getpid()
        if (rank == 0) path = trim(path) // '/swy_io_f90_datarep_' // trim(pid)
        call MPI_BCAST(path, len(path), MPI_CHARACTER, 0, MPI_COMM_WORLD, ierr)
        call MPI_FILE_OPEN(MPI_COMM_WORLD, path, MPI_MODE_CREATE + MPI_MODE_RDWR + MPI_MODE_DELETE_ON_CLOSE, &
                           MPI_INFO_NULL, fh, ierr)
        call expect(ierr, MPI_SUCCESS, 'MPI_FILE_OPEN', '')
        call MPI_TYPE_VECTOR(N, 1, np, MPI_INTEGER, vec, ierr)
        call MPI_TYPE_COMMIT(vec, ierr)
        call MPI_FILE_SET_VIEW(fh, int(8 * rank, MPI_OFFSET_KIND), MPI_INTEGER, vec, 'f90_datarep_conv', &
                               MPI_INFO_NULL, ierr)
        call expect(ierr, MPI_SUCCESS, 'MPI_FILE_SET_VIEW', '')
        call check(nextents > 0, 'the extent function was not called')
        call MPI_FILE_GET_TYPE_EXTENT(fh, MPI_INTEGER, x, ierr)
        call check(ierr == MPI_SUCCESS .and. x == 8, 'MPI_FILE_GET_TYPE_EXTENT(MPI_INTEGER) is not 8')
        do i = 1, N
            v(i) = (i - 1) * np + rank - 5
        end do
        call MPI_FILE_WRITE_ALL(fh, v, N, MPI_INTEGER, status, ierr)
        call expect(ierr, MPI_SUCCESS, 'MPI_FILE_WRITE_ALL', '')
        call MPI_GET_COUNT(status, MPI_INTEGER, cnt, ierr)
        call check(cnt == N, 'the write counts other than N integers')
        call check(nwrites > 0, 'the write conversion function was not called')
        call MPI_FILE_SYNC(fh, ierr)
        call MPI_BARRIER(MPI_COMM_WORLD, ierr)
        call MPI_FILE_SYNC(fh, ierr)
        ! raw: INTEGER(KIND=8) values plus 1000, in rank order
        call MPI_FILE_SET_VIEW(fh, 0_MPI_OFFSET_KIND, MPI_BYTE, MPI_BYTE, 'native', MPI_INFO_NULL, ierr)
        call MPI_FILE_READ_AT(fh, 0_MPI_OFFSET_KIND, raw, 8 * N * np, MPI_BYTE, status, ierr)
        do k = 1, N * np
            call check(raw(k) == k - 1 - 5 + 1000, 'a value in the file is not the integer plus 1000')
        end do
        ! back through the view
        call MPI_FILE_SET_VIEW(fh, int(8 * rank, MPI_OFFSET_KIND), MPI_INTEGER, vec, 'f90_datarep_conv', &
                               MPI_INFO_NULL, ierr)
        w = 0
        call MPI_FILE_READ_AT_ALL(fh, 0_MPI_OFFSET_KIND, w, N, MPI_INTEGER, status, ierr)
        call expect(ierr, MPI_SUCCESS, 'MPI_FILE_READ_AT_ALL', '')
        call check(all(w == v), 'the integers read back differ')
        call check(nreads > 0, 'the read conversion function was not called')
        call MPI_FILE_CLOSE(fh, ierr)
        call MPI_TYPE_FREE(vec, ierr)
    end subroutine convert_through_view

    ! ierr is of class cls and, if text is not blank, its message holds text
    subroutine expect(ierr, cls, what, text)
        integer, intent(in) :: ierr, cls
        character(len=*), intent(in) :: what, text
        integer :: got, slen, e
        character(len=MPI_MAX_ERROR_STRING) :: msg
        got = MPI_SUCCESS
        msg = ''
        if (ierr /= MPI_SUCCESS) then
            call MPI_ERROR_CLASS(ierr, got, e)
            call MPI_ERROR_STRING(ierr, msg, slen, e)
        end if
        if (got /= cls) then
            print '(a,i0,3a)', 'got class ', got, ' (', trim(msg), ')'
        end if
        call check(got == cls, what // ': not the expected error class')
        if (len(text) > 0) call check(index(msg, text) > 0, what // ': the message lacks "' // text // '": ' // trim(msg))
    end subroutine expect

    subroutine check(ok, what)
        use, intrinsic :: iso_fortran_env, only: error_unit
        logical, intent(in) :: ok
        character(len=*), intent(in) :: what
        if (.not. ok) then
            write (error_unit, '(2a)') 'f90_datarep: FAIL: ', what
            call MPI_ABORT(MPI_COMM_WORLD, 1, ierr)
            stop 1
        end if
    end subroutine check
end program f90_datarep
