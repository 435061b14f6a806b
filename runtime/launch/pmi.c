/* pmi.c — the runtime's PMI-1 client over the socket in PMI_FD (Switchyard's mpiexec or
 * MPICH's Hydra), with a local key/value space for singletons; see pmi.h. */
#define _GNU_SOURCE
#include "pmi.h"
#include "pmi_wire.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

/* Threads: `pmi` (socket, receive buffer, error text) has no lock of its own, and needs none.
 * Every caller holds the library's lock (rt_enter) or runs while the process has one thread in
 * the library: MPI_Init/MPI_Finalize (rt__pmi_init, _finalize, the transports' kvs put, get and
 * barrier at their init), a TCP connection made lazily by progress (under the lock: a wait lets
 * the lock go only to sleep), and the fatal-error and MPI_Abort paths (rt__pmi_abort). No thread
 * of the library's own (progress, TCP gate) calls it without the lock; Comm_spawn and name
 * publishing do not use PMI. A new caller outside the lock would need a mutex here. */
#define FIRST_LINE_MAX 4096     /* response buffer before get_maxes told the sizes */
#define MAXES_LIMIT (1L << 20)  /* largest get_maxes value believed */
#define ABORT_MSG_MAX 900
#define ABORT_WAIT_MS 5000

enum { ST_NONE, ST_SINGLETON, ST_CONNECTED };

struct local_kv {               /* the singleton's key/value space */
    struct local_kv *next;
    char *key, *value;
};

static struct {
    int state;
    int fd;
    int rank, size, appnum;
    size_t kvsname_max, key_max, value_max; /* advertised buffer sizes, NUL included */
    char *kvsname;
    char *rbuf;                 /* bytes received, not yet consumed */
    size_t rlen, rcap;
    char *line;                 /* the current response line, NUL-terminated */
    struct local_kv *local;
    char err[512];
} pmi = { .fd = -1 };

static int fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int fail(const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(pmi.err, sizeof pmi.err, fmt, ap);
    va_end(ap);
    return -1;
}

static void reset(void)
{
    struct local_kv *kv, *next;

    for (kv = pmi.local; kv; kv = next) {
        next = kv->next;
        free(kv->key);
        free(kv->value);
        free(kv);
    }
    free(pmi.kvsname);
    free(pmi.rbuf);
    free(pmi.line);
    pmi.local = NULL;
    pmi.kvsname = pmi.rbuf = pmi.line = NULL;
    pmi.rlen = pmi.rcap = 0;
    pmi.state = ST_NONE;
    pmi.fd = -1;
}

