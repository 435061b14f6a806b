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
    dead_rank_job "run $i" "$bin"
done
# the standard-ABI face: no MPIX class there, MPI_ERR_PROC_ABORTED (peer_dead.c checks it)
dead_rank_job "standard ABI" "$abibin"
grep -q "^MPI_Sendrecv: MPI_Sendrecv: the send to rank 2 failed: that process has failed" "$TMP/out" ||
    fail "standard ABI: MPI_Error_string lost the message"
# the default: the job ends when rank 2 exits, with its status
dead_rank_ends_job "$bin"
echo "ok"
