/* tcp_conn.c — connections: ours to a peer, made on the first frame to it from the address it
 * published; theirs to us, accepted and named by their HELLO; and a peer's failure. */
#define _GNU_SOURCE
#include "tcp.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "rt_consts.h"

/* Nonblocking, no Nagle delay (frames are written whole or as the socket takes them). */
static void tune(int fd)
{
    int one = 1;

    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

int tcp_connect(int dst)
{
    struct tcp_peer *p = &tcp_g.peer[dst];
    char key[48], val[96];
    unsigned port;
    struct sockaddr_in sa = { .sin_family = AF_INET };
    struct epoll_event ev;
    struct tcp_frame hello = { .type = TCP_HELLO, .a = TCP_MAGIC, .c = tcp_g.job_hash };
    int fd;

    snprintf(key, sizeof key, "swy.tcp.%d", dst);
    if (tcp_g.env->kvs_get(key, val, sizeof val) < 0)
        return RT_ERR_OTHER;
    char *slash = strchr(val, '/');
    if (slash)
        *slash = 0; /* "a.b.c.d:port/pid" */
    char *colon = strrchr(val, ':');
    if (!colon || sscanf(colon + 1, "%u", &port) != 1 || port > 65535)
        return RT_ERR_OTHER;
    *colon = 0;
    if (inet_pton(AF_INET, val, &sa.sin_addr) != 1)
        return RT_ERR_OTHER;
    sa.sin_port = htons((uint16_t)port);
    fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return errno == EMFILE || errno == ENFILE ? RT_ERR_NO_SPACE : RT_ERR_OTHER;
    tune(fd);
    if (connect(fd, (struct sockaddr *)&sa, sizeof sa) < 0 && errno != EINPROGRESS) {
        close(fd);
        return RT_ERR_PROC_ABORTED; /* nobody listens there any more */
    }
    p->out_fd = fd;
    p->connecting = 1; /* writable once connected: tcp_progress clears this */
    ev = (struct epoll_event){ .events = EPOLLOUT, .data.u64 = (uint64_t)dst << 1 | 1 };
    p->polling_out = 1;
    epoll_ctl(tcp_g.epfd, EPOLL_CTL_ADD, fd, &ev);
    hello.b = (uint64_t)tcp_g.env->world_rank;
    struct tcp_out *o = calloc(1, sizeof *o);
    if (!o)
        return RT_ERR_NO_MEM;
    o->f = hello;
    p->q = p->q_last = o; /* the queue is empty before the first frame */
    return 0;
}

void tcp_accept(void)
{
    for (;;) {
        int fd = accept4(tcp_g.listen_fd, NULL, NULL, SOCK_CLOEXEC);
        struct tcp_conn *c;
        struct epoll_event ev;

        if (fd < 0)
            return; /* EAGAIN, or a connection that went away */
        tune(fd);
        c = calloc(1, sizeof *c);
        if (!c) {
            close(fd);
            continue;
        }
        c->fd = fd;
        c->peer = -1;
        c->next = tcp_g.conns;
        tcp_g.conns = c;
        ev = (struct epoll_event){ .events = EPOLLIN, .data.ptr = c };
        epoll_ctl(tcp_g.epfd, EPOLL_CTL_ADD, fd, &ev);
    }
}

void tcp_conn_close(struct tcp_conn *c)
{
    struct tcp_conn **pp = &tcp_g.conns;

    while (*pp && *pp != c)
        pp = &(*pp)->next;
    if (*pp)
        *pp = c->next;
    epoll_ctl(tcp_g.epfd, EPOLL_CTL_DEL, c->fd, NULL);
    close(c->fd);
    free(c->buf);
    free(c);
}

void tcp_fail_peer(int r)
{
    struct tcp_peer *p = &tcp_g.peer[r];
    struct tcp_out *o, *next;
    uint32_t i;

    if (p->dead)
        return;
    p->dead = 1;
    for (o = p->q; o; o = next) {
        next = o->next;
        free(o->owned);
        free(o);
    }
    p->q = p->q_last = NULL;
    if (p->out_fd >= 0) {
        epoll_ctl(tcp_g.epfd, EPOLL_CTL_DEL, p->out_fd, NULL);
        close(p->out_fd);
        p->out_fd = -1;
    }
    for (i = 0; i < tp_pool_capacity(&tcp_g.sends); i++) {
        struct tcp_send *s = tp_pool_at(&tcp_g.sends, i);
        void *sreq = s->sreq;
        struct tcp_send **d = &tcp_g.done;

        if (!s->ent.used || s->dst != r)
            continue;
        while (*d && *d != s)
            d = &(*d)->next_done;
        if (*d) { /* fully written before the failure: it completed */
            *d = s->next_done;
            free(s->packed);
            tp_pool_put(&tcp_g.sends, s);
            tcp_g.env->send_done(sreq, 0);
            continue;
        }
        free(s->packed);
        tp_pool_put(&tcp_g.sends, s);
        tcp_g.env->send_done(sreq, RT_ERR_PROC_ABORTED);
    }
    for (i = 0; i < tp_pool_capacity(&tcp_g.recvs); i++) {
        struct tcp_recv *m = tp_pool_at(&tcp_g.recvs, i);
        void *rreq = m->rreq;

        if (!m->ent.used || m->src != r || !m->active)
            continue;
        tp_pool_put(&tcp_g.recvs, m);
        tcp_g.env->recv_done(rreq, RT_ERR_PROC_ABORTED);
    }
    tcp_g.env->peer_failed(r);
}
