! f90_errhandler: a Fortran error handler made with MPI_COMM_CREATE_ERRHANDLER
! is called with the right communicator and code, by hand and on a real error.
module eh_record
    implicit none
    integer :: ncalls = 0, last_comm = -1, last_code = -1
contains
    subroutine handler(comm, code)
        integer :: comm, code
        ncalls = ncalls + 1
        last_comm = comm
        last_code = code
    end subroutine handler
end module eh_record

program f90_errhandler
    use mpi
    use eh_record
    implicit none
    integer :: ierr, eh, cls, myclass, code
    logical :: flag
    integer(kind=MPI_ADDRESS_KIND) :: val

    call MPI_INIT(ierr)
    call MPI_COMM_CREATE_ERRHANDLER(handler, eh, ierr)
    call check(ierr == MPI_SUCCESS .and. eh /= MPI_ERRHANDLER_NULL, 'MPI_COMM_CREATE_ERRHANDLER')
    call MPI_COMM_SET_ERRHANDLER(MPI_COMM_WORLD, eh, ierr)
    call MPI_COMM_SET_ERRHANDLER(MPI_COMM_SELF, eh, ierr)
    call check(ierr == MPI_SUCCESS, 'MPI_COMM_SET_ERRHANDLER')

    call MPI_COMM_CALL_ERRHANDLER(MPI_COMM_WORLD, MPI_ERR_OTHER, ierr)
    call check(ierr == MPI_SUCCESS, 'MPI_COMM_CALL_ERRHANDLER')
    call check(ncalls == 1 .and. last_comm == MPI_COMM_WORLD .and. &
               last_code == MPI_ERR_OTHER, 'handler args (WORLD, MPI_ERR_OTHER)')

    ! a user error class on MPI_COMM_SELF
    call MPI_ADD_ERROR_CLASS(myclass, ierr)
    call MPI_COMM_CALL_ERRHANDLER(MPI_COMM_SELF, myclass, ierr)
    call check(ncalls == 2 .and. last_comm == MPI_COMM_SELF .and. &
               last_code == myclass, 'handler args (SELF, user class)')

    ! a real error: the handler runs, then ierr holds the same code
    call MPI_COMM_GET_ATTR(MPI_COMM_WORLD, MPI_KEYVAL_INVALID, val, flag, code)
    call check(code /= MPI_SUCCESS, 'MPI_COMM_GET_ATTR(MPI_KEYVAL_INVALID) succeeded')
    call check(ncalls == 3 .and. last_comm == MPI_COMM_WORLD .and. last_code == code, &
               'handler args (WORLD, real error)')
    call MPI_ERROR_CLASS(code, cls, ierr)
    call check(cls == MPI_ERR_KEYVAL, 'class is not MPI_ERR_KEYVAL')

    call MPI_ERRHANDLER_FREE(eh, ierr)
    call check(ierr == MPI_SUCCESS .and. eh == MPI_ERRHANDLER_NULL, 'MPI_ERRHANDLER_FREE')
    call MPI_COMM_CALL_ERRHANDLER(MPI_COMM_WORLD, MPI_ERR_TAG, ierr)
    call check(ncalls == 4 .and. last_code == MPI_ERR_TAG, 'handler after MPI_ERRHANDLER_FREE')
    call MPI_FINALIZE(ierr)

contains

    subroutine check(ok, what)
        use, intrinsic :: iso_fortran_env, only: error_unit
        logical, intent(in) :: ok
        character(len=*), intent(in) :: what
        if (.not. ok) then
            write (error_unit, '(a)') 'f90_errhandler: check failed: '//what
            stop 1
        end if
    end subroutine check
end program f90_errhandler
