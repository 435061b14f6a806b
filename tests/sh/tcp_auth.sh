# tcp_auth.sh — a TCP connection must prove it belongs to the job (issue 9): while 3 ranks
# exchange checked messages over forced TCP, tests/sh/tcp_auth/attack.py connects to rank 1's
# listening port and sends noise, an HTTP request, nothing, another job's handshake, a handshake
# for another challenge, receiver or rank, half a handshake. Each connection is closed within
# 1 s (2 s when silent), the job ends with every message intact, rank 1 logs each kind once.
# Twice: while the ranks are in MPI calls, and while they are all away from MPI.
. tests/sh/lib.sh
MPIEXEC="$BUILD/bin/mpiexec"
"$BUILD/bin/mpicc" -Wall -Werror -o "$TMP/job" tests/sh/tcp_auth/job.c || fail "cannot build the job"

# attack MODE: runs the job (MODE "busy": in MPI calls all along; "idle": away from MPI while
# attacked) and the attacker against rank 1, and checks both outcomes and rank 1's log.
attack() {
    export TCP_AUTH_DIR="$TMP/$1"
    mkdir -p "$TCP_AUTH_DIR"
    SWITCHYARD_TRANSPORT=tcp timeout 90 "$MPIEXEC" -n 3 "$TMP/job" "$1" >"$TMP/out" 2>"$TMP/err" &
    job=$!
    timeout 60 python3 tests/sh/tcp_auth/attack.py "$TCP_AUTH_DIR" 1 >"$TMP/attack" 2>&1
    arc=$?
    touch "$TCP_AUTH_DIR/done"
    wait $job
    rc=$?
    cat "$TMP/attack" "$TMP/out" "$TMP/err"
    [ $arc = 0 ] || fail "$1 job: the attacker's connections were not all refused in time (exit $arc)"
    [ $rc = 0 ] || fail "$1 job: exited $rc"
    for r in 0 1 2; do
        grep -q "^rank $r: ok after [0-9]* iterations" "$TMP/out" ||
            fail "$1 job: rank $r did not end with its messages intact"
    done
    for why in "bad handshake" "handshake failed authentication" "no handshake within 1 s" \
               "closed before the handshake"; do
        n=$(grep -c "^switchyard: rank 1: tcp: dropped a connection from 127\.0\.0\.1:[0-9]*: $why\$" "$TMP/err")
        [ "$n" = 1 ] || fail "$1 job: '$why' logged $n times by rank 1, expected once"
    done
    n=$(grep -c "switchyard" "$TMP/err")
    [ "$n" = 4 ] || fail "$1 job: $n lines from switchyard on stderr, expected the 4 above"
    echo "tcp_auth, $1 job: every stranger dropped and logged once per kind; the job's messages intact"
}
attack busy
attack idle
# Without SWITCHYARD_JOB_SECRET (ranks launched by MPICH's Hydra over PMI-1), rank 0 draws the
# secret and shares it through the key-value space: the handshakes still succeed.
command -v mpiexec.hydra >/dev/null || { echo "mpiexec.hydra is not installed: Hydra part skipped"; exit 0; }
env -u SWITCHYARD_JOB_SECRET SWITCHYARD_TRANSPORT=tcp timeout 60 mpiexec.hydra -n 3 "$BUILD/tests/c/p2p_ring" \
    >"$TMP/hydra" 2>&1 || fail "p2p_ring over tcp under mpiexec.hydra: $(tail -5 "$TMP/hydra")"
echo "p2p_ring over tcp under mpiexec.hydra (secret through PMI): ok"
