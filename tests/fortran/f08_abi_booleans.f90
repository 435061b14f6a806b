! f08_abi_booleans.f90 — MPI_Abi_get_fortran_booleans and MPI_Abi_set_fortran_booleans (MPI-5.0)
! in `use mpi_f08`: LOGICAL arguments passed by address, their bytes kept as they are, before
! MPI_Init as the standard allows; the defaults, a set pattern read back, and a restore.
program f08_abi_booleans
  use mpi_f08
  implicit none
  integer :: ierr, me
  logical :: lt, lf, is_set, t0, f1

  lt = .false.
  lf = .true.
  is_set = .true.
  call MPI_Abi_get_fortran_booleans(4, lt, lf, is_set, ierr)
  if (ierr /= MPI_SUCCESS) stop 1
  if (is_set) stop 2                              ! nobody set them yet
  if (transfer(lt, 0) /= 1 .or. transfer(lf, 0) /= 0) stop 3

  ! the two swapped (a true of bit pattern 0, a false of 1): set, then read back byte for byte
  t0 = .false.
  f1 = .true.
  call MPI_Abi_set_fortran_booleans(4, t0, f1, ierr)
  if (ierr /= MPI_SUCCESS) stop 4
  lt = .false.
  lf = .true.
  ! keywords: the module's explicit interface, not mpif.h's external procedure
  call MPI_Abi_get_fortran_booleans(logical_size=4, logical_true=lt, logical_false=lf, is_set=is_set)
  if (.not. is_set) stop 5
  if (transfer(lt, 0) /= 0 .or. transfer(lf, 0) /= 1) stop 6

  ! restore gfortran's own values; other sizes are untouched
  call MPI_Abi_set_fortran_booleans(logical_size=4, logical_true=.true., logical_false=.false.)
  call MPI_Abi_get_fortran_booleans(4, lt, lf, is_set)
  if (.not. is_set .or. transfer(lt, 0) /= transfer(.true., 0) .or. transfer(lf, 0) /= 0) stop 7
  lt = .false.                                    ! size 1 writes the low byte only
  call MPI_Abi_get_fortran_booleans(1, lt, lf, is_set, ierr)
  if (ierr /= MPI_SUCCESS .or. is_set .or. transfer(lt, 0) /= 1) stop 8

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, me)
  call MPI_Abi_get_fortran_booleans(4, lt, lf, is_set, ierr)
  if (ierr /= MPI_SUCCESS .or. .not. is_set .or. .not. lt .or. lf) stop 9
  call MPI_Finalize()
  if (me == 0) print '(a)', 'f08_abi_booleans ok'
end program f08_abi_booleans
