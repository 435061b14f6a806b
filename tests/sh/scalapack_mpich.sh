# scalapack_mpich.sh — Debian's ScaLAPACK test drivers for MPICH (scalapack-mpi-test, linked
# against libmpich.so.12) run unchanged on Switchyard's library, each giving the reference report.
#
# Every driver of the package's CTest list runs on 4 ranks with its shipped input; the LU, LLT,
# INV, QR, BRD and HRD drivers also on 2 ranks, on a 1x2 and a 2x1 grid; xslu and xsllt (single
# precision LU and Cholesky) several more times, over shared memory and over TCP. A driver passes
# when it exits 0 and its report (its "N tests ..." lines, and how many result lines say PASSED and
# FAILED) is the one in tests/sh/scalapack/expected, which the same drivers' Open MPI build gave
# (SCALAPACK_REFERENCE=1 sh tests/sh/scalapack_mpich.sh > tests/sh/scalapack/expected makes it anew);
# the symmetric eigensolver drivers, whose testers read uninitialised values, only the number of
# tests (VERDICT_IS_GARBAGE below).
# tests/sh/scalapack/lacon_est.c is preloaded: Debian's ScaLAPACK 2.2.1 reads P?LACON's EST
# uninitialised (fixed upstream in 2.2.3); see that file.
. tests/sh/lib.sh
SL=/usr/lib/x86_64-linux-gnu/scalapack
[ -f "$SL/mpich-tests/CTestTestfile.cmake" ] ||
    skip "Debian's scalapack-mpi-test is not installed ($SL/mpich-tests)"
EXPECTED=tests/sh/scalapack/expected
gcc -O2 -shared -fPIC -o "$TMP/lacon_est.so" tests/sh/scalapack/lacon_est.c -ldl ||
    fail "cannot build lacon_est.so"
if [ -n "${SCALAPACK_REFERENCE:-}" ]; then
    DRIVERS=$SL/openmpi-tests
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
else
    DRIVERS=$SL/mpich-tests
fi

# The drivers' inputs: $TMP/4 as shipped; $TMP/2 with the process grids 1x2 and 2x1.
mkdir "$TMP/4" "$TMP/2"
cp "$SL/mpich-tests/"*.dat "$TMP/4/" || fail "cannot copy the drivers' inputs"
for f in LU LLT INV QR BRD HRD; do
    awk '/number of process(or)? grids/ { sub(/^[ \t]*[0-9]+/, "2") }
         /values of P[ \t]*$/ { sub(/^[0-9 \t]+/, "1 2\t\t") }
         /values of Q[ \t]*$/ { sub(/^[0-9 \t]+/, "2 1\t\t") } { print }' "$TMP/4/$f.dat" > "$TMP/2/$f.dat"
    grep -q "^1 2.*values of P" "$TMP/2/$f.dat" && grep -q "^2 1.*values of Q" "$TMP/2/$f.dat" ||
        fail "$f.dat: could not set its grids to 1x2 and 2x1"
done

# report FILE: a driver's own verdict, on one line.
report() {
    awk '/^ *[0-9]+ tests? / { sub(/^ +/, ""); gsub(/ +/, " "); s = s "; " $0; next }
         /(^|[^A-Za-z])(PASSED|Passed)([^A-Za-z]|$)/ { p++ }
         /(^|[^A-Za-z])(FAILED|Failed)([^A-Za-z]|$)/ { f++ }
         END { printf "PASSED lines %d, FAILED lines %d%s\n", p, f, s }' "$1"
}
# tests REPORT: how many tests the report counts, passed or not.
tests() {
    echo "$1" | awk -F'; ' '{ for (i = 2; i <= NF; i++) n += $i } END { print n + 0 }'
}
# The symmetric eigensolver testers (TESTING/EIG/p?sep*subtst.f, unfixed upstream) fail a result
# when "IL, IU, VL or VU altered": they compare the VL and VU of their RANGE='A' calls with a copy,
# though nothing ever set them, so garbage that reads as a NaN (0xffffffff, left on the stack by an
# earlier call) differs from itself; on a grid of several processes the failure is reported
# without that message. Their verdict depends on stack garbage on any MPI (Open MPI's own
# reference run of xdsep failed one result), so these drivers must finish their reference number
# of tests, and their verdict is printed, not compared.
VERDICT_IS_GARBAGE='^x[sdcz](sep|gsep|syevr|heevr)$'

failures=0
# run DRIVER NP [ENV=VALUE...]: runs it in $TMP/NP and checks (or prints) its report.
run() {
    d=$1 np=$2
    shift 2
    out="$TMP/$d.$np.out"
    if [ -n "${SCALAPACK_REFERENCE:-}" ]; then
        (cd "$TMP/$np" && timeout 600 mpirun.openmpi --oversubscribe --mca btl self,vader \
            -x LD_PRELOAD="$TMP/lacon_est.so" -n "$np" "$DRIVERS/$d") > "$out" 2>&1 ||
            fail "$d on $np ranks of Open MPI exited $?"
        echo "$d $np: $(report "$out")"
        return
    fi
    start=$(date +%s.%N)
    preload="${SWITCHYARD_TEST_PRELOAD:+$SWITCHYARD_TEST_PRELOAD }$TMP/lacon_est.so"
    (cd "$TMP/$np" && env "$@" LD_PRELOAD="$preload" LD_LIBRARY_PATH="$BUILD/lib" \
        timeout 120 "$BUILD/bin/mpiexec" -n "$np" "$DRIVERS/$d") > "$out" 2>&1
    rc=$?
    got=$(report "$out")
    want=$(sed -n "s/^$d $np: //p" "$EXPECTED")
    [ -n "$want" ] || fail "$d $np: no reference report in $EXPECTED"
    secs=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }')
    if echo "$d" | grep -Eq "$VERDICT_IS_GARBAGE"; then
        got="$(tests "$got") tests ($got)"
        want="$(tests "$want") tests"
        case $got in "$want "*) same=1 ;; *) same= ;; esac
    else
        [ "$got" = "$want" ] && same=1 || same=
    fi
    if [ "$rc" = 0 ] && [ -n "$same" ]; then
        echo "ok   $d on $np ranks $* (${secs} s): $got"
    else
        echo "FAIL $d on $np ranks $* (${secs} s, exit $rc)"
        echo "     got:      $got"
        echo "     expected: $want"
        tail -15 "$out" | sed 's/^/     | /'
        failures=$((failures + 1))
    fi
}

for d in $(sed -n 's/^add_test(\([a-z0-9]*\) .*/\1/p' "$SL/mpich-tests/CTestTestfile.cmake"); do
    run "$d" 4
done
for f in lu llt inv qr brd hrd; do
    for p in s d c z; do
        run "x$p$f" 2
    done
done
[ -n "${SCALAPACK_REFERENCE:-}" ] && exit 0
for i in 1 2 3; do
    run xslu 4
    run xsllt 4
    run xslu 2
    run xsllt 2
done
run xslu 4 SWITCHYARD_TRANSPORT=tcp
run xsllt 4 SWITCHYARD_TRANSPORT=tcp
[ "$failures" = 0 ] || fail "$failures ScaLAPACK driver runs did not give the reference report"
