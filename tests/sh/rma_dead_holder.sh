# rma_dead_holder.sh — a rank that dies holding a window lock (tests/c/rma_dead_holder.c,
# 3 ranks): under mpiexec -disable-auto-cleanup the survivors' lock calls at that target, and
# their calls at the dead rank, return MPIX_ERR_PROC_FAILED (MPI_ERR_PROC_ABORTED on the
# standard ABI) naming it instead of hanging, and mpiexec names rank 2 and its status; without
# the option the job ends at once, the same way.
. tests/sh/lib.sh
for face in c c c abi; do
    bin="$BUILD/tests/$face/rma_dead_holder"
    [ -x "$bin" ] || fail "$bin is not built"
    timeout 60 "$BUILD/bin/mpiexec" -disable-auto-cleanup -n 3 "$bin" > "$TMP/out" 2> "$TMP/err"
    rc=$?
    cat "$TMP/out" "$TMP/err"
    [ $rc = 3 ] || fail "$face: mpiexec exited $rc, expected 3 (rank 2's status)"
    grep -q "^mpiexec: rank 2 (pid [0-9]*) exited with status 3 before MPI_Finalize" "$TMP/err" ||
        fail "$face: mpiexec did not name rank 2 and its status"
    for r in 0 1; do
        grep -q "^rank $r: all checks passed" "$TMP/out" || fail "$face: rank $r did not pass its checks"
    done
    grep -q "^rank 1: MPI_Win_lock at rank 0: MPI_Win_lock: rank 2 of the window failed holding a lock at rank 0" \
        "$TMP/out" || fail "$face: rank 1's lock did not say why it failed"
done
# the default: the job ends when rank 2 exits, with its status
timeout 60 "$BUILD/bin/mpiexec" -n 3 "$BUILD/tests/c/rma_dead_holder" > "$TMP/out" 2> "$TMP/err"
rc=$?
[ $rc = 3 ] || { cat "$TMP/out" "$TMP/err"; fail "default: mpiexec exited $rc, expected 3"; }
grep -q "^mpiexec: rank 2 (pid [0-9]*) exited with status 3 before MPI_Finalize" "$TMP/err" ||
    { cat "$TMP/err"; fail "default: rank 2 not named"; }
grep -q "all checks passed" "$TMP/out" && fail "default: the other ranks were not stopped"
echo "ok"
