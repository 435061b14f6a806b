! f90_io.f90 — MPI-IO through `use mpi`, 1 to 4 ranks: open, write_at_all of DOUBLE PRECISION blocks at offsets of
! MPI_OFFSET_KIND, read_at of the next rank's block (values, MPI_GET_COUNT, 0 past the end), get_size, close, delete.
program f90_io
    use, intrinsic :: iso_c_binding, only: c_int
    use mpi
    implicit none
    interface
        function c_getpid() bind(C, name='getpid')
            import :: c_int
            integer(c_int) :: c_getpid
        end function c_getpid
    end interface
    integer, parameter :: n = 6
    integer :: ierr, me, np, next, dsz, i, cnt, cls, fh, fh2, amode, dlen, dstat
    integer :: st(MPI_STATUS_SIZE)
    double precision :: wbuf(n), rbuf(n)
    integer(kind=MPI_OFFSET_KIND) :: off, fsize
    character(len=512) :: dir, fname

    call MPI_INIT(ierr)
    call MPI_COMM_RANK(MPI_COMM_WORLD, me, ierr)
    call MPI_COMM_SIZE(MPI_COMM_WORLD, np, ierr)
    next = mod(me + 1, np)
    call MPI_TYPE_SIZE(MPI_DOUBLE_PRECISION, dsz, ierr)

    if (me == 0) then
        call get_environment_variable('TMPDIR', dir, dlen, dstat)
        if (dstat /= 0 .or. dlen == 0) dir = '/tmp'
        write (fname, '(a,a,i0)') trim(dir), '/swy_io_f90_', c_getpid()
    end if
    call MPI_BCAST(fname, len(fname), MPI_CHARACTER, 0, MPI_COMM_WORLD, ierr)

    fh = MPI_FILE_NULL
    call MPI_FILE_OPEN(MPI_COMM_WORLD, trim(fname), MPI_MODE_CREATE + MPI_MODE_RDWR, MPI_INFO_NULL, fh, ierr)
    call ok(ierr, 'MPI_FILE_OPEN')
    call check(fh /= MPI_FILE_NULL, 'open gives a file handle')
    call MPI_FILE_GET_AMODE(fh, amode, ierr)
    call check(ierr == MPI_SUCCESS .and. amode == MPI_MODE_CREATE + MPI_MODE_RDWR, 'MPI_FILE_GET_AMODE')
    ! (a stale file of a recycled pid would spoil the sizes)
    call MPI_FILE_SET_SIZE(fh, 0_MPI_OFFSET_KIND, ierr)
    call ok(ierr, 'MPI_FILE_SET_SIZE')

    do i = 1, n
        wbuf(i) = me * 100 + i + 0.25d0
    end do
    off = int(me, MPI_OFFSET_KIND) * n * dsz
    call MPI_FILE_WRITE_AT_ALL(fh, off, wbuf, n, MPI_DOUBLE_PRECISION, st, ierr)
    call ok(ierr, 'MPI_FILE_WRITE_AT_ALL')
    call MPI_GET_COUNT(st, MPI_DOUBLE_PRECISION, cnt, ierr)
    call check(ierr == MPI_SUCCESS .and. cnt == n, 'write_at_all: MPI_GET_COUNT')

    ! sync, barrier, sync: every rank's block visible to every rank
    call MPI_FILE_SYNC(fh, ierr)
    call ok(ierr, 'MPI_FILE_SYNC')
    call MPI_BARRIER(MPI_COMM_WORLD, ierr)
    call MPI_FILE_SYNC(fh, ierr)
    call ok(ierr, 'MPI_FILE_SYNC')

    rbuf = -1
    off = int(next, MPI_OFFSET_KIND) * n * dsz
    call MPI_FILE_READ_AT(fh, off, rbuf, n, MPI_DOUBLE_PRECISION, st, ierr)
    call ok(ierr, 'MPI_FILE_READ_AT')
    call MPI_GET_COUNT(st, MPI_DOUBLE_PRECISION, cnt, ierr)
    call check(ierr == MPI_SUCCESS .and. cnt == n, 'read_at: MPI_GET_COUNT')
    do i = 1, n
        call check(rbuf(i) == next * 100 + i + 0.25d0, 'read_at: the next rank''s block')
    end do

    call MPI_FILE_GET_SIZE(fh, fsize, ierr)
    call ok(ierr, 'MPI_FILE_GET_SIZE')
    call check(fsize == int(np, MPI_OFFSET_KIND) * n * dsz, 'size after the blocks')
    ! at the end of the file: nothing read, count 0
    call MPI_FILE_READ_AT(fh, fsize, rbuf, n, MPI_DOUBLE_PRECISION, st, ierr)
    call ok(ierr, 'MPI_FILE_READ_AT (at the end)')
    call MPI_GET_COUNT(st, MPI_DOUBLE_PRECISION, cnt, ierr)
    call check(ierr == MPI_SUCCESS .and. cnt == 0, 'read_at at the end: MPI_GET_COUNT 0')

    call MPI_FILE_CLOSE(fh, ierr)
    call ok(ierr, 'MPI_FILE_CLOSE')
    call check(fh == MPI_FILE_NULL, 'close sets MPI_FILE_NULL')
    call MPI_BARRIER(MPI_COMM_WORLD, ierr)
    if (me == 0) then
        call MPI_FILE_DELETE(trim(fname), MPI_INFO_NULL, ierr)
        call ok(ierr, 'MPI_FILE_DELETE')
    end if
    call MPI_BARRIER(MPI_COMM_WORLD, ierr)

    ! gone: opening it read-only returns (MPI_FILE_NULL's MPI_ERRORS_RETURN) MPI_ERR_NO_SUCH_FILE
    call MPI_FILE_OPEN(MPI_COMM_WORLD, trim(fname), MPI_MODE_RDONLY, MPI_INFO_NULL, fh2, ierr)
    call check(ierr /= MPI_SUCCESS, 'opening a deleted file read-only fails')
    call MPI_ERROR_CLASS(ierr, cls, i)
    call check(cls == MPI_ERR_NO_SUCH_FILE, 'open of a deleted file: class MPI_ERR_NO_SUCH_FILE')

    call MPI_FINALIZE(ierr)
    if (me == 0) print '(a)', 'f90_io: OK'

contains

    subroutine ok(e, what)
        integer, intent(in) :: e
        character(len=*), intent(in) :: what
        integer :: slen, e2
        character(len=MPI_MAX_ERROR_STRING) :: msg
        if (e /= MPI_SUCCESS) then
            call MPI_ERROR_STRING(e, msg, slen, e2)
            print '(a,i0,4a)', 'f90_io: rank ', me, ': ', what, ' failed: ', trim(msg)
            error stop 1
        end if
    end subroutine ok

    subroutine check(cond, what)
        logical, intent(in) :: cond
        character(len=*), intent(in) :: what
        if (.not. cond) then
            print '(a,i0,3a)', 'f90_io: rank ', me, ': check failed: ', what
            error stop 1
        end if
    end subroutine check
end program f90_io
