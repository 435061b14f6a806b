# readme_status.sh — README.md's Status table is what `make readme-status` prints today (the
# coverage of the built runtime), and README.md names no file outside the repository.
. tests/sh/lib.sh
python3 gen/coverage.py spec "$BUILD/lib" --markdown > "$TMP/want" || fail "gen/coverage.py --markdown failed"
sed -n '/^<!-- status:begin -->$/,/^<!-- status:end -->$/p' README.md | sed '1d;$d' > "$TMP/have"
[ -s "$TMP/have" ] || fail "README.md has no table between <!-- status:begin --> and <!-- status:end -->"
diff -u "$TMP/have" "$TMP/want" >&2 ||
    fail "README.md's Status table is out of date: paste 'make readme-status' between its markers"
grep -nE '\.\./shared|/work/' README.md >&2 && fail "README.md names files outside the repository"
echo "README.md's Status table matches: $(tail -1 "$TMP/want")"
