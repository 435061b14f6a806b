# launch_hygiene.sh — what a rank inherits: descriptors 0-3 only (3 = PMI socket), no PMI_PORT,
# a job id and secret in the environment (same in all ranks, new per job, never in argv).
. tests/sh/launch_common.sh
exec 7>/dev/null 8<"$P" # descriptors the ranks must not inherit
PMI_PORT=localhost:1234 PMI_ID=9 run -n 3 "$P" hygiene
check "hygiene: exit code $rc" [ "$rc" = 0 ]
check "hygiene: three ranks report" [ "$(grep -c '^hygiene ok' "$TMP/out")" = 3 ]
exec 7>&- 8<&-
run -n 1 "$P" env SWITCHYARD_JOBID SWITCHYARD_JOB_SECRET
first=$out
run -n 1 "$P" env SWITCHYARD_JOBID SWITCHYARD_JOB_SECRET
[ "$first" != "$out" ] || fail "two jobs got the same id and secret"
id=$(echo "$out" | sed -n 's/^SWITCHYARD_JOBID=//p')
case $first in *"$id"*) fail "two jobs got the same id" ;; esac
echo "ranks inherit only what they should"
