# tcp_late_peer.sh — a peer late for its handshake is not a dead peer (issue 35, item 1): on
# forced TCP rank 1 of 4 opens its connections to the 3 others and is stopped (SIGSTOP) for 3 s
# before it answers their challenges (tcp_late_peer/late.c). Each acceptor drops the silent
# connection after SWITCHYARD_TCP_HANDSHAKE_TIMEOUT (1 s by default) and logs it; rank 1, resumed,
# connects again, and the job completes with every message intact: nobody is declared failed.
. tests/sh/lib.sh
"$BUILD/bin/mpicc" -Wall -Werror -o "$TMP/late" tests/sh/tcp_late_peer/late.c || fail "cannot build late.c"
SWITCHYARD_TRANSPORT=tcp timeout 60 "$BUILD/bin/mpiexec" -n 4 "$TMP/late" >"$TMP/out" 2>"$TMP/err"
rc=$?
cat "$TMP/out" "$TMP/err"
# the late rank really was dropped mid-handshake, else the test proves nothing
grep -q "^switchyard: rank [023]: tcp: dropped a connection from 127\.0\.0\.1:[0-9]*: no handshake within 1 s\$" "$TMP/err" ||
    fail "no acceptor dropped rank 1's connection: the stop missed the handshake"
! grep -q "PROC_FAILED\|failed" "$TMP/err" || fail "a late peer was reported as failed"
[ $rc = 0 ] || fail "the job exited $rc"
for r in 0 1 2 3; do
    grep -q "^rank $r: ok\$" "$TMP/out" || fail "rank $r did not end with its messages intact"
done
echo "rank 1, stopped 3 s mid-handshake: dropped by its acceptors, connected again, job intact"

# The limit is settable: with 5 s nobody is dropped while rank 1 is stopped for 3 s.
SWITCHYARD_TRANSPORT=tcp SWITCHYARD_TCP_HANDSHAKE_TIMEOUT=5 timeout 60 "$BUILD/bin/mpiexec" -n 4 "$TMP/late" \
    >"$TMP/out" 2>"$TMP/err"
rc=$?
cat "$TMP/out" "$TMP/err"
[ $rc = 0 ] || fail "SWITCHYARD_TCP_HANDSHAKE_TIMEOUT=5: the job exited $rc"
! grep -q "dropped a connection" "$TMP/err" || fail "SWITCHYARD_TCP_HANDSHAKE_TIMEOUT=5: a connection was dropped"
[ "$(grep -c '^rank [0-3]: ok$' "$TMP/out")" = 4 ] || fail "SWITCHYARD_TCP_HANDSHAKE_TIMEOUT=5: not every rank ok"
echo "SWITCHYARD_TCP_HANDSHAKE_TIMEOUT=5: nobody dropped, job intact"
