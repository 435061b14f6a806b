! f08_op.f90 — `mpi_f08` MPI_Op_create with f08 user functions (MPI_User_function: TYPE(C_PTR),
! VALUE vectors): a commutative sum and a non-commutative matrix product through reductions.
module f08_op_funcs
  use, intrinsic :: iso_c_binding, only: c_ptr, c_f_pointer
  use mpi_f08
  implicit none
  integer :: ncalls = 0, bad_type = 0
  type(MPI_Datatype) :: mat_type
contains
  subroutine dsum(invec, inoutvec, len, datatype)
    type(c_ptr), value :: invec, inoutvec
    integer :: len
    type(MPI_Datatype) :: datatype
    double precision, pointer :: a(:), b(:)
    call c_f_pointer(invec, a, [len])
    call c_f_pointer(inoutvec, b, [len])
    b = a + b
    ncalls = ncalls + 1
    if (datatype /= MPI_DOUBLE_PRECISION) bad_type = bad_type + 1
  end subroutine dsum

  ! inoutvec(i) = invec(i) * inoutvec(i), 2x2 integer matrices: associative, not commutative.
  subroutine matprod(invec, inoutvec, len, datatype)
    type(c_ptr), value :: invec, inoutvec
    integer :: len
    type(MPI_Datatype) :: datatype
    integer, pointer :: a(:, :, :), b(:, :, :)
    integer :: i
    call c_f_pointer(invec, a, [2, 2, len])
    call c_f_pointer(inoutvec, b, [2, 2, len])
    do i = 1, len
      b(:, :, i) = matmul(a(:, :, i), b(:, :, i))
    end do
    ncalls = ncalls + 1
    if (datatype /= mat_type) bad_type = bad_type + 1
  end subroutine matprod
end module f08_op_funcs

program f08_op
  use mpi_f08
  use f08_op_funcs
  implicit none
  integer, parameter :: N = 5, M = 3
  type(MPI_Op) :: sumop, prodop
  integer :: rank, size, ierr, i, r, root, total
  logical :: commute
  double precision :: x(N), y(N)
  integer :: mats(2, 2, M), res(2, 2, M), expect(2, 2, M)

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, size)

  ! A commutative sum of doubles, MPI_Allreduce and MPI_Reduce.
  call MPI_Op_create(dsum, .true., sumop, ierr)
  if (ierr /= MPI_SUCCESS .or. sumop == MPI_OP_NULL) stop 1
  call MPI_Op_commutative(sumop, commute)
  if (.not. commute) stop 2
  do i = 1, N
    x(i) = 0.5d0 * i + 100 * rank
  end do
  y = -1
  call MPI_Allreduce(x, y, N, MPI_DOUBLE_PRECISION, sumop, MPI_COMM_WORLD, ierr)
  if (ierr /= MPI_SUCCESS) stop 3
  do i = 1, N
    if (y(i) /= 0.5d0 * i * size + 100 * (size * (size - 1) / 2)) stop 4
  end do
  call MPI_Allreduce(ncalls, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)   ! some rank combined
  if (size > 1 .and. total == 0) stop 5
  if (bad_type /= 0) stop 6

  ! A non-commutative product of 2x2 matrices, in rank order, to every root.
  call MPI_Type_contiguous(4, MPI_INTEGER, mat_type)
  call MPI_Type_commit(mat_type)
  call MPI_Op_create(matprod, .false., prodop)
  call MPI_Op_commutative(prodop, commute)
  if (commute) stop 7
  do i = 1, M
    mats(:, :, i) = reshape([1, 0, rank + i, 2], [2, 2])   ! [[1, rank+i], [0, 2]]
  end do
  expect = 0
  do i = 1, M
    expect(:, :, i) = reshape([1, 0, 0, 1], [2, 2])
    do r = 0, size - 1
      expect(:, :, i) = matmul(expect(:, :, i), reshape([1, 0, r + i, 2], [2, 2]))
    end do
  end do
  ncalls = 0
  res = -1
  call MPI_Allreduce(mats, res, M, mat_type, prodop, MPI_COMM_WORLD, ierr)
  if (ierr /= MPI_SUCCESS) stop 8
  if (any(res /= expect)) stop 9
  do root = 0, size - 1
    res = -1
    call MPI_Reduce(mats, res, M, mat_type, prodop, root, MPI_COMM_WORLD, ierr)
    if (ierr /= MPI_SUCCESS) stop 10
    if (rank == root .and. any(res /= expect)) stop 11
  end do
  call MPI_Allreduce(ncalls, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
  if (size > 1 .and. total == 0) stop 12
  if (bad_type /= 0) stop 13

  call MPI_Op_free(sumop)
  call MPI_Op_free(prodop)
  if (sumop /= MPI_OP_NULL .or. prodop /= MPI_OP_NULL) stop 15
  call MPI_Type_free(mat_type)
  call MPI_Finalize()
  if (rank == 0) print *, 'f08_op ok'
end program f08_op
