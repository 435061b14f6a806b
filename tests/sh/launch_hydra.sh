# launch_hydra.sh — the runtime's PMI-1 client under MPICH's Hydra (mpiexec.hydra): the kv
# test on 3 ranks, and MPI_Abort's exit code.
. tests/sh/launch_common.sh
HYDRA=$(command -v mpiexec.hydra) || skip "mpiexec.hydra (Debian package mpich) is not installed"
out=$(timeout 20 "$HYDRA" -n 3 "$P" kv 3 2>&1) || fail "kv under Hydra failed: $out"
[ "$(echo "$out" | grep -c '^kv ok: rank [0-2] of 3$')" = 3 ] || fail "kv under Hydra: $out"
timeout 20 "$HYDRA" -n 3 "$P" abort 2 >"$TMP/out" 2>&1
rc=$?
[ $rc = 7 ] || fail "MPI_Abort under Hydra: exit code $rc: $(cat "$TMP/out")"
expect_no_procs 2
echo "the PMI client works under Hydra"
