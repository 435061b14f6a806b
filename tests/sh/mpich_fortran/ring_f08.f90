! ring_f08.f90 — `use mpi_f08` program for tests/sh/mpich_fortran_binary.sh: a sendrecv ring
! (value, MPI_SOURCE, MPI_TAG; and one with MPI_STATUS_IGNORE), an allreduce with MPI_IN_PLACE,
! ierror absent and present, the library's version.
program ring_f08
  use mpi_f08
  implicit none
  integer :: rank, nprocs, left, right, sbuf, rbuf, v(2), ierr, vlen
  type(MPI_Comm) :: dup
  type(MPI_Status) :: st
  character(len=MPI_MAX_LIBRARY_VERSION_STRING) :: ver
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  if (ierr /= MPI_SUCCESS) call fail('size')
  call MPI_Comm_dup(MPI_COMM_WORLD, dup)
  if (dup == MPI_COMM_NULL .or. dup%MPI_VAL == MPI_COMM_WORLD%MPI_VAL) call fail('dup')
  right = mod(rank + 1, nprocs)
  left = mod(rank + nprocs - 1, nprocs)
  sbuf = 1000 + rank
  rbuf = -1
  call MPI_Sendrecv(sbuf, 1, MPI_INTEGER, right, 100 + rank, rbuf, 1, MPI_INTEGER, left, &
                    MPI_ANY_TAG, dup, st, ierr)
  if (ierr /= MPI_SUCCESS .or. rbuf /= 1000 + left .or. st%MPI_SOURCE /= left &
      .or. st%MPI_TAG /= 100 + left) call fail('ring')
  rbuf = -1
  call MPI_Sendrecv(sbuf + 1, 1, MPI_INTEGER, right, 7, rbuf, 1, MPI_INTEGER, left, 7, dup, &
                    MPI_STATUS_IGNORE)
  if (rbuf /= 1001 + left) call fail('ring with MPI_STATUS_IGNORE')
  v = [rank + 1, 2 * rank]
  call MPI_Allreduce(MPI_IN_PLACE, v, 2, MPI_INTEGER, MPI_SUM, dup)
  if (v(1) /= nprocs * (nprocs + 1) / 2 .or. v(2) /= nprocs * (nprocs - 1)) call fail('allreduce')
  call MPI_Get_library_version(ver, vlen, ierr)
  if (ierr /= MPI_SUCCESS) call fail('version')
  if (rank == 0) print '(a,a)', 'library: ', ver(1:vlen)
  if (rank == 0) call print_loaded_from()
  print '(a,i0,a,i0,a,i0,a,i0)', 'f08 rank ', rank, ' of ', nprocs, ': from ', left, ' sum ', v(1)
  call MPI_Comm_free(dup, ierr)
  if (ierr /= MPI_SUCCESS .or. dup /= MPI_COMM_NULL) call fail('free')
  call MPI_Finalize()
contains
  subroutine fail(what)
    character(len=*), intent(in) :: what
    print '(a,a,a,i0,a,i0,a,i0,a,i0)', 'FAIL ', what, ': rank ', rank, ' rbuf ', rbuf, &
        ' source ', st%MPI_SOURCE, ' tag ', st%MPI_TAG
    call MPI_Abort(MPI_COMM_WORLD, 1)
  end subroutine fail
end program ring_f08
