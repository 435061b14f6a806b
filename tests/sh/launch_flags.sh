# launch_flags.sh — mpiexec takes the flags MPICH's Hydra and Open MPI users type: --version,
# --oversubscribe, -genvall/-genvnone, -host/-hosts/-f with this machine's names (others are
# refused, naming the host, unless -bootstrap-exec starts them: Hydra's placement), -ppn
# covering -n; and MPIEXEC_TIMEOUT (launch_exit_codes).
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
"$M" -hosts a:x -n 1 true 2> "$TMP/err" && fail "-hosts a:x accepted"
grep -q "host 'a': the count after ':' must be" "$TMP/err" || fail "-hosts a:x: $(cat "$TMP/err")"
# -bootstrap-exec: ranks fill each host's slots in turn (Hydra's placement); this machine's
# ranks start directly, the others as `CMD HOST PROGRAM ARGS...`
printf '#!/bin/sh\nh=$1; shift; export FAKE_HOST=$h; exec "$@"\n' > "$TMP/boot"
chmod +x "$TMP/boot"
out=$("$M" -l -hosts "a:2,b,localhost" -bootstrap-exec "$TMP/boot" -n 5 sh -c 'echo "${FAKE_HOST:-here}"' | sort | tr '\n' ' ')
[ "$out" = "[0] a [1] a [2] b [3] here [4] a " ] || fail "-hosts a:2,b,localhost -bootstrap-exec: placed $out"
out=$("$M" -l -ppn 2 -hosts a,b -bootstrap-exec "$TMP/boot" -n 4 sh -c 'echo "$FAKE_HOST"' | sort | tr '\n' ' ')
[ "$out" = "[0] a [1] a [2] b [3] b " ] || fail "-ppn 2 -hosts a,b -bootstrap-exec: placed $out"
"$M" -hosts a -bootstrap-exec "$TMP/no-such-command" -n 1 true 2> /dev/null
[ $? = 127 ] || fail "a missing bootstrap command is not exit 127"
out=$("$M" -l -bootstrap exec -hosts a -bootstrap-exec "$TMP/boot" -n 1 sh -c 'echo "$FAKE_HOST"')
[ "$out" = "[0] a" ] || fail "-bootstrap exec -bootstrap-exec: $out"
"$M" -bootstrap ssh -hosts a -n 1 true 2> "$TMP/err" && fail "-bootstrap ssh accepted"
grep -q "ssh cannot carry" "$TMP/err" || fail "-bootstrap ssh: the refusal does not say why: $(cat "$TMP/err")"
"$M" -ppn 4 -n 2 true || fail "-ppn 4 -n 2 refused"
"$M" -ppn 1 -n 2 true 2> /dev/null && fail "-ppn 1 -n 2 accepted on one node"
out=$(SWITCHYARD_FLAG_TEST=x "$M" -genvnone -genv A 1 -n 1 /bin/sh -c 'echo "[$SWITCHYARD_FLAG_TEST][$A]"')
[ "$out" = "[][1]" ] || fail "-genvnone: the rank saw $out"
out=$(SWITCHYARD_FLAG_TEST=x "$M" -n 1 /bin/sh -c 'echo "[$SWITCHYARD_FLAG_TEST]"')
[ "$out" = "[x]" ] || fail "the environment does not reach the ranks: $out"
echo "mpiexec flags work"
