/* tcp_gate.c — the gatekeeper: a thread that accepts every incoming connection, challenges it
 * and reads its HELLO whatever the program does meanwhile (computing outside MPI, for instance),
 * drops strangers within tcp_g.auth_ns, and acknowledges and hands authenticated connections to
 * the engine. */
#define _GNU_SOURCE
#include "tcp.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include "rt_consts.h"

/* The gate's state. Only the gate thread touches `ep` and `pending`; `ready` passes
 * connections to the engine under `mx`. */
static struct {
    pthread_t thread;
    int running;
    int ep;                     /* the gate's epoll: the listening socket, stop_fd, pending */
    int stop_fd;                /* eventfd: tcp_gate_stop wakes the thread */
    int ready_fd;               /* eventfd in the engine's epoll: `ready` is not empty */
    pthread_mutex_t mx;
    struct tcp_conn *ready;     /* authenticated, not adopted by the engine yet */
    struct tcp_conn *pending;   /* accepted, not authenticated yet */
} gate = { .ep = -1, .stop_fd = -1, .ready_fd = -1, .mx = PTHREAD_MUTEX_INITIALIZER };

#define GATE_STOP ((uint64_t)1)     /* epoll keys of the gate besides connections */
#define GATE_LISTEN ((uint64_t)2)

/* Says once per process on stderr that accept ran out of descriptors (the peer's connection
 * waits in the backlog until one is free), naming the limit and how to raise it. */
static void log_nofile(int err)
{
    static int logged;
    struct rlimit rl;

    if (logged || getrlimit(RLIMIT_NOFILE, &rl) != 0)
        return;
    logged = 1;
    fprintf(stderr, "switchyard: rank %d: tcp: cannot accept a connection: %s: this process may "
            "have %llu descriptors open (RLIMIT_NOFILE, hard limit %llu); raise the limit with "
            "`ulimit -n` before mpiexec\n", tcp_g.env->world_rank, strerror(err),
            (unsigned long long)rl.rlim_cur, (unsigned long long)rl.rlim_max);
}

static void unlink_pending(struct tcp_conn *c)
{
    struct tcp_conn **pp = &gate.pending;

    while (*pp && *pp != c)
        pp = &(*pp)->next;
    if (*pp)
        *pp = c->next;
}

/* Accepts what waits on the listening socket: each connection gets its challenge at once. */
static void accept_all(void)
{
    for (;;) {
        struct sockaddr_in sa;
        socklen_t sl = sizeof sa;
        int fd = accept4(tcp_g.listen_fd, (struct sockaddr *)&sa, &sl, SOCK_CLOEXEC);
        struct tcp_challenge ch = { .magic = TCP_CHAL_MAGIC };
        char host[INET_ADDRSTRLEN] = "?";
        struct tcp_conn *c;
        struct epoll_event ev;

        if (fd < 0) { /* EAGAIN, or a connection that went away, or no descriptor left */
            if (errno == EMFILE || errno == ENFILE)
                log_nofile(errno);
            return;
        }
        tcp_tune(fd);
        c = calloc(1, sizeof *c);
        if (!c || tcp_random(c->nonce, TCP_NONCE) < 0) {
            free(c);
            close(fd);
            continue;
        }
        memcpy(ch.nonce, c->nonce, TCP_NONCE);
        /* a new socket's buffer takes these 40 bytes whole, or the other end is gone */
        if (send(fd, &ch, sizeof ch, MSG_NOSIGNAL) != (ssize_t)sizeof ch) {
            free(c);
            close(fd);
            continue;
        }
        if (sa.sin_family == AF_INET)
            inet_ntop(AF_INET, &sa.sin_addr, host, sizeof host);
        snprintf(c->from, sizeof c->from, "%s:%u", host, (unsigned)ntohs(sa.sin_port));
        c->fd = fd;
        c->peer = -1;
        c->born_ns = tcp_now_ns();
        c->next = gate.pending;
        gate.pending = c;
        ev = (struct epoll_event){ .events = EPOLLIN, .data.ptr = c };
        epoll_ctl(gate.ep, EPOLL_CTL_ADD, fd, &ev);
    }
}

/* Reads c's handshake: a stranger is dropped (and logged), an authenticated connection is
 * acknowledged (the connector writes its frames only then) and goes to the engine with whatever
 * it read ahead. */
