# lib.sh — helpers for the shell tests: fail with a message, skip with a reason (exit 77),
# and find Debian MPICH's headers.
fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "$*" >&2; exit 77; }
MPICH_INC=/usr/include/x86_64-linux-gnu/mpich
need_mpich_headers() {
    [ -f "$MPICH_INC/mpi.h" ] || skip "Debian's libmpich-dev is not installed ($MPICH_INC/mpi.h)"
}
# SWITCHYARD_TEST_PRELOAD: sanitizer runtimes for programs built outside Switchyard's
# wrappers when the libraries are instrumented (make check-sanitize); empty otherwise.
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# dead_rank_job WHAT BIN: BIN on 3 ranks under mpiexec -disable-auto-cleanup, where rank 2
# exits with status 3 and ranks 0 and 1 print "rank R: all checks passed"; mpiexec must exit 3
# naming rank 2 and nothing else. Output in $TMP/out and $TMP/err.
dead_rank_job() {
    timeout 60 "$BUILD/bin/mpiexec" -disable-auto-cleanup -n 3 "$2" > "$TMP/out" 2> "$TMP/err"
    rc=$?
    cat "$TMP/out" "$TMP/err"
    [ $rc = 3 ] || fail "$1: mpiexec exited $rc, expected 3 (rank 2's status)"
    grep -q "^mpiexec: rank 2 (pid [0-9]*) exited with status 3 before MPI_Finalize" "$TMP/err" ||
        fail "$1: mpiexec did not name rank 2 and its status"
    for r in 0 1; do
        grep -q "^rank $r: all checks passed" "$TMP/out" || fail "$1: rank $r did not pass its checks"
    done
    [ "$(grep -c '^mpiexec:' "$TMP/err")" = 1 ] || fail "$1: mpiexec reported more than rank 2"
}

# dead_rank_ends_job BIN: the same program without the option: the job ends when rank 2 exits,
# mpiexec exits 3 naming it, and the other ranks never finish their checks.
dead_rank_ends_job() {
    timeout 60 "$BUILD/bin/mpiexec" -n 3 "$1" > "$TMP/out" 2> "$TMP/err"
    rc=$?
    [ $rc = 3 ] || { cat "$TMP/out" "$TMP/err"; fail "default: mpiexec exited $rc, expected 3"; }
    grep -q "^mpiexec: rank 2 (pid [0-9]*) exited with status 3 before MPI_Finalize" "$TMP/err" ||
        { cat "$TMP/err"; fail "default: rank 2 not named"; }
    grep -q "all checks passed" "$TMP/out" && fail "default: the other ranks were not stopped"
    return 0
}
