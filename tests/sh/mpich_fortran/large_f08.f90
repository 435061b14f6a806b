! large_f08.f90 — `use mpi_f08` program for tests/sh/mpich_fortran_binary.sh calling MPICH's
! large-count specifics (mpi_send_f08ts_large_...): INTEGER(KIND=MPI_COUNT_KIND) counts and
! MPI_ADDRESS_KIND displacements in send/recv, get_count, type_size, bcast, allgatherv, alltoallv.
program large_f08
  use mpi_f08
  implicit none
  integer :: me, np, i, j, k, ierr
  integer(kind=MPI_COUNT_KIND) :: n, got, sz
  integer(kind=MPI_COUNT_KIND), allocatable :: cnts(:), rcnts(:)
  integer(kind=MPI_ADDRESS_KIND), allocatable :: dsps(:), rdsps(:)
  integer, allocatable :: s(:), r(:)
  integer :: v(2)
  type(MPI_Status) :: st
  type(MPI_Datatype) :: t3
  character(len=MPI_MAX_LIBRARY_VERSION_STRING) :: ver

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, me)
  call MPI_Comm_size(MPI_COMM_WORLD, np)
  allocate(s(np * np + 8), r(np * np + 8), cnts(np), rcnts(np), dsps(np), rdsps(np))

  ! send/recv, get_count: rank 0 sends 5 integers to every other rank, twice (the second
  ! received with MPI_STATUS_IGNORE)
  n = 5_MPI_COUNT_KIND
  if (me == 0) then
    do j = 1, np - 1
      s(1:5) = [(100 * j + i, i = 1, 5)]
      call MPI_Send(s, n, MPI_INTEGER, j, 7, MPI_COMM_WORLD, ierr)
      if (ierr /= MPI_SUCCESS) call fail('send')
      call MPI_Send(s, n - 1, MPI_INTEGER, j, 8, MPI_COMM_WORLD)
    end do
  else
    r = -1
    call MPI_Recv(r, n + 3, MPI_INTEGER, 0, 7, MPI_COMM_WORLD, st, ierr)
    if (ierr /= MPI_SUCCESS) call fail('recv')
    if (any(r(1:5) /= [(100 * me + i, i = 1, 5)]) .or. r(6) /= -1) call fail('recv values')
    if (st%MPI_SOURCE /= 0 .or. st%MPI_TAG /= 7) call fail('recv status')
    got = -1
    call MPI_Get_count(st, MPI_INTEGER, got, ierr)
    if (ierr /= MPI_SUCCESS .or. got /= 5) call fail('get_count')
    r = -1
    call MPI_Recv(r, n, MPI_INTEGER, 0, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
    if (any(r(1:4) /= [(100 * me + i, i = 1, 4)]) .or. r(5) /= -1) call fail('recv ignore')
  end if

  ! type_contiguous and type_size with MPI_COUNT_KIND, bcast of 2 of that type from the last rank
  call MPI_Type_contiguous(3_MPI_COUNT_KIND, MPI_INTEGER, t3, ierr)
  if (ierr /= MPI_SUCCESS) call fail('type_contiguous')
  call MPI_Type_commit(t3)
  sz = -1
  call MPI_Type_size(t3, sz, ierr)
  if (ierr /= MPI_SUCCESS .or. sz /= 12) call fail('type_size')
  r = -1
  if (me == np - 1) r(1:6) = [(7 * i, i = 1, 6)]
  call MPI_Bcast(r, 2_MPI_COUNT_KIND, t3, np - 1, MPI_COMM_WORLD, ierr)
  if (ierr /= MPI_SUCCESS .or. any(r(1:6) /= [(7 * i, i = 1, 6)]) .or. r(7) /= -1) call fail('bcast')

  ! allgatherv: rank j gives j+1 integers 10*j+i, placed from displacement j*(j+1)/2
  do j = 0, np - 1
    rcnts(j + 1) = j + 1
    rdsps(j + 1) = j * (j + 1) / 2
  end do
  s(1:me + 1) = [(10 * me + i, i = 1, me + 1)]
  r = -1
  call MPI_Allgatherv(s, int(me + 1, MPI_COUNT_KIND), MPI_INTEGER, r, rcnts, rdsps, MPI_INTEGER, &
                      MPI_COMM_WORLD, ierr)
  if (ierr /= MPI_SUCCESS) call fail('allgatherv')
  do j = 0, np - 1
    do i = 1, j + 1
      if (r(j * (j + 1) / 2 + i) /= 10 * j + i) call fail('allgatherv values')
    end do
  end do
  if (r(np * (np + 1) / 2 + 1) /= -1) call fail('allgatherv overrun')

  ! alltoallv: rank me sends rank j the 2 integers 1000*me+10*j+{1,2}, from s(2j+1)
  do j = 0, np - 1
    cnts(j + 1) = 2
    dsps(j + 1) = 2 * j
    s(2 * j + 1:2 * j + 2) = [1000 * me + 10 * j + 1, 1000 * me + 10 * j + 2]
  end do
  r = -1
  call MPI_Alltoallv(s, cnts, dsps, MPI_INTEGER, r, cnts, dsps, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  if (ierr /= MPI_SUCCESS) call fail('alltoallv')
  do j = 0, np - 1
    do k = 1, 2
      if (r(2 * j + k) /= 1000 * j + 10 * me + k) call fail('alltoallv values')
    end do
  end do

  ! allreduce with MPI_IN_PLACE and a MPI_COUNT_KIND count
  v = [me + 1, 2 * me]
  call MPI_Allreduce(MPI_IN_PLACE, v, 2_MPI_COUNT_KIND, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (ierr /= MPI_SUCCESS .or. v(1) /= np * (np + 1) / 2 .or. v(2) /= np * (np - 1)) call fail('allreduce')

  call MPI_Type_free(t3)
  call MPI_Get_library_version(ver, i)
  if (me == 0) print '(a,a)', 'library: ', ver(1:i)
  if (me == 0) call print_loaded_from()
  print '(a,i0,a,i0,a,i0)', 'large rank ', me, ' of ', np, ': checked sum ', v(1)
  call MPI_Finalize()
contains
  subroutine fail(what)
    character(len=*), intent(in) :: what
    print '(a,a,a,i0)', 'FAIL ', what, ': rank ', me
    call MPI_Abort(MPI_COMM_WORLD, 1)
  end subroutine fail
end program large_f08
