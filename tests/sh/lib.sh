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
