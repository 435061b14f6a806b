# launch_common.sh — sourced by the launcher tests (not a test itself): builds $P, a test
# program using only runtime/launch/pmi.c, and helpers to run jobs and find leftovers.
. tests/sh/lib.sh
MPIEXEC="$BUILD/bin/mpiexec"
[ -x "$MPIEXEC" ] || fail "$MPIEXEC is not built"
P="$TMP/pmiprog"

cat > "$TMP/pmiprog.c" <<'EOF'
/* pmiprog.c — test program for the launcher tests: argv[1] picks what it does. */
#define _GNU_SOURCE
#include "pmi.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int rank, size, appnum;

static void die(const char *what)
{
    fprintf(stderr, "pmiprog rank %d: %s: %s\n", rank, what, rt__pmi_error());
    exit(99);
}

static void init(void)
{
    if (rt__pmi_init(&rank, &size, &appnum) < 0)
        die("rt__pmi_init");
}

static void barrier(void)
{
    if (rt__pmi_barrier() < 0)
        die("rt__pmi_barrier");
}

static void finalize(void)
{
    if (rt__pmi_finalize() < 0)
        die("rt__pmi_finalize");
}

static void sleep_forever(void)
{
    for (;;)
        pause();
}

static int is_hex(const char *s, size_t n)
{
    if (!s || strlen(s) != n)
        return 0;
    return strspn(s, "0123456789abcdef") == n;
}

/* put a value per rank, barrier, check everybody's; long values; missing keys */
static int kv(int expect_size)
{
    char key[64], val[1100], got[1100];
    size_t kmax, vmax;

    init();
    if (expect_size && size != expect_size)
        die("unexpected size");
    if (rt__pmi_singleton() != (getenv("PMI_FD") == NULL))
        die("rt__pmi_singleton() disagrees with PMI_FD");
    rt__pmi_limits(&kmax, &vmax);
    if (kmax < 32 || vmax < 255 || vmax >= sizeof val)
        die("limits");
    snprintf(key, sizeof key, "card-%d", rank);
    snprintf(val, sizeof val, "rank=%d;size=%d;pid=%d", rank, size, (int)getpid());
    if (rt__pmi_put(key, val) < 0)
        die("put");
    if (rank == 0) { /* the longest value allowed */
        memset(val, 'v', vmax);
        val[vmax] = '\0';
        val[0] = '<';
        val[vmax - 1] = '>';
        if (rt__pmi_put("long", val) < 0)
            die("put long");
        val[vmax] = 'x';
        val[vmax + 1] = '\0';
        if (rt__pmi_put("toolong", val) == 0)
            die("put of a value longer than the maximum succeeded");
        if (rt__pmi_put("bad key", "x") == 0 || rt__pmi_put("k", "a b") == 0)
            die("put with a space succeeded");
    }
    barrier();
    for (int r = 0; r < size; r++) {
        snprintf(key, sizeof key, "card-%d", r);
        if (rt__pmi_get(key, got, sizeof got) < 0)
            die("get");
        snprintf(val, sizeof val, "rank=%d;size=%d;pid=", r, size);
        if (strncmp(got, val, strlen(val)) != 0) {
            fprintf(stderr, "rank %d: card-%d is '%s'\n", rank, r, got);
            exit(98);
        }
    }
    if (rt__pmi_get("long", got, sizeof got) < 0 || strlen(got) != vmax || got[0] != '<' ||
        got[vmax - 1] != '>')
        die("get long");
    if (rt__pmi_get("long", got, 10) == 0)
        die("get into a short buffer succeeded");
    if (rt__pmi_get("no-such-key", got, sizeof got) == 0)
        die("get of a missing key succeeded");
    barrier();
    finalize();
    printf("kv ok: rank %d of %d\n", rank, size);
    return 0;
}

/* decode \n, \\ and \xNN; "LONG" = 5000 bytes without a newline */
static size_t decode(const char *s, char *out)
{
    size_t n = 0;

    if (strcmp(s, "LONG") == 0) {
        memset(out, 'x', 5000);
        return 5000;
    }
    for (; *s; s++) {
        if (*s == '\\' && s[1] == 'n') {
            out[n++] = '\n';
            s++;
        } else if (*s == '\\' && s[1] == 'x' && s[2] && s[3]) {
            char hex[3] = { s[2], s[3], 0 };
            out[n++] = (char)strtol(hex, NULL, 16);
            s += 3;
        } else {
            out[n++] = *s;
        }
    }
    return n;
}

static void list_fds(void)
{
    DIR *d = opendir("/proc/self/fd");
    struct dirent *e;
    int bad = 0;

    while (d && (e = readdir(d))) {
        int fd = atoi(e->d_name);
        if (e->d_name[0] == '.' || fd == dirfd(d) || fd <= 3)
            continue;
        char path[64], target[256] = "";
        snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
        if (readlink(path, target, sizeof target - 1) < 0)
            strcpy(target, "?");
        fprintf(stderr, "rank %d: unexpected open descriptor %d -> %s\n", rank, fd, target);
        bad = 1;
    }
    if (d)
        closedir(d);
    struct stat st;
    if (fstat(3, &st) < 0 || !S_ISSOCK(st.st_mode) || (fcntl(3, F_GETFD) & FD_CLOEXEC) == 0) {
        fprintf(stderr, "rank %d: descriptor 3 is not the PMI socket (or not close-on-exec)\n",
                rank);
        bad = 1;
    }
    if (bad)
        exit(97);
}

