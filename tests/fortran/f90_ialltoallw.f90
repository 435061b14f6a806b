! f90_ialltoallw.f90 — the nonblocking and persistent alltoallw collectives from Fortran, whose
! datatype arrays the operation may read until it completes: each is started, the Fortran arrays
! are overwritten, other requests are completed in between, and every element is checked.
program f90_ialltoallw
  use mpi
  implicit none
  integer :: ierr, me, np, i, round, cart, req, reqs(2), idx, cnt_done
  integer :: dims(1), nb(2), got(2), nbt(2), nbc(2), other
  integer, allocatable :: sbuf(:), rbuf(:), cnt(:), dsp(:), types(:)
  integer(kind=MPI_ADDRESS_KIND) :: adsp(2)
  logical :: periods(1), flag, has_persistent
  character(len=MPI_MAX_LIBRARY_VERSION_STRING) :: lib
  integer :: liblen

  call MPI_INIT(ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, me, ierr)
  call MPI_COMM_SIZE(MPI_COMM_WORLD, np, ierr)
  ! Open MPI 4.1 has no persistent collectives (MPI-4.0)
  call MPI_GET_LIBRARY_VERSION(lib, liblen, ierr)
  has_persistent = index(lib, 'Open MPI') == 0
  allocate(sbuf(np), rbuf(np), cnt(np), dsp(np), types(np))

  ! MPI_IALLTOALLW: element i goes to rank i-1; the type arrays are clobbered after the start
  call fill(0)
  call MPI_IALLTOALLW(sbuf, cnt, dsp, types, rbuf, cnt, dsp, types, MPI_COMM_WORLD, req, ierr)
  if (ierr /= MPI_SUCCESS) stop 1
  types = MPI_DATATYPE_NULL
  ! a request completed in between must not release the collective's arrays
  call MPI_IBARRIER(MPI_COMM_WORLD, other, ierr)
  call MPI_WAIT(other, MPI_STATUS_IGNORE, ierr)
  call MPI_WAIT(req, MPI_STATUS_IGNORE, ierr)
  if (ierr /= MPI_SUCCESS .or. req /= MPI_REQUEST_NULL) stop 2
  call check(0, 3)

  ! the same, completed by MPI_TEST polling and then by MPI_WAITANY among two
  call fill(1)
  call MPI_IALLTOALLW(sbuf, cnt, dsp, types, rbuf, cnt, dsp, types, MPI_COMM_WORLD, req, ierr)
  types = MPI_DATATYPE_NULL
  flag = .false.
  do while (.not. flag)
    call MPI_TEST(req, flag, MPI_STATUS_IGNORE, ierr)
    if (ierr /= MPI_SUCCESS) stop 4
  end do
  call check(1, 5)
  call fill(2)
  call MPI_IALLTOALLW(sbuf, cnt, dsp, types, rbuf, cnt, dsp, types, MPI_COMM_WORLD, reqs(1), ierr)
  types = MPI_DATATYPE_NULL
  call MPI_IBARRIER(MPI_COMM_WORLD, reqs(2), ierr)
  cnt_done = 0
  do while (cnt_done < 2)
    call MPI_WAITANY(2, reqs, idx, MPI_STATUS_IGNORE, ierr)
    if (ierr /= MPI_SUCCESS) stop 6
    cnt_done = cnt_done + 1
  end do
  if (any(reqs /= MPI_REQUEST_NULL)) stop 7
  call check(2, 8)

  ! MPI_ALLTOALLW_INIT: started three times, waited with MPI_WAITALL, then freed
  if (has_persistent) then
    call fill(3)
    call MPI_ALLTOALLW_INIT(sbuf, cnt, dsp, types, rbuf, cnt, dsp, types, MPI_COMM_WORLD, MPI_INFO_NULL, &
                            req, ierr)
    if (ierr /= MPI_SUCCESS) stop 9
    types = MPI_DATATYPE_NULL
    do round = 1, 3
      rbuf = -1
      sbuf = [(1000 * round + 100 * me + i - 1, i = 1, np)]
      call MPI_START(req, ierr)
      reqs(1) = req
      call MPI_IBARRIER(MPI_COMM_WORLD, reqs(2), ierr)
      call MPI_WAITALL(2, reqs, MPI_STATUSES_IGNORE, ierr)
      if (ierr /= MPI_SUCCESS .or. reqs(1) /= req) stop 10
      do i = 1, np
        if (rbuf(i) /= 1000 * round + 100 * (i - 1) + me) stop 11
      end do
    end do
    call MPI_REQUEST_FREE(req, ierr)
    if (ierr /= MPI_SUCCESS .or. req /= MPI_REQUEST_NULL) stop 12
  end if

  ! MPI_INEIGHBOR_ALLTOALLW on a periodic ring: one element from each side
  dims(1) = np
  periods(1) = .true.
  call MPI_CART_CREATE(MPI_COMM_WORLD, 1, dims, periods, .false., cart, ierr)
  nbc = 1
  nbt = MPI_INTEGER
  adsp(1) = 0
  adsp(2) = 4
  nb(1) = me * 10 + 1
  nb(2) = me * 10 + 2
  got = -1
  call MPI_INEIGHBOR_ALLTOALLW(nb, nbc, adsp, nbt, got, nbc, adsp, nbt, cart, req, ierr)
  if (ierr /= MPI_SUCCESS) stop 13
  nbt = MPI_DATATYPE_NULL
  call MPI_WAITALL(1, [req], MPI_STATUSES_IGNORE, ierr)
  if (ierr /= MPI_SUCCESS) stop 14
  if (got(1) /= mod(me + np - 1, np) * 10 + 2 .or. got(2) /= mod(me + 1, np) * 10 + 1) stop 15

  ! MPI_NEIGHBOR_ALLTOALLW_INIT: started twice, waited with MPI_WAITSOME, then freed
  if (has_persistent) then
    nbt = MPI_INTEGER
    call MPI_NEIGHBOR_ALLTOALLW_INIT(nb, nbc, adsp, nbt, got, nbc, adsp, nbt, cart, MPI_INFO_NULL, req, ierr)
    if (ierr /= MPI_SUCCESS) stop 16
    nbt = MPI_DATATYPE_NULL
    do round = 1, 2
      got = -1
      nb(1) = round * 100 + me * 10 + 1
      nb(2) = round * 100 + me * 10 + 2
      call MPI_START(req, ierr)
      cnt_done = 0
      do while (cnt_done == 0)
        call MPI_WAITSOME(1, [req], cnt_done, dims, MPI_STATUSES_IGNORE, ierr)
        if (ierr /= MPI_SUCCESS) stop 17
      end do
      if (got(1) /= round * 100 + mod(me + np - 1, np) * 10 + 2 .or. &
          got(2) /= round * 100 + mod(me + 1, np) * 10 + 1) stop 18
    end do
    call MPI_REQUEST_FREE(req, ierr)
    if (ierr /= MPI_SUCCESS .or. req /= MPI_REQUEST_NULL) stop 19
  end if
  call MPI_COMM_FREE(cart, ierr)
  deallocate(sbuf, rbuf, cnt, dsp, types)
  call MPI_FINALIZE(ierr)

contains

  ! the send buffer of round r, byte displacements, one MPI_INTEGER per rank
  subroutine fill(r)
    integer, intent(in) :: r
    do i = 1, np
      sbuf(i) = 1000 * r + 100 * me + i - 1
      cnt(i) = 1
      dsp(i) = 4 * (i - 1)
      types(i) = MPI_INTEGER
    end do
    rbuf = -1
  end subroutine fill

  subroutine check(r, code)
    integer, intent(in) :: r, code
    do i = 1, np
      if (rbuf(i) /= 1000 * r + 100 * (i - 1) + me) then
        print *, 'rank', me, 'round', r, 'element', i, 'got', rbuf(i)
        stop code
      end if
    end do
  end subroutine check
end program f90_ialltoallw
