/* coll_shm.c — blocking barriers among the processes of one node through a region each
 * communicator shares: one flag per rank, no messages. */
#define _GNU_SOURCE
#include "coll.h"

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

/* A number other processes wait for, with how many sleep on it (a futex word). */
struct flag {
    uint32_t seq;
    uint32_t sleepers;
    char pad[56];
};

/* A communicator's region (comm->cshm): one flag per rank, the last barrier it arrived at; seq
 * counts the barriers this process has done through it, which every member does in the same
 * order. */
struct rt__coll_shm {
    struct flag *arrived;
    size_t bytes;
    uint32_t seq;
};

/* comm->cshm when the region cannot be used (not one node, disabled, or its making failed). */
#define OFF ((struct rt__coll_shm *)1)

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

/* Whether v is want or later (the numbers wrap). */
static int reached(uint32_t v, uint32_t want)
{
    return (int32_t)(v - want) >= 0;
}

/* Publishes v in f (release: the stores before it are seen by whoever sees v) and wakes the
 * sleepers. sleepers and seq pair with sleep_on, both sequentially consistent. */
static void post(struct flag *f, uint32_t v)
{
    __atomic_store_n(&f->seq, v, __ATOMIC_SEQ_CST);
    if (__atomic_load_n(&f->sleepers, __ATOMIC_SEQ_CST))
        rt__futex_wake(&f->seq);
}

/* Sleeps on f while it has not reached want, at most 1 ms. */
static void sleep_on(struct flag *f, uint32_t want)
{
    __atomic_fetch_add(&f->sleepers, 1, __ATOMIC_SEQ_CST);
    uint32_t v = __atomic_load_n(&f->seq, __ATOMIC_SEQ_CST);
    if (!reached(v, want))
        rt__futex_wait(&f->seq, v, 1000000);
    __atomic_fetch_sub(&f->sleepers, 1, __ATOMIC_RELAXED);
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

/* Waits until rank r's flag reaches want: spins, yields, then sleeps on it, progressing
 * meanwhile (others may wait for this process's messages). Returns -1, or the rank of comm
 * that failed. */
static int wait_for(rt_comm *comm, int r, uint32_t want)
{
    struct flag *f = &comm->cshm->arrived[r];
    double watch_at = 0;
    for (unsigned idle = 0; !reached(__atomic_load_n(&f->seq, __ATOMIC_ACQUIRE), want);) {
        if (rt__progress() > 0) {
            idle = 0;
            continue;
        }
        idle++;
        if (idle % 64 == 0) {
            int dead = rt__coll_member_failed(comm, &watch_at);
            if (dead >= 0)
                return dead;
        }
        int paused = rt__big_pause(); /* MPI_THREAD_MULTIPLE: other threads go on */
        if (idle < 16) {
#if defined(__x86_64__) || defined(__i386__)
            __builtin_ia32_pause();
#endif
        } else if (idle < 32) {
            sched_yield();
        } else {
            sleep_on(f, want);
        }
        rt__big_resume(paused);
    }
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

/* Makes comm's region (collective: every member calls it in the same operation): rank 0 makes
 * the segment, the others map it, then it is unlinked. comm->cshm = the region, or OFF where
 * it cannot be used (the same on every member: they agree). */
static void region_make(rt_comm *comm)
{
    comm->cshm = OFF;
    if (!may_share(comm))
        return;
    size_t bytes = ((size_t)comm->size * sizeof(struct flag) + 4095) / 4096 * 4096;
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
    *cs = (struct rt__coll_shm){p, bytes, 0};
    comm->cshm = cs;
}

void rt__coll_shm_free(rt_comm *comm)
{
    struct rt__coll_shm *cs = comm->cshm;
    comm->cshm = NULL;
    if (!cs || cs == OFF)
        return;
    munmap(cs->arrived, cs->bytes);
    free(cs);
}

/* The barrier: every rank's arrival seen by every rank. */
static int barrier(rt_comm *comm, uint32_t s)
{
    post(&comm->cshm->arrived[comm->rank], s);
    int dead = -1;
    for (int r = 0; r < comm->size && dead < 0; r++)
        if (r != comm->rank)
            dead = wait_for(comm, r, s);
    return dead;
}

int rt__coll_shm_run(rt_comm *comm, rt__coll_build_fn build, const rt__coll_args *a, const char *fn, int *err)
{
    if (comm->cshm == OFF || comm->remote_size > 0 || build != rt__build_barrier)
        return 0;
    if ((*err = rt__coll_agree(comm, build, a, RT_SUCCESS, fn)) != RT_SUCCESS)
        return 1;
    if (!comm->cshm) { /* the first barrier on comm: every member makes the region */
        region_make(comm);
        if (comm->cshm == OFF)
            return 0;
    }
    int dead = barrier(comm, ++comm->cshm->seq);
    *err = dead >= 0 ? rt__coll_error(comm, RT_X_ERR_PROC_FAILED, dead, NULL, fn) : RT_SUCCESS;
    return 1;
}
