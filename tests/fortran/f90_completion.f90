! f90_completion: the completion calls give Fortran indices counted from 1 (MPI_WAITANY,
! MPI_TESTANY, MPI_WAITSOME, MPI_TESTSOME) with each status at its place, and empty ones for
! null requests; persistent ready sends completed by MPI_WAITSOME in a loop (2 ranks or more).
program f90_completion
    use mpi
    implicit none
    integer, parameter :: n = 4
    integer :: ierr, me, np, peer, i, k, idx, outcount, got, it
    integer :: reqs(n), indices(n), sts(MPI_STATUS_SIZE, n), st(MPI_STATUS_SIZE), rbuf(n), sbuf(n)
    integer :: big(600, 2)
    logical :: flag, seen(n)

    call MPI_INIT(ierr)
    call MPI_COMM_RANK(MPI_COMM_WORLD, me, ierr)
    call MPI_COMM_SIZE(MPI_COMM_WORLD, np, ierr)
    peer = 1 - me

    ! only null requests: no index, an empty status
    reqs = MPI_REQUEST_NULL
    call MPI_WAITANY(n, reqs, idx, st, ierr)
    call check(ierr == MPI_SUCCESS .and. idx == MPI_UNDEFINED, 'waitany of null requests: index')
    call empty(st, 'waitany of null requests')
    call MPI_TESTANY(n, reqs, idx, flag, st, ierr)
    call check(flag .and. idx == MPI_UNDEFINED, 'testany of null requests: index')
    call empty(st, 'testany of null requests')
    call MPI_WAITSOME(n, reqs, outcount, indices, sts, ierr)
    call check(outcount == MPI_UNDEFINED, 'waitsome of null requests: outcount')
    call MPI_TESTSOME(n, reqs, outcount, indices, sts, ierr)
    call check(outcount == MPI_UNDEFINED, 'testsome of null requests: outcount')
    call MPI_WAIT(reqs(1), st, ierr)
    call empty(st, 'wait on a null request')

    if (me < 2 .and. np >= 2) then
        ! ready sends of tag i, received in order 4, 3, 2, 1 of the requests: every index
        ! names the request whose status sits beside it
        do it = 1, 4
            if (me == 0) then
                rbuf = -1
                do i = 1, n
                    call MPI_IRECV(rbuf(i), 1, MPI_INTEGER, peer, i, MPI_COMM_WORLD, reqs(i), ierr)
                end do
                reqs(2) = MPI_REQUEST_NULL
                call MPI_SEND(MPI_BOTTOM, 0, MPI_INTEGER, peer, 0, MPI_COMM_WORLD, ierr)
                seen = .false.
                seen(2) = .true.
                got = 0
                do while (got < n - 1)
                    select case (it)
                    case (1)
                        call MPI_WAITSOME(n, reqs, outcount, indices, sts, ierr)
                    case (2)
                        call MPI_TESTSOME(n, reqs, outcount, indices, sts, ierr)
                    case (3)
                        call MPI_WAITANY(n, reqs, indices(1), sts(:, 1), ierr)
                        outcount = 1
                    case default
                        call MPI_TESTANY(n, reqs, indices(1), flag, sts(:, 1), ierr)
                        outcount = merge(1, 0, flag)
                    end select
                    call check(ierr == MPI_SUCCESS, 'completion returned an error')
                    do k = 1, outcount
                        i = indices(k)
                        call check(i >= 1 .and. i <= n, 'an index outside 1..n')
                        call check(.not. seen(i), 'an index given twice or that of a null request')
                        seen(i) = .true.
                        call check(sts(MPI_SOURCE, k) == peer, 'status source')
                        call check(sts(MPI_TAG, k) == i, 'status tag')
                        call check(rbuf(i) == 100 * it + i, 'data')
                        call check(reqs(i) == MPI_REQUEST_NULL, 'request not freed')
                    end do
                    got = got + outcount
                end do
            else
                call MPI_RECV(MPI_BOTTOM, 0, MPI_INTEGER, peer, 0, MPI_COMM_WORLD, st, ierr)
                do i = n, 1, -1
                    sbuf(i) = 100 * it + i
                    if (i /= 2) call MPI_IRSEND(sbuf(i), 1, MPI_INTEGER, peer, i, MPI_COMM_WORLD, reqs(i), ierr)
                end do
                reqs(2) = MPI_REQUEST_NULL
                call MPI_WAITALL(n, reqs, MPI_STATUSES_IGNORE, ierr)
            end if
        end do

        ! persistent ready send and receive (MPICH's prsendf pattern): the receiver waits
        ! with MPI_WAITSOME until index 2 (its receive) comes out
        call MPI_RECV_INIT(big(1, 2), 600, MPI_INTEGER, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, reqs(2), ierr)
        call MPI_RSEND_INIT(big(1, 1), 600, MPI_INTEGER, peer, 7, MPI_COMM_WORLD, reqs(1), ierr)
        do it = 1, 3
            big(:, 2) = -1
            if (me == 0) then
                big(:, 1) = it
                call MPI_RECV(MPI_BOTTOM, 0, MPI_INTEGER, peer, 8, MPI_COMM_WORLD, st, ierr)
                call MPI_STARTALL(2, reqs, ierr)
                idx = -1
                do while (idx /= 2)
                    call MPI_WAITSOME(2, reqs, outcount, indices, sts, ierr)
                    do k = 1, outcount
                        if (indices(k) == 2) then
                            call check(sts(MPI_SOURCE, k) == peer .and. sts(MPI_TAG, k) == 7, 'prsend status')
                            idx = 2
                        end if
                    end do
                end do
                call MPI_WAIT(reqs(1), st, ierr)
                call check(all(big(:, 2) == 10 * it), 'prsend data back')
            else
                call MPI_START(reqs(2), ierr)
                call MPI_SEND(MPI_BOTTOM, 0, MPI_INTEGER, peer, 8, MPI_COMM_WORLD, ierr)
                flag = .false.
                do while (.not. flag)
                    call MPI_TEST(reqs(2), flag, st, ierr)
                end do
                call check(st(MPI_SOURCE) == peer .and. all(big(:, 2) == it), 'prsend data')
                big(:, 1) = 10 * it
                call MPI_START(reqs(1), ierr)
                call MPI_WAIT(reqs(1), st, ierr)
            end if
        end do
        ! inactive persistent requests: completed at once with an empty status
        call MPI_WAITANY(2, reqs, idx, st, ierr)
        call check(ierr == MPI_SUCCESS .and. idx == MPI_UNDEFINED, 'waitany of inactive requests: index')
        call empty(st, 'waitany of inactive requests')
        call MPI_TESTSOME(2, reqs, outcount, indices, sts, ierr)
        call check(outcount == MPI_UNDEFINED, 'testsome of inactive requests: outcount')
        call MPI_WAIT(reqs(2), st, ierr)
        call empty(st, 'wait on an inactive request')
        call MPI_REQUEST_FREE(reqs(1), ierr)
        call MPI_REQUEST_FREE(reqs(2), ierr)
    end if
    call MPI_FINALIZE(ierr)
contains
    subroutine empty(s, what)
        integer :: s(MPI_STATUS_SIZE), c
        character(len=*) :: what
        call check(s(MPI_SOURCE) == MPI_ANY_SOURCE .and. s(MPI_TAG) == MPI_ANY_TAG, what // ': status not empty')
        call MPI_GET_COUNT(s, MPI_INTEGER, c, ierr)
        call check(c == 0, what // ': count not 0')
    end subroutine empty
    subroutine check(ok, what)
        logical :: ok
        character(len=*) :: what
        if (.not. ok) then
            print *, 'f90_completion: rank', me, 'failed: ', what
            call exit(1)
        end if
    end subroutine check
end program f90_completion
