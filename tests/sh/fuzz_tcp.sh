# fuzz_tcp.sh — a short run of make fuzz (issue 9): libFuzzer with ASan and UBSan feeds the TCP
# frame parser (fuzz/tcp_frames.c) and the connector's challenge reading (fuzz/tcp_challenge.c)
# arbitrary bytes for FUZZ_SECONDS (20) each; any crash fails, and so do 1,000 inputs or fewer.
. tests/sh/lib.sh
command -v clang >/dev/null || skip "clang is not installed: make fuzz needs clang with libFuzzer"
printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { (void)d; (void)n; return 0; }\n' >"$TMP/t.c"
clang -fsanitize=fuzzer "$TMP/t.c" -o "$TMP/t" 2>/dev/null ||
    skip "clang cannot link -fsanitize=fuzzer here (no libclang_rt.fuzzer)"
unset MAKEFLAGS MFLAGS MAKELEVEL ASAN_OPTIONS UBSAN_OPTIONS  # make check-sanitize sets them for its own build
out=$(timeout 200 make --no-print-directory fuzz BUILD="$BUILD" FUZZ_SECONDS="${FUZZ_SECONDS:-20}" 2>&1) ||
    fail "make fuzz: $(echo "$out" | grep -E 'ERROR|SUMMARY|tcp_frames:|tcp_challenge:|error' | head -5; echo "$out" | tail -5)"
# make fuzz says "fuzz: TARGET" before each target's run and its final stats
said=""
for t in tcp_frames tcp_challenge; do
    stats=$(echo "$out" | sed -n "/^fuzz: $t\$/,/^fuzz: /p")
    runs=$(echo "$stats" | sed -n 's/^stat::number_of_executed_units: *//p')
    rate=$(echo "$stats" | sed -n 's/^stat::average_exec_per_sec: *//p')
    [ -n "$runs" ] && [ "$runs" -gt 1000 ] || fail "$t ran only '${runs}' inputs: $(echo "$out" | tail -5)"
    said="$said$t: $runs inputs, $rate per second; "
done
echo "${said}no crash or sanitizer report"
