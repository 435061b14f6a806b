# mpich_dropin_p2p.sh — a point-to-point program compiled and linked by Debian MPICH's
# mpicc runs on Switchyard unchanged: LD_LIBRARY_PATH at build/lib, Switchyard's mpiexec.
. tests/sh/lib.sh
command -v mpicc.mpich >/dev/null || skip "Debian's mpich (mpicc.mpich) is not installed"
mpicc.mpich -Itests/c -o "$TMP/ring" tests/c/p2p_ring.c || fail "mpicc.mpich cannot build p2p_ring.c"
readelf -d "$TMP/ring" | grep -q 'libmpi\(ch\)\?\.so\.12' || fail "the binary does not need libmpi.so.12"
LD_PRELOAD="${SWITCHYARD_TEST_PRELOAD:-}" LD_LIBRARY_PATH="$BUILD/lib" timeout 60 "$BUILD/bin/mpiexec" -n 4 "$TMP/ring" || fail "the MPICH-built ring failed on Switchyard"
LD_LIBRARY_PATH="$BUILD/lib" ldd "$TMP/ring" | grep -q "$BUILD/lib/libmpi" || fail "it did not load Switchyard's library"
echo "an MPICH-built point-to-point program ran on 4 Switchyard ranks"
