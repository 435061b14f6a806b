! loaded_from.f90 — for tests/sh/mpich_fortran_binary.sh: prints the file the running process
! mapped libmpichfort.so.12 from (/proc/self/maps), proof of which library served the program.
subroutine print_loaded_from()
  implicit none
  character(len=4096) :: line
  integer :: u, ios, at
  open(newunit=u, file='/proc/self/maps', action='read', iostat=ios)
  if (ios /= 0) return
  do
    read(u, '(a)', iostat=ios) line
    if (ios /= 0) exit
    at = index(line, '/')
    if (at > 0 .and. index(line, 'libmpichfort.so') > 0) then
      print '(a,a)', 'libmpichfort: ', trim(line(at:))
      exit
    end if
  end do
  close(u)
end subroutine print_loaded_from
