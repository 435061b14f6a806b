# buildsys_common.sh — shared by install.sh and buildsys_*.sh: the absolute build tree, the test
# project (tests/sh/buildsys/), and run2 PREFIX PROG WANT: PROG on 2 ranks prints line WANT.
. tests/sh/lib.sh
B=$(cd "$BUILD" && pwd)
PROJ=$(pwd)/tests/sh/buildsys
run2() {
    out=$(LD_PRELOAD="${SWITCHYARD_TEST_PRELOAD:-}" timeout 30 "$1/bin/mpiexec" -n 2 "$2" 2>&1) ||
        fail "$2 on 2 ranks failed: $out"
    [ "$out" = "$3" ] || fail "$2 on 2 ranks printed '$out', not '$3'"
}
# The lines the test programs print on 2 ranks of Switchyard.
WANT_C="c size 2 sum 1 lib Switchyard"
WANT_CXX="cxx size 2 sum 1 lib Switchyard"
WANT_F="fortran size 2 sum 1"
