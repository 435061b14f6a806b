#!/bin/sh
# run.sh — builds the shm transport's test programs and runs them under the launcher.
# usage: runtime/transport/shm/test/run.sh [quick|full|asan|valgrind|bench|tune|all]  (default: full)
#   quick     traffic on 2/4/8 ranks, both large-message paths, doorbell wake-ups, death,
#             the EPERM fallback, the sweep of stale regions, a singleton
#   full      quick + simulated nodes, more messages, 8 ranks on one core, 24 ranks, bench
#   asan      the traffic and death tests built with -fsanitize=address,undefined
#   valgrind  smaller traffic under valgrind (memcheck)
#   bench     latency and bandwidth, with and without CMA
#   tune      bench with eager_max 4, 8, 16, 32 and 64 KiB
# Environment: MPIEXEC (default build/bin/mpiexec, else mpiexec.hydra), BUILD (default build).
set -eu

cd "$(dirname "$0")/../../../.."
BUILD=${BUILD:-build}
OUT=$BUILD/shm-test
CC=${CC:-gcc}
CFLAGS="-std=gnu11 -O2 -g -Wall -Wextra -Werror -fPIC -fvisibility=hidden"
INC="-Iruntime/include -I$BUILD/gen -Iruntime/transport -Iruntime/launch -Iruntime/transport/shm -Iruntime/transport/shm/test"
SRC="runtime/transport/shm/shm_*.c runtime/transport/common/tp_pool.c runtime/transport/shm/test/tenv.c runtime/launch/pmi.c runtime/launch/pmi_wire.c"
TIMEOUT=${TIMEOUT:-600}
FAILS=0

if [ -z "${MPIEXEC:-}" ]; then
    if [ -x "$BUILD/bin/mpiexec" ] && "$BUILD/bin/mpiexec" -n 1 true >/dev/null 2>&1; then
        MPIEXEC=$BUILD/bin/mpiexec
    elif command -v mpiexec.hydra >/dev/null 2>&1; then
        MPIEXEC=mpiexec.hydra
    else
        echo "run.sh: no launcher (build/bin/mpiexec or mpiexec.hydra)" >&2
        exit 1
    fi
fi

# Hydra SIGKILLs the survivors as soon as a rank dies (even with -disable-auto-cleanup):
# they cannot report, so the death tests need Switchyard's mpiexec (SIGTERM, 0.5 s, SIGKILL).
case "$MPIEXEC" in
*hydra*) DEATH_OK=0 ;;
*) DEATH_OK=1 ;;
esac

# build SUFFIX "EXTRA CFLAGS": the test programs as $OUT/t_*SUFFIX
build() {
    mkdir -p "$OUT"
    for t in traffic bench death bell; do
        # shellcheck disable=SC2086
        $CC $CFLAGS $2 $INC -o "$OUT/t_$t$1" $SRC runtime/transport/shm/test/t_$t.c
    done
}

# run NAME NRANKS [ENV=VALUE ...] -- PROGRAM ARGS: runs, reports, counts failures
run() {
    name=$1 n=$2
    shift 2
    envs=""
    while [ "$1" != "--" ]; do envs="$envs $1"; shift; done
    shift
    log="$OUT/log.$(echo "$name" | tr ' /=' '___')"
    # shellcheck disable=SC2086
    if env $envs timeout "$TIMEOUT" "$MPIEXEC" -n "$n" "$@" >"$log" 2>&1; then
        echo "ok    $name"
    else
        echo "FAIL  $name (exit $?, log $log)"
        sed 's/^/      /' "$log" | tail -20
        FAILS=$((FAILS + 1))
    fi
}

# death NRANKS SUFFIX [ENV]: rank 1 dies; the survivors must each leave ok.<rank>
death() {
    if [ "$DEATH_OK" = 0 ]; then
        echo "skip  death on $1 ranks$2 (the launcher kills the survivors at once)"
        return
    fi
    d="$OUT/death$2.$1"
    rm -rf "$d"
    mkdir -p "$d"
    # shellcheck disable=SC2086
    env ${3:-} timeout "$TIMEOUT" "$MPIEXEC" -n "$1" "$OUT/t_death$2" "$d" >"$d/log" 2>&1 || true
    k=0
    for r in $(seq 0 $(($1 - 1))); do
        [ "$r" = 1 ] || [ -f "$d/ok.$r" ] || k=$((k + 1))
    done
    if [ "$k" = 0 ]; then
        echo "ok    death on $1 ranks$2 ($(cat "$d/ok.0"))"
    else
        echo "FAIL  death on $1 ranks$2: $k survivors did not see it (log $d/log)"
        tail -20 "$d/log" | sed 's/^/      /'
        FAILS=$((FAILS + 1))
    fi
}

