! modules_f08.f90 — `use mpi_f08` program for tests/sh/mpich_fortran_binary.sh calling into
! MPICH's modules: MPI_Sizeof, handle ==, /=, c2f/f2c, status conversions, predefined callbacks,
! MPIX_Delete_error_*, MPICH's ULFM procedures (unsupported: their error, MPI_LASTUSEDCODE kept).
program modules_f08
  use mpi_f08
  implicit none
  integer :: rank, nprocs, ierr, cls, s, fst(MPI_STATUS_SIZE), keydup, keynull, sbuf, rbuf, vlen
  real(8) :: d(3)
  integer :: iv(2)
  complex :: cx
  complex(8) :: zx(2)
  logical :: lv(4), flag
  character(len=5) :: ch
  integer(kind=MPI_ADDRESS_KIND) :: val, lastused
  type(MPI_Status) :: st, st2
  type(MPI_Comm) :: dup, shrunk
  type(MPI_Group) :: acked
  character(len=MPI_MAX_LIBRARY_VERSION_STRING) :: ver
  character(len=MPI_MAX_ERROR_STRING) :: msg
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs)
  ! MPI_Sizeof: bytes of one element, ierror present and absent.
  call MPI_Sizeof(d, s, ierr)
  if (s /= 8 .or. ierr /= MPI_SUCCESS) call fail('sizeof real(8)')
  call MPI_Sizeof(iv, s)
  if (s /= 4) call fail('sizeof integer')
  call MPI_Sizeof(cx, s)
  if (s /= 8) call fail('sizeof complex')
  call MPI_Sizeof(zx, s)
  if (s /= 16) call fail('sizeof complex(8)')
  call MPI_Sizeof(lv, s)
  if (s /= 4) call fail('sizeof logical')
  call MPI_Sizeof(ch, s)
  if (s /= 1) call fail('sizeof character')
  ! Handle operators and conversions.
  if (.not. (MPI_COMM_WORLD == MPI_COMM_WORLD) .or. MPI_COMM_WORLD /= MPI_COMM_WORLD) call fail('==')
  if (MPI_COMM_WORLD == MPI_COMM_SELF .or. .not. (MPI_INTEGER /= MPI_REAL)) call fail('/=')
  if (MPI_Comm_f2c(MPI_COMM_WORLD%MPI_VAL) /= MPI_COMM_WORLD%MPI_VAL) call fail('comm_f2c')
  if (MPI_Comm_c2f(MPI_COMM_SELF%MPI_VAL) /= MPI_COMM_SELF%MPI_VAL) call fail('comm_c2f')
  if (MPI_Datatype_f2c(MPI_REAL%MPI_VAL) /= MPI_REAL%MPI_VAL) call fail('datatype_f2c')
  ! A status from a message to itself, as an INTEGER array and back.
  sbuf = 42 + rank
  call MPI_Sendrecv(sbuf, 1, MPI_INTEGER, rank, 77, rbuf, 1, MPI_INTEGER, rank, 77, MPI_COMM_WORLD, st)
  if (rbuf /= 42 + rank) call fail('sendrecv')
  fst = -1
  call MPI_Status_f082f(st, fst, ierr)
  if (ierr /= MPI_SUCCESS .or. fst(MPI_SOURCE) /= rank .or. fst(MPI_TAG) /= 77 .or. &
      fst(MPI_ERROR) /= st%MPI_ERROR) call fail('status_f082f')
  call MPI_Status_f2f08(fst, st2)
  if (st2%MPI_SOURCE /= rank .or. st2%MPI_TAG /= 77) call fail('status_f2f08')
  call MPI_Get_count(st2, MPI_INTEGER, s)
  if (s /= 1) call fail('count of converted status')
  ! Predefined copy callbacks: MPI_COMM_DUP_FN copies the attribute, MPI_COMM_NULL_COPY_FN not.
  call MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, keydup, 0_MPI_ADDRESS_KIND)
  call MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, keynull, 0_MPI_ADDRESS_KIND)
  call MPI_Comm_set_attr(MPI_COMM_WORLD, keydup, 1234_MPI_ADDRESS_KIND)
  call MPI_Comm_set_attr(MPI_COMM_WORLD, keynull, 5678_MPI_ADDRESS_KIND)
  call MPI_Comm_dup(MPI_COMM_WORLD, dup)
  val = 0
  call MPI_Comm_get_attr(dup, keydup, val, flag)
  if (.not. flag .or. val /= 1234) call fail('MPI_COMM_DUP_FN')
  call MPI_Comm_get_attr(dup, keynull, val, flag)
  if (flag) call fail('MPI_COMM_NULL_COPY_FN')
  call MPI_Comm_free(dup)
  call MPI_Comm_delete_attr(MPI_COMM_WORLD, keydup)
  call MPI_Comm_delete_attr(MPI_COMM_WORLD, keynull)
  call MPI_Comm_free_keyval(keydup)
  call MPI_Comm_free_keyval(keynull)
  ! MPICH's ULFM procedures, which Switchyard lacks: each raises MPI_ERR_UNSUPPORTED_OPERATION on
  ! the communicator it is given (a duplicate that returns errors: MPI_COMM_WORLD's handler is
  ! still MPI_ERRORS_ARE_FATAL), with a message naming it, and makes no error code of the
  ! program's (MPI_LASTUSEDCODE stays as it was).
  call MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, lastused, flag)
  if (.not. flag) call fail('MPI_LASTUSEDCODE')
  call MPI_Comm_dup(MPI_COMM_WORLD, dup)
  call MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN)
  call MPIX_Comm_revoke(dup, ierr)
  call unsupported(ierr, 'MPIX_Comm_revoke')
  call MPIX_Comm_shrink(dup, shrunk, ierr)
  call unsupported(ierr, 'MPIX_Comm_shrink')
  call MPIX_Comm_agree(dup, flag, ierr)
  call unsupported(ierr, 'MPIX_Comm_agree')
  call MPIX_Comm_failure_ack(dup, ierr)
  call unsupported(ierr, 'MPIX_Comm_failure_ack')
  call MPIX_Comm_failure_get_acked(dup, acked, ierr)
  call unsupported(ierr, 'MPIX_Comm_failure_get_acked')
  call MPIX_Comm_revoke(dup, ierr)
  call unsupported(ierr, 'MPIX_Comm_revoke')
  call MPI_Comm_free(dup)
  call MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, val, flag)
  if (.not. flag .or. val /= lastused) call fail('MPI_LASTUSEDCODE changed by the ULFM procedures')
  call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN)
  ! MPICH 4.0's MPIX_Delete_error_* (MPI-4.1's MPI_Remove_error_*): a string, a code and a class
  ! of the program's removed; then the class is gone, a second removal fails.
  call MPI_Add_error_class(cls)
  call MPI_Add_error_code(cls, s)
  call MPI_Add_error_string(s, 'modules_f08 code')
  call MPIX_Delete_error_string(s, ierr)
  if (ierr /= MPI_SUCCESS) call fail('MPIX_Delete_error_string')
  call MPIX_Delete_error_code(s, ierr)
  if (ierr /= MPI_SUCCESS) call fail('MPIX_Delete_error_code')
  call MPIX_Delete_error_class(cls, ierr)
  if (ierr /= MPI_SUCCESS) call fail('MPIX_Delete_error_class')
  call MPIX_Delete_error_class(cls, ierr)
  if (ierr == MPI_SUCCESS) call fail('MPIX_Delete_error_class of a removed class')
  call MPI_Get_library_version(ver, vlen)
  if (rank == 0) print '(a,a)', 'library: ', ver(1:vlen)
  if (rank == 0) call print_loaded_from()
  print '(a,i0,a,i0,a)', 'modules rank ', rank, ' of ', nprocs, ': checked'
  call MPI_Finalize()
contains
  ! unsupported(ierr, name): ierr is of class MPI_ERR_UNSUPPORTED_OPERATION, its message names name.
  subroutine unsupported(ierr, name)
    integer, intent(in) :: ierr
    character(len=*), intent(in) :: name
    integer :: c, n
    call MPI_Error_class(ierr, c)
    if (c /= MPI_ERR_UNSUPPORTED_OPERATION) call fail(name // ' error class')
    call MPI_Error_string(ierr, msg, n)
    if (index(msg(1:n), name) == 0) call fail(name // ' message: ' // msg(1:n))
  end subroutine unsupported
  subroutine fail(what)
    character(len=*), intent(in) :: what
    print '(a,i0,a,a)', 'modules rank ', rank, ' FAILED: ', what
    call MPI_Abort(MPI_COMM_WORLD, 1)
  end subroutine fail
end program modules_f08
