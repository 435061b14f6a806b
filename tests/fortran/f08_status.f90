! f08_status.f90 — `mpi_f08` MPI_Status_f082f / MPI_Status_f2f08: a received status to the
! `use mpi` INTEGER array and back, source, tag, error and the count kept.
program f08_status
  use mpi_f08
  implicit none
  integer :: rank, size, ierr, right, left, n
  integer :: sbuf(3), rbuf(5), fst(MPI_STATUS_SIZE)
  type(MPI_Status) :: st, st2

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, size)
  right = mod(rank + 1, size)
  left = mod(rank + size - 1, size)
  sbuf = [rank, rank + 1, rank + 2]
  call MPI_Sendrecv(sbuf, 3, MPI_INTEGER, right, 40 + rank, rbuf, 5, MPI_INTEGER, MPI_ANY_SOURCE, &
                    MPI_ANY_TAG, MPI_COMM_WORLD, st)
  if (st%MPI_SOURCE /= left .or. st%MPI_TAG /= 40 + left) stop 1

  fst = -7
  call MPI_Status_f082f(st, fst, ierr)
  if (ierr /= MPI_SUCCESS) stop 2
  if (fst(MPI_SOURCE) /= left .or. fst(MPI_TAG) /= 40 + left .or. fst(MPI_ERROR) /= st%MPI_ERROR) stop 3

  fst(MPI_TAG) = 99
  call MPI_Status_f2f08(fst, st2)
  if (st2%MPI_SOURCE /= left .or. st2%MPI_TAG /= 99 .or. st2%MPI_ERROR /= st%MPI_ERROR) stop 4
  call MPI_Get_count(st2, MPI_INTEGER, n)
  if (n /= 3) stop 5

  call MPI_Finalize()
  if (rank == 0) print *, 'f08_status ok'
end program f08_status
