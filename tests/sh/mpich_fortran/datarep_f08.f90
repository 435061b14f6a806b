! datarep_f08.f90 — `use mpi_f08` program for tests/sh/mpich_fortran_binary.sh: MPI_Register_datarep
! with f08 conversion and extent functions (each INTEGER stored as an INTEGER(KIND=8) plus 1000),
! and with MPICH's module's MPI_CONVERSION_FN_NULL (the data as in memory: the library must take it
! for the null procedure, not call it); every rank's integers interleaved in one file through a
! vector view, written collectively, checked in the file and read back.
module datarep_f08_fns
  use mpi_f08
  use, intrinsic :: iso_c_binding, only: c_ptr, c_f_pointer
  implicit none
  integer :: nconv = 0
contains
  subroutine write_fn(userbuf, datatype, count, filebuf, position, extra_state, ierror)
    type(c_ptr), value :: userbuf, filebuf
    type(MPI_Datatype) :: datatype
    integer :: count, ierror
    integer(kind=MPI_OFFSET_KIND) :: position
    integer(kind=MPI_ADDRESS_KIND) :: extra_state
    integer, pointer :: u(:)
    integer(kind=8), pointer :: f(:)
    nconv = nconv + 1
    ierror = MPI_SUCCESS
    if (datatype /= MPI_INTEGER) then
      ierror = MPI_ERR_TYPE
      return
    end if
    call c_f_pointer(userbuf, u, [position + count])
    call c_f_pointer(filebuf, f, [count])
    f(1:count) = int(u(position + 1:position + count), 8) + extra_state
  end subroutine write_fn

  subroutine read_fn(userbuf, datatype, count, filebuf, position, extra_state, ierror)
    type(c_ptr), value :: userbuf, filebuf
    type(MPI_Datatype) :: datatype
    integer :: count, ierror
    integer(kind=MPI_OFFSET_KIND) :: position
    integer(kind=MPI_ADDRESS_KIND) :: extra_state
    integer, pointer :: u(:)
    integer(kind=8), pointer :: f(:)
    nconv = nconv + 1
    ierror = MPI_SUCCESS
    if (datatype /= MPI_INTEGER) then
      ierror = MPI_ERR_TYPE
      return
    end if
    call c_f_pointer(userbuf, u, [position + count])
    call c_f_pointer(filebuf, f, [count])
    u(position + 1:position + count) = int(f(1:count) - extra_state)
  end subroutine read_fn

  subroutine wide_extent(datatype, extent, extra_state, ierror)
    type(MPI_Datatype) :: datatype
    integer(kind=MPI_ADDRESS_KIND) :: extent, extra_state, lb
    integer :: ierror
    call MPI_Type_get_extent(datatype, lb, extent, ierror)
    if (datatype == MPI_INTEGER .and. extra_state >= 0) extent = 8
  end subroutine wide_extent

  subroutine same_extent(datatype, extent, extra_state, ierror)
    type(MPI_Datatype) :: datatype
    integer(kind=MPI_ADDRESS_KIND) :: extent, extra_state, lb
    integer :: ierror
    call MPI_Type_get_extent(datatype, lb, extent, ierror)
    if (extra_state < 0) extent = -1
  end subroutine same_extent
end module datarep_f08_fns

