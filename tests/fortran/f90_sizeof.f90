! f90_sizeof.f90 — `use mpi` MPI_Sizeof over intrinsic types and kinds, scalars and arrays
! (bytes of one element, ierror required), and MPI_F_sync_reg on a scalar and an array.
program f90_sizeof
  use mpi
  implicit none
  integer(kind=1) :: i1
  integer(kind=2) :: i2(3)
  integer(kind=8) :: i8(2, 2)
  real(kind=4) :: r4
  real(kind=8) :: r8(5)
  complex(kind=4) :: c4
  complex(kind=8) :: c8(2)
  logical :: l
  logical(kind=1) :: l1(4)
  character(len=1) :: ch(3)
  integer :: n, ierr
  integer :: buf(10)

  call MPI_Init(ierr)
  n = -1
  ierr = -1
  call MPI_Sizeof(i1, n, ierr)
  if (n /= 1 .or. ierr /= MPI_SUCCESS) stop 1
  call MPI_Sizeof(i2, n, ierr)
  if (n /= 2) stop 2
  call MPI_Sizeof(i8, n, ierr)
  if (n /= 8) stop 3
  call MPI_Sizeof(r4, n, ierr)
  if (n /= 4) stop 4
  call MPI_Sizeof(r8, n, ierr)
  if (n /= 8) stop 5
  call MPI_Sizeof(r8(2), n, ierr)
  if (n /= 8) stop 6
  call MPI_Sizeof(c4, n, ierr)
  if (n /= 8) stop 7
  call MPI_Sizeof(c8, n, ierr)
  if (n /= 16 .or. ierr /= MPI_SUCCESS) stop 8
  call MPI_Sizeof(l, n, ierr)
  if (n /= 4) stop 9
  call MPI_Sizeof(l1, n, ierr)
  if (n /= 1) stop 10
  call MPI_Sizeof(ch, n, ierr)
  if (n /= 1) stop 11

  buf = 3
  call MPI_F_sync_reg(n)
  call MPI_F_sync_reg(buf)
  if (any(buf /= 3) .or. n /= 1) stop 12

  call MPI_Finalize(ierr)
  print *, 'f90_sizeof ok'
end program f90_sizeof
