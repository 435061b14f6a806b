# launch_kv.sh — the PMI-1 client and mpiexec's server: rank, size, put/barrier/get across
# 1 (singleton, no mpiexec), 4 and 8 ranks, -np and the mpirun alias.
. tests/sh/launch_common.sh
out=$(env -u PMI_FD -u PMI_PORT "$P" singleton) || fail "singleton run failed: $out"
[ "$out" = "singleton ok" ] || fail "singleton: $out"
run -n 4 "$P" kv 4
check "-n 4 kv exits 0 (rc $rc)" [ $rc = 0 ]
check "-n 4: four ranks report" [ "$(grep -c '^kv ok: rank [0-3] of 4$' "$TMP/out")" = 4 ]
run -np 8 "$P" kv 8
check "-np 8 kv exits 0 (rc $rc)" [ $rc = 0 ]
check "-np 8: eight ranks report" [ "$(grep -c '^kv ok: rank [0-7] of 8$' "$TMP/out")" = 8 ]
check "no stderr from a clean job" [ -z "$err" ]
[ -x "$BUILD/bin/mpirun" ] || fail "$BUILD/bin/mpirun is missing"
out=$("$BUILD/bin/mpirun" -n 3 "$P" kv 3) || fail "mpirun -n 3 failed"
[ "$(echo "$out" | grep -c '^kv ok')" = 3 ] || fail "mpirun -n 3: $out"
echo "kv works on 1, 3, 4 and 8 ranks"
