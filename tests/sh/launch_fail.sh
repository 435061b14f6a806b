# launch_fail.sh — a failing rank ends the whole job within a second: exit status before
# finalize, exit 0 before finalize, a signal, MPI_Abort; messages and exit codes; no orphans.
. tests/sh/launch_common.sh
# job NAME EXPECTED_RC STDERR_TEXT mpiexec-args...
job() {
    local name=$1 want=$2 text=$3 t0=$EPOCHREALTIME
    shift 3
    run "$@"
    local took=$(since "$t0")
    check "$name: exit code $rc, expected $want" [ "$rc" = "$want" ]
    check "$name: stderr lacks '$text'" has "$err" "$text"
    check "$name: took ${took}s" awk -v t="$took" 'BEGIN { exit !(t < 2.5) }'
    expect_no_procs 1
}
job "exit 3" 3 "rank 2 (pid " -n 4 "$P" exit 2 3
check "exit 3: message" has "$err" "exited with status 3 before MPI_Finalize"
job "exit 0 before finalize" 1 "rank 1 (pid " -n 3 "$P" exit 1 0
check "exit 0: message" has "$err" "exited with status 0 before MPI_Finalize"
job "SIGSEGV" 139 "killed by signal 11 (Segmentation fault)" -n 4 "$P" segv 3
check "SIGSEGV: names rank 3" has "$err" "rank 3 (pid "
job "MPI_Abort" 7 "mpiexec: rank 1 called MPI_Abort with code 7: something went wrong" \
    -n 4 "$P" abort 1
check "MPI_Abort: the rank's buffered output is relayed" has "$out" "rank 1 aborts"
# the others ignore SIGTERM: SIGKILL follows 0.5 s later
PMIPROG_STUBBORN=1 job "stubborn others" 5 "exited with status 5" -n 8 "$P" exit 7 5
check "only the first failure is reported" [ "$(grep -c '^mpiexec:' "$TMP/err")" = 1 ]
# a program that does not speak PMI at all
job "non-MPI failure" 4 "rank 1 (pid " -n 3 sh -c '[ $PMI_RANK != 1 ] || exit 4; exec sleep 10'
check "non-MPI failure: message" has "$err" "exited with status 4"
has "$err" "MPI_Finalize" && fail "non-MPI failure: mentions MPI_Finalize: $err"
echo "failures end the job"
