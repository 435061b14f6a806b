/* tcp_raw.c — the limit for MPI over TCP on loopback: the ping-pong of bench/p2p.c between two
 * processes over one plain TCP connection (TCP_NODELAY, blocking reads and writes, no MPI).
 * Prints "latency_us SIZE VALUE" (one way) and "bandwidth_MBps SIZE VALUE" like p2p.c. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void xfer(int fd, char *buf, size_t n, int out)
{
    while (n > 0) {
        ssize_t k = out ? write(fd, buf, n) : read(fd, buf, n);
        if (k <= 0) {
            perror(out ? "write" : "read");
            exit(1);
        }
        buf += k;
        n -= (size_t)k;
    }
}

/* One way time of a ping-pong of n bytes, iters round trips; the child echoes. */
static double pingpong(int fd, int parent, char *buf, size_t n, int iters)
{
    char go = 0;
    xfer(fd, &go, 1, parent); /* both start together */
    xfer(fd, &go, 1, !parent);
    double t0 = now();
    for (int i = 0; i < iters; i++) {
        xfer(fd, buf, n, parent);
        xfer(fd, buf, n, !parent);
    }
    return (now() - t0) / iters / 2;
}

int main(void)
{
    int one = 1, max = 4 << 20, lfd = socket(AF_INET, SOCK_STREAM, 0), fd;
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t len = sizeof sa;
    if (lfd < 0 || bind(lfd, (struct sockaddr *)&sa, sizeof sa) < 0 || listen(lfd, 1) < 0 ||
        getsockname(lfd, (struct sockaddr *)&sa, &len) < 0) {
        perror("listen");
        return 1;
    }
    pid_t child = fork();
    if (child < 0) {
        perror("fork");
        return 1;
    }
    if (child == 0) {
        fd = socket(AF_INET, SOCK_STREAM, 0);
        if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof sa) < 0) {
            perror("connect");
            return 1;
        }
    } else if ((fd = accept(lfd, NULL, NULL)) < 0) {
        perror("accept");
        return 1;
    }
    close(lfd);
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    char *buf = malloc((size_t)max);
    if (!buf)
        return 1;
    memset(buf, 1, (size_t)max);
    for (int n = 0; n <= max; n = n ? n * 4 : 1) {
        int iters = n < 65536 ? 2000 : n < (1 << 20) ? 300 : 60;
        size_t sz = n ? (size_t)n : 1; /* a 0-byte message still needs a byte on a stream */
        pingpong(fd, child != 0, buf, sz, iters / 10);
        double best = 1e9;
        for (int rep = 0; rep < 3; rep++) {
            double t = pingpong(fd, child != 0, buf, sz, iters);
            if (t < best)
                best = t;
        }
        if (child != 0) {
            printf("latency_us %d %.3f\n", n, best * 1e6);
            if (n >= 1024)
                printf("bandwidth_MBps %d %.1f\n", n, n / best / 1e6);
        }
    }
    close(fd);
    if (child != 0) {
        int st;
        waitpid(child, &st, 0);
        return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
    }
    return 0;
}