static int send_all(const char *buf, size_t len)
{
    while (len) {
        ssize_t n = send(pmi.fd, buf, len, MSG_NOSIGNAL);
        if (n < 0 && errno == ENOTSOCK)
            n = write(pmi.fd, buf, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return fail("PMI: cannot write to PMI_FD %d: %s", pmi.fd,
                        n < 0 ? strerror(errno) : "no progress");
        buf += n;
        len -= (size_t)n;
    }
    return 0;
}

/* Read one line (newline removed) into pmi.line. */
static int read_line(void)
{
    for (;;) {
        char *nl = memchr(pmi.rbuf, '\n', pmi.rlen);
        if (nl) {
            size_t n = (size_t)(nl - pmi.rbuf);
            if (memchr(pmi.rbuf, '\0', n))
                return fail("PMI: response contains a NUL byte");
            memcpy(pmi.line, pmi.rbuf, n);
            pmi.line[n] = '\0';
            pmi.rlen -= n + 1;
            memmove(pmi.rbuf, nl + 1, pmi.rlen);
            return 0;
        }
        if (pmi.rlen == pmi.rcap)
            return fail("PMI: response longer than %zu bytes", pmi.rcap);
        ssize_t r = read(pmi.fd, pmi.rbuf + pmi.rlen, pmi.rcap - pmi.rlen);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return fail("PMI: cannot read from PMI_FD %d: %s", pmi.fd, strerror(errno));
        if (r == 0)
            return fail("PMI: the process manager closed the connection");
        pmi.rlen += (size_t)r;
    }
}

static int grow_buffers(size_t cap)
{
    char *r, *l;

    if (cap <= pmi.rcap)
        return 0;
    r = realloc(pmi.rbuf, cap);
    if (!r)
        return fail("PMI: out of memory");
    pmi.rbuf = r;
    l = realloc(pmi.line, cap + 1);
    if (!l)
        return fail("PMI: out of memory");
    pmi.line = l;
    pmi.rcap = cap;
    return 0;
}

/* Send the formatted request, read the response into m, check it is cmd=expect with rc=0
 * (a missing rc counts as 0). On rc != 0, *rc (if given) receives it and -1 is returned. */
static int request(struct rt__pmiw_msg *m, const char *expect, int *rc, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int request(struct rt__pmiw_msg *m, const char *expect, int *rc, const char *fmt, ...)
{
    va_list ap;
    char *req;
    const char *why, *v;
    int n, code = 0;

    va_start(ap, fmt);
    n = vasprintf(&req, fmt, ap);
    va_end(ap);
    if (n < 0)
        return fail("PMI: out of memory");
    n = send_all(req, (size_t)n);
    free(req);
    if (n < 0 || read_line() < 0)
        return -1;
    if (rt__pmiw_parse(pmi.line, m, NULL, &why) < 0)
        return fail("PMI: malformed response to cmd=%s (%s)", expect, why);
    if (strcmp(m->f[0].value, expect) != 0)
        return fail("PMI: expected cmd=%s, got cmd=%.64s", expect, m->f[0].value);
    v = rt__pmiw_get(m, "rc");
    if (v && rt__pmiw_int(v, -1000000, 1000000, &code) < 0)
        return fail("PMI: malformed rc in cmd=%s", expect);
    if (rc)
        *rc = code;
    if (code != 0) {
        v = rt__pmiw_get(m, "msg");
        return fail("PMI: cmd=%s failed: rc=%d%s%.128s", expect, code, v ? " " : "", v ? v : "");
    }
    return 0;
}

static int int_field(const struct rt__pmiw_msg *m, const char *key, long lo, long hi, int *out)
{
    if (rt__pmiw_int(rt__pmiw_get(m, key), lo, hi, out) < 0)
        return fail("PMI: cmd=%s: missing or invalid %s", m->f[0].value, key);
    return 0;
}

static int env_int(const char *name, long lo, long hi, int *out)
{
    const char *v = getenv(name);

    if (!v)
        return fail("PMI: PMI_FD is set but %s is not", name);
    if (rt__pmiw_int(v, lo, hi, out) < 0)
        return fail("PMI: invalid %s='%.32s'", name, v);
    return 0;
}

static int handshake(void)
{
    struct rt__pmiw_msg m;
    const char *v;
    int kmax, vmax, nmax;

    if (request(&m, "response_to_init", NULL, "cmd=init pmi_version=1 pmi_subversion=1\n") < 0)
        return -1;
    v = rt__pmiw_get(&m, "pmi_version");
    if (!v || strcmp(v, "1") != 0)
        return fail("PMI: the process manager does not speak PMI version 1");
    if (request(&m, "maxes", NULL, "cmd=get_maxes\n") < 0 ||
        int_field(&m, "kvsname_max", 2, MAXES_LIMIT, &nmax) < 0 ||
        int_field(&m, "keylen_max", 2, MAXES_LIMIT, &kmax) < 0 ||
        int_field(&m, "vallen_max", 1, MAXES_LIMIT, &vmax) < 0)
        return -1;
    pmi.kvsname_max = (size_t)nmax;
    pmi.key_max = (size_t)kmax;
    pmi.value_max = (size_t)vmax;
    /* room for cmd=get_result rc=0 msg=... value=<value> */
    if (grow_buffers(pmi.kvsname_max + pmi.key_max + pmi.value_max + FIRST_LINE_MAX) < 0)
        return -1;
    if (request(&m, "appnum", NULL, "cmd=get_appnum\n") < 0 ||
        int_field(&m, "appnum", -1, 1000000, &pmi.appnum) < 0)
        return -1;
    if (request(&m, "my_kvsname", NULL, "cmd=get_my_kvsname\n") < 0)
        return -1;
    v = rt__pmiw_get(&m, "kvsname");
    if (!v || !rt__pmiw_valid_key(v, pmi.kvsname_max - 1))
        return fail("PMI: cmd=my_kvsname: missing or invalid kvsname");
    pmi.kvsname = strdup(v);
    if (!pmi.kvsname)
        return fail("PMI: out of memory");
    return 0;
}

int rt__pmi_init(int *rank, int *size, int *appnum)
{
    int fd;

    pmi.err[0] = '\0';
    if (pmi.state != ST_NONE)
        return fail("PMI: already initialized");
    if (!getenv("PMI_FD")) {
        if (getenv("PMI_PORT"))
            return fail("PMI: PMI_PORT is set but PMI_FD is not: PMI over TCP is not supported");
        pmi.state = ST_SINGLETON;
        pmi.rank = 0;
        pmi.size = 1;
        pmi.appnum = 0;
        pmi.key_max = 64;
        pmi.value_max = 1024;
        *rank = 0;
        *size = 1;
        *appnum = 0;
        return 0;
    }
    if (env_int("PMI_FD", 0, 1 << 30, &fd) < 0 || env_int("PMI_SIZE", 1, 1 << 30, &pmi.size) < 0 ||
        env_int("PMI_RANK", 0, pmi.size - 1, &pmi.rank) < 0)
        return -1;
    if (fcntl(fd, F_SETFD, FD_CLOEXEC) < 0)
        return fail("PMI: PMI_FD=%d is not an open descriptor: %s", fd, strerror(errno));
    pmi.fd = fd;
    pmi.state = ST_CONNECTED;
    if (grow_buffers(FIRST_LINE_MAX) < 0 || handshake() < 0) {
        reset();
        return -1;
    }
    *rank = pmi.rank;
    *size = pmi.size;
    *appnum = pmi.appnum;
    return 0;
}

int rt__pmi_env_size(void)
{
    const char *v = getenv("PMI_SIZE");
    int size;

    if (!getenv("PMI_FD") || !v || rt__pmiw_int(v, 1, 1 << 30, &size) < 0)
        return 1;
    return size;
}

int rt__pmi_singleton(void)
{
    return pmi.state == ST_SINGLETON;
}

void rt__pmi_limits(size_t *key_max, size_t *value_max)
{
    *key_max = pmi.key_max ? pmi.key_max - 1 : 0;
    *value_max = pmi.value_max ? pmi.value_max - 1 : 0;
}

static int check_key(const char *key)
{
    if (pmi.state == ST_NONE)
        return fail("PMI: not initialized");
    if (!key || !rt__pmiw_valid_key(key, pmi.key_max - 1))
        return fail("PMI: invalid key (1 to %zu printable characters, no space or '=')",
                    pmi.key_max - 1);
    return 0;
}

static struct local_kv *local_find(const char *key)
{
    for (struct local_kv *kv = pmi.local; kv; kv = kv->next)
        if (strcmp(kv->key, key) == 0)
            return kv;
    return NULL;
}

static int local_put(const char *key, const char *value)
{
    struct local_kv *kv = local_find(key);
    char *v = strdup(value);

    if (!v)
        return fail("PMI: out of memory");
    if (!kv) {
        kv = calloc(1, sizeof *kv);
        if (!kv || !(kv->key = strdup(key))) {
            free(kv);
            free(v);
            return fail("PMI: out of memory");
        }
        kv->next = pmi.local;
        pmi.local = kv;
    }
    free(kv->value);
    kv->value = v;
    return 0;
}

int rt__pmi_put(const char *key, const char *value)
{
    struct rt__pmiw_msg m;

    if (check_key(key) < 0)
        return -1;
    if (!value || !rt__pmiw_valid_value(value, pmi.value_max - 1))
        return fail("PMI: invalid value for key '%s' (up to %zu printable characters, no space)",
                    key, pmi.value_max - 1);
    if (pmi.state == ST_SINGLETON)
        return local_put(key, value);
    return request(&m, "put_result", NULL, "cmd=put kvsname=%s key=%s value=%s\n",
                   pmi.kvsname, key, value);
}

static int copy_out(const char *key, const char *value, char *buf, size_t len)
{
    size_t n = strlen(value);

    if (n >= len)
        return fail("PMI: the value of key '%s' (%zu bytes) does not fit in %zu bytes", key, n,
                    len);
    memcpy(buf, value, n + 1);
    return 0;
}

int rt__pmi_get(const char *key, char *buf, size_t len)
{
    struct rt__pmiw_msg m;
    const char *v;
    int rc = 0;

    if (check_key(key) < 0)
        return -1;
    if (pmi.state == ST_SINGLETON) {
        struct local_kv *kv = local_find(key);
        if (!kv)
            return fail("PMI: key '%s' not found", key);
        return copy_out(key, kv->value, buf, len);
    }
    if (request(&m, "get_result", &rc, "cmd=get kvsname=%s key=%s\n", pmi.kvsname, key) < 0)
        return rc ? fail("PMI: key '%s' not found", key) : -1;
    v = rt__pmiw_get(&m, "value");
    if (!v)
        return fail("PMI: cmd=get_result without a value");
    return copy_out(key, v, buf, len);
}

int rt__pmi_barrier(void)
{
    struct rt__pmiw_msg m;

    if (pmi.state == ST_NONE)
        return fail("PMI: not initialized");
    if (pmi.state == ST_SINGLETON)
        return 0;
    return request(&m, "barrier_out", NULL, "cmd=barrier_in\n");
}

int rt__pmi_finalize(void)
{
    struct rt__pmiw_msg m;
    int r = 0;

    if (pmi.state == ST_NONE)
        return fail("PMI: not initialized");
    if (pmi.state == ST_CONNECTED) {
        r = request(&m, "finalize_ack", NULL, "cmd=finalize\n");
        close(pmi.fd);
    }
    reset();
    return r;
}

static long elapsed_ms(const struct timespec *t0)
{
    struct timespec t;

    clock_gettime(CLOCK_MONOTONIC, &t);
    return (t.tv_sec - t0->tv_sec) * 1000L + (t.tv_nsec - t0->tv_nsec) / 1000000L;
}

_Noreturn void rt__pmi_abort(int code, const char *msg)
{
    char clean[ABORT_MSG_MAX + 1];
    size_t n = 0;

    for (; msg && msg[n] && n < ABORT_MSG_MAX; n++) {
        unsigned char c = (unsigned char)msg[n];
        clean[n] = c == '\n' || c == '\t' ? ' ' : c >= 0x20 && c <= 0x7e ? (char)c : '?';
    }
    clean[n] = '\0';
    fflush(NULL);
    if (pmi.state == ST_CONNECTED) {
        char line[ABORT_MSG_MAX + 64];
        struct timespec t0;
        int len = snprintf(line, sizeof line, "cmd=abort exitcode=%d%s%s\n", code,
                           n ? " message=" : "", clean);
        if (send_all(line, (size_t)len) < 0) {
            dprintf(2, "rank %d called MPI_Abort with code %d%s%s (%s)\n", pmi.rank, code,
                    n ? ": " : "", clean, pmi.err);
        } else {
            /* wait for the process manager to kill us; drain (and ignore) what it sends */
            clock_gettime(CLOCK_MONOTONIC, &t0);
            for (long left; (left = ABORT_WAIT_MS - elapsed_ms(&t0)) > 0;) {
                struct pollfd p = { .fd = pmi.fd, .events = POLLIN };
                char sink[256];
                int r = poll(&p, 1, (int)left);
                if (r < 0 && errno != EINTR)
                    break;
                if (r > 0) {
                    ssize_t k = read(pmi.fd, sink, sizeof sink);
                    if (k == 0 || (k < 0 && errno != EINTR && errno != EAGAIN))
                        break; /* connection closed: the process manager is gone */
                }
            }
        }
    } else {
        dprintf(2, "rank 0 called MPI_Abort with code %d%s%s\n", code, n ? ": " : "", clean);
    }
    _exit(code);
}

const char *rt__pmi_error(void)
{
    return pmi.err;
}
