# tsan_threads.sh — MPI_THREAD_MULTIPLE under ThreadSanitizer in every `make check` (issue 38): the
# runtime with the C face, mpiexec and the thread tests built with -fsanitize=thread (build-tsan,
# as make check-tsan), then the thread stress tests run there; the first race fails. The whole suite under it: make check-tsan.
. tests/sh/lib.sh
[ -z "${SWITCHYARD_TEST_PRELOAD:-}" ] || skip "the suite runs under a sanitizer already"
TS=build-tsan
FLAGS="-fsanitize=thread -fno-omit-frame-pointer"
export SWITCHYARD_WRAPPER_FLAGS="$FLAGS"
export TSAN_OPTIONS="halt_on_error=1:report_signal_unsafe=0:handle_segv=0:suppressions=$PWD/tests/tsan.supp"

make -s BUILD=$TS OPT=-O1 SAN="$FLAGS" SAN_CFLAGS=-Wno-tsan gen >"$TMP/build" 2>&1 ||
    fail "generating for $TS: $(tail -20 "$TMP/build")"
make -s --no-print-directory -f build.mk BUILD=$TS SAN="$FLAGS" \
    CFLAGS="-std=gnu11 -O1 -g -Wall -Wextra -Werror -fPIC -fvisibility=hidden $FLAGS -Wno-tsan" \
    LDFLAGS_SO="-shared -Wl,--no-undefined -O1 $FLAGS" LIBS="-lm -ldl -lpthread -lcrypto" \
    $TS/include/mpi.h $TS/lib/libmpi.so $TS/bin/mpicc $TS/bin/mpiexec >"$TMP/build" 2>&1 ||
    fail "building the C face under ThreadSanitizer: $(tail -20 "$TMP/build")"
for t in thread_multiple chan_wait_mt read_only_mt ctx_ids_mt lock_bias; do
    $TS/bin/mpicc -Wall -Wextra -Werror -g -Itests/c -I$TS/gen/tests -o "$TMP/$t" tests/c/$t.c -lpthread \
        >"$TMP/build" 2>&1 || fail "building $t: $(cat "$TMP/build")"
    ldd "$TMP/$t" | grep -q "$PWD/$TS/lib/libmpi.so.12" || fail "$t is not linked with $TS's library: $(ldd "$TMP/$t")"
done

# run NAME NP [VAR=VALUE...]: NAME on NP ranks under TSan, with the settings given
run() {
    name=$1 np=$2
    shift 2
    env "$@" timeout 300 $TS/bin/mpiexec -n "$np" "$TMP/$name" >"$TMP/out" 2>&1 ||
        fail "$name on $np ranks ($*): $(grep -A30 'WARNING: ThreadSanitizer' "$TMP/out" | head -60; tail -5 "$TMP/out")"
    grep -q "ThreadSanitizer" "$TMP/out" && fail "$name ($*): a report: $(head -60 "$TMP/out")"
    echo "$name on $np ranks ($*): no race reported"
}
# The canary: a race between two threads of an MPI program must be reported in this set-up.
cat >"$TMP/race.c" <<'END'
#include <mpi.h>
#include <pthread.h>
static int shared;
static void *bump(void *arg) { for (int i = 0; i < 1000; i++) shared++; return arg; }
int main(int argc, char **argv)
{
    int provided;
    pthread_t t;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    pthread_create(&t, NULL, bump, NULL);
    bump(NULL);
    pthread_join(t, NULL);
    MPI_Finalize();
    return shared == 0;
}
END
$TS/bin/mpicc -g -o "$TMP/race" "$TMP/race.c" -lpthread >"$TMP/build" 2>&1 || fail "building the canary: $(cat "$TMP/build")"
timeout 120 $TS/bin/mpiexec -n 1 "$TMP/race" >"$TMP/out" 2>&1 && fail "the canary's race was not reported: $(cat "$TMP/out")"
grep -q "WARNING: ThreadSanitizer: data race" "$TMP/out" || fail "the canary failed otherwise: $(cat "$TMP/out")"
echo "a race in an MPI program is reported"

run thread_multiple 2 THREADS=4 STRESS_SECONDS=10 SWITCHYARD_CHANNELS=4
run thread_multiple 2 THREADS=3 STRESS_SECONDS=5
run thread_multiple 2 THREADS=3 STRESS_SECONDS=5 SWITCHYARD_CHANNELS=1
run chan_wait_mt 2 SWITCHYARD_CHANNELS=4
run chan_wait_mt 2 SWITCHYARD_CHANNELS=1
run read_only_mt 2 STRESS_SECONDS=5
run ctx_ids_mt 2
run lock_bias 2
