! f08_session.f90 — MPI-4 sessions through `mpi_f08` without MPI_Init: a communicator from
! mpi://WORLD, an allreduce and a ring, the process set names and info, a session again after.
program f08_session
  use mpi_f08
  implicit none
  integer :: round

  do round = 1, 2
    call one_session(round)
  end do

contains

  subroutine one_session(round)
    integer, intent(in) :: round
    type(MPI_Session) :: s
    type(MPI_Group) :: g
    type(MPI_Comm) :: c
    type(MPI_Info) :: info
    type(MPI_Status) :: status
    integer :: ierr, me, np, n, plen, v, total, got, vlen
    character(len=32) :: pname
    character(len=MPI_MAX_INFO_VAL) :: val
    character(len=16) :: want
    logical :: flag

    call MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, s, ierr)
    if (ierr /= MPI_SUCCESS) stop 1
    call MPI_Initialized(flag)
    if (flag) stop 2
    call MPI_Session_get_num_psets(s, MPI_INFO_NULL, n, ierr)
    if (ierr /= MPI_SUCCESS .or. n /= 2) stop 3
    plen = len(pname)
    call MPI_Session_get_nth_pset(s, MPI_INFO_NULL, 0, plen, pname, ierr)
    if (ierr /= MPI_SUCCESS .or. pname /= 'mpi://WORLD') stop 4
    call MPI_Group_from_session_pset(s, 'mpi://WORLD', g, ierr)
    if (ierr /= MPI_SUCCESS) stop 5
    call MPI_Comm_create_from_group(g, 'switchyard.test.f08_session', MPI_INFO_NULL, MPI_ERRORS_RETURN, c, ierr)
    if (ierr /= MPI_SUCCESS) stop 6
    call MPI_Comm_rank(c, me)
    call MPI_Comm_size(c, np)
    call MPI_Session_get_pset_info(s, 'mpi://WORLD', info, ierr)
    if (ierr /= MPI_SUCCESS) stop 7
    vlen = len(val)
    call MPI_Info_get_string(info, 'mpi_size', vlen, val, flag)
    write (want, '(I0)') np
    if (.not. flag .or. trim(val) /= trim(want)) stop 8
    call MPI_Info_free(info)

    v = 100 * round + me
    call MPI_Allreduce(v, total, 1, MPI_INTEGER, MPI_SUM, c, ierr)
    if (ierr /= MPI_SUCCESS .or. total /= 100 * round * np + np * (np - 1) / 2) stop 9
    call MPI_Sendrecv(v, 1, MPI_INTEGER, mod(me + 1, np), 3, got, 1, MPI_INTEGER, mod(me + np - 1, np), 3, &
                      c, status, ierr)
    if (ierr /= MPI_SUCCESS .or. got /= 100 * round + mod(me + np - 1, np)) stop 10

    call MPI_Session_get_pset_info(s, 'mpi://nowhere', info, ierr)
    if (ierr == MPI_SUCCESS) stop 11
    call MPI_Error_class(ierr, n)
    if (n /= MPI_ERR_ARG) stop 12

    call MPI_Comm_free(c)
    call MPI_Group_free(g)
    call MPI_Session_finalize(s, ierr)
    if (ierr /= MPI_SUCCESS .or. s /= MPI_SESSION_NULL) stop 13
  end subroutine one_session
end program f08_session
