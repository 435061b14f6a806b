/* tenv.c — test harness of the shm transport: the environment over the PMI client, patterns,
 * clock and checks shared by the test programs (see tenv.h). */
#define _GNU_SOURCE
#include "tenv.h"

#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "pmi.h"

struct tenv T;
static char before[16][256]; /* entries of the job in /dev/shm before init (not ours) */
static int nbefore;

void tfail(const char *fmt, ...)
{
    char msg[512];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fprintf(stderr, "[%d] FAIL: %s\n", T.rank, msg);
    rt__pmi_abort(3, msg);
}

/* Calls fn for each entry of /dev/shm whose name contains the job id; the count. */
static int each_entry(void (*fn)(const char *))
{
    DIR *d = opendir("/dev/shm");
    struct dirent *e;
    int n = 0;

    if (!d)
        return 0;
    while ((e = readdir(d)))
        if (strstr(e->d_name, T.jobid)) {
            fn(e->d_name);
            n++;
        }
    closedir(d);
    return n;
}

static void remember(const char *name)
{
    if (nbefore < (int)(sizeof before / sizeof *before))
        snprintf(before[nbefore++], sizeof *before, "%s", name);
}

static int leftovers;

static void complain(const char *name)
{
    int i;

    for (i = 0; i < nbefore; i++)
        if (strcmp(before[i], name) == 0)
            return;
    fprintf(stderr, "[%d] leftover /dev/shm/%s\n", T.rank, name);
    leftovers++;
}

static int kvs_put(const char *key, const char *value)
{
    return rt__pmi_put(key, value);
}

static int kvs_barrier(void)
{
    return rt__pmi_barrier();
}

static int kvs_get(const char *key, char *value, size_t len)
{
    return rt__pmi_get(key, value, len);
}

void tenv_init(int nodes, void (*incoming)(int, const rt_msg_hdr *, const void *, uint64_t),
               void (*send_done)(void *, int), void (*recv_done)(void *, int),
               void (*peer_failed)(int))
{
    const char *id = getenv("TENV_JOBID") ? getenv("TENV_JOBID") : getenv("SWITCHYARD_JOBID");
    int appnum, r, rc;

    if (rt__pmi_init(&T.rank, &T.size, &appnum) < 0) {
        fprintf(stderr, "pmi init: %s\n", rt__pmi_error());
        exit(2);
    }
    if (id && *id) {
        snprintf(T.jobid, sizeof T.jobid, "%s", id);
    } else { /* Hydra: no job id, make one */
        if (T.rank == 0) {
            snprintf(T.jobid, sizeof T.jobid, "tjob%08lx%08lx", (unsigned long)getpid(),
                     (unsigned long)time(NULL));
            TCHECK(rt__pmi_put("tenv.jobid", T.jobid) == 0, "put jobid");
        }
        TCHECK(rt__pmi_barrier() == 0, "barrier");
        TCHECK(rt__pmi_get("tenv.jobid", T.jobid, sizeof T.jobid) == 0, "get jobid");
    }
    if (nodes < 1 || nodes > T.size)
        nodes = 1;
    T.node_of = malloc((size_t)T.size * sizeof *T.node_of);
    TCHECK(T.node_of != NULL, "malloc");
    for (r = 0; r < T.size; r++)
        T.node_of[r] = (int)((long)r * nodes / T.size);
    T.env.world_rank = T.rank;
    T.env.world_size = T.size;
    T.env.jobid = T.jobid;
    T.env.node_of = T.node_of;
    T.env.nchan = getenv("SWITCHYARD_CHANNELS") ? atoi(getenv("SWITCHYARD_CHANNELS")) : 1;
    T.env.kvs_put = kvs_put;
    T.env.kvs_barrier = kvs_barrier;
    T.env.kvs_get = kvs_get;
    T.env.incoming = incoming;
    T.env.send_done = send_done;
    T.env.recv_done = recv_done;
    T.env.peer_failed = peer_failed;
    TCHECK(rt_tp_shm.version == RT_TP_VERSION && rt_tp_shm.size == sizeof(rt_tp_ops),
           "ops table version");
    each_entry(remember); /* not ours: ignored by tenv_shm_leftovers */
    rc = rt_tp_shm.init(&T.env);
    TCHECK(rc == 0, "shm init: %d", rc);
    TCHECK(rt__pmi_barrier() == 0, "barrier"); /* the creator unlinks after init's barrier */
    TCHECK(tenv_shm_leftovers() == 0, "/dev/shm holds the job's region after init");
    for (r = 0; r < T.size; r++)
        TCHECK(rt_tp_shm.reaches(r) == (r != T.rank && T.node_of[r] == T.node_of[T.rank]),
               "reaches(%d) wrong", r);
}

void tenv_finalize(void)
{
    rt_tp_shm.finalize();
    TCHECK(tenv_shm_leftovers() == 0, "/dev/shm holds the job's region after finalize");
    TCHECK(rt__pmi_barrier() == 0, "barrier");
    TCHECK(tenv_shm_leftovers() == 0, "/dev/shm holds the job's region after finalize");
    free(T.node_of);
    rt__pmi_finalize();
}

int tenv_shm_leftovers(void)
{
    leftovers = 0;
    each_entry(complain);
    return leftovers;
}

static uint64_t mix(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

uint64_t tenv_rand(uint64_t *state)
{
    return mix(*state += 0x9e3779b97f4a7c15ull);
}

void tenv_fill(void *buf, size_t n, uint64_t seed)
{
    unsigned char *p = buf;
    size_t i;

    for (i = 0; i + 8 <= n; i += 8) {
        uint64_t w = mix(seed + i);
        memcpy(p + i, &w, 8);
    }
    if (i < n) {
        uint64_t w = mix(seed + i);
        memcpy(p + i, &w, n - i);
    }
}

long tenv_check(const void *buf, size_t n, uint64_t seed)
{
    const unsigned char *p = buf;
    size_t i, j;

    for (i = 0; i < n; i += 8) {
        uint64_t w = mix(seed + i);
        size_t k = n - i < 8 ? n - i : 8;

        if (memcmp(p + i, &w, k) != 0) {
            for (j = 0; j < k; j++)
                if (p[i + j] != ((unsigned char *)&w)[j])
                    return (long)(i + j);
        }
    }
    return -1;
}

long long tenv_now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int tenv_step(void)
{
    int n = rt_tp_shm.progress();

    if (n == 0)
        rt_tp_shm.wait(1000000L);
    return n;
}

int tenv_send(int dst, const rt_msg_hdr *h, const void *data, size_t n, void *sreq)
{
    int rc;

    while ((rc = rt_tp_shm.send(dst, h, data, n, sreq)) == RT_TP_AGAIN)
        tenv_step();
    TCHECK(rc == 0 || rc == RT_TP_PENDING, "send to %d: %d", dst, rc);
    return rc;
}
