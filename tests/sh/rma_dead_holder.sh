# rma_dead_holder.sh — a rank that dies holding a window lock (tests/c/rma_dead_holder.c,
# 3 ranks): under mpiexec -disable-auto-cleanup the survivors' lock calls at that target, and
# their calls at the dead rank, return MPIX_ERR_PROC_FAILED (MPI_ERR_PROC_ABORTED on the
# standard ABI) naming it instead of hanging, and mpiexec names rank 2 and its status; without
# the option the job ends at once, the same way.
. tests/sh/lib.sh
for face in c c c abi; do
    bin="$BUILD/tests/$face/rma_dead_holder"
    [ -x "$bin" ] || fail "$bin is not built"
    dead_rank_job "$face" "$bin"
    grep -q "^rank 1: MPI_Win_lock at rank 0: MPI_Win_lock: rank 2 of the window failed holding a lock at rank 0" \
        "$TMP/out" || fail "$face: rank 1's lock did not say why it failed"
done
# the same through operation messages (no shared segment): the fence names the dead rank too
SWITCHYARD_RMA_DIRECT=0 dead_rank_job "c, messages" "$BUILD/tests/c/rma_dead_holder"
dead_rank_ends_job "$BUILD/tests/c/rma_dead_holder"
echo "ok"
