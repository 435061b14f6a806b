! f90_alltoallw.f90 — MPI_ALLTOALLW from Fortran, whose datatype arrays are as long as the
! communicator's group (intra), its remote group (inter), or its neighbours (a ring as a
! Cartesian topology: MPI_NEIGHBOR_ALLTOALLW, address-sized displacements); also MPI_REDUCE_SCATTER, whose counts are as
! long as the local group. Every received element is checked.
program f90_alltoallw
  use mpi
  implicit none
  integer :: ierr, me, np, i, cart, inter, half, rsize, lrank
  integer, allocatable :: sbuf(:), rbuf(:), cnt(:), dsp(:), types(:)
  integer :: dims(1), nb(2), got(2)
  integer(kind=MPI_ADDRESS_KIND) :: adsp(2)
  logical :: periods(1)

  call MPI_INIT(ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, me, ierr)
  call MPI_COMM_SIZE(MPI_COMM_WORLD, np, ierr)
  allocate(sbuf(max(np, 2)), rbuf(max(np, 2)), cnt(max(np, 2)), dsp(max(np, 2)), types(max(np, 2)))

  ! intra: element i goes to rank i-1; byte displacements
  cnt = 1
  types = MPI_INTEGER
  do i = 1, np
    sbuf(i) = 100 * me + i - 1
    cnt(i) = 1
    dsp(i) = 4 * (i - 1)
    types(i) = MPI_INTEGER
  end do
  rbuf = -1
  call MPI_ALLTOALLW(sbuf, cnt, dsp, types, rbuf, cnt, dsp, types, MPI_COMM_WORLD, ierr)
  if (ierr /= MPI_SUCCESS) stop 1
  do i = 1, np
    if (rbuf(i) /= 100 * (i - 1) + me) stop 2
  end do

  ! reduce_scatter: one element per process, summed
  sbuf = 1
  call MPI_REDUCE_SCATTER(sbuf, rbuf, cnt, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (ierr /= MPI_SUCCESS .or. rbuf(1) /= np) stop 3

  ! neighbours on a periodic ring: one element from each side
  dims(1) = np
  periods(1) = .true.
  call MPI_CART_CREATE(MPI_COMM_WORLD, 1, dims, periods, .false., cart, ierr)
  nb(1) = me * 10 + 1
  nb(2) = me * 10 + 2
  got = -1
  adsp(1) = 0
  adsp(2) = 4
  call MPI_NEIGHBOR_ALLTOALLW(nb, cnt(1:2), adsp, types(1:2), got, cnt(1:2), adsp, types(1:2), cart, ierr)
  if (ierr /= MPI_SUCCESS) stop 4
  ! from the left neighbour its "+1" element, from the right one its "-1" element
  if (got(1) /= mod(me + np - 1, np) * 10 + 2 .or. got(2) /= mod(me + 1, np) * 10 + 1) stop 5
  call MPI_COMM_FREE(cart, ierr)

  ! inter: the lower and upper halves, each process sends its rank to every remote one
  if (np >= 2) then
    half = np / 2
    call MPI_COMM_SPLIT(MPI_COMM_WORLD, merge(0, 1, me < half), me, cart, ierr)
    call MPI_INTERCOMM_CREATE(cart, 0, MPI_COMM_WORLD, merge(half, 0, me < half), 7, inter, ierr)
    call MPI_COMM_REMOTE_SIZE(inter, rsize, ierr)
    call MPI_COMM_RANK(cart, lrank, ierr)
    sbuf = me
    rbuf = -1
    call MPI_ALLTOALLW(sbuf, cnt, dsp, types, rbuf, cnt, dsp, types, inter, ierr)
    if (ierr /= MPI_SUCCESS) stop 6
    do i = 1, rsize
      if (rbuf(i) /= merge(half, 0, me < half) + i - 1) stop 7
    end do
    call MPI_COMM_FREE(inter, ierr)
    call MPI_COMM_FREE(cart, ierr)
  end if
  call MPI_FINALIZE(ierr)
end program f90_alltoallw
