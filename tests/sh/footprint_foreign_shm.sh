# footprint_foreign_shm.sh — bench/footprint.py removes from /dev/shm only what is provably its
# job's (issue 35, item 6): a 2-rank footprint run whose launcher plants a foreign file (named as
# MPICH's are) in /dev/shm while the run is on, and leaves one named after the job's Switchyard
# id as a crashed rank would. The foreign file survives, the job's is removed; the test then
# removes the foreign file itself.
. tests/sh/lib.sh
"$BUILD/bin/mpicc" -o "$TMP/footprint" bench/footprint.c || fail "cannot build bench/footprint.c"
foreign=mpich_shar_tmpfootprint_test_$$
trap 'rm -f "/dev/shm/$foreign"; [ -s "$TMP/id" ] && rm -f "/dev/shm/switchyard-$(cat "$TMP/id")-shm-planted"; rm -rf "$TMP"' EXIT
# footprint.py's launcher: gets -n NP BINARY DIR; the ranks write DIR/job.PID with their job id
cat >"$TMP/launch" <<EOF
#!/bin/sh
touch "/dev/shm/$foreign"
"$BUILD/bin/mpiexec" "\$@"
rc=\$?
for dir; do :; done
id=\$(cat "\$dir"/job.* 2>/dev/null | head -n 1)
echo "\$id" >"$TMP/id"
[ -n "\$id" ] && touch "/dev/shm/switchyard-\$id-shm-planted"
exit \$rc
EOF
chmod +x "$TMP/launch"
FOOTPRINT_TIMEOUT=60 timeout 90 python3 bench/footprint.py switchyard "$TMP/footprint" 2 "$TMP/launch" \
    >"$TMP/out" 2>"$TMP/err"
rc=$?
cat "$TMP/out" "$TMP/err"
grep -q "no figures: needs about" "$TMP/err" && skip "not enough /dev/shm or memory for footprint.py's reserve"
[ $rc = 0 ] || fail "footprint.py exited $rc"
grep -q "^wall_s 2 " "$TMP/out" || fail "footprint.py printed no figures for 2 ranks"
[ -e "/dev/shm/$foreign" ] || fail "footprint.py removed /dev/shm/$foreign, which its job did not make"
id=$(cat "$TMP/id")
[ ${#id} -ge 16 ] || fail "the ranks did not write their job id (got '$id')"
[ ! -e "/dev/shm/switchyard-$id-shm-planted" ] || fail "footprint.py left the job's own switchyard-$id-shm-planted"
grep -q "kept 1 file(s) .*$foreign" "$TMP/err" || fail "footprint.py did not report the foreign file it kept"
echo "foreign /dev/shm/$foreign kept, the job's own switchyard-$id-shm-planted removed"
