! ring.f90 — a small coarray Fortran program for opencoarrays_mpich.sh: puts around the ring of
! images, gets, co_sum, an atomic counter on image 1 and a critical section; checks every value.
program ring
  use, intrinsic :: iso_fortran_env, only: atomic_int_kind
  implicit none
  integer :: a(8)[*], me, n, right, i, total
  integer(atomic_int_kind) :: counter[*]
  integer :: guarded[*]
  me = this_image()
  n = num_images()
  right = merge(1, me + 1, me == n)
  a = 0
  counter = 0
  guarded = 0
  sync all
  a(:)[right] = [(me * 100 + i, i = 1, 8)]          ! put into the right neighbour
  sync all
  do i = 1, 8
    if (a(i) /= merge(n, me - 1, me == 1) * 100 + i) error stop "put around the ring"
  end do
  if (a(3)[right] /= me * 100 + 3) error stop "get from the right neighbour"
  total = me
  call co_sum(total)
  if (total /= n * (n + 1) / 2) error stop "co_sum"
  do i = 1, 10
    call atomic_add(counter[1], 1)
  end do
  critical
    guarded[1] = guarded[1] + 1
  end critical
  sync all
  if (me == 1) then
    if (counter /= 10 * n) error stop "atomic_add"
    if (guarded /= n) error stop "critical"
    print '(a, i0, a)', "ring: ", n, " images, every value right"
  end if
end program ring
