# p2p_faults.sh — when a rank of an MPI job fails (MPI_Abort, a signal, exit without
# MPI_Finalize) while the others block in MPI_Recv, the whole job ends within a second or
# two, mpiexec names the rank and its status and exits with the documented code, and no
# process or /dev/shm object of the job is left.
. tests/sh/lib.sh
bin="$BUILD/tests/c/fault"
[ -x "$bin" ] || fail "$bin is not built"
run() { # mode expected-exit expected-message
    rm -f "$TMP/pid"
    start=$(date +%s%N)
    # rank 1 fails (code: MPI_Abort's or exit's) and writes "PID JOBID" to $TMP/pid first
    timeout 20 "$BUILD/bin/mpiexec" -n 4 "$bin" "$1" 1 recv "$2" "$TMP/pid" > "$TMP/out" 2>&1
    rc=$?
    ms=$(( ($(date +%s%N) - start) / 1000000 ))
    [ $rc = "$2" ] || { cat "$TMP/out" >&2; fail "$1: mpiexec exited $rc, expected $2"; }
    grep -q "$3" "$TMP/out" || { cat "$TMP/out" >&2; fail "$1: mpiexec did not say '$3'"; }
    [ $ms -lt 5000 ] || fail "$1: the job took $ms ms to end"
    jobid=$(awk '{print $2}' "$TMP/pid" 2>/dev/null)
    [ ${#jobid} -ge 16 ] || fail "$1: rank 1 wrote no job id ($(cat "$TMP/pid" 2>&1))"
    sleep 0.2
    # this job's processes and /dev/shm entries only: other tests may run meanwhile
    pgrep -f "$TMP/pid" > /dev/null && { pgrep -af "$TMP/pid" >&2; fail "$1: processes left behind"; }
    [ -z "$(ls /dev/shm | grep -F -- "$jobid")" ] ||
        { ls -l /dev/shm | grep -F -- "$jobid" >&2; fail "$1: /dev/shm objects of job $jobid left behind"; }
    echo "$1: exit $rc in $ms ms: $(grep -m1 'rank 1' "$TMP/out")"
}
run abort 7 "rank 1"
run segv 139 "rank 1"
run exit 3 "rank 1"
