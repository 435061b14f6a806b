# launch_exit_codes.sh — MPI_Abort codes reach mpiexec's exit status in 8 bits without
# turning into success (256 exited 0), and MPIEXEC_TIMEOUT works as --timeout does.
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
MPIEXEC_TIMEOUT=1 timeout 30 "$MPIEXEC" -n 2 sleep 20 > /dev/null 2> "$TMP/err"
rc=$?
[ "$rc" = 124 ] || fail "MPIEXEC_TIMEOUT=1: exit $rc, expected 124"
grep -q "timed out after 1 s" "$TMP/err" || fail "MPIEXEC_TIMEOUT=1: no timeout message"
MPIEXEC_TIMEOUT=soon timeout 30 "$MPIEXEC" -n 1 true > /dev/null 2> "$TMP/err" && fail "MPIEXEC_TIMEOUT=soon accepted"
grep -q "MPIEXEC_TIMEOUT='soon'" "$TMP/err" || fail "MPIEXEC_TIMEOUT=soon: the error does not name it"
echo "abort codes and MPIEXEC_TIMEOUT as expected"
