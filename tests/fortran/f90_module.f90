! f90_module: 'use mpi': environment calls, the info API with strings,
! MPI_ERRORS_RETURN error codes and MPI_COMM_GET_ATTR with MPI_ADDRESS_KIND.
program f90_module
    use mpi
    implicit none
    integer :: ierr, rank, nprocs, ver, subver, nlen, info, cls, nkeys, buflen
    logical :: flag
    character(len=MPI_MAX_PROCESSOR_NAME) :: pname
    character(len=MPI_MAX_INFO_VAL) :: value
    character(len=MPI_MAX_INFO_KEY) :: key
    integer(kind=MPI_ADDRESS_KIND) :: tag_ub

    call MPI_INIT(ierr)
    call check(ierr == MPI_SUCCESS, 'MPI_INIT')
    call MPI_INITIALIZED(flag, ierr)
    call check(flag, 'MPI_INITIALIZED')
    call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
    call check(ierr == MPI_SUCCESS .and. rank == 0, 'MPI_COMM_RANK')
    call MPI_COMM_SIZE(MPI_COMM_WORLD, nprocs, ierr)
    call check(ierr == MPI_SUCCESS .and. nprocs == 1, 'MPI_COMM_SIZE')
    call MPI_GET_VERSION(ver, subver, ierr)
    call check(ver >= 4 .and. ver == MPI_VERSION .and. subver == MPI_SUBVERSION, &
               'MPI_GET_VERSION')
    call MPI_GET_PROCESSOR_NAME(pname, nlen, ierr)
    call check(nlen > 0 .and. len_trim(pname) == nlen, 'MPI_GET_PROCESSOR_NAME')
    call check(MPI_WTIME() > 0d0 .and. MPI_WTICK() > 0d0, 'MPI_WTIME/MPI_WTICK')

    ! the info API with Fortran strings (blank-padded, no NUL)
    call MPI_INFO_CREATE(info, ierr)
    call check(ierr == MPI_SUCCESS .and. info /= MPI_INFO_NULL, 'MPI_INFO_CREATE')
    call MPI_INFO_SET(info, 'color', 'blue green', ierr)
    call check(ierr == MPI_SUCCESS, 'MPI_INFO_SET')
    buflen = len(value)
    call MPI_INFO_GET_STRING(info, 'color', buflen, value, flag, ierr)
    call check(ierr == MPI_SUCCESS .and. flag, 'MPI_INFO_GET_STRING flag')
    call check(value == 'blue green', 'MPI_INFO_GET_STRING value: '//trim(value))
    call check(buflen >= 10, 'MPI_INFO_GET_STRING buflen')
    value = ''
    call MPI_INFO_GET(info, 'color', len(value), value, flag, ierr)
    call check(ierr == MPI_SUCCESS .and. flag .and. value == 'blue green', 'MPI_INFO_GET')
    call MPI_INFO_GET(info, 'size', len(value), value, flag, ierr)
    call check(ierr == MPI_SUCCESS .and. .not. flag, 'MPI_INFO_GET missing key')
    call MPI_INFO_GET_NKEYS(info, nkeys, ierr)
    call check(nkeys == 1, 'MPI_INFO_GET_NKEYS')
    call MPI_INFO_GET_NTHKEY(info, 0, key, ierr)
    call check(key == 'color', 'MPI_INFO_GET_NTHKEY: '//trim(key))
    call MPI_INFO_FREE(info, ierr)
    call check(ierr == MPI_SUCCESS .and. info == MPI_INFO_NULL, 'MPI_INFO_FREE')

    ! with MPI_ERRORS_RETURN a bad call returns its code in ierr
    call MPI_COMM_SET_ERRHANDLER(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
    call MPI_COMM_SET_ERRHANDLER(MPI_COMM_SELF, MPI_ERRORS_RETURN, ierr)
    call MPI_COMM_SIZE(MPI_COMM_NULL, nprocs, ierr)
    call check(ierr /= MPI_SUCCESS, 'MPI_COMM_SIZE(MPI_COMM_NULL) succeeded')
    call MPI_ERROR_CLASS(ierr, cls, ierr)
    call check(ierr == MPI_SUCCESS .and. cls == MPI_ERR_COMM, 'class is not MPI_ERR_COMM')

    call MPI_COMM_GET_ATTR(MPI_COMM_WORLD, MPI_TAG_UB, tag_ub, flag, ierr)
    call check(ierr == MPI_SUCCESS .and. flag, 'MPI_COMM_GET_ATTR(MPI_TAG_UB)')
    call check(tag_ub >= 32767, 'MPI_TAG_UB < 32767')

    call MPI_FINALIZE(ierr)
    call check(ierr == MPI_SUCCESS, 'MPI_FINALIZE')
    call MPI_FINALIZED(flag, ierr)
    call check(flag, 'MPI_FINALIZED')

contains

    subroutine check(ok, what)
        use, intrinsic :: iso_fortran_env, only: error_unit
        logical, intent(in) :: ok
        character(len=*), intent(in) :: what
        if (.not. ok) then
            write (error_unit, '(a)') 'f90_module: check failed: '//what
            stop 1
        end if
    end subroutine check
end program f90_module
