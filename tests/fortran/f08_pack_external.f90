! f08_pack_external.f90 — the large-count forms of MPI_Pack_external, MPI_Unpack_external and
! MPI_Pack_external_size in `use mpi_f08`, chosen by INTEGER(KIND=MPI_COUNT_KIND) counts, whose
! datarep is a CHARACTER string: sizes, the big-endian bytes of "external32" and the round trip.
program f08_pack_external
  use mpi_f08
  implicit none
  integer :: ierr, v(3), w(4)
  integer(kind=1) :: buf(64)
  integer(kind=MPI_COUNT_KIND) :: n, sz, pos, ipos
  integer(kind=MPI_ADDRESS_KIND) :: asz, apos
  character(len=12) :: rep

  call MPI_Init()
  n = 3_MPI_COUNT_KIND
  sz = -1
  call MPI_Pack_external_size('external32', n, MPI_INTEGER, sz, ierr)
  if (ierr /= MPI_SUCCESS .or. sz /= 12) stop 1
  rep = 'external32'   ! trailing blanks are not part of the name
  sz = -1
  call MPI_Pack_external_size(rep, 2_MPI_COUNT_KIND, MPI_DOUBLE_PRECISION, sz)
  if (sz /= 16) stop 2

  v = [258, -1, 16909060]
  buf = 0
  pos = 0
  call MPI_Pack_external(rep, v, n, MPI_INTEGER, buf, 64_MPI_COUNT_KIND, pos, ierr)
  if (ierr /= MPI_SUCCESS .or. pos /= 12) stop 3
  if (any(buf(1:4) /= [0_1, 0_1, 1_1, 2_1])) stop 4
  if (any(buf(5:8) /= -1_1)) stop 5
  if (any(buf(9:12) /= [1_1, 2_1, 3_1, 4_1]) .or. buf(13) /= 0) stop 6

  w = -7
  ipos = 0
  call MPI_Unpack_external('external32', buf, pos, ipos, w, n, MPI_INTEGER, ierr)
  if (ierr /= MPI_SUCCESS .or. ipos /= 12) stop 7
  if (any(w(1:3) /= v) .or. w(4) /= -7) stop 8

  ! a position past the buffer's end is an error, reported through ierror
  call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN)
  ipos = 10
  call MPI_Unpack_external('external32', buf, 12_MPI_COUNT_KIND, ipos, w, n, MPI_INTEGER, ierr)
  if (ierr == MPI_SUCCESS) stop 9

  ! the small forms still answer with MPI_ADDRESS_KIND sizes
  call MPI_Pack_external_size('external32', 3, MPI_INTEGER, asz, ierr)
  if (ierr /= MPI_SUCCESS .or. asz /= 12) stop 10
  apos = 0
  call MPI_Pack_external('external32', v, 3, MPI_INTEGER, buf, 64_MPI_ADDRESS_KIND, apos, ierr)
  if (ierr /= MPI_SUCCESS .or. apos /= 12 .or. any(buf(1:4) /= [0_1, 0_1, 1_1, 2_1])) stop 11

  call MPI_Finalize()
  print '(a)', 'f08_pack_external ok'
end program f08_pack_external
