# launch_fault_inject.sh — fault injection (issue 15): RUNS (50) jobs of tests/c/fault, each
# with a pseudo-random number of ranks (2..6), victim rank, face (c, abi), way to fail
# (SIGKILL from outside or from itself, abort(), exit(N) without MPI_Finalize,
# MPI_Abort(MPI_COMM_WORLD, N), SIGSEGV raised or from an invalid access) and moment (at once,
# or while the others block in MPI_Recv, MPI_Barrier or MPI_Allreduce). Each job must end
# within a few seconds with mpiexec's documented exit status (the code for exit and
# MPI_Abort, 128 + the signal), one message naming the victim (and its real pid) and how it
# ended, and leave no process and no /dev/shm object behind. SEED picks the runs (printed;
# SEED=N RUNS=M reproduces them).
. tests/sh/lib.sh
MPIEXEC="$BUILD/bin/mpiexec"
[ -x "$MPIEXEC" ] || fail "$MPIEXEC is not built"
[ -x "$BUILD/tests/c/fault" ] || fail "$BUILD/tests/c/fault is not built"
# the jobs' programs by a path of their own, so that leftovers are this test's
ln -s "$(cd "$BUILD/tests/c" && pwd)/fault" "$TMP/fault_c"
[ -x "$BUILD/tests/abi/fault" ] && ln -s "$(cd "$BUILD/tests/abi" && pwd)/fault" "$TMP/fault_abi"
ulimit -c 0 # abort() and SIGSEGV: no core files
SEED=${SEED:-$(( $(date +%s%N) / 1000 % 1000000 ))}
RUNS=${RUNS:-50}
echo "seed $SEED, $RUNS runs (rerun with SEED=$SEED RUNS=$RUNS)"
RANDOM=$SEED
kinds=(wait kill abrt exit abort segv access)
whens=(now recv barrier allreduce)
bad=0

# Processes still alive (not zombies) whose command line has the path $1.
procs() { ps -eo pid=,stat=,args= | awk -v p="$1" 'index($0, p) && $2 !~ /^Z/ && !/awk/'; }

for i in $(seq 1 "$RUNS"); do
    n=$((2 + RANDOM % 5)) victim=$((RANDOM % n))
    kind=${kinds[RANDOM % ${#kinds[@]}]} when=${whens[RANDOM % ${#whens[@]}]}
    code=$((1 + RANDOM % 255)) face=c
    ((RANDOM % 2)) && [ -e "$TMP/fault_abi" ] && face=abi
    case $kind in
    wait | kill) want=137 how="killed by signal 9 (Killed)" ;;
    abrt) want=134 how="killed by signal 6 (Aborted)" ;;
    segv | access) want=139 how="killed by signal 11 (Segmentation fault)" ;;
    exit) want=$code how="exited with status $code before MPI_Finalize" ;;
    abort) want=$code how="called MPI_Abort with code $code: MPI_Abort(MPI_COMM_WORLD, $code) called" ;;
    esac
    what="run $i: -n $n, rank $victim $kind ($when) code $code, $face face"
    prog="$TMP/fault_$face" pf="$TMP/victim.$i"
    t0=$EPOCHREALTIME
    timeout 20 "$MPIEXEC" -n $n "$prog" $kind $victim $when $code "$pf" > "$TMP/out" 2> "$TMP/err" &
    job=$!
    problems=""
    if [ $kind = wait ]; then # kill it from outside once it is where it should fail
        for t in $(seq 1 500); do
            [ -e "$pf.wait" ] || ! kill -0 $job 2> /dev/null && break
            sleep 0.01
        done
        if [ -e "$pf.wait" ] && [ -s "$pf" ]; then
            t0=$EPOCHREALTIME
            kill -KILL "$(cut -d' ' -f1 "$pf")"
        else
            problems+=" the victim never got ready to be killed;"
        fi
    fi
    wait $job
    rc=$?
    took=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.2f", b - a }')
    read -r pid jobid < "$pf" 2> /dev/null || { pid=unknown jobid=""; problems+=" no pid file;"; }
    [ $rc = "$want" ] || problems+=" exit $rc, expected $want;"
    awk -v t="$took" 'BEGIN { exit !(t < 5) }' || problems+=" took ${took}s;"
    case $kind in
    abort) line="mpiexec: rank $victim $how" ;;
    *) line="mpiexec: rank $victim (pid $pid) $how" ;;
    esac
    said=$(grep '^mpiexec:' "$TMP/err")
    [ "$said" = "$line" ] || problems+=" mpiexec did not say (only) '$line';"
    gone=0
    for t in $(seq 1 40); do
        [ -z "$(procs "$prog")" ] && { gone=1; break; }
        sleep 0.05
    done
    [ $gone = 1 ] || problems+=" processes left behind: $(procs "$prog" | tr '\n' ' ');"
    if [ ${#jobid} -ge 16 ] && ls /dev/shm 2> /dev/null | grep -q -- "$jobid"; then
        problems+=" /dev/shm objects left behind: $(ls /dev/shm | grep -- "$jobid" | tr '\n' ' ');"
    fi
    if [ -n "$problems" ]; then
        bad=$((bad + 1))
        echo "$what: FAILED:$problems" >&2
        sed 's/^/    stderr: /' "$TMP/err" >&2
        procs "$prog" | awk '{ print $1 }' | xargs -r kill -KILL 2> /dev/null
    else
        echo "$what: exit $rc in ${took}s"
    fi
done
[ $bad = 0 ] || fail "$bad of $RUNS runs failed (seed $SEED)"
echo "all $RUNS runs passed (seed $SEED)"
