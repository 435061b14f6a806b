! f90_attr.f90 — caching from Fortran (`use mpi`): Fortran copy/delete callbacks with
! address-sized values, the predefined callbacks, the value model across the old and new calls,
! and across languages (f90_attr_c.c: C sets, reads and has callbacks; MPI-5.0 20.3.7).
module f90_attr_cb
  use mpi
  use iso_c_binding, only: c_int, c_intptr_t
  implicit none
  interface ! f90_attr_c.c
    integer(c_int) function c_get(comm, keyval, how, val) bind(C, name='f90_attr_c_get')
      import :: c_int, c_intptr_t
      integer(c_int), value :: comm, keyval, how
      integer(c_intptr_t) :: val
    end function c_get
    integer(c_int) function c_set(comm, keyval, val) bind(C, name='f90_attr_c_set')
      import :: c_int, c_intptr_t
      integer(c_int), value :: comm, keyval
      integer(c_intptr_t), value :: val
    end function c_set
    integer(c_intptr_t) function c_target() bind(C, name='f90_attr_c_target')
      import :: c_intptr_t
    end function c_target
    integer(c_int) function c_low32(v) bind(C, name='f90_attr_c_low32')
      import :: c_int, c_intptr_t
      integer(c_intptr_t), value :: v
    end function c_low32
    integer(c_int) function c_nseen() bind(C, name='f90_attr_c_nseen')
      import :: c_int
    end function c_nseen
    integer(c_intptr_t) function c_seen(i) bind(C, name='f90_attr_c_seen')
      import :: c_int, c_intptr_t
      integer(c_int), value :: i
    end function c_seen
    subroutine c_reset() bind(C, name='f90_attr_c_reset')
    end subroutine c_reset
    integer(c_int) function c_watch(comm, keyval) bind(C, name='f90_attr_c_watch')
      import :: c_int
      integer(c_int), value :: comm, keyval
    end function c_watch
    integer(c_intptr_t) function c_watched() bind(C, name='f90_attr_c_watched')
      import :: c_intptr_t
    end function c_watched
    integer(c_int) function c_keyval(how, keyval) bind(C, name='f90_attr_c_keyval')
      import :: c_int
      integer(c_int), value :: how
      integer(c_int) :: keyval
    end function c_keyval
  end interface
  integer, parameter :: ak = MPI_ADDRESS_KIND
  integer :: nlog = 0
  logical :: strict = .false.          ! my_delete fails on 667 only while set
  integer(kind=ak) :: logv(64)          ! what the callbacks saw, in call order
  integer(kind=ak), parameter :: xs = 2_ak**40 + 77   ! extra_state: needs the address kind
contains
  subroutine note(v)
    integer(kind=ak), intent(in) :: v
    nlog = nlog + 1
    logv(nlog) = v
  end subroutine note

  ! Copies value+1 unless the value is 100 (flag .false.); value 666 fails with MPI_ERR_OTHER.
  subroutine my_copy(oldcomm, keyval, extra, vin, vout, flag, ierr)
    integer :: oldcomm, keyval, ierr
    integer(kind=ak) :: extra, vin, vout
    logical :: flag
    if (extra /= xs .or. oldcomm == MPI_COMM_NULL .or. keyval == MPI_KEYVAL_INVALID) stop 90
    call note(1000 + vin)
    if (vin == 666) then
      ierr = MPI_ERR_OTHER
      return
    end if
    flag = vin /= 100
    vout = vin + 1
    ierr = MPI_SUCCESS
  end subroutine my_copy

  ! Records the value; value 667 fails with MPI_ERR_OTHER while `strict`.
  subroutine my_delete(comm, keyval, val, extra, ierr)
    integer :: comm, keyval, ierr
    integer(kind=ak) :: val, extra
    if (extra /= xs .or. comm == MPI_COMM_NULL .or. keyval == MPI_KEYVAL_INVALID) stop 91
    call note(2000 + val)
    ierr = MPI_SUCCESS
    if (val == 667 .and. strict) ierr = MPI_ERR_OTHER
  end subroutine my_delete

  ! MPI-1 (MPI_KEYVAL_CREATE) callbacks: INTEGER values; record, copy value+1
  subroutine old_copy(oldcomm, keyval, extra, vin, vout, flag, ierr)
    integer :: oldcomm, keyval, extra, vin, vout, ierr
    logical :: flag
    if (extra /= 9 .or. oldcomm == MPI_COMM_NULL .or. keyval == MPI_KEYVAL_INVALID) stop 92
    call note(int(vin, ak))
    vout = vin + 1
    flag = .true.
    ierr = MPI_SUCCESS
  end subroutine old_copy

  subroutine old_delete(comm, keyval, val, extra, ierr)
    integer :: comm, keyval, val, extra, ierr
    if (extra /= 9 .or. comm == MPI_COMM_NULL .or. keyval == MPI_KEYVAL_INVALID) stop 93
    call note(int(val, ak))
    ierr = MPI_SUCCESS
  end subroutine old_delete
