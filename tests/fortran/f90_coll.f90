! f90_coll: collectives from Fortran: bcast, gather, allgather with MPI_IN_PLACE, alltoall (and in place
! with unused arguments -1 in ialltoall and igather),
! allreduce with a predefined op and with a non-commutative user op written in Fortran,
! reduce with MINLOC on 2INTEGER, nonblocking and persistent forms.
module affine_op
    implicit none
contains
    ! x -> a x + b pairs composed in rank order: inout = inout after in
    subroutine compose(invec, inoutvec, len, datatype)
        integer :: len, datatype
        integer :: invec(2, len), inoutvec(2, len)
        integer :: i, a, b
        do i = 1, len
            a = mod(inoutvec(1, i) * invec(1, i), 10007)
            b = mod(inoutvec(1, i) * invec(2, i) + inoutvec(2, i), 10007)
            inoutvec(1, i) = a
            inoutvec(2, i) = b
        end do
    end subroutine compose
end module affine_op

program f90_coll
    use mpi
    use affine_op
    implicit none
    integer :: ierr, me, np, i, k, op, pairt, req
    integer :: buf(4), gat(4 * 16), mine(2), fold(2), got(2), loc(2), res(2), s, e
    integer :: sb(16), rb(16)

    call MPI_INIT(ierr)
    call MPI_COMM_RANK(MPI_COMM_WORLD, me, ierr)
    call MPI_COMM_SIZE(MPI_COMM_WORLD, np, ierr)
    call check(np <= 16, 'at most 16 ranks')

    ! bcast from the last rank
    buf = -1
    if (me == np - 1) buf = (/ 1, 2, 3, 4 /)
    call MPI_BCAST(buf, 4, MPI_INTEGER, np - 1, MPI_COMM_WORLD, ierr)
    call check(ierr == MPI_SUCCESS .and. all(buf == (/ 1, 2, 3, 4 /)), 'bcast')

    ! gather to 0, then allgather in place
    buf(1) = 100 * me
    call MPI_GATHER(buf, 1, MPI_INTEGER, gat, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
    if (me == 0) then
        do i = 1, np
            call check(gat(i) == 100 * (i - 1), 'gather')
        end do
    end if
    gat = -1
    gat(me + 1) = 7 * me
    call MPI_ALLGATHER(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, gat, 1, MPI_INTEGER, MPI_COMM_WORLD, ierr)
    call check(ierr == MPI_SUCCESS, 'allgather in place returned an error')
    do i = 1, np
        call check(gat(i) == 7 * (i - 1), 'allgather in place')
    end do

    ! alltoall
    do i = 1, np
        sb(i) = 1000 * me + (i - 1)
    end do
    call MPI_ALLTOALL(sb, 1, MPI_INTEGER, rb, 1, MPI_INTEGER, MPI_COMM_WORLD, ierr)
    do i = 1, np
        call check(rb(i) == 1000 * (i - 1) + me, 'alltoall')
    end do
    ! in place, the send count and type are not used: -1 and MPI_DATATYPE_NULL pass
    call MPI_IALLTOALL(MPI_IN_PLACE, -1, MPI_DATATYPE_NULL, rb, 1, MPI_INTEGER, MPI_COMM_WORLD, req, ierr)
    call check(ierr == MPI_SUCCESS, 'ialltoall in place with send count -1 returned an error')
    call MPI_WAIT(req, MPI_STATUS_IGNORE, ierr)
    do i = 1, np
        call check(rb(i) == 1000 * me + (i - 1), 'ialltoall in place')
    end do
    gat = -1
    if (me == np - 1) then
        gat(me + 1) = 9 * me
        call MPI_IGATHER(MPI_IN_PLACE, -1, MPI_DATATYPE_NULL, gat, 1, MPI_INTEGER, np - 1, MPI_COMM_WORLD, req, ierr)
    else
        buf(1) = 9 * me
        call MPI_IGATHER(buf, 1, MPI_INTEGER, gat, -1, MPI_DATATYPE_NULL, np - 1, MPI_COMM_WORLD, req, ierr)
    end if
    call check(ierr == MPI_SUCCESS, 'igather in place with send count -1 returned an error')
    call MPI_WAIT(req, MPI_STATUS_IGNORE, ierr)
    do i = 1, np
        call check(me /= np - 1 .or. gat(i) == 9 * (i - 1), 'igather in place')
    end do

    ! allreduce: sum in place
    s = me + 1
    call MPI_ALLREDUCE(MPI_IN_PLACE, s, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
    call check(s == np * (np + 1) / 2, 'allreduce sum in place')

    ! a Fortran user op, not commutative: the fold must be in rank order
    call MPI_OP_CREATE(compose, .false., op, ierr)
    call MPI_TYPE_CONTIGUOUS(2, MPI_INTEGER, pairt, ierr)
    call MPI_TYPE_COMMIT(pairt, ierr)
    mine = (/ me + 2, me + 1 /)
    fold = (/ 2, 1 /)
    do k = 1, np - 1
        got = (/ k + 2, k + 1 /)
        call compose(fold, got, 1, pairt)
        fold = got
    end do
    call MPI_ALLREDUCE(mine, res, 1, pairt, op, MPI_COMM_WORLD, ierr)
    call check(ierr == MPI_SUCCESS .and. all(res == fold), 'allreduce with a Fortran user op')

    ! MINLOC on 2INTEGER, ties keep the smaller index
    loc = (/ mod(me, 2), me /)
    call MPI_REDUCE(loc, res, 1, MPI_2INTEGER, MPI_MINLOC, 0, MPI_COMM_WORLD, ierr)
    if (me == 0) call check(res(1) == 0 .and. res(2) == 0, 'reduce MINLOC')

    ! nonblocking and persistent
    s = me
    call MPI_IALLREDUCE(s, e, 1, MPI_INTEGER, MPI_MAX, MPI_COMM_WORLD, req, ierr)
    call MPI_WAIT(req, MPI_STATUS_IGNORE, ierr)
    call check(e == np - 1, 'iallreduce max')
    call MPI_BARRIER_INIT(MPI_COMM_WORLD, MPI_INFO_NULL, req, ierr)
    do k = 1, 3
        call MPI_START(req, ierr)
        call MPI_WAIT(req, MPI_STATUS_IGNORE, ierr)
        call check(ierr == MPI_SUCCESS, 'persistent barrier')
    end do
    call MPI_REQUEST_FREE(req, ierr)

    call MPI_OP_FREE(op, ierr)
    call MPI_TYPE_FREE(pairt, ierr)
    call MPI_FINALIZE(ierr)
contains
    subroutine check(ok, what)
        logical :: ok
        character(len=*) :: what
        if (.not. ok) then
            print *, 'f90_coll: rank', me, 'failed: ', what
            call exit(1)
        end if
    end subroutine check
end program f90_coll
