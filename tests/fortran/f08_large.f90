! f08_large.f90 — the large-count forms of `use mpi_f08` (MPI_X_f08c over MPI_X_c), chosen by
! INTEGER(KIND=MPI_COUNT_KIND) counts: send/recv, get_count, type_size, bcast, allreduce, allgatherv
! and alltoallv with count and MPI_ADDRESS_KIND displacement arrays; every value received is checked.
! Also MPI_Abi_get_version and MPI_Abi_get_info (MPI-5.0), which mpi_f08 offers with them.
program f08_large
  use mpi_f08
  implicit none
  integer :: me, np, i, j, ierr
  integer(kind=MPI_COUNT_KIND) :: n, got, sz
  integer(kind=MPI_COUNT_KIND), allocatable :: cnts(:), rcnts(:)
  integer(kind=MPI_ADDRESS_KIND), allocatable :: dsps(:), rdsps(:)
  integer, allocatable :: s(:), r(:)
  double precision :: x(3), y(3)
  type(MPI_Status) :: st
  type(MPI_Datatype) :: t3
  type(MPI_Info) :: info
  integer :: major, minor, vlen
  logical :: flag
  character(len=16) :: val

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, me)
  call MPI_Comm_size(MPI_COMM_WORLD, np)
  allocate(s(max(np * np, 8)), r(max(np * np, 8)), cnts(np), rcnts(np), dsps(np), rdsps(np))

  ! send/recv and get_count: rank 0 sends 5 integers to every other rank
  n = 5_MPI_COUNT_KIND
  if (me == 0) then
    do j = 1, np - 1
      s(1:5) = [(100 * j + i, i = 1, 5)]
      call MPI_Send(s, n, MPI_INTEGER, j, 7, MPI_COMM_WORLD, ierr)
      if (ierr /= MPI_SUCCESS) stop 1
    end do
  else
    r = -1
    call MPI_Recv(r, n + 3, MPI_INTEGER, 0, 7, MPI_COMM_WORLD, st, ierr)
    if (ierr /= MPI_SUCCESS) stop 2
    if (any(r(1:5) /= [(100 * me + i, i = 1, 5)]) .or. r(6) /= -1) stop 3
    got = -1
    call MPI_Get_count(st, MPI_INTEGER, got, ierr)
    if (ierr /= MPI_SUCCESS .or. got /= 5_MPI_COUNT_KIND) stop 4
  end if

  ! type_size of a large-count contiguous type
  call MPI_Type_contiguous(3_MPI_COUNT_KIND, MPI_DOUBLE_PRECISION, t3, ierr)
  if (ierr /= MPI_SUCCESS) stop 5
  call MPI_Type_commit(t3)
  sz = -1
  call MPI_Type_size(t3, sz, ierr)
  if (ierr /= MPI_SUCCESS .or. sz /= 24_MPI_COUNT_KIND) stop 6

  ! bcast of one t3 from the last rank, allreduce of 3 doubles
  x = -1
  if (me == np - 1) x = [1.5d0, 2.5d0, 3.5d0]
  call MPI_Bcast(x, 1_MPI_COUNT_KIND, t3, np - 1, MPI_COMM_WORLD, ierr)
  if (ierr /= MPI_SUCCESS .or. any(x /= [1.5d0, 2.5d0, 3.5d0])) stop 7
  x = [dble(me), dble(2 * me), 1d0]
  y = -1
  call MPI_Allreduce(x, y, 3_MPI_COUNT_KIND, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (ierr /= MPI_SUCCESS) stop 8
  if (any(y /= [dble(np * (np - 1) / 2), dble(np * (np - 1)), dble(np)])) stop 9
  call MPI_Type_free(t3)

  ! allgatherv: rank j contributes j + 1 elements at displacement j * (j + 1) / 2
  cnts = [(int(j, MPI_COUNT_KIND), j = 1, np)]
  dsps = [(int(j * (j - 1) / 2, MPI_ADDRESS_KIND), j = 1, np)]
  s(1:me + 1) = [(me * 10 + i, i = 1, me + 1)]
  r = -1
  call MPI_Allgatherv(s, int(me + 1, MPI_COUNT_KIND), MPI_INTEGER, r, cnts, dsps, MPI_INTEGER, &
                      MPI_COMM_WORLD, ierr)
  if (ierr /= MPI_SUCCESS) stop 10
  do j = 1, np
    do i = 1, j
      if (r(dsps(j) + i) /= (j - 1) * 10 + i) stop 11
    end do
  end do

  ! alltoallv: rank me sends j copies of 1000 * me + j to rank j - 1, packed at j * (j - 1) / 2
  do j = 1, np
    cnts(j) = j
    dsps(j) = j * (j - 1) / 2
    s(dsps(j) + 1:dsps(j) + j) = 1000 * me + j
    rcnts(j) = me + 1
    rdsps(j) = (j - 1) * (me + 1)
  end do
  r = -1
  call MPI_Alltoallv(s, cnts, dsps, MPI_INTEGER, r, rcnts, rdsps, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  if (ierr /= MPI_SUCCESS) stop 12
  do j = 1, np
    if (any(r(rdsps(j) + 1:rdsps(j) + me + 1) /= 1000 * (j - 1) + me + 1)) stop 13
  end do
  if (np * (me + 1) < size(r)) then
    if (r(np * (me + 1) + 1) /= -1) stop 14
  end if

  ! the MPICH ABI is not the standard ABI: version -1.-1; the info gives MPI_Count's size
  call MPI_Abi_get_version(major, minor, ierr)
  if (ierr /= MPI_SUCCESS .or. major /= -1 .or. minor /= -1) stop 15
  call MPI_Abi_get_info(info, ierr)
  if (ierr /= MPI_SUCCESS) stop 16
  vlen = len(val)
  call MPI_Info_get_string(info, 'mpi_count_size', vlen, val, flag)
  if (.not. flag .or. trim(val) /= '8') stop 17
  call MPI_Info_free(info)

  call MPI_Barrier(MPI_COMM_WORLD)
  if (me == 0) print '(a)', 'f08_large ok'
  call MPI_Finalize()
end program f08_large