static void read_handshake(struct tcp_conn *c)
{
    static const uint64_t ack = TCP_ACK_MAGIC;
    int rc = tcp_read(c);

    if (rc < 0) {
        unlink_pending(c);
        tcp_conn_log(c);
        tcp_conn_free(c);
    } else if (c->peer >= 0) {
        /* 8 bytes into a buffer that only ever held the 40 of the challenge: whole, or the
         * connector is gone (then the engine finds the connection's end, as for any peer) */
        if (send(c->fd, &ack, sizeof ack, MSG_NOSIGNAL) < 0) { /* the engine reads the end */ }
        unlink_pending(c);
        epoll_ctl(gate.ep, EPOLL_CTL_DEL, c->fd, NULL);
        pthread_mutex_lock(&gate.mx);
        c->next = gate.ready;
        gate.ready = c;
        pthread_mutex_unlock(&gate.mx);
        uint64_t one = 1;
        if (write(gate.ready_fd, &one, sizeof one) < 0) { /* cannot fail below 2^64 - 1 */ }
    }
}

/* Drops the connections still unauthenticated tcp_g.auth_ns after their accept (a late rank of
 * the job connects again, tcp_redial); returns the ms
 * until the next one's time is up (-1: none pending). */
static int drop_silent(void)
{
    long long now = tcp_now_ns(), next = -1;
    struct tcp_conn *c, *nx;

    for (c = gate.pending; c; c = nx) {
        nx = c->next;
        long long left = c->born_ns + tcp_g.auth_ns - now;
        if (left <= 0) {
            unlink_pending(c);
            c->offence = TCP_DROP_SILENT;
            tcp_conn_log(c);
            tcp_conn_free(c);
        } else if (next < 0 || left < next) {
            next = left;
        }
    }
    return next < 0 ? -1 : (int)((next + 999999) / 1000000);
}

static void *gate_loop(void *arg)
{
    struct epoll_event ev[16];
    int timeout = -1;

    (void)arg;
    for (;;) {
        int n = epoll_wait(gate.ep, ev, 16, timeout);

        for (int i = 0; i < n; i++) {
            if (ev[i].data.u64 == GATE_STOP)
                return NULL;
            if (ev[i].data.u64 == GATE_LISTEN)
                accept_all();
            else
                read_handshake(ev[i].data.ptr);
        }
        timeout = drop_silent();
    }
}

int tcp_gate_start(int engine_ep)
{
    struct epoll_event stop = { .events = EPOLLIN, .data.u64 = GATE_STOP },
                       lis = { .events = EPOLLIN, .data.u64 = GATE_LISTEN },
                       ready = { .events = EPOLLIN, .data.u64 = 0 };
    sigset_t all, old;
    int rc;

    gate.ep = epoll_create1(EPOLL_CLOEXEC);
    gate.stop_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    gate.ready_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (gate.ep < 0 || gate.stop_fd < 0 || gate.ready_fd < 0 ||
        epoll_ctl(gate.ep, EPOLL_CTL_ADD, gate.stop_fd, &stop) < 0 ||
        epoll_ctl(gate.ep, EPOLL_CTL_ADD, tcp_g.listen_fd, &lis) < 0 ||
        epoll_ctl(engine_ep, EPOLL_CTL_ADD, gate.ready_fd, &ready) < 0) {
        tcp_gate_stop();
        return RT_ERR_OTHER;
    }
    sigfillset(&all); /* signals go to the program's threads, never to the gate */
    pthread_sigmask(SIG_SETMASK, &all, &old);
    rc = pthread_create(&gate.thread, NULL, gate_loop, NULL);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (rc != 0) {
        tcp_gate_stop();
        return RT_ERR_NO_MEM;
    }
    gate.running = 1;
    return 0;
}

struct tcp_conn *tcp_gate_take(void)
{
    struct tcp_conn *list;
    uint64_t count;

    if (read(gate.ready_fd, &count, sizeof count) < 0) { /* EAGAIN: nothing new */ }
    pthread_mutex_lock(&gate.mx);
    list = gate.ready;
    gate.ready = NULL;
    pthread_mutex_unlock(&gate.mx);
    return list;
}

static void free_list(struct tcp_conn *c)
{
    while (c) {
        struct tcp_conn *next = c->next;
        tcp_conn_free(c);
        c = next;
    }
}

static void close_fd(int *fd)
{
    if (*fd >= 0)
        close(*fd);
    *fd = -1;
}

void tcp_gate_stop(void)
{
    uint64_t one = 1;

    if (gate.running) {
        if (write(gate.stop_fd, &one, sizeof one) < 0) { /* cannot fail below 2^64 - 1 */ }
        pthread_join(gate.thread, NULL);
        gate.running = 0;
    }
    free_list(gate.pending);
    free_list(gate.ready);
    gate.pending = gate.ready = NULL;
    close_fd(&gate.ep);
    close_fd(&gate.stop_fd);
    close_fd(&gate.ready_fd);
}
