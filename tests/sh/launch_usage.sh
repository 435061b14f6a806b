# launch_usage.sh — mpiexec's command line: --help, usage errors (exit 2), programs not
# found (127) or not executable (126), non-MPI programs, the mpirun alias.
. tests/sh/launch_common.sh
run --help
check "--help: exit code $rc" [ "$rc" = 0 ]
check "--help: usage text" has "$out" "usage: mpiexec"
for args in "" "-n" "-n 0" "-n x $P" "-np -1 $P" "--bogus $P" "-genv A" "-x 1A=2 $P" \
    "--timeout 0 $P" "--timeout x $P"; do
    run $args
    check "'mpiexec $args': exit code $rc, expected 2" [ "$rc" = 2 ]
    check "'mpiexec $args': message" has "$err" "mpiexec: "
done
run -n 2 /no/such/program
check "missing program: exit code $rc" [ "$rc" = 127 ]
check "missing program: message" has "$err" "/no/such/program"
run -n 2 no-such-command-anywhere
check "missing command: exit code $rc" [ "$rc" = 127 ]
run -n 2 "$TMP/pmiprog.c"
check "not executable: exit code $rc" [ "$rc" = 126 ]
run -n 3 true
check "-n 3 true: exit code $rc" [ "$rc" = 0 ]
run -n 3 -- echo -n x
check "-- ends the options" [ "$out" = "xxx" ]
echo "the command line is checked"