traffic_set() { # SUFFIX MSGS MAXBYTES [PREFIX...]
    sfx=$1 m=$2 max=$3
    shift 3
    for n in 2 4 8; do
        run "traffic$sfx $n ranks, CMA" "$n" -- "$@" "$OUT/t_traffic$sfx" -m "$m" -M "$max"
        run "traffic$sfx $n ranks, pipeline" "$n" SWITCHYARD_SHM_NOCMA=1 -- "$@" "$OUT/t_traffic$sfx" -m "$m" -M "$max"
    done
}

# What /dev/shm held before these tests: not theirs.
BEFORE=" $(echo /dev/shm/switchyard-*) "

leftovers() {
    left=""
    for f in /dev/shm/switchyard-*; do
        [ -e "$f" ] || continue
        case $BEFORE in *" $f "*) continue ;; esac
        # Switchyard's mpiexec gives every job an id: a region without one belongs to a job
        # another launcher (Hydra) runs beside these tests
        case $MPIEXEC:$f in */bin/mpiexec:/dev/shm/switchyard-nojob-*) continue ;; esac
        left="$left $f"
    done
    if [ -n "$left" ]; then
        # Another job starting on this machine holds its region for a moment only (it is
        # unlinked once every rank attached): report what is still there a while later.
        sleep 3
        still=""
        for f in $left; do
            [ -e "$f" ] && still="$still $f"
        done
        left=$still
    fi
    if [ -n "$left" ]; then
        echo "FAIL  /dev/shm still holds:$left"
        FAILS=$((FAILS + 1))
    else
        echo "ok    nothing of ours left in /dev/shm"
    fi
}

# The fallback when process_vm_readv is refused (EPERM): odd ranks become non-dumpable, and
# the ranks run without CAP_SYS_PTRACE (as uid 65534 when we are root).
fallback() {
    pre=""
    if [ "$(id -u)" = 0 ]; then
        if ! command -v setpriv >/dev/null 2>&1; then
            echo "skip  EPERM fallback (root without setpriv)"
            return
        fi
        pre="setpriv --reuid=65534 --regid=65534 --clear-groups"
    fi
    # shellcheck disable=SC2086
    run "traffic 4 ranks, EPERM fallback" 4 -- $pre "$OUT/t_traffic" -m 200 -D
    if ! grep -q '^\[0\] .*pipelined' "$OUT/log.traffic_4_ranks,_EPERM_fallback"; then
        echo "FAIL  EPERM fallback: rank 0 did not switch to the pipeline"
        FAILS=$((FAILS + 1))
    fi
}

quick() {
    traffic_set "" 200 $((4 << 20))
    # Large messages are copied by both sides at once: the senders wrote some pieces.
    if ! awk '{ for (i = 1; i < NF; i++) if ($(i + 1) == "pieces") s += $i } END { exit !(s > 0) }' "$OUT/log.traffic_2_ranks,_CMA"; then
        echo "FAIL  traffic 2 ranks, CMA: no sender copied a piece of its large messages"
        FAILS=$((FAILS + 1))
    fi
    run "doorbell 2 ranks" 2 -- "$OUT/t_bell" -i 1000
    run "doorbell 8 ranks" 8 -- "$OUT/t_bell" -i 500
    run "doorbell 8 ranks on one core" 8 -- taskset -c 0 "$OUT/t_bell" -i 300
    death 2 ""
    death 4 ""
    fallback
    # Regions with the job's id are there: the creator's name holds its pid, so none is its
    # own; it removes the one whose creator is gone, keeps a live creator's and an unknown name.
    id="taken$$x0123456789abcdef"
    ns=$(stat -L -c %i /proc/self/ns/pid)
    dead=$(sh -c 'echo $$')
    for f in "shm-0" "shm-0-pid$$-ns$ns" "shm-0-pid$dead-ns$ns"; do : >"/dev/shm/switchyard-$id-$f"; done
    run "traffic 3 ranks, stale and foreign regions" 3 TENV_JOBID=$id -- "$OUT/t_traffic" -m 50
    for f in "shm-0" "shm-0-pid$$-ns$ns"; do
        if [ -f "/dev/shm/switchyard-$id-$f" ]; then rm -f "/dev/shm/switchyard-$id-$f"; else
            echo "FAIL  /dev/shm/switchyard-$id-$f was removed"; FAILS=$((FAILS + 1)); fi
    done
    if [ -e "/dev/shm/switchyard-$id-shm-0-pid$dead-ns$ns" ] && ! kill -0 "$dead" 2>/dev/null; then
        rm -f "/dev/shm/switchyard-$id-shm-0-pid$dead-ns$ns"
        echo "FAIL  the region of a creator that is gone (pid $dead) was not removed"; FAILS=$((FAILS + 1))
    fi
    if "$OUT/t_traffic" -m 10 >"$OUT/log.singleton" 2>&1; then
        echo "ok    singleton (no launcher)"
    else
        echo "FAIL  singleton (log $OUT/log.singleton)"
        FAILS=$((FAILS + 1))
    fi
}

