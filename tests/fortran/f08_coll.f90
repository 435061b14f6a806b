! f08_coll.f90 — collectives through `use mpi_f08`, every root: scatter(v), gather(v), allgather(v),
! alltoall(v), reduce_scatter(_block), scan, exscan, MPI_IN_PLACE (-1 in the counts it makes unused),
! user-visible MPI_Op handles, and the nonblocking forms completed by MPI_Wait/MPI_Waitall; every
! element is checked.
program f08_coll
  use mpi_f08
  implicit none
  integer :: me, np, root, i, j, ierr, got
  integer, allocatable :: s(:), r(:), cnts(:), dsps(:), rcnts(:), rdsps(:)
  double precision :: x, y
  type(MPI_Request) :: reqs(3)
  type(MPI_Op) :: op

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, me)
  call MPI_Comm_size(MPI_COMM_WORLD, np)
  allocate(s(np * np), r(np * np), cnts(np), dsps(np), rcnts(np), rdsps(np))

  do root = 0, np - 1
    ! scatter: rank i gets root*100 + i
    s = [(root * 100 + i - 1, i = 1, np * np)]
    got = -1
    call MPI_Scatter(s, 1, MPI_INTEGER, got, 1, MPI_INTEGER, root, MPI_COMM_WORLD)
    if (got /= root * 100 + me) stop 1
    ! gather at root, in place there
    r = -1
    if (me == root) then
      r(me + 1) = 7 * me
      call MPI_Gather(MPI_IN_PLACE, 1, MPI_INTEGER, r, 1, MPI_INTEGER, root, MPI_COMM_WORLD)
      if (any(r(1:np) /= [(7 * (i - 1), i = 1, np)])) stop 2
    else
      call MPI_Gather(7 * me, 1, MPI_INTEGER, r, 1, MPI_INTEGER, root, MPI_COMM_WORLD)
    end if
    ! scatterv / gatherv: rank i has i + 1 elements
    cnts = [(i, i = 1, np)]
    dsps = [(i * (i - 1) / 2, i = 1, np)]
    s = [(1000 * root + i, i = 1, np * np)]
    r = -1
    call MPI_Scatterv(s, cnts, dsps, MPI_INTEGER, r, me + 1, MPI_INTEGER, root, MPI_COMM_WORLD)
    do i = 1, me + 1
      if (r(i) /= 1000 * root + dsps(me + 1) + i) stop 3
    end do
    s(1:me + 1) = [(me * 10 + i, i = 1, me + 1)]
    r = -1
    call MPI_Gatherv(s, me + 1, MPI_INTEGER, r, cnts, dsps, MPI_INTEGER, root, MPI_COMM_WORLD)
    if (me == root) then
      do j = 1, np
        do i = 1, j
          if (r(dsps(j) + i) /= (j - 1) * 10 + i) stop 4
        end do
      end do
    end if
    ! reduce and bcast of a double
    x = dble(me + 1)
    y = -1
    call MPI_Reduce(x, y, 1, MPI_DOUBLE_PRECISION, MPI_MAX, root, MPI_COMM_WORLD)
    if (me == root .and. y /= dble(np)) stop 5
    call MPI_Bcast(y, 1, MPI_DOUBLE_PRECISION, root, MPI_COMM_WORLD)
    if (y /= dble(np)) stop 6
  end do

  ! allgather, allgatherv, alltoall, alltoallv
  r = -1
  call MPI_Allgather(me * 3, 1, MPI_INTEGER, r, 1, MPI_INTEGER, MPI_COMM_WORLD)
  if (any(r(1:np) /= [(3 * (i - 1), i = 1, np)])) stop 7
  s(1:me + 1) = [(me * 10 + i, i = 1, me + 1)]
  r = -1
  call MPI_Allgatherv(s, me + 1, MPI_INTEGER, r, cnts, dsps, MPI_INTEGER, MPI_COMM_WORLD)
  do j = 1, np
    do i = 1, j
      if (r(dsps(j) + i) /= (j - 1) * 10 + i) stop 8
    end do
  end do
  s(1:np) = [(me * 100 + i - 1, i = 1, np)]
  r = -1
  call MPI_Alltoall(s, 1, MPI_INTEGER, r, 1, MPI_INTEGER, MPI_COMM_WORLD)
  if (any(r(1:np) /= [((i - 1) * 100 + me, i = 1, np)])) stop 9
  ! alltoallv: rank me sends j + 1 copies of its rank to rank j
  do j = 1, np
    cnts(j) = j
    rcnts(j) = me + 1
  end do
  dsps = [(i * (i - 1) / 2, i = 1, np)]
  rdsps = [((i - 1) * (me + 1), i = 1, np)]
  s = me
  r = -1
  call MPI_Alltoallv(s, cnts, dsps, MPI_INTEGER, r, rcnts, rdsps, MPI_INTEGER, MPI_COMM_WORLD)
  do j = 1, np
    if (any(r(rdsps(j) + 1:rdsps(j) + me + 1) /= j - 1)) stop 10
  end do

  ! reduce_scatter_block, reduce_scatter, scan, exscan, allreduce in place
  s(1:np) = [(i, i = 1, np)]
  got = -1
  call MPI_Reduce_scatter_block(s, got, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
  if (got /= np * (me + 1)) stop 11
  cnts = 1
  got = -1
  call MPI_Reduce_scatter(s, got, cnts, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
  if (got /= np * (me + 1)) stop 12
  call MPI_Scan(me + 1, got, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
  if (got /= (me + 1) * (me + 2) / 2) stop 13
  got = -7
  call MPI_Exscan(me + 1, got, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
  if (me > 0 .and. got /= me * (me + 1) / 2) stop 14
  got = me
  op = MPI_BXOR
  call MPI_Allreduce(MPI_IN_PLACE, got, 1, MPI_INTEGER, op, MPI_COMM_WORLD, ierr)
  j = 0
  do i = 0, np - 1
    j = ieor(j, i)
  end do
  if (ierr /= MPI_SUCCESS .or. got /= j) stop 15

  ! nonblocking: ibcast, iallreduce, ialltoall in flight together
  x = merge(4.25d0, 0d0, me == 0)
  got = -1
  r = -1
  s(1:np) = [(me * 100 + i - 1, i = 1, np)]
  call MPI_Ibcast(x, 1, MPI_DOUBLE_PRECISION, 0, MPI_COMM_WORLD, reqs(1))
  call MPI_Iallreduce(me, got, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, reqs(2))
  call MPI_Ialltoall(s, 1, MPI_INTEGER, r, 1, MPI_INTEGER, MPI_COMM_WORLD, reqs(3))
  call MPI_Waitall(3, reqs, MPI_STATUSES_IGNORE)
  if (x /= 4.25d0 .or. got /= np * (np - 1) / 2) stop 16
  if (any(r(1:np) /= [((i - 1) * 100 + me, i = 1, np)])) stop 17
  if (any(reqs /= MPI_REQUEST_NULL)) stop 18
  ! in place, the send count and type are not used: -1 and MPI_DATATYPE_NULL pass
  call MPI_Ialltoall(MPI_IN_PLACE, -1, MPI_DATATYPE_NULL, r, 1, MPI_INTEGER, MPI_COMM_WORLD, reqs(1), ierr)
  if (ierr /= MPI_SUCCESS) stop 19
  call MPI_Wait(reqs(1), MPI_STATUS_IGNORE)
  if (any(r(1:np) /= [(me * 100 + i - 1, i = 1, np)])) stop 20
  call MPI_Ibarrier(MPI_COMM_WORLD, reqs(1))
  call MPI_Wait(reqs(1), MPI_STATUS_IGNORE)
  deallocate(s, r, cnts, dsps, rcnts, rdsps)
  call MPI_Finalize()
end program f08_coll
