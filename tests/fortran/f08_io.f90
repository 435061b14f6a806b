! f08_io.f90 — MPI-IO through `use mpi_f08`, 1 to 4 ranks: write_at_all + read_at (Get_count), an interleaving
! view (vector + resized, get_view), seek + read_all, iwrite_at + Wait, write_ordered, sizes, close, delete, NO_SUCH_FILE.
program f08_io
  use, intrinsic :: iso_c_binding, only: c_int
  use mpi_f08
  implicit none
  interface
    function c_getpid() bind(C, name='getpid')
      import :: c_int
      integer(c_int) :: c_getpid
    end function c_getpid
  end interface
  integer, parameter :: n = 8          ! a rank's block in the explicit-offset regions
  integer, parameter :: m = 3          ! pairs of a rank in one tile of the view
  integer, parameter :: tiles = 2
  integer, parameter :: nv = 2 * m * tiles
  integer :: ierr, me, np, next, isz, i, k, p, r, cnt, cls, total, start, dlen, dstat
  integer :: wbuf(n), rbuf(n), vw(nv), vr(nv), ordw(4), ordr(10)
  integer, allocatable :: whole(:)
  integer, asynchronous :: abuf(n)
  integer :: tsize
  integer(kind=MPI_ADDRESS_KIND) :: lb, extent
  integer(kind=MPI_OFFSET_KIND) :: off, base2, base3, base4, disp, fsize, pos
  type(MPI_File) :: fh, fh2
  type(MPI_Datatype) :: vec, filetype, etype, gottype
  type(MPI_Status) :: status
  type(MPI_Request) :: req
  type(MPI_Errhandler) :: eh
  character(len=MPI_MAX_DATAREP_STRING) :: datarep
  character(len=512) :: dir, fname

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, me)
  call MPI_Comm_size(MPI_COMM_WORLD, np)
  next = mod(me + 1, np)
  call MPI_Type_size(MPI_INTEGER, isz)

  ! rank 0 names the file (TMPDIR or /tmp, its pid), every rank gets the name
  if (me == 0) then
    call get_environment_variable('TMPDIR', dir, dlen, dstat)
    if (dstat /= 0 .or. dlen == 0) dir = '/tmp'
    write (fname, '(a,a,i0)') trim(dir), '/swy_io_f08_', c_getpid()
  end if
  call MPI_Bcast(fname, len(fname), MPI_CHARACTER, 0, MPI_COMM_WORLD)

  ! files are born with MPI_ERRORS_RETURN, the handler of MPI_FILE_NULL
  call MPI_File_get_errhandler(MPI_FILE_NULL, eh, ierr)
  call check(ierr == MPI_SUCCESS .and. eh == MPI_ERRORS_RETURN, 'MPI_FILE_NULL''s handler is MPI_ERRORS_RETURN')

  fh = MPI_FILE_NULL
  call MPI_File_open(MPI_COMM_WORLD, trim(fname), MPI_MODE_CREATE + MPI_MODE_RDWR, MPI_INFO_NULL, fh, ierr)
  call ok(ierr, 'MPI_File_open')
  call check(fh /= MPI_FILE_NULL, 'open gives a file handle')
  ! (a stale file of a recycled pid would spoil the sizes)
  call MPI_File_set_size(fh, 0_MPI_OFFSET_KIND, ierr)
  call ok(ierr, 'MPI_File_set_size')

  ! 1. explicit offsets in bytes (the default view): every rank its block, the next rank's back
  do i = 1, n
    wbuf(i) = me * 1000 + i
  end do
  off = int(me, MPI_OFFSET_KIND) * n * isz
  call MPI_File_write_at_all(fh, off, wbuf, n, MPI_INTEGER, status, ierr)
  call ok(ierr, 'MPI_File_write_at_all')
  call MPI_Get_count(status, MPI_INTEGER, cnt, ierr)
  call check(ierr == MPI_SUCCESS .and. cnt == n, 'write_at_all: MPI_Get_count')
  call settle()
  rbuf = -1
  off = int(next, MPI_OFFSET_KIND) * n * isz
  call MPI_File_read_at(fh, off, rbuf, n, MPI_INTEGER, status, ierr)
  call ok(ierr, 'MPI_File_read_at')
  call MPI_Get_count(status, MPI_INTEGER, cnt, ierr)
  call check(ierr == MPI_SUCCESS .and. cnt == n, 'read_at: MPI_Get_count')
  do i = 1, n
    call check(rbuf(i) == next * 1000 + i, 'read_at: the next rank''s block')
  end do
  call MPI_File_get_size(fh, fsize, ierr)
  call ok(ierr, 'MPI_File_get_size')
  call check(fsize == int(np, MPI_OFFSET_KIND) * n * isz, 'size after the blocks')
  call MPI_Barrier(MPI_COMM_WORLD)

  ! 2. a view after the blocks: pairs of integers, the ranks' pairs interleaved
  !    (rank r's j-th pair at pair j*np + r), m pairs a tile, the tile resized to np*m pairs
  base2 = int(np, MPI_OFFSET_KIND) * n * isz
  call MPI_Type_vector(m, 2, 2 * np, MPI_INTEGER, vec, ierr)
  call ok(ierr, 'MPI_Type_vector')
  call MPI_Type_create_resized(vec, 0_MPI_ADDRESS_KIND, int(2 * np * m * isz, MPI_ADDRESS_KIND), &
                               filetype, ierr)
  call ok(ierr, 'MPI_Type_create_resized')
  call MPI_Type_commit(filetype, ierr)
  call ok(ierr, 'MPI_Type_commit')
  disp = base2 + int(2 * me * isz, MPI_OFFSET_KIND)
  call MPI_File_set_view(fh, disp, MPI_INTEGER, filetype, 'native', MPI_INFO_NULL, ierr)
  call ok(ierr, 'MPI_File_set_view (interleaved)')

  datarep = '?'
  call MPI_File_get_view(fh, off, etype, gottype, datarep, ierr)
  call ok(ierr, 'MPI_File_get_view')
  call check(off == disp, 'get_view: disp')
  call check(etype == MPI_INTEGER, 'get_view: etype MPI_INTEGER')
  call check(trim(datarep) == 'native', 'get_view: datarep native')
  call MPI_Type_get_extent(gottype, lb, extent, ierr)
  call check(ierr == MPI_SUCCESS .and. lb == 0 .and. extent == 2 * np * m * isz, 'get_view: the filetype''s extent')
  call MPI_Type_size(gottype, tsize, ierr)
  call check(ierr == MPI_SUCCESS .and. tsize == 2 * m * isz, 'get_view: the filetype''s size')
  call MPI_Type_free(gottype, ierr)
  call ok(ierr, 'MPI_Type_free of get_view''s filetype')

  do i = 1, nv
    vw(i) = me * 1000 + 100 + i
  end do
  call MPI_File_write_all(fh, vw, nv, MPI_INTEGER, status, ierr)
  call ok(ierr, 'MPI_File_write_all')
  call MPI_Get_count(status, MPI_INTEGER, cnt)
  call check(cnt == nv, 'write_all: MPI_Get_count')
  call MPI_File_get_position(fh, pos, ierr)
  call check(ierr == MPI_SUCCESS .and. pos == nv, 'position after write_all')
  call MPI_File_seek(fh, 0_MPI_OFFSET_KIND, MPI_SEEK_SET, ierr)
  call ok(ierr, 'MPI_File_seek')
  call settle()
  vr = -1
  call MPI_File_read_all(fh, vr, nv, MPI_INTEGER, status, ierr)
  call ok(ierr, 'MPI_File_read_all')
  call MPI_Get_count(status, MPI_INTEGER, cnt)
  call check(cnt == nv, 'read_all: MPI_Get_count')
  do i = 1, nv
    call check(vr(i) == vw(i), 'read_all through the view')
  end do

  ! the interleaving itself, through a plain view of integers from base2
  call MPI_File_set_view(fh, base2, MPI_INTEGER, MPI_INTEGER, 'native', MPI_INFO_NULL, ierr)
  call ok(ierr, 'MPI_File_set_view (plain)')
  allocate(whole(nv * np))
  whole = -1
  call MPI_File_read_at(fh, 0_MPI_OFFSET_KIND, whole, nv * np, MPI_INTEGER, status, ierr)
  call ok(ierr, 'MPI_File_read_at (interleaved area)')
  call MPI_Get_count(status, MPI_INTEGER, cnt)
  call check(cnt == nv * np, 'read_at of the interleaved area: MPI_Get_count')
  do k = 0, nv * np - 1
    p = k / 2                         ! pair in the file
    r = mod(p, np)                    ! its rank
    i = (p / np) * 2 + mod(k, 2) + 1  ! its place in that rank's buffer
    call check(whole(k + 1) == r * 1000 + 100 + i, 'the ranks'' pairs interleave')
  end do
  deallocate(whole)
  call MPI_File_get_size(fh, fsize, ierr)
  call ok(ierr, 'MPI_File_get_size')
  call check(fsize == base2 + int(nv * np * isz, MPI_OFFSET_KIND), 'size after the view''s writes')
  call MPI_Barrier(MPI_COMM_WORLD)

  ! 3. nonblocking: iwrite_at (offsets in integers of the plain view) completed by MPI_Wait
  base3 = nv * np
  do i = 1, n
    abuf(i) = me * 1000 + 200 + i
  end do
  call MPI_File_iwrite_at(fh, base3 + me * n, abuf, n, MPI_INTEGER, req, ierr)
  call ok(ierr, 'MPI_File_iwrite_at')
  call MPI_Wait(req, status, ierr)
  call ok(ierr, 'MPI_Wait (iwrite_at)')
  call check(req == MPI_REQUEST_NULL, 'the request freed by MPI_Wait')
  call MPI_Get_count(status, MPI_INTEGER, cnt)
  call check(cnt == n, 'iwrite_at: MPI_Get_count')
  call settle()
  rbuf = -1
  call MPI_File_read_at(fh, base3 + next * n, rbuf, n, MPI_INTEGER, status, ierr)
  call ok(ierr, 'MPI_File_read_at (iwrite_at''s region)')
  do i = 1, n
    call check(rbuf(i) == next * 1000 + 200 + i, 'iwrite_at: the next rank''s block')
  end do
  call MPI_Barrier(MPI_COMM_WORLD)

  ! 4. the shared file pointer: rank r writes r+1 integers, in rank order
  base4 = base2 + int((nv + n) * np * isz, MPI_OFFSET_KIND)
  call MPI_File_set_view(fh, base4, MPI_INTEGER, MPI_INTEGER, 'native', MPI_INFO_NULL, ierr)
  call ok(ierr, 'MPI_File_set_view (ordered)')
  do i = 1, me + 1
    ordw(i) = me * 1000 + 300 + i
  end do
  call MPI_File_write_ordered(fh, ordw, me + 1, MPI_INTEGER, status, ierr)
  call ok(ierr, 'MPI_File_write_ordered')
  call MPI_Get_count(status, MPI_INTEGER, cnt)
  call check(cnt == me + 1, 'write_ordered: MPI_Get_count')
  total = np * (np + 1) / 2
  call MPI_File_get_position_shared(fh, pos, ierr)
  call check(ierr == MPI_SUCCESS .and. pos == total, 'shared position after write_ordered')
  call settle()
  ordr = -1
  call MPI_File_read_at(fh, 0_MPI_OFFSET_KIND, ordr, total, MPI_INTEGER, status, ierr)
  call ok(ierr, 'MPI_File_read_at (ordered region)')
  start = 0
  do r = 0, np - 1
    do i = 1, r + 1
      call check(ordr(start + i) == r * 1000 + 300 + i, 'write_ordered: rank order')
    end do
    start = start + r + 1
  end do
  call MPI_File_get_size(fh, fsize, ierr)
  call ok(ierr, 'MPI_File_get_size')
  call check(fsize == base4 + int(total * isz, MPI_OFFSET_KIND), 'final size')

  ! close: the handle becomes MPI_FILE_NULL; delete; then the file is no more
  call MPI_File_close(fh, ierr)
  call ok(ierr, 'MPI_File_close')
  call check(fh == MPI_FILE_NULL, 'close sets MPI_FILE_NULL')
  call MPI_Type_free(filetype)
  call MPI_Type_free(vec)
  call MPI_Barrier(MPI_COMM_WORLD)
  if (me == 0) then
    call MPI_File_delete(trim(fname), MPI_INFO_NULL, ierr)
    call ok(ierr, 'MPI_File_delete')
  end if
  call MPI_Barrier(MPI_COMM_WORLD)

  ! an error through MPI_FILE_NULL's handler: returned, of class MPI_ERR_NO_SUCH_FILE
  ierr = MPI_SUCCESS
  call MPI_File_open(MPI_COMM_WORLD, trim(fname), MPI_MODE_RDONLY, MPI_INFO_NULL, fh2, ierr)
  call check(ierr /= MPI_SUCCESS, 'opening a deleted file read-only fails')
  call MPI_Error_class(ierr, cls)
  if (cls /= MPI_ERR_NO_SUCH_FILE) then
    print '(a,i0,a,i0,a,i0)', 'f08_io: rank ', me, ': open of a missing file: class ', cls, &
          ', want MPI_ERR_NO_SUCH_FILE = ', MPI_ERR_NO_SUCH_FILE
    error stop 1
  end if

  call MPI_Finalize()
  if (me == 0) print '(a)', 'f08_io: OK'

contains

  ! sync, barrier, sync: the writes of every rank visible to every rank
  subroutine settle()
    integer :: e
    call MPI_File_sync(fh, e)
    call ok(e, 'MPI_File_sync')
    call MPI_Barrier(MPI_COMM_WORLD)
    call MPI_File_sync(fh, e)
    call ok(e, 'MPI_File_sync')
  end subroutine settle

  subroutine ok(e, what)
    integer, intent(in) :: e
    character(len=*), intent(in) :: what
    integer :: slen, e2
    character(len=MPI_MAX_ERROR_STRING) :: msg
    if (e /= MPI_SUCCESS) then
      call MPI_Error_string(e, msg, slen, e2)
      print '(a,i0,4a)', 'f08_io: rank ', me, ': ', what, ' failed: ', trim(msg)
      error stop 1
    end if
  end subroutine ok

  subroutine check(cond, what)
    logical, intent(in) :: cond
    character(len=*), intent(in) :: what
    if (.not. cond) then
      print '(a,i0,3a)', 'f08_io: rank ', me, ': check failed: ', what
      error stop 1
    end if
  end subroutine check
end program f08_io
