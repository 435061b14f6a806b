! f08_rma.f90 — one-sided communication through `use mpi_f08`: MPI_Win_allocate with a C pointer
! turned into a Fortran array, MPI_Put and MPI_Get in fence epochs, MPI_Accumulate from every rank,
! MPI_Fetch_and_op under MPI_Win_lock, post/start/complete/wait around a ring, the large-count
! MPI_Put (MPI_COUNT_KIND counts), MPI_Rput (large-count) and MPI_Rget under MPI_Win_lock_all;
! every value is checked. A failed check stops with its number.
program f08_rma
  use mpi_f08
  use, intrinsic :: iso_c_binding, only: c_ptr, c_f_pointer
  implicit none
  integer :: me, np, nxt, prv, i, ierr, v, old, one
  integer, pointer :: mem(:)
  type(c_ptr) :: base
  type(MPI_Win) :: win
  type(MPI_Group) :: world, gprev, gnext
  type(MPI_Request) :: req
  integer :: buf(4), got(4)

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, me)
  call MPI_Comm_size(MPI_COMM_WORLD, np)
  nxt = mod(me + 1, np)
  prv = mod(me + np - 1, np)
  call MPI_Win_allocate(64_MPI_ADDRESS_KIND, 4, MPI_INFO_NULL, MPI_COMM_WORLD, base, win, ierr)
  if (ierr /= MPI_SUCCESS) stop 1
  call c_f_pointer(base, mem, [16])
  mem = -1

  ! fence: put four integers into the next rank, get them back from the previous one
  call MPI_Win_fence(0, win)
  buf = [(100 * me + i, i = 1, 4)]
  call MPI_Put(buf, 4, MPI_INTEGER, nxt, 0_MPI_ADDRESS_KIND, 4, MPI_INTEGER, win, ierr)
  if (ierr /= MPI_SUCCESS) stop 2
  call MPI_Win_fence(0, win)
  if (any(mem(1:4) /= [(100 * prv + i, i = 1, 4)])) stop 3
  got = 0
  call MPI_Get(got, 4, MPI_INTEGER, prv, 0_MPI_ADDRESS_KIND, 4, MPI_INTEGER, win)
  call MPI_Win_fence(0, win)
  if (any(got /= [(100 * mod(prv + np - 1, np) + i, i = 1, 4)])) stop 4

  ! accumulate: every rank adds me + 1 into rank 0's fifth integer
  if (me == 0) mem(5) = 0
  call MPI_Win_fence(0, win)
  v = me + 1
  call MPI_Accumulate(v, 1, MPI_INTEGER, 0, 4_MPI_ADDRESS_KIND, 1, MPI_INTEGER, MPI_SUM, win)
  call MPI_Win_fence(MPI_MODE_NOSUCCEED, win)
  if (me == 0 .and. mem(5) /= np * (np + 1) / 2) stop 5

  ! passive target: a fetch-and-add counter on rank 0's sixth integer
  if (me == 0) mem(6) = 0
  call MPI_Barrier(MPI_COMM_WORLD)
  one = 1
  call MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win)
  call MPI_Fetch_and_op(one, old, MPI_INTEGER, 0, 5_MPI_ADDRESS_KIND, MPI_SUM, win)
  call MPI_Win_unlock(0, win)
  if (old < 0 .or. old >= np) stop 6
  call MPI_Barrier(MPI_COMM_WORLD)
  if (me == 0 .and. mem(6) /= np) stop 7

  ! post/start/complete/wait around the ring, with the large-count MPI_Put
  call MPI_Comm_group(MPI_COMM_WORLD, world)
  call MPI_Group_incl(world, 1, [prv], gprev)
  call MPI_Group_incl(world, 1, [nxt], gnext)
  call MPI_Win_post(gprev, 0, win)
  call MPI_Win_start(gnext, 0, win)
  v = 7000 + me
  call MPI_Put(v, 1_MPI_COUNT_KIND, MPI_INTEGER, nxt, 8_MPI_ADDRESS_KIND, 1_MPI_COUNT_KIND, MPI_INTEGER, win, ierr)
  if (ierr /= MPI_SUCCESS) stop 8
  call MPI_Win_complete(win)
  call MPI_Win_wait(win)
  if (mem(9) /= 7000 + prv) stop 9
  call MPI_Group_free(gprev)
  call MPI_Group_free(gnext)
  call MPI_Group_free(world)

  ! request-based, in a lock_all epoch: MPI_Rput with MPI_COUNT_KIND counts (the MPI_Rput_c
  ! specific) into the next rank's tenth integer, MPI_Rget of the previous rank's
  call MPI_Win_lock_all(0, win)
  v = 9000 + me
  call MPI_Rput(v, 1_MPI_COUNT_KIND, MPI_INTEGER, nxt, 9_MPI_ADDRESS_KIND, 1_MPI_COUNT_KIND, MPI_INTEGER, &
                win, req, ierr)
  if (ierr /= MPI_SUCCESS) stop 10
  call MPI_Wait(req, MPI_STATUS_IGNORE)
  call MPI_Win_flush(nxt, win)
  call MPI_Barrier(MPI_COMM_WORLD)
  call MPI_Win_sync(win)
  if (mem(10) /= 9000 + prv) stop 11
  old = -1
  call MPI_Rget(old, 1, MPI_INTEGER, prv, 9_MPI_ADDRESS_KIND, 1, MPI_INTEGER, win, req)
  call MPI_Wait(req, MPI_STATUS_IGNORE)
  if (old /= 9000 + mod(prv + np - 1, np)) stop 12
  call MPI_Win_unlock_all(win)

  call MPI_Win_free(win)
  if (me == 0) print '(a, i0, a)', "f08_rma: ", np, " ranks"
  call MPI_Finalize()
end program f08_rma
