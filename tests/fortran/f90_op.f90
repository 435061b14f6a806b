! f90_op: MPI_REDUCE_LOCAL with predefined ops on Fortran types, and a user op written in
! Fortran (called by reference, with the Fortran datatype handle), non-commutative.
module op_record
    implicit none
    integer :: ncalls = 0, last_len = -1, last_type = -1
contains
    subroutine shift(invec, inoutvec, len, datatype)
        integer :: len, datatype
        integer :: invec(len), inoutvec(len)
        integer :: i
        ncalls = ncalls + 1
        last_len = len
        last_type = datatype
        do i = 1, len
            inoutvec(i) = 10 * invec(i) + inoutvec(i)
        end do
    end subroutine shift
end module op_record

program f90_op
    use mpi
    use op_record
    implicit none
    integer :: ierr, op, i, cls
    logical :: commute
    integer :: a(4), b(4), p(2, 2), q(2, 2)
    double precision :: x(3), y(3)
    logical :: la(2), lb(2)

    call MPI_INIT(ierr)
    call MPI_COMM_SET_ERRHANDLER(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
    call MPI_COMM_SET_ERRHANDLER(MPI_COMM_SELF, MPI_ERRORS_RETURN, ierr)

    a = (/ 1, -2, 3, 4 /)
    b = (/ 5, 6, -7, 4 /)
    call MPI_REDUCE_LOCAL(a, b, 4, MPI_INTEGER, MPI_MAX, ierr)
    call check(ierr == MPI_SUCCESS .and. all(b == (/ 5, 6, 3, 4 /)), 'INTEGER MAX')

    x = (/ 1.5d0, -2d0, 0d0 /)
    y = (/ 2d0, 2d0, 7d0 /)
    call MPI_REDUCE_LOCAL(x, y, 3, MPI_DOUBLE_PRECISION, MPI_SUM, ierr)
    call check(ierr == MPI_SUCCESS .and. all(y == (/ 3.5d0, 0d0, 7d0 /)), 'DOUBLE PRECISION SUM')

    la = (/ .true., .false. /)
    lb = (/ .true., .true. /)
    call MPI_REDUCE_LOCAL(la, lb, 2, MPI_LOGICAL, MPI_LAND, ierr)
    call check(ierr == MPI_SUCCESS .and. lb(1) .and. .not. lb(2), 'LOGICAL LAND')

    ! MAXLOC on (value, index) pairs; a tie keeps the smaller index
    p = reshape((/ 3, 1, 8, 7 /), (/ 2, 2 /))
    q = reshape((/ 3, 0, 9, 2 /), (/ 2, 2 /))
    call MPI_REDUCE_LOCAL(p, q, 2, MPI_2INTEGER, MPI_MAXLOC, ierr)
    call check(ierr == MPI_SUCCESS .and. q(1,1) == 3 .and. q(2,1) == 0 .and. q(1,2) == 9 .and. q(2,2) == 2, &
               '2INTEGER MAXLOC')

    ! an op outside its type group
    call MPI_REDUCE_LOCAL(x, y, 3, MPI_DOUBLE_PRECISION, MPI_BOR, ierr)
    call MPI_ERROR_CLASS(ierr, cls, i)
    call check(cls == MPI_ERR_OP, 'BOR on DOUBLE PRECISION is not MPI_ERR_OP')

    ! a Fortran user op
    call MPI_OP_CREATE(shift, .false., op, ierr)
    call check(ierr == MPI_SUCCESS .and. op /= MPI_OP_NULL, 'MPI_OP_CREATE')
    call MPI_OP_COMMUTATIVE(op, commute, ierr)
    call check(ierr == MPI_SUCCESS .and. .not. commute, 'MPI_OP_COMMUTATIVE')
    a = (/ 1, 2, 3, 4 /)
    b = (/ 5, 6, 7, 8 /)
    call MPI_REDUCE_LOCAL(a, b, 4, MPI_INTEGER, op, ierr)
    call check(ierr == MPI_SUCCESS .and. all(b == (/ 15, 26, 37, 48 /)), 'user op result')
    call check(ncalls == 1 .and. last_len == 4 .and. last_type == MPI_INTEGER, 'user op arguments')
    call MPI_OP_FREE(op, ierr)
    call check(ierr == MPI_SUCCESS .and. op == MPI_OP_NULL, 'MPI_OP_FREE')

    call MPI_FINALIZE(ierr)
contains
    subroutine check(ok, what)
        logical :: ok
        character(len=*) :: what
        if (.not. ok) then
            print *, 'f90_op: failed: ', what
            call exit(1)
        end if
    end subroutine check
end program f90_op
