# mpich_fortran_binary.sh — Fortran programs compiled and linked by Debian MPICH's mpifort
# (mpif.h, `use mpi`, `use mpi_f08`) run unchanged on Switchyard's libraries (libmpichfort.so.12
# for the f08 entry points), under Switchyard's mpiexec (3 ranks) and mpiexec.hydra (2 ranks);
# and large_f08.f90, whose INTEGER(KIND=MPI_COUNT_KIND) counts make MPICH's module call its
# large-count entry points (mpi_send_f08ts_large_...: all 120 of MPICH 4.0.2's are Switchyard's);
# completion_f08.f90 (indices of MPI_Waitany/Testany/Waitsome/Testsome counted from 1);
# datarep_f08.f90 (MPI_Register_datarep: f08 conversion functions, MPICH's MPI_CONVERSION_FN_NULL);
# modules_f08.f90, which calls into MPICH's modules (MPI_Sizeof, c2f/f2c, status conversions,
# MPI_COMM_DUP_FN..., MPIX_Delete_error_*, the ULFM stand-ins: their error, and MPI_LASTUSEDCODE
# kept); and every symbol MPICH's libmpichfort.so.12 exports
# is one of Switchyard's (all 528 of its mpi_*_f08* and mpix_*_f08* entry points among them).
# MPICH's own libmpichfort.so.12 (installed here) would also run them over Switchyard's libmpi:
# the programs print which one the process mapped, and that must be build/lib's.
. tests/sh/lib.sh
command -v mpifort.mpich >/dev/null || skip "Debian's mpich (mpifort.mpich) is not installed"
HYDRA=$(command -v mpiexec.hydra) || skip "Debian's mpich (mpiexec.hydra) is not installed"
REF=/usr/lib/x86_64-linux-gnu/libmpichfort.so.12
[ -f "$REF" ] || skip "Debian's libmpichfort.so.12 is not installed at $REF"
SRC=tests/sh/mpich_fortran
LIBDIR=$(cd "$BUILD/lib" && pwd)
# launch STYLE PROGRAM N LAUNCHER...: PROGRAM on N ranks; checks it ran on Switchyard's
# libraries (sets out: its output).
launch() {
    style=$1 prog=$2 n=$3
    shift 3
    out=$(LD_PRELOAD="${SWITCHYARD_TEST_PRELOAD:-}" LD_LIBRARY_PATH="$LIBDIR" timeout 60 "$@" -n "$n" \
        "$prog" 2>&1) || fail "$style on $n ranks under $1 failed: $out"
    echo "$out"
    echo "$out" | grep -q '^library: Switchyard' || fail "$style under $1 did not run on Switchyard: $out"
    echo "$out" | grep -qx "libmpichfort: $LIBDIR/libmpichfort.so.12" ||
        fail "$style under $1 did not run on Switchyard's libmpichfort.so.12: $out"
}
# each_rank NAME PROGRAM N TEMPLATE LAUNCHER...: PROGRAM on N ranks (launch); every rank r must
# have printed TEMPLATE with @r, @n, @p (r's left neighbour) and @s (n(n+1)/2) filled in.
each_rank() {
    name=$1 prog=$2 n=$3 template=$4
    shift 4
    launch "$name" "$prog" "$n" "$@"
    r=0
    while [ $r -lt "$n" ]; do
        line=$(echo "$template" | sed "s/@r/$r/g; s/@n/$n/g; s/@p/$(( (r + n - 1) % n ))/g; s/@s/$(( n * (n + 1) / 2 ))/g")
        echo "$out" | grep -qx "$line" || fail "$name under $1: rank $r did not print '$line': $out"
        r=$((r + 1))
    done
}
# build NAME: mpifort.mpich makes $TMP/NAME of $SRC/NAME.f90, which must load our libmpichfort.
build() {
    mpifort.mpich -o "$TMP/$1" "$SRC/$1.f90" "$SRC/loaded_from.f90" || fail "mpifort.mpich cannot build $1.f90"
    libs=$(LD_LIBRARY_PATH="$LIBDIR" ldd "$TMP/$1")
    echo "$libs" | grep -q "libmpichfort.so.12 => $LIBDIR/libmpichfort.so.12" ||
        fail "$1 does not load Switchyard's libmpichfort.so.12: $libs"
}
# Symbols: what MPICH's libmpichfort.so.12 defines, Switchyard's three libraries must define
# (those not yet: the f08 entry points of procedures Switchyard's mpi_f08 module does not offer).
nm -D --defined-only "$REF" | awk '{print $3}' | sort -u >"$TMP/ref"
for l in libmpichfort.so.12 libmpifort.so.12 libmpi.so.12; do
    nm -D --defined-only "$LIBDIR/$l" | awk '{print $3}'
done | sed 's/@.*//' | sort -u >"$TMP/ours"
missing=$(comm -23 "$TMP/ref" "$TMP/ours" | grep -v -x -f tests/sh/mpich_fortran/not_yet.txt)
[ -z "$missing" ] || fail "symbols of MPICH's libmpichfort.so.12 Switchyard does not define: $missing"
for style in f77 usempi f08; do
    build "ring_$style"
    # the ring's token and the allreduce's sum
    each_rank "$style" "$TMP/ring_$style" 3 "$style rank @r of @n: from @p sum @s" "$BUILD/bin/mpiexec"
    each_rank "$style" "$TMP/ring_$style" 2 "$style rank @r of @n: from @p sum @s" "$HYDRA"
done
# large: every rank checks what it received (send/recv, get_count, type_size, bcast, allgatherv,
# alltoallv, allreduce with MPI_IN_PLACE) and prints its line only if all was right.
build large_f08
nm -u "$TMP/large_f08" | grep -q 'mpi_alltoallv_f08ts_large_' ||
    fail "large_f08 does not call MPICH's large-count entry points: $(nm -u "$TMP/large_f08")"
each_rank large "$TMP/large_f08" 3 "large rank @r of @n: checked sum @s" "$BUILD/bin/mpiexec"
each_rank large "$TMP/large_f08" 2 "large rank @r of @n: checked sum @s" "$HYDRA"
# modules: every rank checks what MPICH's modules' procedures gave it.
build modules_f08
each_rank modules "$TMP/modules_f08" 3 "modules rank @r of @n: checked" "$BUILD/bin/mpiexec"
each_rank modules "$TMP/modules_f08" 2 "modules rank @r of @n: checked" "$HYDRA"
# completion: indices counted from 1 and statuses at their places (MPICH's f08 module and mpif.h)
build completion_f08
each_rank completion "$TMP/completion_f08" 3 "completion rank @r of @n: checked" "$BUILD/bin/mpiexec"
each_rank completion "$TMP/completion_f08" 2 "completion rank @r of @n: checked" "$HYDRA"
# datarep: f08 conversion functions and MPICH's module's MPI_CONVERSION_FN_NULL (files in TMPDIR)
build datarep_f08
each_rank datarep "$TMP/datarep_f08" 3 "datarep rank @r of @n: checked" "$BUILD/bin/mpiexec"
each_rank datarep "$TMP/datarep_f08" 2 "datarep rank @r of @n: checked" "$HYDRA"
echo "MPICH-built Fortran programs (mpif.h, use mpi, use mpi_f08, large counts, MPICH's modules, completion indices, data representations) ran on Switchyard; no symbol missing"
