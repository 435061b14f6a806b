! f90_kinds.f90 — the Fortran-only constants of `use mpi` (MPI-5.0 A.1.1: variable address
! size, Fortran support method, status array) have the values the face really uses: each *_KIND
! is the kind whose storage the matching MPI datatype has (MPI_TYPE_SIZE), MPI_INTEGER_KIND is
! the default INTEGER's, the support-method LOGICALs are .FALSE., and a status is
! MPI_STATUS_SIZE INTEGERs with SOURCE, TAG and ERROR where a receive puts them (5 and 3,4,5
! over the MPICH ABI, 8 and 1,2,3 over the standard ABI).
program f90_kinds
    use mpi
    implicit none
    integer(kind=MPI_INTEGER_KIND) :: i
    integer(kind=MPI_ADDRESS_KIND) :: a
    integer(kind=MPI_OFFSET_KIND) :: o
    integer(kind=MPI_COUNT_KIND) :: c
    integer :: ierr, sz, rank, req, fails, cnt
    integer :: status(MPI_STATUS_SIZE)
    integer :: sbuf(3), rbuf(3)
    fails = 0
    call MPI_INIT(ierr)
    call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
    call expect('MPI_INTEGER_KIND', MPI_INTEGER_KIND, 4)
    call expect('MPI_INTEGER_KIND = kind(0)', MPI_INTEGER_KIND, kind(0))
    call expect('MPI_ADDRESS_KIND', MPI_ADDRESS_KIND, 8)
    call expect('MPI_OFFSET_KIND', MPI_OFFSET_KIND, 8)
    call expect('MPI_COUNT_KIND', MPI_COUNT_KIND, 8)
    i = huge(i)
    a = huge(a)
    o = huge(o)
    c = huge(c)
    call MPI_TYPE_SIZE(MPI_INTEGER, sz, ierr)
    call expect('bytes of INTEGER(KIND=MPI_INTEGER_KIND)', storage_size(i) / 8, sz)
    call expect('huge(INTEGER(KIND=MPI_INTEGER_KIND))', int(i - 2147483647), 0)
    call MPI_TYPE_SIZE(MPI_AINT, sz, ierr)
    call expect('bytes of INTEGER(KIND=MPI_ADDRESS_KIND)', storage_size(a) / 8, sz)
    call MPI_TYPE_SIZE(MPI_OFFSET, sz, ierr)
    call expect('bytes of INTEGER(KIND=MPI_OFFSET_KIND)', storage_size(o) / 8, sz)
    call MPI_TYPE_SIZE(MPI_COUNT, sz, ierr)
    call expect('bytes of INTEGER(KIND=MPI_COUNT_KIND)', storage_size(c) / 8, sz)
    call MPI_TYPE_SIZE(MPI_INTEGER4, sz, ierr)
    call expect('MPI_INTEGER4 bytes = INTEGER(KIND=MPI_INTEGER_KIND)', sz, storage_size(i) / 8)
    call MPI_TYPE_SIZE(MPI_INTEGER8, sz, ierr)
    call expect('MPI_INTEGER8 bytes = INTEGER(KIND=MPI_ADDRESS_KIND)', sz, storage_size(a) / 8)
    if (MPI_SUBARRAYS_SUPPORTED) call bad('MPI_SUBARRAYS_SUPPORTED is .TRUE.')
    if (MPI_ASYNC_PROTECTS_NONBLOCKING) call bad('MPI_ASYNC_PROTECTS_NONBLOCKING is .TRUE.')
    if (MPI_STATUS_SIZE == 5) then
        call expect('MPI_SOURCE (MPICH ABI)', MPI_SOURCE, 3)
        call expect('MPI_TAG (MPICH ABI)', MPI_TAG, 4)
        call expect('MPI_ERROR (MPICH ABI)', MPI_ERROR, 5)
    else
        call expect('MPI_STATUS_SIZE (standard ABI)', MPI_STATUS_SIZE, 8)
        call expect('MPI_SOURCE (standard ABI)', MPI_SOURCE, 1)
        call expect('MPI_TAG (standard ABI)', MPI_TAG, 2)
        call expect('MPI_ERROR (standard ABI)', MPI_ERROR, 3)
    end if
    ! A receive writes the status where the indices say: its source, its tag, and a count
    ! taken from it.
    status = -7
    sbuf = (/ 1, 2, 3 /)
    rbuf = 0
    call MPI_ISEND(sbuf, 3, MPI_INTEGER, rank, 42, MPI_COMM_WORLD, req, ierr)
    call MPI_RECV(rbuf, 3, MPI_INTEGER, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, status, ierr)
    call MPI_WAIT(req, MPI_STATUS_IGNORE, ierr)
    call expect('status(MPI_SOURCE)', status(MPI_SOURCE), rank)
    call expect('status(MPI_TAG)', status(MPI_TAG), 42)
    call MPI_GET_COUNT(status, MPI_INTEGER, cnt, ierr)
    call expect('MPI_GET_COUNT', cnt, 3)
    call expect('received data', sum(rbuf), 6)
    call MPI_FINALIZE(ierr)
    if (fails /= 0) stop 1
    if (rank == 0) print '(a)', 'f90_kinds: all Fortran constants as expected'
contains
    subroutine expect(what, got, want)
        character(len=*), intent(in) :: what
        integer, intent(in) :: got, want
        if (got /= want) then
            print '(a,a,i0,a,i0)', what, ' = ', got, ', expected ', want
            fails = fails + 1
        end if
    end subroutine expect
    subroutine bad(what)
        character(len=*), intent(in) :: what
        print '(a)', what
        fails = fails + 1
    end subroutine bad
end program f90_kinds
