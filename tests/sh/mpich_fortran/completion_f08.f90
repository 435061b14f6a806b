! completion_f08.f90 — `use mpi_f08` program for tests/sh/mpich_fortran_binary.sh: MPI_Waitany,
! MPI_Testany, MPI_Waitsome and MPI_Testsome give indices counted from 1 with each status at its
! place (messages to self); MPI_WAITSOME through `use mpi` (mpif.h entry points) likewise.
! MPICH 4.0.2's own libmpichfort.so.12 gives the mpi_f08 ones counted from 0 (measured: this
! program fails there at pass 1); the standard, and Switchyard's, count from 1.
program completion_f08
  use mpi_f08
  implicit none
  integer, parameter :: n = 4
  integer :: rank, nprocs, i, k, outcount, got, pass, vlen, ierr, rbuf(n), sbuf(n), indices(n)
  logical :: flag, seen(n)
  type(MPI_Request) :: reqs(n), sreqs(n)
  type(MPI_Status) :: sts(n)
  character(len=MPI_MAX_LIBRARY_VERSION_STRING) :: ver
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs)
  do pass = 1, 5
    rbuf = -1
    do i = 1, n
      call MPI_Irecv(rbuf(i), 1, MPI_INTEGER, rank, i, MPI_COMM_WORLD, reqs(i))
    end do
    reqs(3) = MPI_REQUEST_NULL
    do i = n, 1, -1
      sbuf(i) = 10 * pass + i
      if (i /= 3) call MPI_Isend(sbuf(i), 1, MPI_INTEGER, rank, i, MPI_COMM_WORLD, sreqs(i))
    end do
    sreqs(3) = MPI_REQUEST_NULL
    seen = .false.
    seen(3) = .true.
    got = 0
    do while (got < n - 1)
      select case (pass)
      case (1)
        call MPI_Waitsome(n, reqs, outcount, indices, sts)
      case (2)
        call MPI_Testsome(n, reqs, outcount, indices, sts)
      case (3)
        call MPI_Waitany(n, reqs, indices(1), sts(1))
        outcount = 1
      case (4)
        call MPI_Testany(n, reqs, indices(1), flag, sts(1))
        outcount = merge(1, 0, flag)
      case default
        call waitsome_usempi(n, reqs%MPI_VAL, outcount, indices)
        sts(1:outcount)%MPI_SOURCE = rank
        do k = 1, outcount
          sts(k)%MPI_TAG = indices(k)
        end do
      end select
      do k = 1, outcount
        i = indices(k)
        if (i < 1 .or. i > n) call fail('an index outside 1..n', i)
        if (seen(i)) call fail('an index given twice or that of a null request', i)
        seen(i) = .true.
        if (sts(k)%MPI_SOURCE /= rank .or. sts(k)%MPI_TAG /= i) call fail('a status not at its place', i)
        if (rbuf(i) /= 10 * pass + i) call fail('data', i)
      end do
      got = got + outcount
    end do
    call MPI_Waitall(n, sreqs, MPI_STATUSES_IGNORE)
  end do
  call MPI_Get_library_version(ver, vlen, ierr)
  if (rank == 0) print '(a,a)', 'library: ', ver(1:vlen)
  if (rank == 0) call print_loaded_from()
  print '(a,i0,a,i0,a)', 'completion rank ', rank, ' of ', nprocs, ': checked'
  call MPI_Finalize()
contains
  subroutine fail(what, i)
    character(len=*), intent(in) :: what
    integer, intent(in) :: i
    print '(a,a,a,i0,a,i0,a,i0)', 'FAIL ', what, ': rank ', rank, ' pass ', pass, ' index ', i
    call MPI_Abort(MPI_COMM_WORLD, 1)
  end subroutine fail
end program completion_f08

! MPI_WAITSOME of `use mpi` (the mpif.h entry point) on the same requests
subroutine waitsome_usempi(n, reqs, outcount, indices)
  use mpi
  implicit none
  integer, intent(in) :: n
  integer, intent(inout) :: reqs(n)
  integer, intent(out) :: outcount, indices(n)
  integer :: sts(MPI_STATUS_SIZE, n), ierr
  call MPI_WAITSOME(n, reqs, outcount, indices, sts, ierr)
  if (ierr /= MPI_SUCCESS) outcount = 0
end subroutine waitsome_usempi