end module f90_attr_cb

program f90_attr
  use mpi
  use f90_attr_cb
  implicit none
  integer :: ierr, k1, k2, k3, kd, kn, c1, c2, c3, ival, tag_ub
  integer(kind=ak) :: v, big
  logical :: flag, flag2
  integer :: ierr2, c4, c5, kf, kca, kci, ko
  integer(kind=ak) :: addr, cbig

  call MPI_INIT(ierr)
  call MPI_COMM_DUP(MPI_COMM_WORLD, c1, ierr)
  call MPI_COMM_SET_ERRHANDLER(c1, MPI_ERRORS_RETURN, ierr)

  ! --- user callbacks: extra_state by value (address-sized), copy on dup, delete on free;
  ! attributes are kept newest first, and copied and deleted in that order
  call MPI_COMM_CREATE_KEYVAL(my_copy, my_delete, k1, xs, ierr)
  if (ierr /= MPI_SUCCESS .or. k1 == MPI_KEYVAL_INVALID) stop 1
  call MPI_COMM_CREATE_KEYVAL(my_copy, my_delete, k2, xs, ierr)
  call MPI_COMM_CREATE_KEYVAL(my_copy, my_delete, k3, xs, ierr)
  call MPI_COMM_SET_ATTR(c1, k1, 41_ak, ierr)
  call MPI_COMM_SET_ATTR(c1, k2, 100_ak, ierr)     ! its copy says .false.
  if (ierr /= MPI_SUCCESS .or. nlog /= 0) stop 2
  call MPI_COMM_DUP(c1, c2, ierr)
  if (ierr /= MPI_SUCCESS .or. nlog /= 2) stop 3
  if (logv(1) /= 1100 .or. logv(2) /= 1041) stop 4
  call MPI_COMM_GET_ATTR(c2, k1, v, flag, ierr)
  if (ierr /= MPI_SUCCESS .or. .not. flag .or. v /= 42) stop 5
  call MPI_COMM_GET_ATTR(c2, k2, v, flag, ierr)
  if (ierr /= MPI_SUCCESS .or. flag) stop 6
  ! replacing calls delete on the old value; delete_attr on the new one
  call MPI_COMM_SET_ATTR(c2, k1, 50_ak, ierr)
  if (ierr /= MPI_SUCCESS .or. nlog /= 3 .or. logv(3) /= 2042) stop 7
  call MPI_COMM_DELETE_ATTR(c2, k1, ierr)
  if (ierr /= MPI_SUCCESS .or. nlog /= 4 .or. logv(4) /= 2050) stop 8
  call MPI_COMM_GET_ATTR(c2, k1, v, flag, ierr)
  if (ierr /= MPI_SUCCESS .or. flag) stop 9
  call MPI_COMM_DELETE_ATTR(c2, k1, ierr)           ! not set: nothing called
  if (ierr /= MPI_SUCCESS .or. nlog /= 4) stop 10
  call MPI_COMM_FREE(c2, ierr)
  if (ierr /= MPI_SUCCESS .or. nlog /= 4 .or. c2 /= MPI_COMM_NULL) stop 11
  call MPI_COMM_DUP(c1, c2, ierr)                   ! k1 -> 42 copied, k2 left out
  call MPI_COMM_SET_ATTR(c2, k2, 7_ak, ierr)
  nlog = 0
  call MPI_COMM_FREE(c2, ierr)                      ! newest first
  if (ierr /= MPI_SUCCESS .or. nlog /= 2 .or. logv(1) /= 2007 .or. logv(2) /= 2042) stop 12

  ! --- failing callbacks: IERROR fails the call; copies already made are deleted again
  call MPI_COMM_SET_ATTR(c1, k2, 666_ak, ierr)      ! replaces 100: delete(100)
  call MPI_COMM_SET_ATTR(c1, k3, 5_ak, ierr)        ! c1: k3=5, k2=666, k1=41
  nlog = 0
  call MPI_COMM_DUP(c1, c2, ierr)                   ! copy(5) -> 6, copy(666) fails
  if (ierr == MPI_SUCCESS) stop 13
  if (nlog /= 3 .or. logv(1) /= 1005 .or. logv(2) /= 1666 .or. logv(3) /= 2006) stop 14
  call MPI_COMM_SET_ATTR(c1, k2, 667_ak, ierr)      ! delete(666) succeeds
  if (ierr /= MPI_SUCCESS) stop 15
  strict = .true.
  nlog = 0
  call MPI_COMM_DELETE_ATTR(c1, k2, ierr)           ! delete(667) fails, attribute kept
  if (ierr == MPI_SUCCESS .or. nlog /= 1 .or. logv(1) /= 2667) stop 16
  call MPI_COMM_GET_ATTR(c1, k2, v, flag, ierr)
  if (ierr /= MPI_SUCCESS .or. .not. flag .or. v /= 667) stop 17
  call MPI_COMM_SET_ATTR(c1, k2, 1_ak, ierr)        ! replacing fails the same way
  if (ierr == MPI_SUCCESS) stop 18
  call MPI_COMM_GET_ATTR(c1, k2, v, flag, ierr)
  if (.not. flag .or. v /= 667) stop 19
  strict = .false.
  call MPI_COMM_DELETE_ATTR(c1, k2, ierr)
  call MPI_COMM_DELETE_ATTR(c1, k3, ierr)           ! c1: k1=41
  if (ierr /= MPI_SUCCESS) stop 20

  ! --- the predefined Fortran callbacks, and a freed keyval's callbacks still running
  call MPI_COMM_CREATE_KEYVAL(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, kd, 0_ak, ierr)
  call MPI_COMM_CREATE_KEYVAL(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, kn, 0_ak, ierr)
  if (ierr /= MPI_SUCCESS) stop 21
  big = -(2_ak**40) - 3
  call MPI_COMM_SET_ATTR(c1, kd, big, ierr)
  call MPI_COMM_SET_ATTR(c1, kn, 5_ak, ierr)        ! c1: kn=5, kd=big, k1=41
  call MPI_COMM_FREE_KEYVAL(k1, ierr)
  if (ierr /= MPI_SUCCESS .or. k1 /= MPI_KEYVAL_INVALID) stop 22
  nlog = 0
  call MPI_COMM_DUP(c1, c3, ierr)                   ! NULL_COPY: out; DUP: big; copy(41)
  if (ierr /= MPI_SUCCESS .or. nlog /= 1 .or. logv(1) /= 1041) stop 23
  call MPI_COMM_GET_ATTR(c3, kd, v, flag, ierr)
  if (ierr /= MPI_SUCCESS .or. .not. flag .or. v /= big) stop 24
  call MPI_COMM_GET_ATTR(c3, kn, v, flag, ierr)
  if (ierr /= MPI_SUCCESS .or. flag) stop 25

  ! --- the value model: address-sized set, INTEGER get truncates; INTEGER put sign-extends
  call MPI_ATTR_GET(c3, kd, ival, flag, ierr)
  if (ierr /= MPI_SUCCESS .or. .not. flag .or. ival /= -3) stop 26
  call MPI_COMM_SET_ATTR(c3, kn, 2_ak**31 + 5, ierr)
  call MPI_ATTR_GET(c3, kn, ival, flag, ierr)
  if (ierr /= MPI_SUCCESS .or. .not. flag .or. ival /= -2147483643) stop 27
  call MPI_ATTR_PUT(c3, kn, -12, ierr)
  call MPI_COMM_GET_ATTR(c3, kn, v, flag, ierr)
  if (ierr /= MPI_SUCCESS .or. .not. flag .or. v /= -12_ak) stop 28
  call MPI_ATTR_PUT(c3, kn, huge(ival), ierr)
  call MPI_COMM_GET_ATTR(c3, kn, v, flag, ierr)
  if (.not. flag .or. v /= int(huge(ival), ak)) stop 29
  call MPI_ATTR_GET(c3, kn, ival, flag, ierr)
  if (.not. flag .or. ival /= huge(ival)) stop 30

  ! --- predefined attributes are values in Fortran, through both calls
  call MPI_COMM_GET_ATTR(MPI_COMM_WORLD, MPI_TAG_UB, v, flag, ierr)
  if (ierr /= MPI_SUCCESS .or. .not. flag .or. v < 32767) stop 29
  call MPI_ATTR_GET(MPI_COMM_WORLD, MPI_TAG_UB, tag_ub, flag, ierr)
  if (ierr /= MPI_SUCCESS .or. .not. flag .or. int(tag_ub, ak) /= v) stop 40
  call MPI_COMM_GET_ATTR(MPI_COMM_WORLD, MPI_WTIME_IS_GLOBAL, v, flag, ierr)
  if (ierr /= MPI_SUCCESS .or. (flag .and. v /= 0 .and. v /= 1)) stop 31
  ! MPI_HOST, MPI_IO and MPI_LASTUSEDCODE hold runtime constants that the C face is to map to
  ! its own values (issue 18.11: then MPI_PROC_NULL, MPI_ANY_SOURCE, >= MPI_ERR_LASTCODE);
  ! here: Fortran gets the same value through both calls, not a pointer.
  call MPI_ATTR_GET(MPI_COMM_WORLD, MPI_HOST, ival, flag, ierr)
  call MPI_COMM_GET_ATTR(MPI_COMM_WORLD, MPI_HOST, v, flag2, ierr2)
  if (ierr /= MPI_SUCCESS .or. ierr2 /= MPI_SUCCESS .or. .not. (flag .and. flag2)) stop 32
  if (int(ival, ak) /= v .or. abs(v) > 2**20) stop 33
  call MPI_ATTR_GET(MPI_COMM_WORLD, MPI_IO, ival, flag, ierr)
  call MPI_COMM_GET_ATTR(MPI_COMM_WORLD, MPI_IO, v, flag2, ierr2)
  if (ierr /= MPI_SUCCESS .or. .not. (flag .and. flag2) .or. int(ival, ak) /= v .or. abs(v) > 2**20) stop 34
  call MPI_COMM_GET_ATTR(MPI_COMM_WORLD, MPI_LASTUSEDCODE, v, flag, ierr)
  if (ierr /= MPI_SUCCESS .or. .not. flag .or. v < 1 .or. v > huge(ival)) stop 35
  call MPI_COMM_GET_ATTR(MPI_COMM_WORLD, MPI_APPNUM, v, flag, ierr)
  if (ierr /= MPI_SUCCESS .or. (flag .and. v /= 0)) stop 36
  call MPI_COMM_GET_ATTR(MPI_COMM_WORLD, MPI_UNIVERSE_SIZE, v, flag, ierr)
  if (ierr /= MPI_SUCCESS .or. (flag .and. v < 1)) stop 39
  call MPI_COMM_SET_ATTR(c1, MPI_TAG_UB, 5_ak, ierr) ! predefined: cannot be set
  if (ierr == MPI_SUCCESS) stop 37
  call MPI_ATTR_PUT(c1, MPI_TAG_UB, 5, ierr)
  if (ierr == MPI_SUCCESS) stop 38

  ! --- freeing runs the delete callbacks, newest first (kn, kd: NULL_DELETE_FN)
  nlog = 0
  call MPI_COMM_FREE(c3, ierr)
  if (ierr /= MPI_SUCCESS .or. nlog /= 1 .or. logv(1) /= 2042) stop 50
  call MPI_COMM_FREE(c1, ierr)
  if (ierr /= MPI_SUCCESS .or. nlog /= 2 .or. logv(2) /= 2041) stop 51
  call MPI_COMM_FREE_KEYVAL(k2, ierr)
  call MPI_COMM_FREE_KEYVAL(k3, ierr)
  call MPI_COMM_FREE_KEYVAL(kd, ierr)
  call MPI_COMM_FREE_KEYVAL(kn, ierr)
  if (ierr /= MPI_SUCCESS .or. kn /= MPI_KEYVAL_INVALID) stop 52

  ! --- across languages (MPI-5.0 20.3.7): C sets pointers, Fortran integers. C reads a
  ! pointer as set, and a Fortran-set value as a pointer TO it (MPI_Aint after
  ! MPI_COMM_SET_ATTR, int after MPI_ATTR_PUT); Fortran reads the value (a C pointer as an
  ! address), MPI_ATTR_GET its low 32 bits
  call MPI_COMM_DUP(MPI_COMM_WORLD, c4, ierr)
  call MPI_COMM_CREATE_KEYVAL(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, kf, 0_ak, ierr)
  addr = c_target()
  if (c_set(c4, kf, addr) /= MPI_SUCCESS) stop 60
  if (c_get(c4, kf, 0, v) /= 1 .or. v /= addr) stop 61       ! C: the pointer itself
  if (c_get(c4, kf, 2, v) /= 1 .or. v /= 314) stop 62
  call MPI_COMM_GET_ATTR(c4, kf, v, flag, ierr)
  if (ierr /= MPI_SUCCESS .or. .not. flag .or. v /= addr) stop 63
  call MPI_ATTR_GET(c4, kf, ival, flag, ierr)
  if (ierr /= MPI_SUCCESS .or. .not. flag .or. ival /= c_low32(addr)) stop 64
  cbig = 2_ak**36 + 2_ak**31 + 5                        ! a "pointer" C sets, bit 31 set
  if (c_set(c4, kf, cbig) /= MPI_SUCCESS) stop 65
  call MPI_COMM_GET_ATTR(c4, kf, v, flag, ierr)
  if (ierr /= MPI_SUCCESS .or. .not. flag .or. v /= cbig) stop 66
  call MPI_ATTR_GET(c4, kf, ival, flag, ierr)
  if (ierr /= MPI_SUCCESS .or. .not. flag .or. ival /= -2147483643) stop 67
  if (c_get(c4, kf, 0, v) /= 1 .or. v /= cbig) stop 68
  ! Fortran MPI_COMM_SET_ATTR: C gets a pointer to the MPI_Aint
  big = 2_ak**40 + 5
  call MPI_COMM_SET_ATTR(c4, kf, big, ierr)
  if (c_get(c4, kf, 0, v) /= 1 .or. v == big .or. v == 0) stop 69
  if (c_get(c4, kf, 1, v) /= 1 .or. v /= big) stop 70
  call MPI_COMM_GET_ATTR(c4, kf, v, flag, ierr)
  if (ierr /= MPI_SUCCESS .or. .not. flag .or. v /= big) stop 71
  call MPI_ATTR_GET(c4, kf, ival, flag, ierr)
  if (ierr /= MPI_SUCCESS .or. .not. flag .or. ival /= 5) stop 72
  call MPI_COMM_SET_ATTR(c4, kf, -(2_ak**40) - 3, ierr)
  if (c_get(c4, kf, 1, v) /= 1 .or. v /= -(2_ak**40) - 3) stop 73
  call MPI_ATTR_GET(c4, kf, ival, flag, ierr)
  if (.not. flag .or. ival /= -3) stop 74
  ! Fortran MPI_ATTR_PUT: C gets a pointer to the int; MPI_COMM_GET_ATTR sign-extends
  call MPI_ATTR_PUT(c4, kf, -12, ierr)
  if (ierr /= MPI_SUCCESS) stop 75
  if (c_get(c4, kf, 0, v) /= 1 .or. v == -12 .or. v == 0) stop 76
  if (c_get(c4, kf, 2, v) /= 1 .or. v /= -12) stop 77
  call MPI_COMM_GET_ATTR(c4, kf, v, flag, ierr)
  if (ierr /= MPI_SUCCESS .or. .not. flag .or. v /= -12_ak) stop 78
  call MPI_ATTR_GET(c4, kf, ival, flag, ierr)
  if (ierr /= MPI_SUCCESS .or. .not. flag .or. ival /= -12) stop 79
  call MPI_ATTR_PUT(c4, kf, huge(ival), ierr)
  if (c_get(c4, kf, 2, v) /= 1 .or. v /= int(huge(ival), ak)) stop 80
  ! and C sets again: a pointer again
  if (c_set(c4, kf, addr) /= MPI_SUCCESS) stop 81
  if (c_get(c4, kf, 0, v) /= 1 .or. v /= addr) stop 82

  ! C callbacks get what C get returns: pointers to the MPI_Aint / int Fortran set; a C copy
  ! that returns the pointer it got (as MPI_COMM_DUP_FN) copies the value
  if (c_keyval(1, kca) /= MPI_SUCCESS .or. c_keyval(2, kci) /= MPI_SUCCESS) stop 83
  call MPI_COMM_SET_ATTR(c4, kca, big, ierr)
  call MPI_ATTR_PUT(c4, kci, -7, ierr)              ! c4: kci=-7, kca=big, kf=addr
  call c_reset()
  call MPI_COMM_DUP(c4, c5, ierr)
  if (ierr /= MPI_SUCCESS .or. c_nseen() /= 2) stop 84
  if (c_seen(1) /= -7 .or. c_seen(2) /= big) stop 85
  if (c_get(c5, kca, 1, v) /= 1 .or. v /= big) stop 86
  if (c_get(c5, kci, 2, v) /= 1 .or. v /= -7) stop 87
  call MPI_COMM_GET_ATTR(c5, kca, v, flag, ierr)
  if (ierr /= MPI_SUCCESS .or. .not. flag .or. v /= big) stop 88
  call MPI_COMM_GET_ATTR(c5, kci, v, flag, ierr)
  if (ierr /= MPI_SUCCESS .or. .not. flag .or. v /= -7_ak) stop 89
  call MPI_ATTR_GET(c5, kci, ival, flag, ierr)
  if (ierr /= MPI_SUCCESS .or. .not. flag .or. ival /= -7) stop 94
  call MPI_ATTR_PUT(c5, kci, 8, ierr)               ! delete(-7) on replacing
  if (ierr /= MPI_SUCCESS .or. c_nseen() /= 3 .or. c_seen(3) /= -7) stop 95
  call MPI_COMM_DELETE_ATTR(c5, kca, ierr)
  if (ierr /= MPI_SUCCESS .or. c_nseen() /= 4 .or. c_seen(4) /= big) stop 96
  call MPI_COMM_FREE(c5, ierr)
  if (ierr /= MPI_SUCCESS .or. c_nseen() /= 5 .or. c_seen(5) /= 8) stop 97
  call MPI_COMM_DELETE_ATTR(c4, kca, ierr)
  call MPI_COMM_DELETE_ATTR(c4, kci, ierr)
  if (c_nseen() /= 7) stop 98

  ! Fortran callbacks get what Fortran get returns: a C pointer as an address (MPI-2
  ! keyval) or its low 32 bits (MPI_KEYVAL_CREATE); the copies are Fortran integers
  call MPI_COMM_DELETE_ATTR(c4, kf, ierr)
  call MPI_COMM_CREATE_KEYVAL(my_copy, my_delete, k1, xs, ierr)
  call MPI_KEYVAL_CREATE(old_copy, old_delete, ko, 9, ierr)
  if (ierr /= MPI_SUCCESS) stop 99
  if (c_set(c4, k1, cbig) /= MPI_SUCCESS .or. c_set(c4, ko, cbig) /= MPI_SUCCESS) stop 100
  nlog = 0
  call MPI_COMM_DUP(c4, c5, ierr)                   ! ko first (newest), then k1
  if (ierr /= MPI_SUCCESS .or. nlog /= 2) stop 101
  if (logv(1) /= -2147483643_ak .or. logv(2) /= 1000 + cbig) stop 102
  if (c_get(c5, ko, 2, v) /= 1 .or. v /= -2147483642_ak) stop 103   ! an int now
  if (c_get(c5, k1, 1, v) /= 1 .or. v /= cbig + 1) stop 104         ! an MPI_Aint now
  call MPI_COMM_GET_ATTR(c5, ko, v, flag, ierr)
  if (ierr /= MPI_SUCCESS .or. .not. flag .or. v /= -2147483642_ak) stop 105
  call MPI_COMM_FREE(c5, ierr)
  if (ierr /= MPI_SUCCESS .or. nlog /= 4) stop 106
  if (logv(3) /= -2147483642_ak .or. logv(4) /= 2000 + cbig + 1) stop 107
  ! a C error handler that reads attributes during a failing Fortran attribute call gets the
  ! C view (a pointer to the value Fortran set), not the view the failing call announced
  call MPI_COMM_SET_ATTR(c4, kf, 777_ak, ierr)
  if (ierr /= MPI_SUCCESS .or. c_watch(c4, kf) /= MPI_SUCCESS) stop 111
  call MPI_COMM_SET_ATTR(12345, kf, 5_ak, ierr)     ! not a communicator: WORLD's handler runs
  if (ierr == MPI_SUCCESS) stop 112
  if (c_watched() /= 777) stop 113
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL, ierr)
  call MPI_COMM_FREE(c4, ierr)                      ! delete(cbig) twice
  if (ierr /= MPI_SUCCESS .or. nlog /= 6) stop 108
  if (logv(5) /= int(c_low32(cbig), ak) .or. logv(6) /= 2000 + cbig) stop 109
  call MPI_COMM_FREE_KEYVAL(k1, ierr)
  call MPI_KEYVAL_FREE(ko, ierr)
  call MPI_COMM_FREE_KEYVAL(kf, ierr)
  call MPI_COMM_FREE_KEYVAL(kca, ierr)
  call MPI_COMM_FREE_KEYVAL(kci, ierr)
  if (ierr /= MPI_SUCCESS) stop 110
  call MPI_FINALIZE(ierr)
end program f90_attr
