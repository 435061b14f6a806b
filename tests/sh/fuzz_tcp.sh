# fuzz_tcp.sh — a short run of make fuzz (issue 9): libFuzzer with ASan and UBSan feeds the TCP
# frame parser (fuzz/tcp_frames.c) arbitrary bytes for FUZZ_SECONDS (20); any crash fails.
. tests/sh/lib.sh
command -v clang >/dev/null || skip "clang is not installed: make fuzz needs clang with libFuzzer"
printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { (void)d; (void)n; return 0; }\n' >"$TMP/t.c"
clang -fsanitize=fuzzer "$TMP/t.c" -o "$TMP/t" 2>/dev/null ||
    skip "clang cannot link -fsanitize=fuzzer here (no libclang_rt.fuzzer)"
unset MAKEFLAGS MFLAGS MAKELEVEL ASAN_OPTIONS UBSAN_OPTIONS  # make check-sanitize sets them for its own build
out=$(timeout 200 make --no-print-directory fuzz BUILD="$BUILD" FUZZ_SECONDS="${FUZZ_SECONDS:-20}" 2>&1) ||
    fail "make fuzz: $(echo "$out" | grep -E 'ERROR|SUMMARY|tcp_frames:|error' | head -5; echo "$out" | tail -5)"
runs=$(echo "$out" | sed -n 's/^stat::number_of_executed_units: *//p')
rate=$(echo "$out" | sed -n 's/^stat::average_exec_per_sec: *//p')
[ -n "$runs" ] && [ "$runs" -gt 1000 ] || fail "the fuzzer ran only '${runs}' inputs: $(echo "$out" | tail -5)"
echo "tcp_frames: $runs inputs, $rate per second, no crash or sanitizer report"