static int file_contains(const char *path, const char *needle)
{
    char buf[65536];
    int fd = open(path, O_RDONLY);
    ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof buf - 1);

    if (fd >= 0)
        close(fd);
    if (n < 0)
        return 0;
    for (ssize_t i = 0; i < n; i++)
        if (!buf[i])
            buf[i] = ' ';
    buf[n] = '\0';
    return strstr(buf, needle) != NULL;
}

/* the environment and descriptors mpiexec gives a rank */
static int hygiene(void)
{
    const char *id = getenv("SWITCHYARD_JOBID"), *secret = getenv("SWITCHYARD_JOB_SECRET");
    char got[256], path[64];

    init(); /* after init, the PMI socket is close-on-exec */
    list_fds();
    if (!is_hex(id, 16) || !is_hex(secret, 32))
        die("SWITCHYARD_JOBID or SWITCHYARD_JOB_SECRET missing or malformed");
    if (getenv("PMI_PORT") || getenv("PMI_ID"))
        die("PMI_PORT or PMI_ID is set");
    snprintf(path, sizeof path, "/proc/%d/cmdline", (int)getppid());
    if (file_contains("/proc/self/cmdline", secret) || file_contains(path, secret))
        die("the secret is on a command line");
    snprintf(path, sizeof path, "ids-%d", rank);
    snprintf(got, sizeof got, "%s:%s", id, secret);
    if (rt__pmi_put(path, got) < 0)
        die("put");
    barrier();
    for (int r = 0; r < size; r++) {
        char want[256];
        snprintf(want, sizeof want, "%s:%s", id, secret);
        snprintf(path, sizeof path, "ids-%d", r);
        if (rt__pmi_get(path, got, sizeof got) < 0 || strcmp(got, want) != 0)
            die("ranks disagree on the job id or secret");
    }
    finalize();
    printf("hygiene ok: rank %d\n", rank);
    return 0;
}

