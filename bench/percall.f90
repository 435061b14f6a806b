! percall.f90 — bench/percall.c for Fortran (use mpi): ns per MPI_Comm_rank, MPI_Comm_size,
! MPI_Type_size and MPI_Wtime called in a loop, best of 7 rounds after a pass unmeasured, one
! rank; "NAME 0 VALUE".
program percall
  use mpi
  implicit none
  integer, parameter :: rounds = 7, iters = 1000000
  character(len=12), parameter :: names(4) = &
       [character(len=12) :: 'comm_rank_ns', 'comm_size_ns', 'type_size_ns', 'wtime_ns']
  integer :: ierr, pass, which, k, i, v
  double precision :: t0, t, best, acc

  call MPI_Init(ierr)
  acc = 0
  v = 0
  ! a first pass unmeasured, as bench/percall.c
  do pass = 1, 2
  do which = 1, 4
     best = 1d30
     do k = 1, rounds
        t0 = MPI_Wtime()
        select case (which)
        case (1)
           do i = 1, iters
              call MPI_Comm_rank(MPI_COMM_WORLD, v, ierr)
           end do
        case (2)
           do i = 1, iters
              call MPI_Comm_size(MPI_COMM_WORLD, v, ierr)
           end do
        case (3)
           do i = 1, iters
              call MPI_Type_size(MPI_DOUBLE_PRECISION, v, ierr)
           end do
        case default
           do i = 1, iters
              acc = acc + MPI_Wtime()
           end do
        end select
        t = (MPI_Wtime() - t0) / iters * 1d9
        best = min(best, t)
     end do
     if (pass == 2) write (*, '(A,A,F0.3)') trim(names(which)), ' 0 ', best + 0d0 * (v + acc)
  end do
  end do
  call MPI_Finalize(ierr)
end program percall
