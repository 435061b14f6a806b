/* tcp_conn.c — connections: ours to a peer, made on the first frame to it from the address it
 * published, answering its challenge, made again if dropped before its acknowledgement; theirs
 * to us once authenticated (tcp_gate.c accepts them), closed and their offences logged; and a
 * peer's failure. */
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

void tcp_sockbuf(int fd)
{
    /* segments of a quarter of the buffer: loopback's 64 KiB MSS above a window that never
     * reaches it leaves the sender waiting for its persist timer (a stall of seconds) */
    int mss = tcp_g.sockbuf / 4 > 536 ? tcp_g.sockbuf / 4 : 536;

    if (tcp_g.sockbuf <= 0)
        return;
    setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &tcp_g.sockbuf, sizeof tcp_g.sockbuf);
    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &tcp_g.sockbuf, sizeof tcp_g.sockbuf);
    setsockopt(fd, IPPROTO_TCP, TCP_MAXSEG, &mss, sizeof mss);
}

void tcp_tune(int fd)
{
    static int said;
    int one = 1;

    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    tcp_sockbuf(fd);
    if (tcp_g.debug && !__atomic_exchange_n(&said, 1, __ATOMIC_RELAXED)) {
        /* what the kernel made of it (Linux doubles the value asked) */
        int snd = 0, rcv = 0;
        socklen_t l1 = sizeof snd, l2 = sizeof rcv;

        getsockopt(fd, SOL_SOCKET, SO_SNDBUF, &snd, &l1);
        getsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcv, &l2);
        fprintf(stderr, "switchyard: rank %d: tcp: socket buffers: send %d, receive %d bytes\n",
                tcp_g.env->world_rank, snd, rcv);
    }
}

int tcp_connect(int dst)
{
    struct tcp_peer *p = &tcp_g.peer[dst];
    char key[48], val[96];
    unsigned port;
    struct sockaddr_in sa = { .sin_family = AF_INET };
    struct epoll_event ev;
    struct tcp_frame hello = { .type = TCP_HELLO, .a = TCP_MAGIC, .c = TCP_MAC };
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
    tcp_tune(fd);
    if (connect(fd, (struct sockaddr *)&sa, sizeof sa) < 0 && errno != EINPROGRESS) {
        close(fd);
        return RT_ERR_PROC_ABORTED; /* nobody listens there any more */
    }
    struct tcp_out *o = calloc(1, sizeof *o);
    unsigned char *mac = calloc(1, TCP_MAC);
    if (!o || !mac) {
        free(o);
        free(mac);
        close(fd);
        return RT_ERR_NO_MEM;
    }
    p->out_fd = fd;
    p->connecting = 1; /* writable once connected: tcp_answer clears this */
    p->authing = p->confirming = 0;
    p->chal_got = p->ack_got = 0;
    ev = (struct epoll_event){ .events = EPOLLOUT, .data.u64 = (uint64_t)dst << 1 | 1 };
    p->polling_out = 1;
    epoll_ctl(tcp_g.epfd, EPOLL_CTL_ADD, fd, &ev);
    hello.b = (uint64_t)tcp_g.env->world_rank;
    o->f = hello;
    o->data = o->owned = p->mac = mac; /* filled once the challenge is read */
    o->len = TCP_MAC;
    o->next = p->q; /* empty before the first frame; after a redial, frames none of which was written */
    p->q = o;
    if (!p->q_last)
        p->q_last = o;
    return 0;
}

int tcp_answer(int dst)
{
    struct tcp_peer *p = &tcp_g.peer[dst];
    struct epoll_event ev = { .events = EPOLLIN, .data.u64 = (uint64_t)dst << 1 | 1 };
    int err = 0;
    socklen_t len = sizeof err;

    if (p->dead || p->out_fd < 0)
        return 0;
    if (p->connecting) {
        if (getsockopt(p->out_fd, SOL_SOCKET, SO_ERROR, &err, &len) < 0 || err) {
            tcp_fail_peer(dst);
            return -1;
        }
        p->connecting = 0;
        p->authing = 1; /* now wait for the challenge */
        epoll_ctl(tcp_g.epfd, EPOLL_CTL_MOD, p->out_fd, &ev);
    }
    return tcp_answer_from(dst, tcp_fd_source, &p->out_fd);
}

/* Reads from src into the size bytes at buf, of which *got have come: 1 once all have, 0 when
 * src has no more for now, -1 when it closed (or failed) first. */
static int fill(tcp_source src, void *ctx, void *buf, size_t size, size_t *got)
{
    while (*got < size) {
        ssize_t r = src(ctx, (unsigned char *)buf + *got, size - *got);

        if (r > 0)
            *got += (size_t)r;
        else if (r < 0 && errno == EINTR)
            continue;
        else if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return 0;
        else
            return -1;
    }
    return 1;
}

