! f08_bsend_buffers.f90 — `mpi_f08` MPI-4.1 buffers for buffered sends: a communicator's, a session's
! and MPI_BUFFER_AUTOMATIC attached, used by MPI_Bsend, flushed, detached (address, size), reattached.
program f08_bsend_buffers
  use, intrinsic :: iso_c_binding, only: c_ptr, c_associated, c_loc, c_f_pointer
  use mpi_f08
  implicit none
  integer, parameter :: N = 1000, BYTES = 4 * N + MPI_BSEND_OVERHEAD
  integer :: rank, np, ierr, i, bsize, got(N)
  character, target :: cbuf(BYTES), sbuf(BYTES)
  type(c_ptr) :: q
  integer, pointer :: again(:)
  type(MPI_Comm) :: dup, sc
  type(MPI_Request) :: req
  type(MPI_Session) :: s
  type(MPI_Group) :: g

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, np)
  if (np < 2) stop 1

  ! A communicator's buffer: no buffer is attached to the process, so MPI_Bsend uses dup's.
  call MPI_Comm_dup(MPI_COMM_WORLD, dup)
  if (rank == 0) then
    call MPI_Comm_attach_buffer(dup, cbuf, BYTES, ierr)
    if (ierr /= MPI_SUCCESS) stop 2
    call MPI_Bsend([(7 * i + 1, i = 1, N)], N, MPI_INTEGER, 1, 5, dup, ierr)
    if (ierr /= MPI_SUCCESS) stop 3
    call MPI_Comm_flush_buffer(dup, ierr)
    if (ierr /= MPI_SUCCESS) stop 4
    call MPI_Bsend([(7 * i + 2, i = 1, N)], N, MPI_INTEGER, 1, 6, dup, ierr)
    call MPI_Comm_iflush_buffer(dup, req, ierr)
    if (ierr /= MPI_SUCCESS) stop 5
    call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
    call MPI_Comm_detach_buffer(dup, q, bsize, ierr)
    if (ierr /= MPI_SUCCESS .or. bsize /= BYTES) stop 6
    if (.not. c_associated(q, c_loc(cbuf))) stop 7
  else if (rank == 1) then
    call MPI_Recv(got, N, MPI_INTEGER, 0, 5, dup, MPI_STATUS_IGNORE, ierr)
    if (any(got /= [(7 * i + 1, i = 1, N)])) stop 8
    call MPI_Recv(got, N, MPI_INTEGER, 0, 6, dup, MPI_STATUS_IGNORE, ierr)
    if (any(got /= [(7 * i + 2, i = 1, N)])) stop 9
  end if
  call MPI_Comm_free(dup)

  ! MPI_BUFFER_AUTOMATIC: messages larger than any buffer; detach hands back what attaching it
  ! again attaches again (the address of MPI_BUFFER_AUTOMATIC), with size 0.
  call MPI_Comm_dup(MPI_COMM_WORLD, dup)
  if (rank == 0) then
    call MPI_Comm_attach_buffer(dup, MPI_BUFFER_AUTOMATIC, 0, ierr)
    if (ierr /= MPI_SUCCESS) stop 17
    call MPI_Bsend([(5 * i, i = 1, N)], N, MPI_INTEGER, 1, 8, dup, ierr)
    if (ierr /= MPI_SUCCESS) stop 18
    call MPI_Comm_detach_buffer(dup, q, bsize, ierr)
    if (ierr /= MPI_SUCCESS .or. bsize /= 0) stop 19
    if (transfer(q, 0_MPI_ADDRESS_KIND) /= loc(MPI_BUFFER_AUTOMATIC)) stop 25
    call c_f_pointer(q, again, [1])
    call MPI_Comm_attach_buffer(dup, again, 0, ierr)
    if (ierr /= MPI_SUCCESS) stop 20
    call MPI_Bsend([(5 * i + 1, i = 1, N)], N, MPI_INTEGER, 1, 9, dup, ierr)
    if (ierr /= MPI_SUCCESS) stop 21
    call MPI_Comm_detach_buffer(dup, q, bsize, ierr)
    if (ierr /= MPI_SUCCESS .or. bsize /= 0) stop 22
  else if (rank == 1) then
    call MPI_Recv(got, N, MPI_INTEGER, 0, 9, dup, MPI_STATUS_IGNORE, ierr)
    if (any(got /= [(5 * i + 1, i = 1, N)])) stop 23
    call MPI_Recv(got, N, MPI_INTEGER, 0, 8, dup, MPI_STATUS_IGNORE, ierr)
    if (any(got /= [(5 * i, i = 1, N)])) stop 24
  end if
  call MPI_Comm_free(dup)

  ! A session's buffer serves a communicator made from the session's mpi://WORLD.
  call MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, s, ierr)
  call MPI_Group_from_session_pset(s, "mpi://WORLD", g, ierr)
  call MPI_Comm_create_from_group(g, "f08_bsend_buffers", MPI_INFO_NULL, MPI_ERRORS_RETURN, sc, ierr)
  if (ierr /= MPI_SUCCESS) stop 10
  call MPI_Group_free(g)
  if (rank == 0) then
    call MPI_Session_attach_buffer(s, sbuf, BYTES, ierr)
    if (ierr /= MPI_SUCCESS) stop 11
    call MPI_Bsend([(3 * i, i = 1, N)], N, MPI_INTEGER, 1, 7, sc, ierr)
    if (ierr /= MPI_SUCCESS) stop 12
    call MPI_Session_iflush_buffer(s, req, ierr)
    call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
    call MPI_Session_flush_buffer(s, ierr)
    if (ierr /= MPI_SUCCESS) stop 13
    call MPI_Session_detach_buffer(s, q, bsize, ierr)
    if (ierr /= MPI_SUCCESS .or. bsize /= BYTES) stop 14
    if (.not. c_associated(q, c_loc(sbuf))) stop 15
  else if (rank == 1) then
    call MPI_Recv(got, N, MPI_INTEGER, 0, 7, sc, MPI_STATUS_IGNORE, ierr)
    if (any(got /= [(3 * i, i = 1, N)])) stop 16
  end if
  call MPI_Comm_free(sc)
  call MPI_Session_finalize(s, ierr)
  call MPI_Finalize(ierr)
end program f08_bsend_buffers
