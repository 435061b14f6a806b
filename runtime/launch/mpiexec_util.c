/* mpiexec_util.c — small helpers of the launcher: time, randomness, growing buffers and
 * whole writes. */
#define _GNU_SOURCE
#include "mpiexec.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

long long mx_now_ms(void)
{
    struct timespec t;

    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

int mx_random_hex(char *out, size_t nbytes)
{
    unsigned char raw[64];
    size_t got = 0;

    if (nbytes > sizeof raw)
        return -1;
    while (got < nbytes) {
        ssize_t n = getrandom(raw + got, nbytes - got, 0);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        got += (size_t)n;
    }
    for (size_t i = 0; i < nbytes; i++)
        snprintf(out + 2 * i, 3, "%02x", raw[i]);
    explicit_bzero(raw, sizeof raw);
    return 0;
}

static _Noreturn void out_of_memory(void)
{
    static const char msg[] = "mpiexec: out of memory\n";

    (void)!write(2, msg, sizeof msg - 1);
    _exit(MX_EXIT_LAUNCH);
}

void *mx_xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);

    if (!p)
        out_of_memory();
    return p;
}

void *mx_xrealloc(void *p, size_t n)
{
    p = realloc(p, n ? n : 1);
    if (!p)
        out_of_memory();
    return p;
}

void mx_buf_add(struct mx_buf *b, const void *data, size_t len)
{
    if (!len) /* b->p may still be NULL: memcpy must not see it */
        return;
    if (b->len + len > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->len + len)
            cap *= 2;
        b->p = mx_xrealloc(b->p, cap);
        b->cap = cap;
    }
    memcpy(b->p + b->len, data, len);
    b->len += len;
}

void mx_buf_drop(struct mx_buf *b, size_t n)
{
    if (n >= b->len) {
        b->len = 0;
        return;
    }
    memmove(b->p, b->p + n, b->len - n);
    b->len -= n;
}

void mx_buf_free(struct mx_buf *b)
{
    free(b->p);
    b->p = NULL;
    b->len = b->cap = 0;
}

int mx_write_all(int fd, const void *data, size_t len)
{
    const char *p = data;

    while (len) {
        ssize_t n = write(fd, p, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            /* someone made the descriptor non-blocking: wait until it takes more */
            struct pollfd pfd = { .fd = fd, .events = POLLOUT };
            if (poll(&pfd, 1, -1) < 0 && errno != EINTR)
                return -1;
            continue;
        }
        if (n <= 0)
            return -1;
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

int mx_nonblock(int fd)
{
    int fl = fcntl(fd, F_GETFL);

    return fl < 0 ? -1 : fcntl(fd, F_SETFL, fl | O_NONBLOCK);
}