int tcp_answer_from(int dst, tcp_source src, void *ctx)
{
    struct tcp_peer *p = &tcp_g.peer[dst];

    if (p->dead || !p->authing)
        return 0;
    int filled = fill(src, ctx, &p->chal, sizeof p->chal, &p->chal_got);

    if (filled == 0)
        return 0;
    if (filled < 0 || p->chal.magic != TCP_CHAL_MAGIC || /* closed: it refused us, or died */
        tcp_mac(p->chal.nonce, tcp_g.env->world_rank, dst, p->mac) < 0) {
        tcp_fail_peer(dst);
        return -1;
    }
    p->authing = 0;
    p->polling_out = -1; /* tcp_flush sets the interest from here on */
    return 1;
}

int tcp_handshaking(int dst)
{
    const struct tcp_peer *p = &tcp_g.peer[dst];

    return p->out_fd >= 0 &&
           (p->connecting || p->authing || p->confirming || (p->q && p->q->f.type == TCP_HELLO));
}

int tcp_confirm(int dst)
{
    struct tcp_peer *p = &tcp_g.peer[dst];

    if (p->dead || !p->confirming)
        return 0;
    int filled = fill(tcp_fd_source, &p->out_fd, &p->ack, sizeof p->ack, &p->ack_got);

    if (filled < 0) /* dropped before the acknowledgement: dst took us for a silent stranger */
        tcp_redial(dst);
    if (filled <= 0)
        return 0;
    if (p->ack != TCP_ACK_MAGIC) {
        tcp_fail_peer(dst);
        return -1;
    }
    p->confirming = 0;
    p->polling_out = -1; /* tcp_flush sets the interest from here on */
    return 1;
}

void tcp_redial(int dst)
{
    struct tcp_peer *p = &tcp_g.peer[dst];
    struct tcp_out *o = p->q;

    if (p->dead)
        return;
    if (o && o->f.type == TCP_HELLO) { /* unwritten or partly written: the new one replaces it */
        p->q = o->next;
        if (!p->q)
            p->q_last = NULL;
        free(o->owned);
        free(o);
    }
    p->mac = NULL;
    if (p->out_fd >= 0) {
        epoll_ctl(tcp_g.epfd, EPOLL_CTL_DEL, p->out_fd, NULL);
        close(p->out_fd);
        p->out_fd = -1;
    }
    p->connecting = p->authing = p->confirming = 0;
    p->redials++;
    if (tcp_g.debug)
        fprintf(stderr, "switchyard: rank %d: tcp: rank %d dropped our connection before the handshake "
                "finished (we were too slow for it): connecting again (%u)\n", tcp_g.env->world_rank,
                dst, p->redials);
    if (p->redials > TCP_REDIALS_MAX) {
        fprintf(stderr, "switchyard: rank %d: tcp: rank %d dropped our connection %u times before the "
                "handshake finished: giving up on it\n", tcp_g.env->world_rank, dst, p->redials);
        p->gone = 1;
    } else if (tcp_connect(dst) != 0) {
        p->gone = 1; /* refused: nobody listens there any more */
    }
}

void tcp_conn_free(struct tcp_conn *c)
{
    close(c->fd);
    free(c->buf);
    free(c->rb);
    free(c);
}

void tcp_conn_close(struct tcp_conn *c)
{
    struct tcp_conn **pp = &tcp_g.conns;

    while (*pp && *pp != c)
        pp = &(*pp)->next;
    if (*pp)
        *pp = c->next;
    epoll_ctl(tcp_g.epfd, EPOLL_CTL_DEL, c->fd, NULL);
    tcp_conn_free(c);
}

void tcp_conn_log(const struct tcp_conn *c)
{
    static const char *const why[] = {
        [TCP_DROP_BAD] = "bad handshake",
        [TCP_DROP_AUTH] = "handshake failed authentication",
        [TCP_DROP_SILENT] = "no handshake within %g s", /* SWITCHYARD_TCP_HANDSHAKE_TIMEOUT */
        [TCP_DROP_EOF] = "closed before the handshake",
        [TCP_DROP_MALFORMED] = "malformed frame",
        [TCP_DROP_NOMEM] = "out of memory",
    };
    unsigned k = (unsigned)c->offence;
    char text[64];

    if (k <= TCP_CLOSED || k >= sizeof why / sizeof *why ||
        (__atomic_fetch_or(&tcp_g.logged, 1u << k, __ATOMIC_RELAXED) & 1u << k))
        return;
    if (k == TCP_DROP_SILENT)
        snprintf(text, sizeof text, why[k], (double)tcp_g.auth_ns / 1e9);
    else
        snprintf(text, sizeof text, "%s", why[k]);
    if (c->peer >= 0)
        fprintf(stderr, "switchyard: rank %d: tcp: closed the connection from rank %d (%s): %s\n",
                tcp_g.env->world_rank, c->peer, c->from, text);
    else
        fprintf(stderr, "switchyard: rank %d: tcp: dropped a connection from %s: %s\n",
                tcp_g.env->world_rank, c->from, text);
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
    p->mac = NULL;
    p->authing = p->confirming = 0;
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