program datarep_f08
  use mpi_f08
  use datarep_f08_fns
  implicit none
  integer, parameter :: n = 12
  integer :: rank, nprocs, i, k, vlen, ierr, v(n), w(n), before
  integer(kind=8) :: raw(n * 4)
  integer :: raw4(n * 4)
  integer(kind=MPI_ADDRESS_KIND) :: extra
  type(MPI_File) :: fh
  type(MPI_Datatype) :: vec
  type(MPI_Status) :: st
  character(len=256) :: path
  character(len=32) :: pid
  character(len=MPI_MAX_LIBRARY_VERSION_STRING) :: ver
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs)
  if (nprocs > 4) call fail('at most 4 ranks', nprocs)
  extra = 1000
  call MPI_Register_datarep('datarep_f08_wide', read_fn, write_fn, wide_extent, extra, ierr)
  if (ierr /= MPI_SUCCESS) call fail('MPI_Register_datarep (conversion functions)', ierr)
  extra = 0
  call MPI_Register_datarep('datarep_f08_same', MPI_CONVERSION_FN_NULL, MPI_CONVERSION_FN_NULL, same_extent, &
                            extra, ierr)
  if (ierr /= MPI_SUCCESS) call fail('MPI_Register_datarep (MPI_CONVERSION_FN_NULL)', ierr)

  call get_environment_variable('TMPDIR', path)
  if (len_trim(path) == 0) path = '/tmp'
  write (pid, '(i0)') getpid()
  if (rank == 0) path = trim(path) // '/swy_io_datarep_f08_' // trim(pid)
  call MPI_Bcast(path, len(path), MPI_CHARACTER, 0, MPI_COMM_WORLD)
  call MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE + MPI_MODE_RDWR + MPI_MODE_DELETE_ON_CLOSE, &
                     MPI_INFO_NULL, fh)
  call MPI_Type_vector(n, 1, nprocs, MPI_INTEGER, vec)
  call MPI_Type_commit(vec)
  do i = 1, n
    v(i) = (i - 1) * nprocs + rank - 7
  end do

  ! converted: 8 bytes per integer in the file
  call MPI_File_set_view(fh, int(8 * rank, MPI_OFFSET_KIND), MPI_INTEGER, vec, 'datarep_f08_wide', MPI_INFO_NULL)
  call MPI_File_write_all(fh, v, n, MPI_INTEGER, st)
  if (nconv == 0) call fail('the write conversion function was not called', 0)
  call MPI_File_sync(fh)
  call MPI_Barrier(MPI_COMM_WORLD)
  call MPI_File_sync(fh)
  call MPI_File_set_view(fh, 0_MPI_OFFSET_KIND, MPI_BYTE, MPI_BYTE, 'native', MPI_INFO_NULL)
  call MPI_File_read_at(fh, 0_MPI_OFFSET_KIND, raw, 8 * n * nprocs, MPI_BYTE, st)
  do k = 1, n * nprocs
    if (raw(k) /= k - 1 - 7 + 1000) call fail('a converted value in the file', k)
  end do
  call MPI_File_set_view(fh, int(8 * rank, MPI_OFFSET_KIND), MPI_INTEGER, vec, 'datarep_f08_wide', MPI_INFO_NULL)
  w = 0
  call MPI_File_read_at_all(fh, 0_MPI_OFFSET_KIND, w, n, MPI_INTEGER, st)
  if (any(w /= v)) call fail('the converted integers read back', rank)

  ! MPI_CONVERSION_FN_NULL: the integers as they are, after the converted ones
  call MPI_Barrier(MPI_COMM_WORLD)
  before = nconv
  call MPI_File_set_view(fh, int(8 * n * nprocs + 4 * rank, MPI_OFFSET_KIND), MPI_INTEGER, vec, &
                         'datarep_f08_same', MPI_INFO_NULL)
  call MPI_File_write_all(fh, v, n, MPI_INTEGER, st)
  call MPI_File_sync(fh)
  call MPI_Barrier(MPI_COMM_WORLD)
  call MPI_File_sync(fh)
  call MPI_File_set_view(fh, 0_MPI_OFFSET_KIND, MPI_BYTE, MPI_BYTE, 'native', MPI_INFO_NULL)
  call MPI_File_read_at(fh, int(8 * n * nprocs, MPI_OFFSET_KIND), raw4, 4 * n * nprocs, MPI_BYTE, st)
  do k = 1, n * nprocs
    if (raw4(k) /= k - 1 - 7) call fail('an integer of MPI_CONVERSION_FN_NULL in the file', k)
  end do
  if (nconv /= before) call fail('a conversion function ran for MPI_CONVERSION_FN_NULL', nconv - before)
  call MPI_File_close(fh)
  call MPI_Type_free(vec)
  call MPI_Get_library_version(ver, vlen, ierr)
  if (rank == 0) print '(a,a)', 'library: ', ver(1:vlen)
  if (rank == 0) call print_loaded_from()
  print '(a,i0,a,i0,a)', 'datarep rank ', rank, ' of ', nprocs, ': checked'
  call MPI_Finalize()
contains
  subroutine fail(what, i)
    character(len=*), intent(in) :: what
    integer, intent(in) :: i
    print '(a,a,a,i0,a,i0)', 'FAIL ', what, ': rank ', rank, ' at ', i
    call MPI_Abort(MPI_COMM_WORLD, 1)
  end subroutine fail
end program datarep_f08
