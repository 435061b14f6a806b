# mpich_fortran_binary.sh — Fortran programs compiled and linked by Debian MPICH's mpifort
# (mpif.h, `use mpi`, `use mpi_f08`) run unchanged on Switchyard's libraries (libmpichfort.so.12
# for the f08 entry points), under Switchyard's mpiexec (3 ranks) and mpiexec.hydra (2 ranks).
# MPICH's own libmpichfort.so.12 (installed here) would also run them over Switchyard's libmpi:
# the programs print which one the process mapped, and that must be build/lib's.
. tests/sh/lib.sh
command -v mpifort.mpich >/dev/null || skip "Debian's mpich (mpifort.mpich) is not installed"
HYDRA=$(command -v mpiexec.hydra) || skip "Debian's mpich (mpiexec.hydra) is not installed"
SRC=tests/sh/mpich_fortran
LIBDIR=$(cd "$BUILD/lib" && pwd)
# run STYLE N LAUNCHER...: the program of STYLE on N ranks; checks every rank's ring and sum.
run() {
    style=$1 n=$2
    shift 2
    out=$(LD_PRELOAD="${SWITCHYARD_TEST_PRELOAD:-}" LD_LIBRARY_PATH="$LIBDIR" timeout 60 "$@" -n "$n" \
        "$TMP/ring_$style" 2>&1) || fail "$style on $n ranks under $1 failed: $out"
    echo "$out"
    echo "$out" | grep -q '^library: Switchyard' || fail "$style under $1 did not run on Switchyard: $out"
    echo "$out" | grep -qx "libmpichfort: $LIBDIR/libmpichfort.so.12" ||
        fail "$style under $1 did not run on Switchyard's libmpichfort.so.12: $out"
    r=0
    while [ $r -lt "$n" ]; do
        echo "$out" | grep -qx "$style rank $r of $n: from $(( (r + n - 1) % n )) sum $(( n * (n + 1) / 2 ))" ||
            fail "$style under $1: rank $r's ring or allreduce is wrong: $out"
        r=$((r + 1))
    done
}
for style in f77 usempi f08; do
    mpifort.mpich -o "$TMP/ring_$style" "$SRC/ring_$style.f90" "$SRC/loaded_from.f90" || fail "mpifort.mpich cannot build ring_$style.f90"
    libs=$(LD_LIBRARY_PATH="$LIBDIR" ldd "$TMP/ring_$style")
    echo "$libs" | grep -q "libmpichfort.so.12 => $LIBDIR/libmpichfort.so.12" ||
        fail "ring_$style does not load Switchyard's libmpichfort.so.12: $libs"
    run "$style" 3 "$BUILD/bin/mpiexec"
    run "$style" 2 "$HYDRA"
done
echo "MPICH-built Fortran programs (mpif.h, use mpi, use mpi_f08) ran on Switchyard"
