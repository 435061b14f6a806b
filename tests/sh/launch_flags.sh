# launch_flags.sh — mpiexec takes the flags MPICH's Hydra and Open MPI users type: --version,
# --oversubscribe, -genvall/-genvnone, -host/-hosts/-f with this machine's names (others are
# refused, naming the host), -ppn covering -n; and MPIEXEC_TIMEOUT (launch_exit_codes).
. tests/sh/lib.sh
M="$BUILD/bin/mpiexec"
out=$("$M" --version) || fail "--version failed"
case $out in *Switchyard*) ;; *) fail "--version: $out" ;; esac
"$M" --oversubscribe -genvall -n 2 true || fail "--oversubscribe / -genvall refused"
"$M" -host "localhost,$(hostname):2" -n 2 true || fail "-host with this machine's names refused"
"$M" -hosts 127.0.0.1 -n 1 true || fail "-hosts 127.0.0.1 refused"
printf 'localhost:4\n# a comment\n%s\n' "$(hostname)" > "$TMP/hosts"
"$M" -f "$TMP/hosts" -n 2 true || fail "-f with this machine refused"
"$M" -hosts somewhere-else -n 2 true 2> "$TMP/err" && fail "-hosts somewhere-else accepted"
grep -q "host 'somewhere-else' is not this machine" "$TMP/err" || fail "-hosts: the refusal does not name the host"
printf 'otherhost:2\n' > "$TMP/hosts2"
"$M" -f "$TMP/hosts2" -n 2 true 2> /dev/null && fail "-f with another host accepted"
"$M" -ppn 4 -n 2 true || fail "-ppn 4 -n 2 refused"
"$M" -ppn 1 -n 2 true 2> /dev/null && fail "-ppn 1 -n 2 accepted on one node"
out=$(SWITCHYARD_FLAG_TEST=x "$M" -genvnone -genv A 1 -n 1 /bin/sh -c 'echo "[$SWITCHYARD_FLAG_TEST][$A]"')
[ "$out" = "[][1]" ] || fail "-genvnone: the rank saw $out"
out=$(SWITCHYARD_FLAG_TEST=x "$M" -n 1 /bin/sh -c 'echo "[$SWITCHYARD_FLAG_TEST]"')
[ "$out" = "[x]" ] || fail "the environment does not reach the ranks: $out"
echo "mpiexec flags work"
