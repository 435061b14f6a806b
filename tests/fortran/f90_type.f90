! f90_type.f90 — derived datatypes from Fortran (use mpi): a matrix row sent as a vector and
! received contiguous, subarray in Fortran order, extents, pack/unpack, F90 parameterized types.
program f90_type
    use mpi
    implicit none
    integer :: ierr, me, np, i, j, n, row, sub, pos, sz, ti, tr, mt
    integer :: ni, na, nt, comb, ints(2)
    integer(kind=MPI_ADDRESS_KIND) :: lb, ext, addrs(1)
    double precision :: a(4, 5), got(5), b(4, 5)
    character :: buf(64)
    integer :: status(MPI_STATUS_SIZE)
    integer :: types(1)

    call MPI_INIT(ierr)
    call MPI_COMM_SET_ERRHANDLER(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
    call MPI_COMM_SET_ERRHANDLER(MPI_COMM_SELF, MPI_ERRORS_RETURN, ierr)
    call MPI_COMM_RANK(MPI_COMM_WORLD, me, ierr)
    call MPI_COMM_SIZE(MPI_COMM_WORLD, np, ierr)
    do j = 1, 5
        do i = 1, 4
            a(i, j) = 10 * i + j
        end do
    end do

    ! row 2 of a 4x5 column-major matrix: 5 elements, stride 4
    call MPI_TYPE_VECTOR(5, 1, 4, MPI_DOUBLE_PRECISION, row, ierr)
    call check(ierr == MPI_SUCCESS, 'MPI_TYPE_VECTOR')
    call MPI_TYPE_COMMIT(row, ierr)
    call MPI_TYPE_GET_EXTENT(row, lb, ext, ierr)
    call check(lb == 0 .and. ext == 8 * 17, 'vector extent')
    call MPI_SENDRECV(a(2, 1), 1, row, mod(me + 1, np), 0, got, 5, MPI_DOUBLE_PRECISION, &
                      mod(me + np - 1, np), 0, MPI_COMM_WORLD, status, ierr)
    call check(ierr == MPI_SUCCESS, 'MPI_SENDRECV')
    do j = 1, 5
        call check(got(j) == 20 + j, 'row received')
    end do

    ! subarray (2:3, 3:5) in Fortran order
    call MPI_TYPE_CREATE_SUBARRAY(2, (/4, 5/), (/2, 3/), (/1, 2/), MPI_ORDER_FORTRAN, &
                                  MPI_DOUBLE_PRECISION, sub, ierr)
    call check(ierr == MPI_SUCCESS, 'MPI_TYPE_CREATE_SUBARRAY')
    call MPI_TYPE_COMMIT(sub, ierr)
    call MPI_TYPE_SIZE(sub, sz, ierr)
    call check(sz == 48, 'subarray size')
    pos = 0
    call MPI_PACK(a, 1, sub, buf, 64, pos, MPI_COMM_WORLD, ierr)
    call check(ierr == MPI_SUCCESS .and. pos == 48, 'MPI_PACK')
    b = 0
    pos = 0
    call MPI_UNPACK(buf, 64, pos, b, 1, sub, MPI_COMM_WORLD, ierr)
    call check(ierr == MPI_SUCCESS .and. pos == 48, 'MPI_UNPACK')
    do j = 1, 5
        do i = 1, 4
            if (i >= 2 .and. i <= 3 .and. j >= 3) then
                call check(b(i, j) == a(i, j), 'subarray element')
            else
                call check(b(i, j) == 0, 'outside the subarray')
            end if
        end do
    end do
    call MPI_TYPE_GET_ENVELOPE(row, ni, na, nt, comb, ierr)
    call check(comb == MPI_COMBINER_VECTOR .and. ni == 3 .and. na == 0 .and. nt == 1, 'envelope')

    ! F90 parameterized types and MPI_TYPE_MATCH_SIZE
    call MPI_TYPE_CREATE_F90_INTEGER(9, ti, ierr)
    call check(ierr == MPI_SUCCESS, 'MPI_TYPE_CREATE_F90_INTEGER')
    call MPI_TYPE_SIZE(ti, sz, ierr)
    call check(sz == 4, 'f90 integer size')
    call MPI_TYPE_GET_ENVELOPE(ti, ni, na, nt, comb, ierr)
    call check(comb == MPI_COMBINER_F90_INTEGER .and. ni == 1, 'f90 integer envelope')
    call MPI_TYPE_GET_CONTENTS(ti, 2, 0, 0, ints, addrs, types, ierr)
    call check(ints(1) == 9, 'f90 integer contents')
    call MPI_TYPE_CREATE_F90_REAL(15, MPI_UNDEFINED, tr, ierr)
    call MPI_TYPE_SIZE(tr, sz, ierr)
    call check(sz == 8, 'f90 real size')
    call MPI_TYPE_MATCH_SIZE(MPI_TYPECLASS_REAL, 8, mt, ierr)
    call check(ierr == MPI_SUCCESS .and. mt == MPI_DOUBLE_PRECISION, 'MPI_TYPE_MATCH_SIZE')
    n = 7
    call MPI_SENDRECV(n, 1, ti, mod(me + 1, np), 1, i, 1, MPI_INTEGER, mod(me + np - 1, np), 1, &
                      MPI_COMM_WORLD, status, ierr)
    call check(ierr == MPI_SUCCESS .and. i == 7, 'send with an f90 integer type')

    call MPI_TYPE_FREE(row, ierr)
    call check(ierr == MPI_SUCCESS .and. row == MPI_DATATYPE_NULL, 'MPI_TYPE_FREE')
    call MPI_TYPE_FREE(sub, ierr)
    call MPI_FINALIZE(ierr)

contains
    subroutine check(ok, what)
        use, intrinsic :: iso_fortran_env, only: error_unit
        logical, intent(in) :: ok
        character(len=*), intent(in) :: what
        if (.not. ok) then
            write (error_unit, '(a)') 'f90_type: check failed: '//what
            stop 1
        end if
    end subroutine check
end program f90_type
