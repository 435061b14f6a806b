# tcp_forced.sh — the TCP transport (issue 9) carries every message when SWITCHYARD_TRANSPORT=tcp:
# every multi-process C test (point-to-point, datatypes large and non-contiguous through
# rendezvous, collectives, communicators, windows) passes over loopback, and a dead peer fails
# the operations with it instead of hanging (p2p_dead_peer's checks).
. tests/sh/lib.sh
MPIEXEC="$BUILD/bin/mpiexec"

out=$(SWITCHYARD_DEBUG=transport SWITCHYARD_TRANSPORT=tcp timeout 60 "$MPIEXEC" -n 3 "$BUILD/tests/c/p2p_ring" 2>&1) ||
    fail "p2p_ring over tcp: $out"
case $out in *"rank 0 reaches rank 1 through tcp"*"rank 0 reaches rank 2 through tcp"*) ;;
*) fail "SWITCHYARD_TRANSPORT=tcp did not select tcp: $out" ;; esac
out=$(SWITCHYARD_DEBUG=transport timeout 60 "$MPIEXEC" -n 2 "$BUILD/tests/c/p2p_ring" 2>&1) || fail "p2p_ring: $out"
case $out in *"rank 0 reaches rank 1 through shm"*) ;; *) fail "without it, not shm: $out" ;; esac
echo "SWITCHYARD_TRANSPORT=tcp selects tcp for every peer; shm stays the default on one node"

export SWITCHYARD_TRANSPORT=tcp
# every multi-process C test, each on its usual number of ranks (its testlist settings win)
python3 tests/run.py --face c --min-np 2 --set SWITCHYARD_TRANSPORT=tcp -j 1 --build "$BUILD" >"$TMP/suite" 2>&1 ||
    fail "over tcp: $(grep '^FAIL' "$TMP/suite"; grep -v '^PASS' "$TMP/suite" | tail -30)"
echo "every multi-process C test over tcp: $(tail -1 "$TMP/suite")"
sh tests/sh/p2p_dead_peer.sh >"$TMP/dead" 2>&1 || fail "p2p_dead_peer over tcp: $(tail -5 "$TMP/dead")"
echo "p2p_dead_peer over tcp: ok"
