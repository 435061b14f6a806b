# launch_shm.sh — after a job ends (normally or not), mpiexec removes every /dev/shm entry
# whose name contains its job id, and nothing else.
. tests/sh/launch_common.sh
[ -d /dev/shm ] && [ -w /dev/shm ] || skip "/dev/shm is not writable here"
keep=/dev/shm/switchyard-launch-test-keep-$$
touch "$keep"
trap 'rm -rf "$TMP" "$keep"' EXIT
run -n 3 "$P" shm 1
check "shm with SIGSEGV: exit code $rc" [ "$rc" = 139 ]
files=$(sed -n 's/^created //p' "$TMP/out")
[ -n "$files" ] || fail "the ranks created no files"
for f in $files; do [ ! -e "$f" ] || fail "$f survived the job"; done
run -n 2 "$P" shm 0 ok
check "shm, normal end: exit code $rc" [ "$rc" = 0 ]
files=$(sed -n 's/^created //p' "$TMP/out")
[ "$(echo "$files" | wc -l)" = 2 ] || fail "expected two files: $files"
for f in $files; do [ ! -e "$f" ] || fail "$f survived the job"; done
[ -e "$keep" ] || fail "the sweep removed $keep, which is not the job's"
echo "the /dev/shm sweep works"
