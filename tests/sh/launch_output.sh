# launch_output.sh — output relaying: whole lines only (ranks' lines never mix), -l and
# --tag-output prefix "[rank] ", the unfinished last line, stdin to rank 0 only.
. tests/sh/launch_common.sh
run -n 8 -l "$P" lines 100
check "lines -l: exit code $rc" [ "$rc" = 0 ]
bad=$(grep -Ev '^\[([0-7])\] rank \1 line ([0-9]+) middle \2 end$' "$TMP/out" | head -3)
check "lines -l: malformed or mixed lines: $bad" [ -z "$bad" ]
check "lines -l: 800 lines" [ "$(wc -l <"$TMP/out")" = 800 ]
check "lines -l: stderr tagged" [ "$(grep -Ec '^\[([0-7])\] rank \1 err [0-9]+$' "$TMP/err")" = 80 ]
run -n 4 "$P" lines 100
bad=$(grep -Ev '^rank ([0-7]) line ([0-9]+) middle \2 end$' "$TMP/out" | head -3)
check "lines untagged: malformed or mixed lines: $bad" [ -z "$bad" ]
check "lines untagged: 400 lines" [ "$(wc -l <"$TMP/out")" = 400 ]
run -n 2 --tag-output sh -c 'printf "a\nb"; printf "c\n" >&2'
check "--tag-output: unfinished last line" [ "$(sort "$TMP/out")" = "$(printf '[0] a\n[0] b\n[1] a\n[1] b')" ]
check "--tag-output: stderr" [ "$(sort "$TMP/err")" = "$(printf '[0] c\n[1] c')" ]
run -n 1 sh -c 'printf "no newline"'
check "untagged: unfinished last line kept as is" [ "$out" = "no newline" ]
printf 'hello\nworld\n' >"$TMP/in"
"$MPIEXEC" -n 3 "$P" stdin <"$TMP/in" >"$TMP/out" 2>"$TMP/err" || fail "stdin job failed"
out=$(cat "$TMP/out")
check "stdin: rank 0 reads it" has "$out" "rank 0 stdin bytes: 12"
check "stdin: rank 1 reads nothing" has "$out" "rank 1 stdin bytes: 0"
check "stdin: rank 2 reads nothing" has "$out" "rank 2 stdin bytes: 0"
echo "output relaying works"
