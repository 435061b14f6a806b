# mpich_binary.sh — a program compiled and linked by Debian MPICH's mpicc runs unchanged on
# Switchyard's libmpi.so.12 (LD_LIBRARY_PATH only, no rebuild), as a singleton.
. tests/sh/lib.sh
command -v mpicc.mpich >/dev/null || skip "Debian's mpich (mpicc.mpich) is not installed"
mpicc.mpich -o "$TMP/hello" examples/hello.c || fail "mpicc.mpich cannot build examples/hello.c"
out=$(LD_PRELOAD="${SWITCHYARD_TEST_PRELOAD:-}" LD_LIBRARY_PATH="$BUILD/lib" "$TMP/hello") || fail "the MPICH-built program failed on Switchyard"
echo "$out"
case $out in *Switchyard*) ;; *) fail "it did not run on Switchyard's library" ;; esac
case $out in *"rank 0 of 1"*) ;; *) fail "unexpected rank/size" ;; esac
