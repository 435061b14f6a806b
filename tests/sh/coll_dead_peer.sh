# coll_dead_peer.sh — after a rank is killed (SIGKILL) under mpiexec -disable-auto-cleanup, every
# blocking, nonblocking and persistent collective returns on every survivor, the dead rank as
# root and not (tests/c/coll_dead_peer.c checks the classes), never waits forever (issue 35,
# item 2), then the calls that make communicators: small (eager) and large (rendezvous) blocks,
# shared memory and TCP, both C faces.
. tests/sh/lib.sh
for b in c abi; do
    [ -x "$BUILD/tests/$b/coll_dead_peer" ] || fail "$BUILD/tests/$b/coll_dead_peer is not built"
done
run() { # face transport dead-rank elements-per-block
    timeout 30 env SWITCHYARD_TRANSPORT="$2" "$BUILD/bin/mpiexec" -disable-auto-cleanup -n 4 \
        "$BUILD/tests/$1/coll_dead_peer" "$3" "$4" > "$TMP/out" 2>&1
    rc=$?
    what="$1 face, $2, rank $3 dead, $4 per block"
    [ $rc = 124 ] && { cat "$TMP/out"; fail "$what: a survivor still waited after 30 s"; }
    [ $rc = 137 ] || { cat "$TMP/out"; fail "$what: mpiexec exited $rc, expected 137 (the dead rank's status)"; }
    grep -q "^mpiexec: rank $3 (pid [0-9]*) killed by signal 9" "$TMP/out" ||
        { cat "$TMP/out"; fail "$what: mpiexec did not name rank $3"; }
    for r in 0 1 2 3; do
        [ $r = "$3" ] && continue
        grep -q "^rank $r: all [0-9]* cases returned" "$TMP/out" ||
            { cat "$TMP/out"; fail "$what: rank $r did not return from every collective"; }
    done
    echo "$what: $(grep -c 'returned in' "$TMP/out") calls returned"
}
run c shm 3 1
run c shm 0 20000
run c tcp 1 1
run c tcp 2 20000
run abi shm 1 20000
echo "ok"
