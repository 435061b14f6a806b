/* tcp_out.c — the writing side: a FIFO of frames per peer on our connection to it, held until the
 * peer's challenge is answered and our HELLO acknowledged, then written with nonblocking sends as
 * the socket takes them. */
#define _GNU_SOURCE
#include "tcp.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/uio.h>

#include "rt_consts.h"

/* Asks epoll for writability of dst's connection while frames wait, not otherwise (one
 * epoll_ctl per change, not per write). */
static void want_write(int dst, int on)
{
    struct tcp_peer *p = &tcp_g.peer[dst];
    struct epoll_event ev = { .events = on ? EPOLLOUT : 0, .data.u64 = (uint64_t)dst << 1 | 1 };

    if (p->polling_out == on)
        return;
    p->polling_out = on;
    epoll_ctl(tcp_g.epfd, EPOLL_CTL_MOD, p->out_fd, &ev);
}

int tcp_queue(int dst, const struct tcp_frame *f, const void *data, size_t len, void *owned,
              struct tcp_send *done)
{
    struct tcp_peer *p = &tcp_g.peer[dst];
    struct tcp_out *o;
    int rc;

    if (p->dead || p->gone) {
        free(owned);
        return RT_ERR_PROC_ABORTED;
    }
    if (p->out_fd < 0 && (rc = tcp_connect(dst)) != 0) {
        free(owned);
        return rc;
    }
    o = calloc(1, sizeof *o);
    if (!o) {
        free(owned);
        return RT_ERR_NO_MEM;
    }
    o->f = *f;
    o->data = data;
    o->len = len;
    o->owned = owned;
    o->done = done;
    if (p->q_last)
        p->q_last->next = o;
    else
        p->q = o;
    p->q_last = o;
    tcp_flush(dst);
    return 0;
}

int tcp_flush(int dst)
{
    struct tcp_peer *p = &tcp_g.peer[dst];
    struct tcp_out *o;
    int wrote = 0;

    while (!p->dead && !p->gone && !p->connecting && !p->authing && !p->confirming && (o = p->q)) {
        struct iovec iov[2];
        int n = 0;
        ssize_t w;

        if (o->off < sizeof o->f)
            iov[n++] = (struct iovec){ (char *)&o->f + o->off, sizeof o->f - o->off };
        if (o->len) {
            size_t done = o->off > sizeof o->f ? o->off - sizeof o->f : 0;
            iov[n++] = (struct iovec){ (void *)(o->data + done), o->len - done };
        }
        w = sendmsg(p->out_fd, &(struct msghdr){ .msg_iov = iov, .msg_iovlen = (size_t)n }, MSG_NOSIGNAL);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            if (errno == EAGAIN || errno == EWOULDBLOCK)
                break;
            if (o->f.type == TCP_HELLO)
                tcp_redial(dst); /* dropped before the handshake finished: no sign of death */
            else
                p->gone = 1; /* EPIPE, ECONNRESET: progress() fails what it holds */
            return wrote;
        }
        wrote = 1;
        tcp_g.writes++;
        tcp_g.short_writes += (size_t)w < iov[0].iov_len + (n > 1 ? iov[1].iov_len : 0);
        o->off += (size_t)w;
        if (o->off < sizeof o->f + o->len)
            continue;
        p->q = o->next;
        if (!p->q)
            p->q_last = NULL;
        if (o->f.type == TCP_HELLO) { /* the rest waits for the acknowledgement (tcp_confirm) */
            struct epoll_event ev = { .events = EPOLLIN, .data.u64 = (uint64_t)dst << 1 | 1 };

            p->mac = NULL; /* freed with o */
            p->confirming = 1;
            p->ack_got = 0;
            p->polling_out = -1;
            epoll_ctl(tcp_g.epfd, EPOLL_CTL_MOD, p->out_fd, &ev);
        }
        free(o->owned);
        if (o->done) { /* the last DATA frame of a large send: its buffer is free */
            o->done->next_done = tcp_g.done;
            tcp_g.done = o->done;
        }
        free(o);
    }
    if (!p->dead && !p->gone && !p->connecting && !p->authing && !p->confirming)
        want_write(dst, p->q != NULL);
    return wrote;
}
