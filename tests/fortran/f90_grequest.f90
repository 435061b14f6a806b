! f90_grequest: generalized requests with Fortran query, free and cancel functions (`use mpi`):
! the status the query function fills reaches MPI_WAIT and MPI_WAITALL, each callback gets its
! request's extra_state, a query function's error code makes MPI_WAITALL's MPI_ERR_IN_STATUS.
module greq_fns
    use mpi
    implicit none
    ! per request i (its extra_state): calls, and what the query function reports
    integer :: queries(3) = 0, frees(3) = 0, cancels(3) = 0, cancel_complete(3) = -1
    integer :: qsource(3) = 0, qtag(3) = 0, qcount(3) = 0, qerror(3) = MPI_SUCCESS
contains
    subroutine query_fn(extra_state, status, ierror)
        integer(kind=MPI_ADDRESS_KIND) :: extra_state
        integer :: status(MPI_STATUS_SIZE), ierror, i
        i = int(extra_state)
        queries(i) = queries(i) + 1
        call MPI_STATUS_SET_ELEMENTS(status, MPI_INTEGER, qcount(i), ierror)
        call MPI_STATUS_SET_CANCELLED(status, cancels(i) > 0, ierror)
        status(MPI_SOURCE) = qsource(i)
        status(MPI_TAG) = qtag(i)
        ierror = qerror(i)
    end subroutine query_fn

    subroutine free_fn(extra_state, ierror)
        integer(kind=MPI_ADDRESS_KIND) :: extra_state
        integer :: ierror
        frees(extra_state) = frees(extra_state) + 1
        ierror = MPI_SUCCESS
    end subroutine free_fn

    subroutine cancel_fn(extra_state, complete, ierror)
        integer(kind=MPI_ADDRESS_KIND) :: extra_state
        logical :: complete
        integer :: ierror
        cancels(extra_state) = cancels(extra_state) + 1
        cancel_complete(extra_state) = merge(1, 0, complete)
        ierror = MPI_SUCCESS
    end subroutine cancel_fn
end module greq_fns

program f90_grequest
    use mpi
    use greq_fns
    implicit none
    integer :: ierr, req, reqs(2), status(MPI_STATUS_SIZE), statuses(MPI_STATUS_SIZE, 2)
    integer :: count, cls, dummy
    logical :: flag
    integer(kind=MPI_ADDRESS_KIND), parameter :: one = 1, two = 2, three = 3

    call MPI_INIT(ierr)
    call MPI_COMM_SET_ERRHANDLER(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
    call MPI_COMM_SET_ERRHANDLER(MPI_COMM_SELF, MPI_ERRORS_RETURN, ierr)

    ! 1: test before completion, wait after; the status is the query function's
    qsource(1) = 7
    qtag(1) = 42
    qcount(1) = 5
    call MPI_GREQUEST_START(query_fn, free_fn, cancel_fn, one, req, ierr)
    call check(ierr == MPI_SUCCESS, 'MPI_GREQUEST_START', 1)
    call MPI_TEST(req, flag, status, ierr)
    call check(ierr == MPI_SUCCESS .and. .not. flag .and. queries(1) == 0, 'MPI_TEST before completion', 2)
    call MPI_GREQUEST_COMPLETE(req, ierr)
    call check(ierr == MPI_SUCCESS, 'MPI_GREQUEST_COMPLETE', 3)
    call MPI_WAIT(req, status, ierr)
    call check(ierr == MPI_SUCCESS .and. req == MPI_REQUEST_NULL, 'MPI_WAIT', 4)
    call MPI_GET_COUNT(status, MPI_INTEGER, count, ierr)
    call check(count == 5 .and. status(MPI_SOURCE) == 7 .and. status(MPI_TAG) == 42, 'the status', 5)
    call check(queries(1) == 1 .and. frees(1) == 1 .and. cancels(1) == 0, 'the calls of request 1', 6)

    ! 2: cancel before and after completion, then MPI_TEST_CANCELLED
    call MPI_GREQUEST_START(query_fn, free_fn, cancel_fn, two, req, ierr)
    call MPI_CANCEL(req, ierr)
    call check(ierr == MPI_SUCCESS .and. cancels(2) == 1 .and. cancel_complete(2) == 0, 'MPI_CANCEL', 7)
    call MPI_GREQUEST_COMPLETE(req, ierr)
    call MPI_CANCEL(req, ierr)
    call check(ierr == MPI_SUCCESS .and. cancels(2) == 2 .and. cancel_complete(2) == 1, 'MPI_CANCEL, complete', 8)
    call MPI_WAIT(req, status, ierr)
    call MPI_TEST_CANCELLED(status, flag, ierr)
    call check(flag .and. frees(2) == 1 .and. queries(2) == 1, 'a cancelled request', 9)

    ! 3: MPI_WAITALL with a receive from MPI_PROC_NULL; the query function fails
    qsource(3) = 3
    qtag(3) = 4
    qerror(3) = MPI_ERR_OTHER
    ! (the receive first: MPICH 4.0.2 marks the requests after a failed one MPI_ERR_PENDING)
    call MPI_IRECV(dummy, 1, MPI_INTEGER, MPI_PROC_NULL, 0, MPI_COMM_WORLD, reqs(1), ierr)
    call MPI_GREQUEST_START(query_fn, free_fn, cancel_fn, three, reqs(2), ierr)
    call MPI_GREQUEST_COMPLETE(reqs(2), ierr)
    statuses(MPI_ERROR, :) = -1
    call MPI_WAITALL(2, reqs, statuses, ierr)
    call MPI_ERROR_CLASS(ierr, cls, dummy)
    call check(cls == MPI_ERR_IN_STATUS, 'MPI_WAITALL: MPI_ERR_IN_STATUS', 10)
    call MPI_ERROR_CLASS(statuses(MPI_ERROR, 2), cls, dummy)
    call check(cls == MPI_ERR_OTHER .and. statuses(MPI_ERROR, 1) == MPI_SUCCESS, 'MPI_WAITALL: the errors', 11)
    call check(statuses(MPI_SOURCE, 2) == 3 .and. statuses(MPI_TAG, 2) == 4, 'MPI_WAITALL: the status', 12)
    call check(all(reqs == MPI_REQUEST_NULL) .and. frees(3) == 1 .and. queries(3) == 1, 'MPI_WAITALL: freed', 13)

    call MPI_FINALIZE(ierr)
    print '(a)', 'f90_grequest: OK'

contains

    subroutine check(ok, what, code)
        logical, intent(in) :: ok
        character(len=*), intent(in) :: what
        integer, intent(in) :: code
        integer :: e
        if (.not. ok) then
            print '(3a)', 'f90_grequest: ', what, ' failed'
            call MPI_ABORT(MPI_COMM_WORLD, code, e)
            stop 1
        end if
    end subroutine check
end program f90_grequest
