# tcp_netns.sh — one job across two simulated hosts (issue 9): two network namespaces joined by
# a veth pair, the job launched by Debian MPICH's mpiexec.hydra (run in the first namespace,
# its ssh replaced by `ip netns exec`). Ranks in one namespace talk through shared memory,
# ranks in the other through TCP; the point-to-point, datatype, communicator and collective
# tests pass (but comm_split and win_create, which assume one node). Then the same with
# Switchyard's own mpiexec in the first namespace, which starts each rank in its host's
# namespace through -bootstrap-exec (`ip netns exec` keeps the PMI socket and environment).
# The namespaces are removed whatever the outcome.
. tests/sh/lib.sh
command -v mpiexec.hydra >/dev/null || skip "Debian's mpich (mpiexec.hydra) is not installed"
[ "$(id -u)" = 0 ] || skip "network namespaces need root"
command -v ip >/dev/null || skip "iproute2 (ip) is not installed"

# namespaces left by a run that was killed (its process is gone)
for ns in $(ip netns list 2>/dev/null | awk '/^swy[AB][0-9]+/ {print $1}'); do
    kill -0 "${ns#swy?}" 2>/dev/null || ip netns del "$ns" 2>/dev/null
done
case $BUILD in /*) B_ABS=$BUILD ;; *) B_ABS=$PWD/$BUILD ;; esac
A=swyA$$ B=swyB$$ VA=swa$$ VB=swb$$ IPA=10.77.0.1 IPB=10.77.0.2
cleanup() {
    for ns in $A $B; do
        pids=$(ip netns pids "$ns" 2>/dev/null) && [ -n "$pids" ] && kill -9 $pids 2>/dev/null
        ip netns del "$ns" 2>/dev/null
    done
    rm -rf "$TMP"
}
trap cleanup EXIT
ip netns add $A 2>"$TMP/err" || skip "this machine forbids network namespaces: $(cat "$TMP/err")"
ip netns add $B || fail "ip netns add $B"
ip link add $VA netns $A type veth peer name $VB netns $B || fail "cannot make a veth pair"
ip -n $A addr add $IPA/24 dev $VA && ip -n $B addr add $IPB/24 dev $VB &&
    ip -n $A link set $VA up && ip -n $B link set $VB up &&
    ip -n $A link set lo up && ip -n $B link set lo up || fail "cannot configure the veth pair"

# Hydra's stand-in for ssh: [options] HOST COMMAND... runs COMMAND in HOST's namespace
cat >"$TMP/nsexec" <<EOF
#!/bin/sh
while [ "\${1#-}" != "\$1" ]; do shift; done
case \$1 in $IPA) ns=$A ;; $IPB) ns=$B ;; *) echo "nsexec: unknown host \$1" >&2; exit 1 ;; esac
shift
exec ip netns exec \$ns sh -c "\$*"
EOF
chmod +x "$TMP/nsexec"
# ranks alternate between the hosts: 0, 2, ... on A; 1, 3, ... on B
HYDRA="ip netns exec $A mpiexec.hydra -hosts $IPA,$IPB -bootstrap ssh -bootstrap-exec $TMP/nsexec -iface $VA"
# Switchyard's mpiexec: the same placement, its bootstrap command runs `ip netns exec NS PROGRAM...`
printf '#!/bin/sh\nexec ip netns exec "$@"\n' >"$TMP/nsrun"
chmod +x "$TMP/nsrun"
OWN="ip netns exec $A $B_ABS/bin/mpiexec -hosts $A,$B -bootstrap-exec $TMP/nsrun"

for L in HYDRA OWN; do
    eval "launch=\$$L"
    out=$(SWITCHYARD_DEBUG=transport,nodemap timeout 60 $launch -n 4 "$B_ABS/tests/c/p2p_ring" 2>&1) ||
        fail "$L: p2p_ring on 4 ranks across $A and $B: $out"
    case $out in
    *"rank 0 reaches rank 1 through tcp"*"rank 0 reaches rank 2 through shm"*"rank 0 reaches rank 3 through tcp"*) ;;
    *) fail "$L: not tcp between the namespaces and shm inside each: $out" ;; esac
    case $out in *"rank 1: tcp: listening at $IPB:"*) ;;
    *) fail "$L: rank 1 does not listen on its namespace's address $IPB: $out" ;; esac
    echo "$L: across two namespaces: tcp between them (rank 1 listens on $IPB), shm inside each"
done

# the suites, each test on its usual number of ranks, spread over both hosts
for t in "p2p_complete_once 2" "p2p_send_done 2" "p2p_ring 4" "p2p_random_msgs 3" "p2p_stress 2" \
         "type_pack 2" "type_compact 2" "type_darray 2" "group_ops 3" "comm_dup 5" \
         "comm_idup 4" "comm_inter 3" "comm_from_group 4" "topo_cart 6" "attr_comm 2" \
         "coll_intra 4" "coll_nb 4" "coll_inter 5" "coll_neighbor 4" "coll_tags 4" "coll_async 4" \
         "req_status_multi 2"; do
    set -- $t
    timeout 300 $HYDRA -n "$2" "$B_ABS/tests/c/$1" >"$TMP/out" 2>&1 ||
        fail "$1 on $2 ranks across $A and $B: $(tail -5 "$TMP/out")"
    echo "$1 on $2 ranks across two hosts: ok"
done
# and every multi-process C test (each on its usual number of ranks, the ranks alternating
# between the hosts) under Switchyard's mpiexec, but those marked one_node in tests/testlist
python3 tests/run.py --face c --min-np 2 --launcher "$OWN" --spread -j 1 --build "$B_ABS" >"$TMP/suite" 2>&1 ||
    fail "Switchyard's mpiexec across $A and $B: $(grep '^FAIL' "$TMP/suite"; grep -v '^PASS' "$TMP/suite" | tail -30)"
echo "Switchyard's mpiexec across two hosts, every multi-process C test: $(tail -1 "$TMP/suite")"
grep '^SKIP' "$TMP/suite"

# MPI_COMM_TYPE_SHARED groups the ranks of each host (comm_split assumes one node): the even
# world ranks on A, the odd ones on B
cat >"$TMP/shared.c" <<'EOF'
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv)
{
    int me, np, n, *who, bad = 0;
    MPI_Comm node;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    MPI_Comm_size(node, &n);
    who = malloc(sizeof *who * (size_t)n);
    MPI_Allgather(&me, 1, MPI_INT, who, 1, MPI_INT, node);
    bad = n != (np + 1 - me % 2) / 2;
    for (int i = 0; i < n; i++)
        bad |= who[i] != 2 * i + me % 2;
    if (bad)
        printf("rank %d: MPI_COMM_TYPE_SHARED has %d ranks, from world rank %d\n", me, n, who[0]);
    MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
    free(who);
    MPI_Comm_free(&node);
    MPI_Finalize();
    return bad;
}
EOF
"$BUILD/bin/mpicc" -o "$TMP/shared" "$TMP/shared.c" || fail "cannot build shared.c"
for L in HYDRA OWN; do
    eval "launch=\$$L"
    for n in 4 5; do
        timeout 60 $launch -n $n "$TMP/shared" >"$TMP/out" 2>&1 ||
            fail "$L: MPI_COMM_TYPE_SHARED on $n ranks: $(cat "$TMP/out")"
    done
    echo "$L: MPI_COMM_TYPE_SHARED gives each host's ranks (4 and 5 ranks)"
done

# a rank on the other host that exits while the others wait for it ends the job within seconds,
# whether it had talked to them (its connections close) or not (after a second of waiting the
# ranks connect to the peers they wait for, and find nobody listening): whichever of Hydra and
# Switchyard notices first. Hydra 4.0.2's proxy may crash on the dead rank (a PMI reply written
# to it) without ending the job, so Switchyard's own detection is what bounds the time.
for when in before after; do
    printf '#include <mpi.h>\n#include <stdlib.h>\nint main(int c, char **v) { int r; MPI_Init(&c, &v);\n'\
'MPI_Comm_rank(MPI_COMM_WORLD, &r);\n%s if (r == 1) exit(3);\nMPI_Barrier(MPI_COMM_WORLD); MPI_Finalize(); return 0; }\n' \
        "$([ $when = after ] && echo 'MPI_Barrier(MPI_COMM_WORLD);')" >"$TMP/die_$when.c"
    "$BUILD/bin/mpicc" -o "$TMP/die_$when" "$TMP/die_$when.c" || fail "cannot build die_$when.c"
done
# die LAUNCHER WHEN: runs die_WHEN on 4 ranks; the job must fail within 10 s and leave no process
# in either namespace. Sets rc and took.
die() {
    start=$(date +%s)
    timeout 60 $1 -n 4 "$TMP/die_$2" >"$TMP/out" 2>&1
    rc=$?
    took=$(( $(date +%s) - start ))
    [ $rc != 0 ] || fail "a job whose rank 1 exited with 3 $2 talking succeeded"
    [ $took -lt 10 ] || fail "the job took $took s to end after rank 1 died $2 talking: $(tail -5 "$TMP/out")"
    sleep 1
    for ns in $A $B; do
        [ -z "$(ip netns pids $ns)" ] || fail "processes left in $ns: $(ip netns pids $ns)"
    done
}
for when in before after; do
    for i in 1 2 3; do
        die "$HYDRA" $when
    done
    echo "rank 1 exiting with 3 on the other host $when talking to the others ends the job within seconds (3 runs), no process left"
done
# Switchyard's mpiexec also names the rank and its exit status, and exits with it
for when in before after; do
    die "$OWN" $when
    [ $rc = 3 ] || fail "Switchyard's mpiexec exited $rc, not 3, when rank 1 exited with 3 $when talking: $(tail -5 "$TMP/out")"
    grep -q "rank 1 .*exited with status 3" "$TMP/out" || fail "the failed rank is not named: $(cat "$TMP/out")"
    echo "Switchyard's mpiexec: rank 1 exiting with 3 on the other host $when talking ends the job in $took s with status 3, named; no process left"
done
