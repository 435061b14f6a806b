! ring_f77.f90 — `include 'mpif.h'` program for tests/sh/mpich_fortran_binary.sh: a sendrecv
! ring (value, MPI_SOURCE, MPI_TAG), an allreduce with MPI_IN_PLACE, the library's version.
program ring_f77
  implicit none
  include 'mpif.h'
  integer :: rank, nprocs, dup, left, right, sbuf, rbuf, v, ierr, vlen
  integer :: st(MPI_STATUS_SIZE)
  character(len=MPI_MAX_LIBRARY_VERSION_STRING) :: ver
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  call MPI_Comm_dup(MPI_COMM_WORLD, dup, ierr)
  right = mod(rank + 1, nprocs)
  left = mod(rank + nprocs - 1, nprocs)
  sbuf = 1000 + rank
  call MPI_Sendrecv(sbuf, 1, MPI_INTEGER, right, 100 + rank, rbuf, 1, MPI_INTEGER, left, &
                    MPI_ANY_TAG, dup, st, ierr)
  if (ierr /= MPI_SUCCESS .or. rbuf /= 1000 + left .or. st(MPI_SOURCE) /= left &
      .or. st(MPI_TAG) /= 100 + left) then
    print *, 'FAIL ring', rank, ierr, rbuf, st(MPI_SOURCE), st(MPI_TAG)
    call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
  end if
  v = rank + 1
  call MPI_Allreduce(MPI_IN_PLACE, v, 1, MPI_INTEGER, MPI_SUM, dup, ierr)
  if (ierr /= MPI_SUCCESS .or. v /= nprocs * (nprocs + 1) / 2) then
    print *, 'FAIL allreduce', rank, v
    call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
  end if
  call MPI_Get_library_version(ver, vlen, ierr)
  if (rank == 0) print '(a,a)', 'library: ', ver(1:vlen)
  if (rank == 0) call print_loaded_from()
  print '(a,i0,a,i0,a,i0,a,i0)', 'f77 rank ', rank, ' of ', nprocs, ': from ', left, ' sum ', v
  call MPI_Comm_free(dup, ierr)
  call MPI_Finalize(ierr)
end program ring_f77
