# tcp_midway.sh — a peer killed in the middle of a large TCP transfer (issue 9): with 4 KiB
# socket buffers, 2 ranks start a 256 MiB message and one side kills itself with SIGKILL after
# 0.3 s of it (tcp_midway/midway.c), first the receiver, then the sender. Under mpiexec
# -disable-auto-cleanup the survivor's MPI_Send or MPI_Recv fails (MPIX_ERR_PROC_FAILED) naming
# the dead rank within seconds, and mpiexec names the killed rank and exits 128+9.
. tests/sh/lib.sh
"$BUILD/bin/mpicc" -Wall -Werror -o "$TMP/midway" tests/sh/tcp_midway/midway.c || fail "cannot build midway.c"
for who in receiver sender; do
    case $who in receiver) dead=1 alive=0 ;; sender) dead=0 alive=1 ;; esac
    start=$(date +%s)
    SWITCHYARD_TRANSPORT=tcp SWITCHYARD_TCP_SOCKBUF=4096 timeout 60 "$BUILD/bin/mpiexec" -disable-auto-cleanup \
        -n 2 "$TMP/midway" $who >"$TMP/out" 2>"$TMP/err"
    rc=$?
    took=$(( $(date +%s) - start ))
    cat "$TMP/out" "$TMP/err"
    [ $rc = 137 ] || fail "the $who killed: mpiexec exited $rc, expected 137 (signal 9)"
    grep -q "^rank $dead: killing myself in the middle of the transfer" "$TMP/out" ||
        fail "the $who (rank $dead) did not die mid-transfer"
    grep -q "^mpiexec: rank $dead (pid [0-9]*) killed by signal 9" "$TMP/err" ||
        fail "mpiexec did not name rank $dead and its signal"
    grep -q "^rank $alive: the operation failed naming the dead rank" "$TMP/out" ||
        fail "the $who killed: rank $alive's operation did not fail naming rank $dead"
    [ $took -lt 15 ] || fail "the $who killed: the job took $took s"
    echo "the $who (rank $dead) killed mid-transfer: rank $alive's operation failed naming it, in $took s"
done
