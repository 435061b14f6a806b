# tcp_forced.sh — the TCP transport (issue 9, first increment) carries every message when
# SWITCHYARD_TRANSPORT=tcp: the point-to-point, datatype (large and non-contiguous, through
# rendezvous), collective and communicator tests pass over loopback, and a dead peer fails the
# operations with it instead of hanging (p2p_dead_peer's checks).
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
for t in "p2p_ring 2" "p2p_ring 4" "p2p_complete_once 2" "p2p_stress 2" "type_compact 2" \
         "coll_intra 3" "coll_nb 2" "comm_split 4" "win_create 3"; do
    set -- $t
    timeout 120 "$MPIEXEC" -n "$2" "$BUILD/tests/c/$1" >"$TMP/out" 2>&1 ||
        fail "$1 on $2 ranks over tcp: $(tail -5 "$TMP/out")"
    echo "$1 on $2 ranks over tcp: ok"
done
sh tests/sh/p2p_dead_peer.sh >"$TMP/dead" 2>&1 || fail "p2p_dead_peer over tcp: $(tail -5 "$TMP/dead")"
echo "p2p_dead_peer over tcp: ok"
