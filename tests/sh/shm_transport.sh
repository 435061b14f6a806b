# shm_transport.sh — the shared-memory transport's own tests, below the engine
# (runtime/transport/shm/test/run.sh quick): every record kind, wake-ups, a dying rank, fallbacks.
. tests/sh/lib.sh
out=$(BUILD="$BUILD" TIMEOUT=120 sh runtime/transport/shm/test/run.sh quick 2>&1) ||
    { echo "$out" | tail -30 >&2; fail "the shm transport's tests failed"; }
echo "$out" | grep -q '^all passed$' || { echo "$out" >&2; fail "run.sh did not say 'all passed'"; }
echo "$out" | grep -c '^ok ' | sed 's/$/ transport checks passed/'