/* lines written in pieces, slowly, so that ranks' lines could interleave */
static int lines(int count)
{
    char part1[64], part2[64];

    for (int k = 0; k < count; k++) {
        int n1 = snprintf(part1, sizeof part1, "rank %d line %d ", rank, k);
        int n2 = snprintf(part2, sizeof part2, "middle %d end\n", k);
        if (write(1, part1, (size_t)n1) < 0)
            return 1;
        usleep(200);
        if (write(1, part2, (size_t)n2) < 0)
            return 1;
        if (k % 10 == 0)
            dprintf(2, "rank %d err %d\n", rank, k);
    }
    return 0;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    int who = argc > 2 ? atoi(argv[2]) : 0;

    if (strcmp(mode, "kv") == 0)
        return kv(who);
    if (strcmp(mode, "hygiene") == 0)
        return hygiene();
    if (strcmp(mode, "lines") == 0) {
        rank = atoi(getenv("PMI_RANK") ? getenv("PMI_RANK") : "0");
        return lines(who);
    }
    if (strcmp(mode, "env") == 0) { /* print the named variables */
        for (int i = 2; i < argc; i++)
            printf("%s=%s\n", argv[i], getenv(argv[i]) ? getenv(argv[i]) : "(unset)");
        return 0;
    }
    if (strcmp(mode, "client") == 0) { /* report the first failing call, never crash */
        char got[64] = "";
        const char *failed = rt__pmi_init(&rank, &size, &appnum) < 0 ? "init"
                             : rt__pmi_put("k", "v") < 0             ? "put"
                             : rt__pmi_get("k", got, sizeof got) < 0 ? "get"
                             : rt__pmi_barrier() < 0                 ? "barrier"
                             : rt__pmi_finalize() < 0                ? "finalize"
                                                                     : NULL;
        if (failed)
            printf("%s failed: %s\n", failed, rt__pmi_error());
        else
            printf("client ok: rank %d of %d, appnum %d, k=%s\n", rank, size, appnum, got);
        return 0;
    }
    if (getenv("PMIPROG_STUBBORN")) /* makes the launcher use SIGKILL */
        signal(SIGTERM, SIG_IGN);
    if (strcmp(mode, "raw") == 0) { /* raw bytes on the PMI socket, without init */
        char out[8192];
        size_t n = decode(argc > 2 ? argv[2] : "", out);
        if (write(atoi(getenv("PMI_FD")), out, n) < 0)
            die("write");
        sleep_forever();
    }
    if (strcmp(mode, "stdin") == 0) { /* echo what stdin holds, with the rank */
        char buf[4096];
        ssize_t n, total = 0;
        init();
        while ((n = read(0, buf, sizeof buf)) > 0) {
            total += n;
            printf("rank %d got: %.*s", rank, (int)n, buf);
        }
        printf("rank %d stdin bytes: %zd\n", rank, total);
        finalize();
        return 0;
    }
    init();
    if (strcmp(mode, "singleton") == 0) {
        char got[64];
        if (!rt__pmi_singleton() || rank != 0 || size != 1 || rt__pmi_put("k", "v1") < 0 ||
            rt__pmi_put("k", "v2") < 0 || rt__pmi_barrier() < 0 ||
            rt__pmi_get("k", got, sizeof got) < 0 || strcmp(got, "v2") != 0 ||
            rt__pmi_get("other", got, sizeof got) == 0)
            die("singleton");
        finalize();
        printf("singleton ok\n");
        return 0;
    }
    if (strcmp(mode, "shm") == 0) { /* leave a file for the sweep */
        char path[256];
        snprintf(path, sizeof path, "/dev/shm/switchyard-%s-r%d", getenv("SWITCHYARD_JOBID"),
                 rank);
        int fd = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0600);
        if (fd < 0)
            die("create a /dev/shm file");
        close(fd);
        barrier();
        printf("created %s\n", path);
        fflush(stdout);
        if (argc > 3 && strcmp(argv[3], "ok") == 0) {
            finalize();
            return 0;
        }
        if (rank == who) {
            signal(SIGSEGV, SIG_DFL);
            raise(SIGSEGV);
        }
        sleep_forever();
    }
    barrier();
    if (strcmp(mode, "sleep") == 0) { /* ready, then wait to be killed */
        if (argc > 2 && strcmp(argv[2], "stubborn") == 0)
            signal(SIGTERM, SIG_IGN);
        printf("ready %d\n", rank);
        fflush(stdout);
        sleep_forever();
    }
    if (rank != who) /* the others wait to be killed */
        sleep_forever();
    if (strcmp(mode, "exit") == 0) {
        printf("rank %d exits with %d\n", rank, argc > 3 ? atoi(argv[3]) : 0);
        exit(argc > 3 ? atoi(argv[3]) : 0);
    }
    if (strcmp(mode, "segv") == 0) {
        printf("rank %d raises SIGSEGV\n", rank);
        fflush(stdout);
        signal(SIGSEGV, SIG_DFL);
        raise(SIGSEGV);
    }
    if (strcmp(mode, "abort") == 0) {
        printf("rank %d aborts\n", rank); /* left in the stdio buffer: abort flushes it */
        rt__pmi_abort(7, "something went\nwrong");
    }
    if (strcmp(mode, "garbage") == 0) { /* raw bytes on the PMI socket */
        char out[8192];
        size_t n = decode(argc > 3 ? argv[3] : "", out);
        if (write(atoi(getenv("PMI_FD")), out, n) < 0)
            die("write");
        sleep_forever();
    }
    if (strcmp(mode, "flood") == 0) { /* requests without reading the replies */
        int fd = atoi(getenv("PMI_FD"));
        static const char req[] = "cmd=get_maxes\n";
        fcntl(fd, F_SETFL, O_NONBLOCK);
        for (int i = 0; i < 100000; i++)
            if (write(fd, req, sizeof req - 1) < 0 && errno != EAGAIN)
                break;
        sleep_forever();
    }
    fprintf(stderr, "pmiprog: unknown mode '%s'\n", mode);
    return 2;
}
EOF
# PMIPROG_CFLAGS: e.g. -fsanitize=address,undefined to check the client too
gcc -std=gnu11 -g -Wall -Wextra -Werror $PMIPROG_CFLAGS -Iruntime/launch -o "$P" "$TMP/pmiprog.c" \
    runtime/launch/pmi.c runtime/launch/pmi_wire.c || fail "cannot build the test program"

# Processes of this test's jobs still alive (zombies do not count), one per line.
job_procs() {
    ps -eo pid=,stat=,args= | awk -v p="$P" 'index($0, p) && $2 !~ /^Z/ && !/awk/'
}

# Fail unless every process of the job is gone within $1 seconds (default 1).
expect_no_procs() {
    local limit=${1:-1} t0=$EPOCHREALTIME
    while [ -n "$(job_procs)" ]; do
        if awk -v a="$t0" -v b="$EPOCHREALTIME" -v l="$limit" 'BEGIN { exit !(b - a > l) }'; then
            job_procs >&2
            fail "processes of the job are still alive after ${limit}s"
        fi
        sleep 0.05
    done
}

# Seconds elapsed since $1 (an $EPOCHREALTIME value).
since() { awk -v a="$1" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.2f", b - a }'; }

# Run mpiexec with the given arguments; sets $rc, $out (stdout) and $err (stderr).
run() {
    "$MPIEXEC" "$@" >"$TMP/out" 2>"$TMP/err"
    rc=$?
    out=$(cat "$TMP/out")
    err=$(cat "$TMP/err")
}

# Fail with a message and the last run's output unless the condition (a command) holds.
check() {
    local what=$1
    shift
    "$@" || { printf 'stdout:\n%s\nstderr:\n%s\n' "$out" "$err" >&2; fail "$what"; }
}
has() { case $1 in *"$2"*) return 0 ;; esac; return 1; }
