# launch_nodemap.sh — the node map comes from the launcher in one PMI value: Switchyard's
# mpiexec publishes PMI_process_mapping as Hydra does, and the runtime takes it (no host name
# exchange) under both launchers.
. tests/sh/lib.sh
MPIEXEC="$BUILD/bin/mpiexec"
gcc -std=gnu11 -Wall -Wextra -Werror -Iruntime/launch -o "$TMP/mapping" tests/sh/nodemap/mapping.c \
    runtime/launch/pmi.c runtime/launch/pmi_wire.c || fail "cannot build mapping.c"
"$BUILD/bin/mpicc" -o "$TMP/nodes" tests/sh/nodemap/nodes.c || fail "cannot build nodes.c"

# mpiexec: every rank reads the same value, for all the ranks, also over MPMD parts
out=$(timeout 20 "$MPIEXEC" -n 3 "$TMP/mapping" | sort) || fail "mapping under mpiexec: $out"
[ "$out" = "rank 0: (vector,(0,1,3))
rank 1: (vector,(0,1,3))
rank 2: (vector,(0,1,3))" ] || fail "PMI_process_mapping under mpiexec -n 3: $out"
out=$(timeout 20 "$MPIEXEC" -n 1 "$TMP/mapping" : -n 2 "$TMP/mapping" | sort | uniq -c | tr -s ' ')
[ "$out" = " 1 rank 0: (vector,(0,1,3))
 1 rank 1: (vector,(0,1,3))
 1 rank 2: (vector,(0,1,3))" ] || fail "PMI_process_mapping under an MPMD mpiexec: $out"

# the runtime takes the node map from it (SWITCHYARD_DEBUG=nodemap: rank 0 says where from)
out=$(SWITCHYARD_DEBUG=nodemap timeout 60 "$MPIEXEC" -n 4 "$TMP/nodes" 2>&1) || fail "nodes under mpiexec: $out"
case $out in *"switchyard: node map of 4 ranks from PMI_process_mapping"*"nodes ok: 4 ranks"*) ;;
*) fail "under mpiexec, the node map did not come from PMI_process_mapping: $out" ;; esac
out=$(timeout 60 "$MPIEXEC" -n 2 "$TMP/nodes" 2>&1) || fail "nodes under mpiexec: $out"
[ "$out" = "nodes ok: 2 ranks" ] || fail "without SWITCHYARD_DEBUG, something was printed: $out"
echo "mpiexec publishes the node map and the runtime takes it"

# Hydra: the same, and its own trace of the PMI traffic shows no host name key at all
HYDRA=$(command -v mpiexec.hydra) || skip "mpiexec.hydra (Debian package mpich) is not installed"
out=$(SWITCHYARD_DEBUG=nodemap timeout 60 "$HYDRA" -n 4 "$TMP/nodes" 2>&1) || fail "nodes under Hydra: $out"
case $out in *"switchyard: node map of 4 ranks from PMI_process_mapping"*"nodes ok: 4 ranks"*) ;;
*) fail "under Hydra, the node map did not come from PMI_process_mapping: $out" ;; esac
timeout 60 "$HYDRA" -verbose -n 4 "$TMP/nodes" >"$TMP/trace" 2>&1 || fail "nodes under Hydra -verbose: $(tail "$TMP/trace")"
grep -q 'key=PMI_process_mapping' "$TMP/trace" || fail "Hydra's trace shows no get of PMI_process_mapping"
! grep -q 'sy-host-' "$TMP/trace" || fail "the ranks exchanged host names under Hydra: $(grep -m3 sy-host- "$TMP/trace")"
echo "under Hydra too: one get of PMI_process_mapping, no host names"

# Hydra's fork launcher with made-up host names maps the ranks to 2 nodes that are this one
# machine: with only shared memory, the host names decide (the job runs, all on one node)
out=$(SWITCHYARD_DEBUG=nodemap timeout 60 "$HYDRA" -launcher fork -hosts a,b -n 3 "$TMP/nodes" 2>&1) ||
    fail "nodes under Hydra -hosts a,b: $out"
case $out in *"switchyard: node map of 3 ranks from the host name exchange"*"nodes ok: 3 ranks"*) ;;
*) fail "under Hydra -hosts a,b, a node map of 2 nodes was taken: $out" ;; esac
echo "a launcher's map of several nodes on this machine is settled by the host names"
