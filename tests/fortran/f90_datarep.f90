! f90_datarep: MPI_REGISTER_DATAREP with Fortran conversion and extent functions, and with
! MPI_CONVERSION_FN_NULL, gives what the library under the Fortran face gives.
module datarep_fns
    use mpi
    implicit none
    integer :: ncalls = 0
contains
    ! never called: no backend converts data (ncalls tells)
    subroutine conversion(userbuf, datatype, count, filebuf, position, extra_state, ierror)
        integer :: userbuf(*), filebuf(*)
        integer :: datatype, count, ierror
        integer(kind=MPI_OFFSET_KIND) :: position
        integer(kind=MPI_ADDRESS_KIND) :: extra_state
        ncalls = ncalls + 1
        if (datatype == MPI_INTEGER .and. position >= 0 .and. extra_state >= 0) userbuf(1:count) = filebuf(1:count)
        ierror = MPI_SUCCESS
    end subroutine conversion

    subroutine extent(datatype, file_extent, extra_state, ierror)
        integer :: datatype, ierror
        integer(kind=MPI_ADDRESS_KIND) :: file_extent, extra_state
        ncalls = ncalls + 1
        file_extent = extra_state
        if (datatype == MPI_INTEGER) file_extent = 4
        ierror = MPI_SUCCESS
    end subroutine extent
end module datarep_fns

program f90_datarep
    use mpi
    use datarep_fns
    implicit none
    integer :: ierr, vlen
    integer(kind=MPI_ADDRESS_KIND) :: extra = 0
    character(len=MPI_MAX_LIBRARY_VERSION_STRING) :: version
    character(len=16) :: backend

    call MPI_INIT(ierr)
    call MPI_COMM_SET_ERRHANDLER(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
    call MPI_GET_LIBRARY_VERSION(version, vlen, ierr)
    backend = 'switchyard'
    if (index(version, 'shim over: MPICH') > 0) backend = 'mpich'
    if (index(version, 'shim over: Open MPI') > 0) backend = 'openmpi'
    print '(2a)', 'f90_datarep: backend ', trim(backend)

    ! Fortran conversion functions: the backends refuse them (they convert no data), Switchyard's
    ! runtime has no MPI-IO
    call MPI_REGISTER_DATAREP('f90_datarep_conv', conversion, conversion, extent, extra, ierr)
    if (backend == 'switchyard') then
        call expect(ierr, MPI_ERR_UNSUPPORTED_OPERATION, 'conversion functions', 'not implemented by Switchyard')
    else
        call expect(ierr, MPI_ERR_CONVERSION, 'conversion functions', '')
    end if

    ! MPI_CONVERSION_FN_NULL reaches the library as its null procedure: registered, then the name is taken
    call MPI_REGISTER_DATAREP('f90_datarep_null', MPI_CONVERSION_FN_NULL, MPI_CONVERSION_FN_NULL, extent, extra, ierr)
    if (backend == 'switchyard') then
        call expect(ierr, MPI_ERR_UNSUPPORTED_OPERATION, 'MPI_CONVERSION_FN_NULL', 'not implemented by Switchyard')
    else if (backend == 'openmpi') then  ! Open MPI 4.1.4 registers it but says MPI_ERR_OTHER (natively too)
        call expect(ierr, MPI_ERR_OTHER, 'MPI_CONVERSION_FN_NULL', '')
    else
        call expect(ierr, MPI_SUCCESS, 'MPI_CONVERSION_FN_NULL', '')
    end if
    call MPI_REGISTER_DATAREP('f90_datarep_null', MPI_CONVERSION_FN_NULL, MPI_CONVERSION_FN_NULL, extent, extra, ierr)
    if (backend == 'switchyard') then
        call expect(ierr, MPI_ERR_UNSUPPORTED_OPERATION, 'the same name again', 'not implemented by Switchyard')
    else
        call expect(ierr, MPI_ERR_DUP_DATAREP, 'the same name again', '')
    end if

    call check(ncalls == 0, 'a conversion or extent function was called')
    call MPI_FINALIZE(ierr)
    print '(a)', 'f90_datarep: OK'

contains

    ! ierr is of class cls and, if text is not blank, its message holds text
    subroutine expect(ierr, cls, what, text)
        integer, intent(in) :: ierr, cls
        character(len=*), intent(in) :: what, text
        integer :: got, slen, e
        character(len=MPI_MAX_ERROR_STRING) :: msg
        got = MPI_SUCCESS
        msg = ''
        if (ierr /= MPI_SUCCESS) then
            call MPI_ERROR_CLASS(ierr, got, e)
            call MPI_ERROR_STRING(ierr, msg, slen, e)
        end if
        if (got /= cls) then
            print '(a,i0,3a)', 'got class ', got, ' (', trim(msg), ')'
        end if
        call check(got == cls, what // ': not the expected error class')
        if (len(text) > 0) call check(index(msg, text) > 0, what // ': the message lacks "' // text // '": ' // trim(msg))
    end subroutine expect

    subroutine check(ok, what)
        use, intrinsic :: iso_fortran_env, only: error_unit
        logical, intent(in) :: ok
        character(len=*), intent(in) :: what
        if (.not. ok) then
            write (error_unit, '(2a)') 'f90_datarep: FAIL: ', what
            call MPI_ABORT(MPI_COMM_WORLD, 1, ierr)
            stop 1
        end if
    end subroutine check
end program f90_datarep
