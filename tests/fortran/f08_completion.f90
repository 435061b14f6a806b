! f08_completion.f90 — through `use mpi_f08`, MPI_Waitany, MPI_Testany, MPI_Waitsome and
! MPI_Testsome give indices counted from 1 with each status at its place (messages to self).
program f08_completion
  use mpi_f08
  implicit none
  integer, parameter :: n = 4
  integer :: me, i, k, idx, outcount, got, pass, rbuf(n), sbuf(n), indices(n)
  logical :: flag, seen(n)
  type(MPI_Request) :: reqs(n), sreqs(n)
  type(MPI_Status) :: sts(n)

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, me)
  do pass = 1, 4
    rbuf = -1
    do i = 1, n
      call MPI_Irecv(rbuf(i), 1, MPI_INTEGER, me, i, MPI_COMM_WORLD, reqs(i))
    end do
    reqs(3) = MPI_REQUEST_NULL
    do i = n, 1, -1
      sbuf(i) = 10 * pass + i
      if (i /= 3) call MPI_Isend(sbuf(i), 1, MPI_INTEGER, me, i, MPI_COMM_WORLD, sreqs(i))
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
      case default
        call MPI_Testany(n, reqs, idx, flag, sts(1))
        indices(1) = idx
        outcount = merge(1, 0, flag)
      end select
      do k = 1, outcount
        i = indices(k)
        if (i < 1 .or. i > n) stop 1
        if (seen(i)) stop 2
        seen(i) = .true.
        if (sts(k)%MPI_SOURCE /= me .or. sts(k)%MPI_TAG /= i) stop 3
        if (rbuf(i) /= 10 * pass + i) stop 4
      end do
      got = got + outcount
    end do
    call MPI_Waitall(n, sreqs, MPI_STATUSES_IGNORE)
  end do
  call MPI_Finalize()
end program f08_completion