full() {
    quick
    run "traffic 4 ranks on 2 simulated nodes" 4 -- "$OUT/t_traffic" -m 300 -N 2
    run "traffic 8 ranks on 3 simulated nodes, pipeline" 8 SWITCHYARD_SHM_NOCMA=1 -- "$OUT/t_traffic" -m 300 -N 3
    run "traffic 8 ranks, 1000 msgs, 64 KiB max" 8 -- "$OUT/t_traffic" -m 1000 -M 65536 -s 7
    run "traffic 8 ranks on one core" 8 -- taskset -c 0 "$OUT/t_traffic" -m 150
    run "traffic 3 ranks, small window" 3 SWITCHYARD_SHM_NOCMA=1 -- "$OUT/t_traffic" -m 300 -w 1 -s 3
    run "traffic 24 ranks (smaller rings)" 24 -- "$OUT/t_traffic" -m 30 -M 1048576 -s 5
    bench
}

bench() {
    for mode in "CMA" "no CMA"; do
        e=""
        [ "$mode" = "CMA" ] || e=SWITCHYARD_SHM_NOCMA=1
        echo "---- bench, $mode"
        # shellcheck disable=SC2086
        env $e timeout "$TIMEOUT" "$MPIEXEC" -n 2 "$OUT/t_bench" -i 50000 -t 0.5 || FAILS=$((FAILS + 1))
        # shellcheck disable=SC2086
        env $e timeout "$TIMEOUT" "$MPIEXEC" -n 2 "$OUT/t_bench" -i 10 -t 0.5 -c | grep bandwidth ||
            FAILS=$((FAILS + 1))
    done
}

tune() {
    for k in ${TUNE_SIZES:-4 8 16 32 64}; do
        # shellcheck disable=SC2086
        $CC $CFLAGS -DSHM_EAGER_MAX=$((k << 10)) $INC -o "$OUT/t_bench_e$k" $SRC runtime/transport/shm/test/t_bench.c
        echo "---- eager_max $k KiB"
        timeout "$TIMEOUT" "$MPIEXEC" -n 2 "$OUT/t_bench_e$k" -i 20000 -t 0.3 | grep -E ' (4096|8192|16384|32768|65536) B'
        timeout "$TIMEOUT" "$MPIEXEC" -n 2 "$OUT/t_bench_e$k" -i 10 -t 0.3 -c | grep -E 'bandwidth +(4096|16384|32768|65536) B'
    done
}

asan() {
    build _asan "-O1 -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
    export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1
    traffic_set _asan 100 $((4 << 20))
    run "doorbell_asan 4 ranks" 4 -- "$OUT/t_bell_asan" -i 300
    death 3 _asan
    run "traffic_asan 4 ranks on 2 simulated nodes" 4 -- "$OUT/t_traffic_asan" -m 100 -N 2
    if "$OUT/t_traffic_asan" -m 10 >"$OUT/log.singleton_asan" 2>&1; then
        echo "ok    singleton_asan (no launcher)"
    else
        echo "FAIL  singleton_asan (log $OUT/log.singleton_asan)"
        FAILS=$((FAILS + 1))
    fi
}

valgrind_tests() {
    vg="valgrind -q --error-exitcode=9 --leak-check=full --errors-for-leak-kinds=definite"
    # shellcheck disable=SC2086
    for n in 2 4; do
        run "valgrind traffic $n ranks, CMA" "$n" -- $vg "$OUT/t_traffic" -m 150 -M 1048576
        run "valgrind traffic $n ranks, pipeline" "$n" SWITCHYARD_SHM_NOCMA=1 -- $vg "$OUT/t_traffic" -m 150 -M 1048576
    done
    # shellcheck disable=SC2086
    run "valgrind bench 2 ranks" 2 -- $vg "$OUT/t_bench" -i 200 -t 0.05
    # shellcheck disable=SC2086
    run "valgrind doorbell 4 ranks" 4 -- $vg "$OUT/t_bell" -i 100
    [ "$DEATH_OK" = 1 ] || return 0
    d="$OUT/death_vg"
    rm -rf "$d" && mkdir -p "$d"
    # shellcheck disable=SC2086
    timeout "$TIMEOUT" "$MPIEXEC" -n 3 $vg "$OUT/t_death" "$d" >"$d/log" 2>&1 || true
    if [ -f "$d/ok.0" ] && [ -f "$d/ok.2" ] && ! grep -q '^==[0-9]*== ' "$d/log"; then
        echo "ok    valgrind death on 3 ranks"
    else
        echo "FAIL  valgrind death on 3 ranks (log $d/log)"
        FAILS=$((FAILS + 1))
    fi
}

echo "launcher: $MPIEXEC"
build "" ""
case "${1:-full}" in
quick) quick ;;
full) full ;;
asan) asan ;;
valgrind) valgrind_tests ;;
bench) bench ;;
tune) tune ;;
all) full; asan; valgrind_tests ;;
*) echo "usage: $0 [quick|full|asan|valgrind|bench|tune|all]" >&2; exit 2 ;;
esac
leftovers
if [ "$FAILS" != 0 ]; then
    echo "$FAILS failed"
    exit 1
fi
echo "all passed"
