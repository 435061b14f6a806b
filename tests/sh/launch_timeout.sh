# launch_timeout.sh — --timeout SECONDS kills the job (SIGTERM, then SIGKILL 0.5 s later)
# and mpiexec exits 124; a job within its time is not disturbed.
. tests/sh/launch_common.sh
t0=$EPOCHREALTIME
run -n 4 --timeout 1 "$P" sleep
took=$(since "$t0")
check "--timeout 1: exit code $rc, expected 124" [ "$rc" = 124 ]
check "--timeout 1: message" has "$err" "timed out after 1 s"
check "--timeout 1: took ${took}s" awk -v t="$took" 'BEGIN { exit !(t >= 1 && t < 2) }'
check "the ranks ran" [ "$(grep -c '^ready' "$TMP/out")" = 4 ]
expect_no_procs 1
t0=$EPOCHREALTIME
PMIPROG_STUBBORN=1 run -n 8 --timeout=0.5 "$P" sleep
took=$(since "$t0")
check "--timeout=0.5, SIGTERM ignored: exit code $rc" [ "$rc" = 124 ]
check "--timeout=0.5 with SIGKILL: took ${took}s" awk -v t="$took" 'BEGIN { exit !(t >= 0.5 && t < 1.8) }'
expect_no_procs 1
run -n 2 --timeout 5 "$P" kv 2
check "a job within its timeout exits 0 (rc $rc)" [ "$rc" = 0 ]
echo "--timeout works"
