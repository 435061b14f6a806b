# fortran_abi_version.sh — MPI_ABI_VERSION and MPI_ABI_SUBVERSION are Fortran parameters of the
# standard ABI's Fortran face (include/abi/mpif.h, `use mpi` of mpifort_abi): 1 and 0, what its
# MPI_ABI_GET_VERSION answers on every backend. The MPICH face has neither, as its mpi.h and
# MPICH's mpif.h, and its MPI_ABI_GET_VERSION answers -1 -1 (no standard ABI).
. tests/sh/lib.sh
B=$(cd "$BUILD" && pwd)
cat > "$TMP/abi.f90" <<'EOF'
program abi_version
    use mpi
    implicit none
    integer :: major, minor, ierr
    call MPI_INIT(ierr)
    call MPI_ABI_GET_VERSION(major, minor, ierr)
    print '(i0,1x,i0,1x,i0,1x,i0)', MPI_ABI_VERSION, MPI_ABI_SUBVERSION, major, minor
    call MPI_FINALIZE(ierr)
end program abi_version
EOF
cat > "$TMP/abi77.f" <<'EOF'
      PROGRAM ABI77
      INCLUDE 'mpif.h'
      PRINT '(I0,1X,I0)', MPI_ABI_VERSION, MPI_ABI_SUBVERSION
      END
EOF
cat > "$TMP/mpich.f90" <<'EOF'
program mpich_version
    use mpi
    implicit none
    integer :: major, minor, ierr
    call MPI_INIT(ierr)
    call MPI_ABI_GET_VERSION(major, minor, ierr)
    print '(i0,1x,i0)', major, minor
    call MPI_FINALIZE(ierr)
end program mpich_version
EOF
cd "$TMP" || fail "no $TMP"
"$B/bin/mpifort_abi" -o abi abi.f90 > build.log 2>&1 || { cat build.log >&2; fail "mpifort_abi: use mpi program does not build"; }
"$B/bin/mpifort_abi" -o abi77 abi77.f > build.log 2>&1 || { cat build.log >&2; fail "mpifort_abi: mpif.h program does not build"; }
out=$(LD_PRELOAD="${SWITCHYARD_TEST_PRELOAD:-}" ./abi77 2>&1); [ "$out" = "1 0" ] || fail "abi/mpif.h: '$out', not '1 0'"
for be in switchyard mpich openmpi; do
    # the backends where Debian's library is installed, and not under the sanitizers (RTLD_DEEPBIND)
    case $be in mpich) lib=libmpich.so.12 ;; openmpi) lib=libmpi.so.40 ;; *) lib= ;; esac
    [ -z "$lib" ] || { [ -f "/usr/lib/x86_64-linux-gnu/$lib" ] && [ -z "${SWITCHYARD_TEST_PRELOAD:-}" ]; } || continue
    out=$(OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 SWITCHYARD_ABI_BACKEND=$be LD_PRELOAD="${SWITCHYARD_TEST_PRELOAD:-}" timeout 60 ./abi 2>&1) ||
        fail "over the $be backend: $out"
    [ "$out" = "1 0 1 0" ] || fail "over the $be backend: MPI_ABI_VERSION, MPI_ABI_SUBVERSION, MPI_ABI_GET_VERSION: '$out', not '1 0 1 0'"
done
! grep -q 'MPI_ABI_\(SUB\)\?VERSION' "$B/include/mpif.h" || fail "the MPICH face's mpif.h has MPI_ABI_VERSION"
"$B/bin/mpifort" -o mpich mpich.f90 > build.log 2>&1 || { cat build.log >&2; fail "mpifort: use mpi program does not build"; }
out=$(LD_PRELOAD="${SWITCHYARD_TEST_PRELOAD:-}" ./mpich 2>&1); [ "$out" = "-1 -1" ] || fail "MPICH face: MPI_ABI_GET_VERSION '$out', not '-1 -1'"
echo "MPI_ABI_VERSION 1.0 in the standard ABI's Fortran face, as its MPI_ABI_GET_VERSION says; none on the MPICH face"
