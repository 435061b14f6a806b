# launch_env.sh — the ranks' environment: passed through, -genv NAME VALUE, -x NAME=VALUE,
# -x NAME, later settings win, PMI_* set by mpiexec and not overridable.
. tests/sh/launch_common.sh
export PASSED=through SHADOWED=old XNAME=exported
run -n 2 -genv GA "one two" -x XB=2 -x XNAME -genv SHADOWED new -genv GA final \
    -genv PMI_RANK 99 "$P" env PASSED GA XB XNAME SHADOWED PMI_RANK PMI_SIZE PMI_FD
check "env: exit code $rc" [ "$rc" = 0 ]
for want in PASSED=through "GA=final" XB=2 XNAME=exported SHADOWED=new PMI_SIZE=2 PMI_FD=3; do
    check "env: expected $want twice" [ "$(grep -cx "$want" "$TMP/out")" = 2 ]
done
check "env: PMI_RANK is the rank" [ "$(grep -c '^PMI_RANK=[01]$' "$TMP/out")" = 2 ]
check "env: -genv PMI_RANK is refused" has "$err" "ignoring PMI_RANK"
check "env: PMI_RANK appears once" [ "$(grep -c '^PMI_RANK=' "$TMP/out")" = 2 ]
run -n 1 -genv GA "a b  c" "$P" env GA
check "env: value with spaces kept" [ "$out" = "GA=a b  c" ]
echo "the environment reaches the ranks"
