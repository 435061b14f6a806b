! f08_op_large.f90 — `mpi_f08` MPI_Op_create_c with an f08 MPI_User_function_c (its len an
! INTEGER(KIND=MPI_COUNT_KIND)): a non-commutative op (composing affine maps) through
! MPI_Reduce_local and MPI_Allreduce, its results, and the len and datatype each call gets.
module f08_op_large_funcs
  use, intrinsic :: iso_c_binding, only: c_ptr, c_f_pointer
  use mpi_f08
  implicit none
  integer :: ncalls = 0, bad = 0
  integer(kind=MPI_COUNT_KIND) :: last_len = -1, max_len = 0
  type(MPI_Datatype) :: want_type
contains
  ! Each element is an affine map x -> m*x + c, stored (m, c) as two 8-byte integers;
  ! inoutvec = inoutvec after invec: (a%m * b%m, a%c * b%m + b%c). Associative, not commutative.
  subroutine compose(invec, inoutvec, len, datatype)
    type(c_ptr), value :: invec, inoutvec
    integer(kind=MPI_COUNT_KIND) :: len
    type(MPI_Datatype) :: datatype
    integer(kind=8), pointer :: a(:, :), b(:, :)
    ncalls = ncalls + 1
    last_len = len
    if (len < 1 .or. len > max_len .or. datatype /= want_type) then
      bad = bad + 1
      return
    end if
    call c_f_pointer(invec, a, [2_MPI_COUNT_KIND, len])
    call c_f_pointer(inoutvec, b, [2_MPI_COUNT_KIND, len])
    b(2, :) = a(2, :) * b(1, :) + b(2, :)
    b(1, :) = a(1, :) * b(1, :)
  end subroutine compose
end module f08_op_large_funcs

program f08_op_large
  use mpi_f08
  use f08_op_large_funcs
  implicit none
  integer, parameter :: N = 7
  type(MPI_Op) :: op
  type(MPI_Datatype) :: affine
  integer :: rank, size, ierr, i, r, total
  logical :: commute
  integer(kind=8) :: x(2, N), y(2, N), want(2, N)

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, size)
  call MPI_Type_contiguous(2, MPI_INTEGER8, affine)
  call MPI_Type_commit(affine)
  want_type = affine
  max_len = N

  call MPI_Op_create_c(compose, .false., op, ierr)
  if (ierr /= MPI_SUCCESS .or. op == MPI_OP_NULL) stop 1
  call MPI_Op_commutative(op, commute)
  if (commute) stop 2

  ! MPI_Reduce_local: one call with len = N and the datatype given; y = y after x
  do i = 1, N
    x(:, i) = [int(i + 1, 8), int(i, 8)]
    y(:, i) = [3_8, int(10 * i, 8)]
  end do
  call MPI_Reduce_local(x, y, N, affine, op, ierr)
  if (ierr /= MPI_SUCCESS) stop 3
  if (ncalls /= 1 .or. last_len /= N .or. bad /= 0) then
    print '(a,i0,a,i0,a,i0)', 'f08_op_large: reduce_local calls ', ncalls, ' len ', last_len, ' bad ', bad
    stop 4
  end if
  do i = 1, N
    if (y(1, i) /= 3 * (i + 1) .or. y(2, i) /= 3 * i + 10 * i) stop 5
  end do

  ! MPI_Allreduce: the maps of ranks 0, 1, ... composed in rank order
  do i = 1, N
    x(:, i) = [int(rank + 2, 8), int(i + 10 * rank, 8)]
  end do
  do i = 1, N
    want(:, i) = [2_8, int(i, 8)]
    do r = 1, size - 1
      want(2, i) = want(2, i) * (r + 2) + (i + 10 * r)
      want(1, i) = want(1, i) * (r + 2)
    end do
  end do
  ncalls = 0
  call MPI_Allreduce(x, y, N, affine, op, MPI_COMM_WORLD, ierr)
  if (ierr /= MPI_SUCCESS) stop 6
  ! some rank ran the op when there are several (not necessarily each: the algorithm's choice)
  call MPI_Allreduce(ncalls, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
  if (bad /= 0 .or. (size > 1 .and. total == 0)) then
    print '(a,i0,a,i0,a,i0)', 'f08_op_large: allreduce calls ', ncalls, ' len ', last_len, ' bad ', bad
    stop 7
  end if
  do i = 1, N
    if (any(y(:, i) /= want(:, i))) then
      print '(a,i0,a,2(1x,i0),a,2(1x,i0))', 'f08_op_large: rank ', rank, ' got', y(:, i), ' want', want(:, i)
      stop 8
    end if
  end do

  call MPI_Op_free(op, ierr)
  if (ierr /= MPI_SUCCESS .or. op /= MPI_OP_NULL) stop 9
  call MPI_Type_free(affine)
  call MPI_Finalize()
  if (rank == 0) print '(a)', 'f08_op_large: OK'
end program f08_op_large
