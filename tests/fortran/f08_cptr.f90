! f08_cptr.f90 — `mpi_f08` procedures returning TYPE(C_PTR) addresses: MPI_Alloc_mem (written
! through C_F_POINTER, freed), MPI_Buffer_detach, MPI_Win_allocate, MPI_Win_allocate_shared, MPI_Win_shared_query.
program f08_cptr
  use, intrinsic :: iso_c_binding, only: c_ptr, c_f_pointer, c_associated, c_loc, c_null_ptr
  use mpi_f08
  implicit none
  integer, parameter :: N = 10
  integer :: rank, size, ierr, i, bsize, disp, srank, ssize
  integer(kind=MPI_ADDRESS_KIND) :: qsize
  type(c_ptr) :: p, q
  double precision, pointer :: a(:)
  integer, pointer :: w(:), s(:), t(:)
  character, target :: buf(1000)
  integer(kind=MPI_ADDRESS_KIND) :: base
  logical :: flag
  type(MPI_Win) :: win
  type(MPI_Comm) :: shm

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, size)

  ! MPI_Alloc_mem: memory for N doubles, written and read through C_F_POINTER, then freed.
  p = c_null_ptr
  call MPI_Alloc_mem(int(N * 8, MPI_ADDRESS_KIND), MPI_INFO_NULL, p, ierr)
  if (ierr /= MPI_SUCCESS .or. .not. c_associated(p)) stop 1
  call c_f_pointer(p, a, [N])
  do i = 1, N
    a(i) = 1.5d0 * i + rank
  end do
  do i = 1, N
    if (a(i) /= 1.5d0 * i + rank) stop 2
  end do
  call MPI_Free_mem(a, ierr)
  if (ierr /= MPI_SUCCESS) stop 3

  ! MPI_Buffer_detach gives back the attached buffer's address and size.
  call MPI_Buffer_attach(buf, 1000)
  call MPI_Buffer_detach(q, bsize, ierr)
  if (ierr /= MPI_SUCCESS .or. bsize /= 1000) stop 4
  if (.not. c_associated(q, c_loc(buf))) stop 5

  ! MPI_Win_allocate: N integers at baseptr, written through it, the window's MPI_WIN_BASE.
  call MPI_Win_allocate(int(N * 4, MPI_ADDRESS_KIND), 4, MPI_INFO_NULL, MPI_COMM_WORLD, p, win, ierr)
  if (ierr /= MPI_SUCCESS .or. .not. c_associated(p)) stop 6
  call c_f_pointer(p, w, [N])
  do i = 1, N
    w(i) = 1000 * rank + i
  end do
  call MPI_Win_get_attr(win, MPI_WIN_BASE, base, flag)
  if (.not. flag .or. base /= transfer(p, base)) stop 7
  call MPI_Win_get_attr(win, MPI_WIN_SIZE, base, flag)
  if (.not. flag .or. base /= N * 4 .or. w(N) /= 1000 * rank + N) stop 13
  call MPI_Win_free(win)

  ! MPI_Win_allocate_shared: a neighbour's segment read in place through MPI_Win_shared_query.
  call MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, shm)
  call MPI_Comm_rank(shm, srank)
  call MPI_Comm_size(shm, ssize)
  call MPI_Win_allocate_shared(int((srank + N) * 4, MPI_ADDRESS_KIND), 4, MPI_INFO_NULL, shm, p, win, ierr)
  if (ierr /= MPI_SUCCESS .or. .not. c_associated(p)) stop 8
  call c_f_pointer(p, s, [srank + N])
  do i = 1, srank + N
    s(i) = 100 * srank + i
  end do
  call MPI_Barrier(shm)
  call MPI_Win_shared_query(win, mod(srank + 1, ssize), qsize, disp, q, ierr)
  if (ierr /= MPI_SUCCESS .or. disp /= 4) stop 9
  if (qsize /= (mod(srank + 1, ssize) + N) * 4) stop 10
  call c_f_pointer(q, t, [mod(srank + 1, ssize) + N])
  do i = 1, mod(srank + 1, ssize) + N
    if (t(i) /= 100 * mod(srank + 1, ssize) + i) stop 11
  end do
  if (ssize > 1 .and. c_associated(p, q)) stop 12
  call MPI_Barrier(shm)
  call MPI_Win_free(win)
  call MPI_Comm_free(shm)

  call MPI_Finalize()
  if (rank == 0) print *, 'f08_cptr ok'
end program f08_cptr
