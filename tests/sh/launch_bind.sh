# launch_bind.sh — binding: with no more ranks than CPUs in mpiexec's affinity mask rank i runs
# on the i-th of them; -bind-to none, SWITCHYARD_BIND=none and oversubscription leave it alone.
. tests/sh/launch_common.sh
cpus=$(awk '/^Cpus_allowed_list:/ { n = split($2, r, ",");
    for (i = 1; i <= n; i++) { m = split(r[i], ab, "-"); for (c = ab[1]; c <= ab[m]; c++) print c } }' \
    /proc/self/status)
[ "$(echo "$cpus" | wc -l)" -ge 2 ] || skip "needs 2 CPUs in the affinity mask, have: $cpus"
A=$(echo "$cpus" | sed -n 1p)
B=$(echo "$cpus" | sed -n 2p)
mask() { taskset -c "$1" grep '^Cpus_allowed_list:' /proc/self/status | cut -f2; }
AB=$(mask "$A,$B")
SHOW="grep ^Cpus_allowed_list: /proc/self/status"
# each rank's list, in rank order: "rank list" lines
lists() { sed -n 's/^\[\([0-9]*\)\] Cpus_allowed_list:[[:space:]]*/\1 /p' "$TMP/out" | sort -n | tr '\n' ';'; }
brun() { # brun [ENV=VALUE...] -- mpiexec args: run mpiexec under taskset -c A,B
    local envs=
    while [ "$1" != -- ]; do envs="$envs $1"; shift; done
    shift
    env $envs taskset -c "$A,$B" "$MPIEXEC" -l "$@" >"$TMP/out" 2>"$TMP/err"
    rc=$?
    out=$(cat "$TMP/out")
    err=$(cat "$TMP/err")
}
unset SWITCHYARD_BIND
brun -- -n 2 $SHOW
check "2 ranks: exit code $rc" [ "$rc" = 0 ]
check "2 ranks on 2 CPUs: one CPU each ($(lists))" [ "$(lists)" = "0 $A;1 $B;" ]
brun -- -n 1 $SHOW : -n 1 $SHOW
check "MPMD, 2 ranks: one CPU each ($(lists))" [ "$(lists)" = "0 $A;1 $B;" ]
brun SWITCHYARD_BIND=none -- -n 2 -bind-to core $SHOW
check "-bind-to core wins over SWITCHYARD_BIND=none ($(lists))" [ "$(lists)" = "0 $A;1 $B;" ]
brun SWITCHYARD_BIND=core -- -n 2 $SHOW
check "SWITCHYARD_BIND=core ($(lists))" [ "$(lists)" = "0 $A;1 $B;" ]
brun -- -n 2 -bind-to none $SHOW
check "-bind-to none: the whole mask ($(lists))" [ "$(lists)" = "0 $AB;1 $AB;" ]
brun -- -n 2 --bind-to none $SHOW
check "--bind-to none: the whole mask ($(lists))" [ "$(lists)" = "0 $AB;1 $AB;" ]
brun SWITCHYARD_BIND=none -- -n 2 $SHOW
check "SWITCHYARD_BIND=none: the whole mask ($(lists))" [ "$(lists)" = "0 $AB;1 $AB;" ]
brun -- -n 4 $SHOW
check "4 ranks on 2 CPUs: not bound ($(lists))" [ "$(lists)" = "0 $AB;1 $AB;2 $AB;3 $AB;" ]
brun -- -n 3 $SHOW
check "3 ranks on 2 CPUs: not bound ($(lists))" [ "$(lists)" = "0 $AB;1 $AB;2 $AB;" ]
# the i-th CPU of mpiexec's own mask, not CPU i
taskset -c "$B" "$MPIEXEC" -l -n 1 $SHOW >"$TMP/out" 2>"$TMP/err"
rc=$? out=$(cat "$TMP/out") err=$(cat "$TMP/err")
check "under taskset -c $B: exit code $rc" [ "$rc" = 0 ]
check "under taskset -c $B: rank 0 on CPU $B ($(lists))" [ "$(lists)" = "0 $B;" ]
# mpiexec itself stays on its whole mask
brun -- -n 2 sh -c 'grep ^Cpus_allowed_list: /proc/$PPID/status'
check "mpiexec itself is not bound ($(lists))" [ "$(lists)" = "0 $AB;1 $AB;" ]
for args in "-bind-to" "-bind-to socket true" "--bind-to hwthread true"; do
    run $args
    check "'mpiexec $args': exit code $rc, expected 2" [ "$rc" = 2 ]
    check "'mpiexec $args': message" has "$err" "needs none or core"
done
SWITCHYARD_BIND=cores run -n 1 true
check "SWITCHYARD_BIND=cores: exit code $rc, expected 2" [ "$rc" = 2 ]
check "SWITCHYARD_BIND=cores: message" has "$err" "SWITCHYARD_BIND='cores'"
run --help
check "--help describes -bind-to" has "$out" "-bind-to core|none"
echo "ranks are bound to one CPU each when there are enough CPUs"
