! f08_type.f90 — derived datatypes through `use mpi_f08`: vector, indexed, struct (addresses
! from MPI_Get_address), subarray, resized; sizes and extents in MPI_ADDRESS_KIND / MPI_COUNT_KIND;
! MPI_Pack/MPI_Unpack; each type sent around a ring and every received element checked.
program f08_type
  use mpi_f08
  implicit none
  type :: particle
    sequence
    integer :: id
    double precision :: x(3)
  end type particle
  integer, parameter :: n = 12
  integer :: me, np, left, right, i, j, sz, cnt, pos, ierr
  integer :: a(n), b(n), m(4, 5), mr(4, 5), blens(3), disps(3)
  integer(kind=MPI_ADDRESS_KIND) :: lb, ext, addr(2), adisp(2)
  integer(kind=MPI_COUNT_KIND) :: csize
  character(len=256) :: packed
  type(particle) :: p(2), q(2)
  type(MPI_Datatype) :: vec, idx, part, sub, wide, types(2)
  type(MPI_Status) :: status

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, me)
  call MPI_Comm_size(MPI_COMM_WORLD, np)
  right = mod(me + 1, np)
  left = mod(me + np - 1, np)

  ! vector: every other element of a
  call MPI_Type_vector(n / 2, 1, 2, MPI_INTEGER, vec, ierr)
  if (ierr /= MPI_SUCCESS) stop 1
  call MPI_Type_commit(vec)
  call MPI_Type_size(vec, sz)
  call MPI_Type_get_extent(vec, lb, ext)
  if (sz /= 4 * (n / 2) .or. lb /= 0 .or. ext /= 4 * (n - 1)) stop 2
  call MPI_Type_size_x(vec, csize)
  if (csize /= 4 * (n / 2)) stop 3
  a = [(100 * me + i, i = 1, n)]
  b = -1
  call MPI_Sendrecv(a, 1, vec, right, 1, b, n / 2, MPI_INTEGER, left, 1, MPI_COMM_WORLD, status)
  call MPI_Get_count(status, MPI_INTEGER, cnt)
  if (cnt /= n / 2 .or. status%MPI_SOURCE /= left .or. status%MPI_TAG /= 1) stop 4
  do i = 1, n / 2
    if (b(i) /= 100 * left + 2 * i - 1) stop 5
  end do

  ! indexed: blocks of 1, 2, 3 at 0, 4, 8
  blens = [1, 2, 3]
  disps = [0, 4, 8]
  call MPI_Type_indexed(3, blens, disps, MPI_INTEGER, idx)
  call MPI_Type_commit(idx)
  b = -1
  call MPI_Sendrecv(a, 1, idx, right, 2, b, 6, MPI_INTEGER, left, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
  if (any(b(1:6) /= 100 * left + [1, 5, 6, 9, 10, 11])) stop 6

  ! struct of a Fortran sequence type, from addresses
  call MPI_Get_address(p(1)%id, addr(1))
  call MPI_Get_address(p(1)%x, addr(2))
  adisp = addr - addr(1)
  types = [MPI_INTEGER, MPI_DOUBLE_PRECISION]
  call MPI_Type_create_struct(2, [1, 3], adisp, types, sub)
  call MPI_Get_address(p(2)%id, addr(2))
  call MPI_Type_create_resized(sub, 0_MPI_ADDRESS_KIND, addr(2) - addr(1), part)
  call MPI_Type_free(sub)
  call MPI_Type_commit(part)
  call MPI_Type_get_extent(part, lb, ext)
  if (ext /= addr(2) - addr(1)) stop 7
  do i = 1, 2
    p(i)%id = 10 * me + i
    p(i)%x = [(dble(me) + 0.5d0 * i + j, j = 1, 3)]
  end do
  call MPI_Sendrecv(p, 2, part, right, 3, q, 2, part, left, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
  do i = 1, 2
    if (q(i)%id /= 10 * left + i) stop 8
    if (any(q(i)%x /= [(dble(left) + 0.5d0 * i + j, j = 1, 3)])) stop 9
  end do

  ! subarray: the 2x3 block at (2,2) of a 4x5 matrix, Fortran order
  call MPI_Type_create_subarray(2, [4, 5], [2, 3], [1, 1], MPI_ORDER_FORTRAN, MPI_INTEGER, sub)
  call MPI_Type_commit(sub)
  m = reshape([(1000 * me + i, i = 1, 20)], [4, 5])
  mr = -1
  call MPI_Sendrecv(m, 1, sub, right, 4, mr, 1, sub, left, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
  do j = 1, 5
    do i = 1, 4
      if (i >= 2 .and. i <= 3 .and. j >= 2 .and. j <= 4) then
        if (mr(i, j) /= 1000 * left + i + 4 * (j - 1)) stop 10
      else if (mr(i, j) /= -1) then
        stop 11
      end if
    end do
  end do

  ! a resized vector: two of them interleave
  call MPI_Type_create_resized(vec, 0_MPI_ADDRESS_KIND, 4_MPI_ADDRESS_KIND, wide)
  call MPI_Type_commit(wide)
  b = -1
  call MPI_Sendrecv(a, 2, wide, right, 5, b, n, MPI_INTEGER, left, 5, MPI_COMM_WORLD, status)
  call MPI_Get_count(status, MPI_INTEGER, cnt)
  if (cnt /= n) stop 12
  do i = 1, n / 2
    if (b(i) /= 100 * left + 2 * i - 1 .or. b(n / 2 + i) /= 100 * left + 2 * i) stop 13
  end do

  ! pack and unpack
  pos = 0
  call MPI_Pack(a, 1, vec, packed, len(packed), pos, MPI_COMM_WORLD)
  call MPI_Pack(p, 1, part, packed, len(packed), pos, MPI_COMM_WORLD)
  call MPI_Pack_size(1, vec, MPI_COMM_WORLD, sz)
  if (pos < 4 * (n / 2) + 28 .or. sz < 4 * (n / 2)) stop 14
  b = -1
  q(1)%id = -1
  pos = 0
  call MPI_Unpack(packed, len(packed), pos, b, n / 2, MPI_INTEGER, MPI_COMM_WORLD)
  call MPI_Unpack(packed, len(packed), pos, q, 1, part, MPI_COMM_WORLD)
  if (any(b(1:n / 2) /= [(100 * me + 2 * i - 1, i = 1, n / 2)]) .or. q(1)%id /= p(1)%id .or. &
      any(q(1)%x /= p(1)%x)) stop 15

  call MPI_Type_free(vec)
  call MPI_Type_free(idx)
  call MPI_Type_free(part)
  call MPI_Type_free(sub)
  call MPI_Type_free(wide)
  if (vec /= MPI_DATATYPE_NULL .or. wide /= MPI_DATATYPE_NULL) stop 16
  call MPI_Finalize()
end program f08_type
