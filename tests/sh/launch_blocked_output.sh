# launch_blocked_output.sh — mpiexec keeps serving signals and rank deaths while nobody reads
# its stdout (issue 15 item 8): output is queued up to a bound, then the ranks wait (their
# pipes fill); a slow reader still gets every byte.
. tests/sh/lib.sh
MPIEXEC="$BUILD/bin/mpiexec"
cat > "$TMP/flood.c" <<'C'
/* Each rank writes argv[1] MB of 100-byte lines to stdout, then finalizes; its pid goes to the
 * file argv[2].RANK and the job id to argv[2].jobid. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
int main(int argc, char **argv)
{
    int rank;
    char path[4096], chunk[100 * 640];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    snprintf(path, sizeof path, "%s.%d", argv[2], rank);
    FILE *f = fopen(path, "w");
    fprintf(f, "%d\n", (int)getpid());
    fclose(f);
    if (rank == 0) {
        snprintf(path, sizeof path, "%s.jobid", argv[2]);
        f = fopen(path, "w");
        fprintf(f, "%s\n", getenv("SWITCHYARD_JOBID"));
        fclose(f);
    }
    for (int i = 0; i < 640; i++) {
        memset(chunk + 100 * i, 'a' + i % 26, 99);
        chunk[100 * i + 99] = '\n';
    }
    MPI_Barrier(MPI_COMM_WORLD);
    for (long left = atol(argv[1]) * 1000000L; left > 0; left -= (long)sizeof chunk)
        if (write(1, chunk, sizeof chunk) < 0)
            return 3;
    MPI_Finalize();
    return 0;
}
C
"$BUILD/bin/mpicc" -o "$TMP/flood" "$TMP/flood.c" || fail "cannot build the flood program"
mkfifo "$TMP/fifo" || fail "mkfifo"

# Start mpiexec -n 2 flood MB with stdout into a reader that never reads; sets $mpid, $rpid.
start_blocked() {
    rm -f "$TMP/pid".*
    sleep 20 < "$TMP/fifo" &
    rpid=$!
    "$MPIEXEC" -n 2 "$TMP/flood" "$1" "$TMP/pid" > "$TMP/fifo" 2> "$TMP/err" &
    mpid=$!
    for t in $(seq 1 250); do [ -s "$TMP/pid.1" ] && [ -s "$TMP/pid.jobid" ] && break; sleep 0.02; done
    [ -s "$TMP/pid.1" ] || fail "the ranks did not start"
}
# Wait up to $1 s for mpiexec to exit; sets $rc and $took.
await() {
    local t0=$EPOCHREALTIME
    while kill -0 $mpid 2> /dev/null; do
        if awk -v a="$t0" -v b="$EPOCHREALTIME" -v l="$1" 'BEGIN { exit !(b - a > l) }'; then
            kill -KILL $mpid $rpid $(cat "$TMP/pid".[0-9]*) 2> /dev/null
            cat "$TMP/err" >&2
            fail "$2: mpiexec still runs after $1 s"
        fi
        sleep 0.05
    done
    wait $mpid
    rc=$?
    took=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.2f", b - a }')
    kill $rpid 2> /dev/null
    wait $rpid 2> /dev/null
}
no_leftovers() {
    local jobid
    jobid=$(cat "$TMP/pid.jobid")
    sleep 0.2
    for f in "$TMP/pid".[0-9]*; do
        kill -0 "$(cat "$f")" 2> /dev/null && fail "$1: rank process $(cat "$f") is still alive"
    done
    [ -z "$(ls /dev/shm | grep -F "$jobid")" ] || fail "$1: /dev/shm still holds files of job $jobid"
}

start_blocked 50
sleep 1
kill -TERM $mpid
await 5 "SIGTERM"
echo "SIGTERM: mpiexec exited after ${took}s" >&2
[ $rc = 143 ] || { cat "$TMP/err" >&2; fail "SIGTERM: exit $rc, expected 143"; }
grep -q "got signal 15" "$TMP/err" || { cat "$TMP/err" >&2; fail "SIGTERM: no message"; }
no_leftovers "SIGTERM"

start_blocked 50
sleep 1
kill -KILL "$(cat "$TMP/pid.1")"
await 5 "rank 1 killed"
echo "rank 1 killed: mpiexec exited after ${took}s" >&2
[ $rc = 137 ] || { cat "$TMP/err" >&2; fail "rank 1 killed: exit $rc, expected 137"; }
grep -q "^mpiexec: rank 1 (pid [0-9]*) killed by signal 9" "$TMP/err" ||
    { cat "$TMP/err" >&2; fail "rank 1 killed: not named"; }
no_leftovers "rank 1 killed"

# a reader that starts late gets everything (2 x 5 MB of whole lines)
timeout 60 "$MPIEXEC" -n 2 "$TMP/flood" 5 "$TMP/pid" 2> "$TMP/err" | (sleep 2; wc -c) > "$TMP/count"
rc=${PIPESTATUS[0]}
[ $rc = 0 ] || { cat "$TMP/err" >&2; fail "slow reader: exit $rc"; }
[ "$(cat "$TMP/count")" = $((2 * ((5000000 + 63999) / 64000) * 64000)) ] ||
    fail "slow reader: got $(cat "$TMP/count") bytes"
echo "signals and deaths are served while output is blocked"
