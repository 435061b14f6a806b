# p2p_dead_peer.sh — under mpiexec -disable-auto-cleanup a rank's death does not end the job:
# the others' communication with it fails through the communicator's error handler (checked
# by tests/c/peer_dead.c: MPI_Sendrecv, MPI_Isendrecv, MPI_Sendrecv_replace, receives, and
# MPI_ANY_SOURCE receives and probes, which fail rather than hang, live ranks' messages kept), they
# finalize, and mpiexec names the dead rank and exits with its status. Without the option the
# job still ends at once. The same program built with mpicc_abi, on Switchyard's runtime, gets
# MPI_ERR_PROC_ABORTED (the standard class of MPIX_ERR_PROC_FAILED) with the same messages.
. tests/sh/lib.sh
bin="$BUILD/tests/c/peer_dead"
[ -x "$bin" ] || fail "$bin is not built"
abibin="$BUILD/tests/abi/peer_dead"
[ -x "$abibin" ] || fail "$abibin is not built"
"$BUILD/bin/mpiexec" --help | grep -q -- "-disable-auto-cleanup" || fail "--help does not list -disable-auto-cleanup"
for i in 1 2 3; do
    timeout 60 "$BUILD/bin/mpiexec" -disable-auto-cleanup -n 3 "$bin" > "$TMP/out" 2> "$TMP/err"
    rc=$?
    cat "$TMP/out" "$TMP/err"
    [ $rc = 3 ] || fail "run $i: mpiexec exited $rc, expected 3 (rank 2's status)"
    grep -q "^mpiexec: rank 2 (pid [0-9]*) exited with status 3 before MPI_Finalize" "$TMP/err" ||
        fail "run $i: mpiexec did not name rank 2 and its status"
    for r in 0 1; do
        grep -q "^rank $r: all checks passed" "$TMP/out" || fail "run $i: rank $r did not pass its checks"
    done
    [ "$(grep -c '^mpiexec:' "$TMP/err")" = 1 ] || fail "run $i: mpiexec reported more than rank 2"
done
# the standard-ABI face: no MPIX class there, MPI_ERR_PROC_ABORTED (peer_dead.c checks it)
timeout 60 "$BUILD/bin/mpiexec" -disable-auto-cleanup -n 3 "$abibin" > "$TMP/out" 2> "$TMP/err"
rc=$?
cat "$TMP/out" "$TMP/err"
[ $rc = 3 ] || fail "standard ABI: mpiexec exited $rc, expected 3 (rank 2's status)"
for r in 0 1; do
    grep -q "^rank $r: all checks passed" "$TMP/out" || fail "standard ABI: rank $r did not pass its checks"
done
grep -q "^MPI_Sendrecv: MPI_Sendrecv: the send to rank 2 failed: that process has failed" "$TMP/out" ||
    fail "standard ABI: MPI_Error_string lost the message"
# the default: the job ends when rank 2 exits, with its status
timeout 60 "$BUILD/bin/mpiexec" -n 3 "$bin" > "$TMP/out" 2> "$TMP/err"
rc=$?
[ $rc = 3 ] || { cat "$TMP/out" "$TMP/err"; fail "default: mpiexec exited $rc, expected 3"; }
grep -q "^mpiexec: rank 2 (pid [0-9]*) exited with status 3 before MPI_Finalize" "$TMP/err" ||
    { cat "$TMP/err"; fail "default: rank 2 not named"; }
grep -q "all checks passed" "$TMP/out" && fail "default: the other ranks were not stopped"
echo "ok"
