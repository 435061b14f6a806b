! f08_basic.f90 — the `mpi_f08` module: handle types and their comparisons, the predefined
! handles' MPI_VAL against mpif.h's values, a ring of blocking and nonblocking messages with
! TYPE(MPI_Status), broadcast, reduction, communicator split, optional ierror, processor name,
! the error for a non-contiguous buffer.
program f08_basic
  use mpi_f08
  implicit none
  integer, external :: mpif_comm_world, mpif_double_precision
  integer, parameter :: n = 10
  integer :: ierr, me, np, left, right, i, count, cls, value, total, rsize, rme, namelen
  double precision :: out(n), in(n), stride(2 * n), t0
  type(MPI_Status) :: status, statuses(2)
  type(MPI_Request) :: reqs(2)
  type(MPI_Comm) :: comm, half
  character(len=MPI_MAX_PROCESSOR_NAME) :: pname
  character(len=MPI_MAX_ERROR_STRING) :: msg
  integer(kind=MPI_ADDRESS_KIND) :: last0, last
  logical :: flag

  call MPI_Init()                   ! ierror omitted
  call MPI_Initialized(flag, ierr)  ! ierror present
  if (ierr /= MPI_SUCCESS .or. .not. flag) stop 1
  call MPI_Comm_rank(MPI_COMM_WORLD, me, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, np)
  if (ierr /= MPI_SUCCESS .or. np < 1 .or. me < 0 .or. me >= np) stop 2

  ! the f08 handles hold the `use mpi` / mpif.h integers
  if (MPI_COMM_WORLD%MPI_VAL /= mpif_comm_world()) stop 3
  if (MPI_DOUBLE_PRECISION%MPI_VAL /= mpif_double_precision()) stop 3
  comm = MPI_COMM_WORLD
  if (.not. (comm == MPI_COMM_WORLD) .or. comm /= MPI_COMM_WORLD .or. comm == MPI_COMM_SELF) stop 4
  if (.not. (comm .eq. MPI_COMM_WORLD) .or. (comm .ne. MPI_COMM_WORLD)) stop 5
  if (MPI_REQUEST_NULL%MPI_VAL == MPI_COMM_NULL%MPI_VAL) stop 6

  call MPI_Get_processor_name(pname, namelen, ierr)
  if (ierr /= MPI_SUCCESS .or. namelen < 1 .or. len_trim(pname) /= namelen) stop 7
  t0 = MPI_Wtime()
  if (t0 <= 0d0 .or. MPI_Wtick() <= 0d0) stop 8

  right = mod(me + 1, np)
  left = mod(me + np - 1, np)
  do i = 1, n
    out(i) = me * 1000 + i
  end do

  ! blocking ring (Sendrecv), then Send/Recv ordered so that it cannot deadlock
  call MPI_Sendrecv(out, n, MPI_DOUBLE_PRECISION, right, 4, in, n, MPI_DOUBLE_PRECISION, left, 4, &
                    MPI_COMM_WORLD, status, ierr)
  if (ierr /= MPI_SUCCESS .or. status%MPI_SOURCE /= left .or. status%MPI_TAG /= 4) stop 9
  if (in(n) /= left * 1000 + n) stop 10
  in = 0
  if (mod(me, 2) == 0) then
    call MPI_Send(out, n, MPI_DOUBLE_PRECISION, right, 5, MPI_COMM_WORLD)
    call MPI_Recv(in, n, MPI_DOUBLE_PRECISION, left, 5, MPI_COMM_WORLD, status)
  else
    call MPI_Recv(in, n, MPI_DOUBLE_PRECISION, left, 5, MPI_COMM_WORLD, status, ierr)
    call MPI_Send(out, n, MPI_DOUBLE_PRECISION, right, 5, MPI_COMM_WORLD, ierr)
  end if
  if (np > 1 .or. mod(me, 2) == 1) then
    if (status%MPI_SOURCE /= left .or. status%MPI_TAG /= 5 .or. in(1) /= left * 1000 + 1) stop 11
    call MPI_Get_count(status, MPI_DOUBLE_PRECISION, count, ierr)
    if (count /= n) stop 12
  end if
  if (np == 1) then  ! rank 0 alone: its send to itself was buffered or the ring is trivial
    if (in(n) /= n) stop 13
  end if

  ! nonblocking ring, wildcards, Waitall with statuses
  in = 0
  call MPI_Irecv(in, n - 1, MPI_DOUBLE_PRECISION, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, reqs(1))
  call MPI_Isend(out, n - 1, MPI_DOUBLE_PRECISION, right, 6, MPI_COMM_WORLD, reqs(2), ierr)
  call MPI_Waitall(2, reqs, statuses, ierr)
  if (ierr /= MPI_SUCCESS) stop 14
  if (reqs(1) /= MPI_REQUEST_NULL .or. reqs(2) /= MPI_REQUEST_NULL) stop 15
  if (statuses(1)%MPI_SOURCE /= left .or. statuses(1)%MPI_TAG /= 6) stop 16
  call MPI_Get_count(statuses(1), MPI_DOUBLE_PRECISION, count)
  if (count /= n - 1 .or. in(n - 1) /= left * 1000 + n - 1 .or. in(n) /= 0) stop 17

  ! probe, then receive with MPI_STATUS_IGNORE; Wait on a single request
  call MPI_Isend(out, 3, MPI_DOUBLE_PRECISION, 0, 7, MPI_COMM_SELF, reqs(2))
  call MPI_Probe(0, 7, MPI_COMM_SELF, status)
  call MPI_Get_count(status, MPI_DOUBLE_PRECISION, count)
  if (count /= 3 .or. status%MPI_TAG /= 7) stop 18
  call MPI_Recv(in, 3, MPI_DOUBLE_PRECISION, 0, 7, MPI_COMM_SELF, MPI_STATUS_IGNORE)
  call MPI_Wait(reqs(2), MPI_STATUS_IGNORE)
  if (in(3) /= me * 1000 + 3 .or. reqs(2) /= MPI_REQUEST_NULL) stop 19

  ! collectives: a scalar buffer (rank 0) and arrays
  value = 0
  if (me == 0) value = 42
  call MPI_Bcast(value, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  if (ierr /= MPI_SUCCESS .or. value /= 42) stop 20
  call MPI_Allreduce(me + 1, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
  if (total /= np * (np + 1) / 2) stop 21
  out(1:2) = [dble(me), 1d0]
  call MPI_Allreduce(MPI_IN_PLACE, out, 2, MPI_DOUBLE_PRECISION, MPI_MAX, MPI_COMM_WORLD)
  if (out(1) /= np - 1 .or. out(2) /= 1d0) stop 22
  call MPI_Reduce(me, total, 1, MPI_INTEGER, MPI_SUM, 0, MPI_COMM_WORLD)
  if (me == 0 .and. total /= np * (np - 1) / 2) stop 23
  call MPI_Barrier(MPI_COMM_WORLD)

  ! split in evens and odds, ordered by decreasing rank
  call MPI_Comm_split(MPI_COMM_WORLD, mod(me, 2), -me, half, ierr)
  if (ierr /= MPI_SUCCESS .or. half == MPI_COMM_NULL .or. half == MPI_COMM_WORLD) stop 24
  call MPI_Comm_size(half, rsize)
  call MPI_Comm_rank(half, rme)
  if (rsize /= (np + 1 - mod(me, 2)) / 2 .or. rme /= (np - 1 - me) / 2) stop 25
  call MPI_Allreduce(1, total, 1, MPI_INTEGER, MPI_SUM, half)
  if (total /= rsize) stop 26
  call MPI_Comm_dup(half, comm)
  if (comm == half) stop 27
  call MPI_Comm_free(comm)
  call MPI_Comm_free(half, ierr)
  if (ierr /= MPI_SUCCESS .or. half /= MPI_COMM_NULL) stop 28

  ! a strided section is refused with MPI_ERR_BUFFER under MPI_ERRORS_RETURN, its message naming
  ! the procedure and the argument, and no error code is made for it (MPI_LASTUSEDCODE stays)
  call MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, last0, flag, ierr)
  if (ierr /= MPI_SUCCESS .or. .not. flag) stop 31
  call MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN)
  call MPI_Send(stride(1:2 * n:2), n, MPI_DOUBLE_PRECISION, 0, 8, MPI_COMM_SELF, ierr)
  call MPI_Error_class(ierr, cls)
  if (cls /= MPI_ERR_BUFFER) stop 29
  call MPI_Error_string(ierr, msg, namelen)
  if (index(msg, 'MPI_Send: ') /= 1 .or. index(msg, "'buf' is not contiguous") == 0) then
    print '(2a)', 'f08_basic: message: ', trim(msg)
    stop 32
  end if
  call MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, last, flag, ierr)
  if (ierr /= MPI_SUCCESS .or. .not. flag .or. last /= last0) then
    print '(a,i0,a,i0)', 'f08_basic: MPI_LASTUSEDCODE ', last0, ' became ', last
    stop 33
  end if

  call MPI_Finalize(ierr)
  if (ierr /= MPI_SUCCESS) stop 30
end program f08_basic

! mpif.h's values, out of the reach of mpi_f08's names
integer function mpif_comm_world()
  implicit none
  include 'mpif.h'
  mpif_comm_world = MPI_COMM_WORLD
end function mpif_comm_world

integer function mpif_double_precision()
  implicit none
  include 'mpif.h'
  mpif_double_precision = MPI_DOUBLE_PRECISION
end function mpif_double_precision
