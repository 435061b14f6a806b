# launch_signals.sh — SIGTERM/SIGINT/SIGHUP to mpiexec end the job (exit 128+N); SIGKILL to
# mpiexec still takes every rank down (PR_SET_PDEATHSIG). Nothing survives 1 s.
. tests/sh/launch_common.sh
start() { # start mpiexec in the background ($mp); wait until all $1 ranks are ready
    local n=$1 i=0
    shift
    : >"$TMP/out" # emptied here: the job's own redirection may come after our first look, which
    # would then count the previous job's ready lines and signal this mpiexec before it is set up
    "$@" "$MPIEXEC" -n "$n" "$P" sleep >"$TMP/out" 2>"$TMP/err" &
    mp=$!
    while [ "$(grep -c '^ready' "$TMP/out")" != "$n" ]; do
        i=$((i + 1))
        [ $i -lt 250 ] || fail "the ranks did not start"
        sleep 0.02
    done
}
for sig in TERM HUP; do
    start 4
    kill -$sig $mp
    wait $mp
    rc=$?
    [ $rc = $((128 + $(kill -l $sig))) ] || fail "SIG$sig: exit code $rc"
    grep -q "got signal" "$TMP/err" || fail "SIG$sig: no message: $(cat "$TMP/err")"
    expect_no_procs 1
done
# a background job of a script ignores SIGINT; env --default-signal undoes that
if env --default-signal=INT true 2>/dev/null; then
    start 3 env --default-signal=INT
    kill -INT $mp
    wait $mp
    rc=$?
    [ $rc = 130 ] || fail "SIGINT: exit code $rc"
    expect_no_procs 1
fi
start 8
kill -KILL $mp
wait $mp 2>/dev/null
expect_no_procs 1
echo "signals to mpiexec end the job"
