/* coll_shm.c — the region a communicator's processes on one node share for their collectives:
 * making and freeing it, posting steps and waiting for them (coll_shm.h). */
#define _GNU_SOURCE
#include "coll_shm.h"

#include <fcntl.h>
#include <limits.h>
#include <linux/futex.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

void rt__futex_wait(uint32_t *word, uint32_t val, long ns)
{
    struct timespec ts = {0, ns};
    syscall(SYS_futex, word, FUTEX_WAIT, val, &ts, NULL, 0);
}

void rt__futex_wake(uint32_t *word)
{
    syscall(SYS_futex, word, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static long long now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Whether v is want or later (the numbers wrap). */
static int reached(uint32_t v, uint32_t want)
{
    return (int32_t)(v - want) >= 0;
}

/* Whether rank r (of size) has posted step q. */
static int posted(const struct rt__coll_shm *cs, int size, uint32_t q, int r)
{
    return reached(__atomic_load_n(&rt__coll_line(cs, size, q, r)->seq, __ATOMIC_ACQUIRE), q);
}

void rt__coll_shm_post(rt_comm *comm, uint32_t q)
{
    /* sequentially consistent, as sleep_on's: either it sees the new seq or this sees its
     * sleepers count */
    struct rt__coll_line *l = rt__coll_line(comm->cshm, comm->size, q, comm->rank);
    __atomic_store_n(&l->seq, q, __ATOMIC_SEQ_CST);
    if (__atomic_load_n(&l->sleepers, __ATOMIC_SEQ_CST))
        rt__futex_wake(&l->seq);
}

/* Sleeps on l while it has not reached want, at most 1 ms. */
static void sleep_on(struct rt__coll_line *l, uint32_t want)
{
    __atomic_fetch_add(&l->sleepers, 1, __ATOMIC_SEQ_CST);
    uint32_t v = __atomic_load_n(&l->seq, __ATOMIC_SEQ_CST);
    if (!reached(v, want))
        rt__futex_wait(&l->seq, v, 1000000);
    __atomic_fetch_sub(&l->sleepers, 1, __ATOMIC_RELAXED);
}

int rt__coll_member_failed(rt_comm *comm, double *watch_at)
{
    double t = now();
    if (*watch_at == 0) {
        *watch_at = t + 1;
    } else if (t >= *watch_at) {
        *watch_at = t + 1;
        for (int r = 0; r < comm->size; r++)
            if (r != comm->rank)
                rt__watch_peer(rt__comm_world_rank(comm, r));
        rt__progress();
    }
    return rt__failures() ? rt__failed_peer(comm, RT_ANY_SOURCE) : -1;
}

/* How a wait polls: with pause this long (none on a crowded node: the rank waited for may
 * need this CPU), then yielding until WAIT_YIELD_NS, then asleep on the line (as the
 * shared-memory transport's waits). */
#define WAIT_PAUSE_NS 1000
#define WAIT_YIELD_NS 20000

int rt__coll_shm_wait(rt_comm *comm, int r, uint32_t q)
{
    struct rt__coll_line *l = rt__coll_line(comm->cshm, comm->size, q, r);
    if (posted(comm->cshm, comm->size, q, r))
        return -1;
    double watch_at = 0;
    long long t0 = 0, pause_ns = rt__node_crowded() ? 0 : WAIT_PAUSE_NS;
    for (unsigned idle = 0; !posted(comm->cshm, comm->size, q, r);) {
        if (rt__progress() > 0) /* others may wait for this process's messages */
            continue;
        if (++idle % 64 == 0) {
            int dead = rt__coll_member_failed(comm, &watch_at);
            if (dead >= 0)
                return dead;
        }
        if (idle == 32) /* (the clock costs 20 ns: not for short waits) */
            t0 = now_ns();
        long long waited = idle < 32 ? 0 : now_ns() - t0;
        int paused = rt__big_pause(); /* MPI_THREAD_MULTIPLE: other threads go on */
        if (waited < pause_ns) {
#if defined(__x86_64__) || defined(__i386__)
            __builtin_ia32_pause();
#endif
        } else if (waited < WAIT_YIELD_NS) {
            sched_yield();
        } else {
            sleep_on(l, q);
        }
        rt__big_resume(paused);
    }
    return -1;
}

int rt__coll_shm_wait_all(rt_comm *comm, uint32_t q)
{
    struct rt__coll_shm *cs = comm->cshm;
    if (reached(cs->all, q))
        return -1;
    for (int r = 0; r < comm->size; r++) {
        int dead = r == comm->rank ? -1 : rt__coll_shm_wait(comm, r, q);
        if (dead >= 0)
            return dead;
    }
    /* a broadcast's root waits for steps well behind its own: see whether every member has
     * posted this process's last step already, so that the next LANES - 1 steps need no look */
    uint32_t last = cs->seq - 1;
    int r = 0;
    while (reached(last, q + 1) && r < comm->size && (r == comm->rank || posted(cs, comm->size, last, r)))
        r++;
    cs->all = reached(last, q + 1) && r == comm->size ? last : q;
    return -1;
}

void rt__shm_segment_name(char *buf, size_t len, const char *what)
{
    static unsigned counter; /* atomic: two threads may make segments at once */
    const char *job = getenv("SWITCHYARD_JOBID");
    char id[40];
    size_t i;
    for (i = 0; job && job[i] && i < sizeof id - 1; i++)
        id[i] = (job[i] >= 'a' && job[i] <= 'z') || (job[i] >= '0' && job[i] <= '9') ? job[i] : '_';
    id[i] = 0;
    snprintf(buf, len, "/switchyard-%s-%s-%ld-%u", i ? id : "nojob", what, (long)getpid(),
             __atomic_fetch_add(&counter, 1, __ATOMIC_RELAXED));
}

/* Whether comm may have a region: an intra-communicator of 2 processes or more that all share
 * memory with this one (the same answer on every member: sharing memory is being on one node,
 * unless a transport is forced), unless SWITCHYARD_COLL_SHM=0. */
static int may_share(const rt_comm *comm)
{
    static int off = -1;
    if (off < 0) {
        const char *e = getenv("SWITCHYARD_COLL_SHM");
        off = e && strcmp(e, "0") == 0;
    }
    if (off || comm->remote_size > 0 || comm->size < 2)
        return 0;
    for (int r = 0; r < comm->size; r++)
        if (r != comm->rank && !rt__peer_shares_memory(rt__comm_world_rank(comm, r)))
            return 0;
    return 1;
}

/* Rank 0 makes the segment, the others map it, then it is unlinked; they agree whether it
 * worked. */
void rt__coll_shm_make(rt_comm *comm)
{
    comm->cshm = RT__COLL_SHM_OFF;
    if (!may_share(comm))
        return;
    size_t slot = SLOT_BYTES / (size_t)comm->size / 64 * 64;
    slot = slot < SLOT_MIN ? SLOT_MIN : slot > SLOT_MAX ? SLOT_MAX : slot;
    size_t lines = LANES * (size_t)comm->size * sizeof(struct rt__coll_line);
    size_t bytes = (lines + DATA_LANES * (size_t)comm->size * slot + 4095) / 4096 * 4096;
    char name[128] = {0};
    int fd = -1;
    if (comm->rank == 0) {
        rt__shm_segment_name(name, sizeof name, "coll");
        fd = shm_open(name, O_CREAT | O_EXCL | O_RDWR, 0600);
        /* the pages reserved now: a full /dev/shm is a fallback here, not a SIGBUS later */
        if (fd >= 0 && (ftruncate(fd, (off_t)bytes) != 0 || posix_fallocate(fd, 0, (off_t)bytes) != 0)) {
            close(fd);
            shm_unlink(name);
            fd = -1;
        }
        if (fd < 0)
            name[0] = 0;
    }
    rt__team t = rt__team_of(comm);
    if (rt__coll_bcast(&t, name, sizeof name, 0) != RT_SUCCESS)
        name[0] = 0;
    if (comm->rank != 0 && name[0])
        fd = shm_open(name, O_RDWR, 0600);
    void *p = fd >= 0 ? mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0) : MAP_FAILED;
    if (fd >= 0)
        close(fd);
    struct rt__coll_shm *cs = p != MAP_FAILED ? malloc(sizeof *cs) : NULL;
    uint32_t ok = cs != NULL;
    int err = rt__coll_allreduce(&t, &ok, sizeof ok, rt__op_band);
    if (comm->rank == 0 && name[0])
        shm_unlink(name); /* everyone has mapped it, or given up */
    if (err || !ok) {
        if (p != MAP_FAILED)
            munmap(p, bytes);
        free(cs);
        return;
    }
    *cs = (struct rt__coll_shm){.lines = p, .data = (char *)p + lines, .slot = slot, .bytes = bytes};
    comm->cshm = cs;
}

void rt__coll_shm_free(rt_comm *comm)
{
    struct rt__coll_shm *cs = comm->cshm;
    comm->cshm = NULL;
    if (!cs || cs == RT__COLL_SHM_OFF)
        return;
    munmap(cs->lines, cs->bytes);
    free(cs);
}

