/* shm_region.c — the per-node shared-memory region: its name (which names its creator), layout,
 * creation by the node's first rank, checked attachment by the others, the sweep of stale ones. */
#define _GNU_SOURCE
#include "shm.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rt_consts.h"

/* The inode of our pid namespace, which tells whose pids a region's name holds; 0 if unknown. */
static unsigned long pid_ns(void)
{
    struct stat st;

    return stat("/proc/self/ns/pid", &st) == 0 ? (unsigned long)st.st_ino : 0;
}

void shm_region_name(char *buf, size_t len, const char *jobid, int node)
{
    char id[80];
    size_t i;

    for (i = 0; jobid && jobid[i] && i < sizeof id - 1; i++) {
        char ch = jobid[i];
        int ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
                 ch == '.' || ch == '_' || ch == '-';
        id[i] = ok ? ch : '_';
    }
    id[i] = 0;
    snprintf(buf, len, "/switchyard-%s-shm-%d-pid%ld-ns%lu", id, node, (long)getpid(), pid_ns());
}

/* Whether d_name is a region whose creator, a process of our pid namespace ns, is gone (or is
 * us: we have not created ours yet). */
static int stale(const char *d_name, unsigned long ns)
{
    const char *p = NULL, *q;
    unsigned long their_ns;
    long pid;
    int end = 0;

    if (strncmp(d_name, "switchyard-", 11) != 0 || !strstr(d_name, "-shm-"))
        return 0;
    for (q = strstr(d_name, "-pid"); q; q = strstr(q + 1, "-pid"))
        p = q;
    if (!p || sscanf(p, "-pid%ld-ns%lu%n", &pid, &their_ns, &end) != 2 || p[end] ||
        pid <= 0 || their_ns != ns)
        return 0;
    return pid == (long)getpid() || (kill((pid_t)pid, 0) < 0 && errno == ESRCH);
}

void shm_region_sweep(void)
{
    unsigned long ns = pid_ns();
    DIR *d = ns ? opendir("/dev/shm") : NULL;
    struct dirent *e;
    struct stat st;

    while (d && (e = readdir(d)))
        if (stale(e->d_name, ns) &&
            fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode) &&
            st.st_uid == geteuid())
            unlinkat(dirfd(d), e->d_name, 0); /* ENOENT: another job's sweep was first */
    if (d)
        closedir(d);
}

static uint64_t round_up(uint64_t x, uint64_t a)
{
    return (x + a - 1) / a * a;
}

/* The layout for nlocal ranks and nchan channels: one inbound ring per rank and channel,
 * SHM_RING_BYTES per sender up to SHM_RING_MAX, so the region grows linearly with the ranks. */
static void layout(struct shm_header *h, int nlocal, int nchan)
{
    uint64_t ring = SHM_RING_BYTES;

    while (ring < SHM_RING_MAX && ring < (uint64_t)SHM_RING_BYTES * (uint64_t)(nlocal - 1))
        ring *= 2;
    memset(h, 0, sizeof *h);
    h->version = SHM_VERSION;
    h->header_bytes = sizeof *h;
    h->nlocal = (uint32_t)nlocal;
    h->ring_bytes = (uint32_t)ring;
    h->nchan = (uint32_t)nchan;
    h->slot_stride = sizeof(struct shm_slot) + (uint64_t)nchan * sizeof(struct shm_chan_slot);
    h->off_slots = round_up(sizeof *h, SHM_SEP);
    h->off_rings = round_up(h->off_slots + (uint64_t)nlocal * h->slot_stride, 4096);
    h->ring_ctl_bytes = round_up(sizeof(struct shm_ring_ctl) + 8 * (((uint64_t)nlocal + 63) / 64),
                                 SHM_LINE);
    h->ring_stride = round_up(h->ring_ctl_bytes + ring, 4096);
    h->total_bytes = h->off_rings + (uint64_t)nlocal * (uint64_t)nchan * h->ring_stride;
}

int shm_region_create(const char *name, int nlocal, int nchan, void **base, size_t *bytes)
{
    struct shm_header want, *h;
    void *p;
    int fd, err;

    layout(&want, nlocal, nchan);
    fd = shm_open(name, O_CREAT | O_EXCL | O_RDWR, 0600);
    if (fd < 0)
        return errno == EEXIST ? RT_ERR_FILE_EXISTS : RT_ERR_OTHER;
    if (ftruncate(fd, (off_t)want.total_bytes) < 0) {
        err = errno;
        goto fail;
    }
    p = mmap(NULL, want.total_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED) {
        err = errno;
        goto fail;
    }
    close(fd);
    h = p;
    h->version = want.version;
    h->header_bytes = want.header_bytes;
    h->nlocal = want.nlocal;
    h->ring_bytes = want.ring_bytes;
    h->nchan = want.nchan;
    h->slot_stride = want.slot_stride;
    h->total_bytes = want.total_bytes;
    h->off_slots = want.off_slots;
    h->off_rings = want.off_rings;
    h->ring_ctl_bytes = want.ring_ctl_bytes;
    h->ring_stride = want.ring_stride;
    atomic_store_explicit(&h->magic, SHM_MAGIC, memory_order_release);
    *base = p;
    *bytes = want.total_bytes;
    return 0;
fail:
    close(fd);
    shm_unlink(name);
    return err == ENOMEM || err == ENOSPC ? RT_ERR_NO_MEM : RT_ERR_OTHER;
}

int shm_region_open(const char *name, int nlocal, int nchan, void **base, size_t *bytes)
{
    struct shm_header want, *h;
    struct stat st;
    void *p;
    int fd;

    layout(&want, nlocal, nchan);
    fd = shm_open(name, O_RDWR, 0600);
    if (fd < 0)
        return RT_ERR_OTHER;
    if (fstat(fd, &st) < 0 || (uint64_t)st.st_size != want.total_bytes) {
        close(fd);
        return RT_ERR_OTHER;
    }
    p = mmap(NULL, want.total_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (p == MAP_FAILED)
        return RT_ERR_NO_MEM;
    h = p;
    if (atomic_load_explicit(&h->magic, memory_order_acquire) != SHM_MAGIC ||
        h->version != want.version || h->header_bytes != want.header_bytes ||
        h->nlocal != want.nlocal || h->ring_bytes != want.ring_bytes ||
        h->nchan != want.nchan || h->slot_stride != want.slot_stride ||
        h->total_bytes != want.total_bytes || h->off_slots != want.off_slots ||
        h->off_rings != want.off_rings || h->ring_ctl_bytes != want.ring_ctl_bytes ||
        h->ring_stride != want.ring_stride) {
        munmap(p, want.total_bytes);
        return RT_ERR_OTHER;
    }
    *base = p;
    *bytes = want.total_bytes;
    return 0;
}

struct shm_slot *shm_region_slot(void *base, int i)
{
    struct shm_header *h = base;

    return (struct shm_slot *)((unsigned char *)base + h->off_slots + (uint64_t)i * h->slot_stride);
}

void shm_region_ring(void *base, int owner, int chan, struct shm_chan_slot *res, struct shm_ring *r)
{
    struct shm_header *h = base;
    uint32_t id = (uint32_t)owner * h->nchan + (uint32_t)chan;
    unsigned char *p = (unsigned char *)base + h->off_rings + (uint64_t)id * h->ring_stride;

    memset(r, 0, sizeof *r);
    r->ctl = (struct shm_ring_ctl *)p;
    r->data = p + h->ring_ctl_bytes;
    r->size = h->ring_bytes;
    r->owner = owner;
    r->chan = chan;
    r->id = id;
    r->res = res;
}
