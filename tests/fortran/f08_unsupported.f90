! f08_unsupported.f90 — `use mpi_f08`'s MPI_Comm_spawn and MPI_Comm_spawn_multiple with valid
! arguments: each reaches the runtime, which does not implement it, so ierror is of class
! MPI_ERR_UNSUPPORTED_OPERATION and its message names the procedure.
program f08_unsupported
  use mpi_f08
  implicit none
  type(MPI_Comm) :: inter
  type(MPI_Info) :: infos(2)
  integer :: ierr, errcodes(2), maxprocs(2)
  character(len=8) :: args(2), cmds(2), argvs(2, 2)

  call MPI_Init()
  call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN)
  call MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN)

  args = [character(len=8) :: '-v', ' ']
  call MPI_Comm_spawn('./child', args, 1, MPI_INFO_NULL, 0, MPI_COMM_WORLD, inter, errcodes, ierr)
  call expect(ierr, 'MPI_Comm_spawn:', 1)
  call MPI_Comm_spawn('./child', MPI_ARGV_NULL, 1, MPI_INFO_NULL, 0, MPI_COMM_WORLD, inter, &
                      MPI_ERRCODES_IGNORE, ierr)
  call expect(ierr, 'MPI_Comm_spawn:', 2)

  ! exactly count commands, none blank: the face reads count of them, not up to a blank one
  cmds = [character(len=8) :: './a', './b']
  argvs = ' '
  argvs(1, 1) = '-x'
  maxprocs = [1, 1]
  infos = MPI_INFO_NULL
  call MPI_Comm_spawn_multiple(2, cmds, argvs, maxprocs, infos, 0, MPI_COMM_WORLD, inter, errcodes, ierr)
  call expect(ierr, 'MPI_Comm_spawn_multiple', 3)

  call MPI_Finalize()
  print '(a)', 'f08_unsupported: OK'

contains

  ! ierr is of class MPI_ERR_UNSUPPORTED_OPERATION and its message holds name; else stop code
  subroutine expect(ierr, name, code)
    integer, intent(in) :: ierr, code
    character(len=*), intent(in) :: name
    integer :: cls, slen
    character(len=MPI_MAX_ERROR_STRING) :: msg
    cls = MPI_SUCCESS
    msg = ''
    if (ierr /= MPI_SUCCESS) then
      call MPI_Error_class(ierr, cls)
      call MPI_Error_string(ierr, msg, slen)
    end if
    if (cls /= MPI_ERR_UNSUPPORTED_OPERATION .or. index(msg, name) == 0) then
      print '(a,i0,a,i0,2a)', 'f08_unsupported: call ', code, ': class ', cls, ', message: ', trim(msg)
      call MPI_Abort(MPI_COMM_WORLD, code)
      stop 1
    end if
  end subroutine expect
end program f08_unsupported
