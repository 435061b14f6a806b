# launch_exit_codes.sh — MPI_Abort codes reach mpiexec's exit status in 8 bits without
# turning into success (256 exited 0), a fatal error is not reported as a call of MPI_Abort
# (its report names the failing call and the error class),
# and MPIEXEC_TIMEOUT works as --timeout does.
. tests/sh/lib.sh
MPIEXEC="$BUILD/bin/mpiexec"
cat > "$TMP/ab.c" <<'C'
#include <mpi.h>
#include <stdlib.h>
int main(int argc, char **argv) { MPI_Init(&argc, &argv); MPI_Abort(MPI_COMM_WORLD, atoi(argv[1])); return 0; }
C
"$BUILD/bin/mpicc" -o "$TMP/ab" "$TMP/ab.c" || fail "cannot build the test program"
for pair in 3:3 255:255 256:1 512:1 257:1 -1:255; do
    code=${pair%%:*} want=${pair##*:}
    timeout 30 "$MPIEXEC" -n 2 "$TMP/ab" "$code" > /dev/null 2>&1
    rc=$?
    [ "$rc" = "$want" ] || fail "MPI_Abort($code): mpiexec exited $rc, expected $want"
done
cat > "$TMP/fatal.c" <<'C'
#include <mpi.h>
int main(int argc, char **argv) { int x = 0; MPI_Init(&argc, &argv); MPI_Send(&x, 1, MPI_INT, 99, 0, MPI_COMM_WORLD); return 0; }
C
"$BUILD/bin/mpicc" -o "$TMP/fatal" "$TMP/fatal.c" || fail "cannot build the fatal-error program"
timeout 30 "$MPIEXEC" -n 2 "$TMP/fatal" > /dev/null 2> "$TMP/err"
rc=$?
[ "$rc" = 1 ] || fail "a fatal error: exit $rc, expected 1"
grep -q "ended the job on a fatal error: MPI_Send: invalid rank 'dest' = 99.*(MPI_ERR_RANK)" "$TMP/err" ||
    { cat "$TMP/err" >&2; fail "a fatal error is not reported as one"; }
grep -q "called MPI_Abort" "$TMP/err" && fail "a fatal error reported as a call of MPI_Abort"
timeout 30 "$MPIEXEC" -n 1 "$TMP/ab" 9 > /dev/null 2> "$TMP/err"
grep -q "rank 0 called MPI_Abort with code 9" "$TMP/err" || fail "MPI_Abort is not reported as such"
MPIEXEC_TIMEOUT=1 timeout 30 "$MPIEXEC" -n 2 sleep 20 > /dev/null 2> "$TMP/err"
rc=$?
[ "$rc" = 124 ] || fail "MPIEXEC_TIMEOUT=1: exit $rc, expected 124"
grep -q "timed out after 1 s" "$TMP/err" || fail "MPIEXEC_TIMEOUT=1: no timeout message"
MPIEXEC_TIMEOUT=soon timeout 30 "$MPIEXEC" -n 1 true > /dev/null 2> "$TMP/err" && fail "MPIEXEC_TIMEOUT=soon accepted"
grep -q "MPIEXEC_TIMEOUT='soon'" "$TMP/err" || fail "MPIEXEC_TIMEOUT=soon: the error does not name it"
echo "abort codes and MPIEXEC_TIMEOUT as expected"
