/* tcp_ops.c — the TCP transport's methods (transport.h): setting up the listening socket and
 * publishing its address, sends and large receives, progress through one epoll set, leaving. */
#define _GNU_SOURCE
#include "tcp.h"

#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "rt_consts.h"

struct tcp_state tcp_g = { .listen_fd = -1, .epfd = -1 };

/* Whether world rank r is ours: every other rank when SWITCHYARD_TRANSPORT=tcp, else the
 * ranks of other nodes. */
static int wanted(const rt_tp_env *env, int r)
{
    return r != env->world_rank &&
           (tcp_g.forced || (env->node_of && env->node_of[r] != env->node_of[env->world_rank]));
}

/* The IPv4 address of interface `name` (any interface but loopback if name is NULL, preferring
 * `prefer` when some interface has it) that is up, in *out. 0, or -1 when there is none. */
static int interface_address(const char *name, struct in_addr prefer, struct in_addr *out)
{
    struct ifaddrs *all, *i;
    int found = 0;
    if (getifaddrs(&all) != 0)
        return -1;
    for (i = all; i; i = i->ifa_next) {
        if (!i->ifa_addr || i->ifa_addr->sa_family != AF_INET || !(i->ifa_flags & IFF_UP) ||
            (name ? strcmp(i->ifa_name, name) != 0 : (i->ifa_flags & IFF_LOOPBACK) != 0))
            continue;
        struct in_addr a = ((struct sockaddr_in *)i->ifa_addr)->sin_addr;
        if (!found || a.s_addr == prefer.s_addr)
            *out = a;
        found = 1;
    }
    freeifaddrs(all);
    return found ? 0 : -1;
}

/* The address peers on other hosts reach this one at: the host name's, when an interface that
 * is up has it, else the first such interface's (a host name may resolve to 127.0.1.1, or to
 * an address of another network namespace). 0, or -1 when no interface but loopback is up. */
static int host_address(struct in_addr *out)
{
    struct addrinfo hints = { .ai_family = AF_INET, .ai_socktype = SOCK_STREAM }, *ai;
    struct in_addr named = { .s_addr = htonl(INADDR_ANY) };
    char name[256] = "";
    if (gethostname(name, sizeof name - 1) == 0 && getaddrinfo(name, NULL, &hints, &ai) == 0) {
        named = ((struct sockaddr_in *)ai->ai_addr)->sin_addr;
        freeaddrinfo(ai);
    }
    return interface_address(NULL, named, out);
}

/* The listening socket, published as "swy.tcp.<rank>" = "a.b.c.d:port/pid": on the address of
 * interface SWITCHYARD_TCP_IF, else SWITCHYARD_TCP_ADDR, else loopback when every rank is on
 * this host, else every address (publishing host_address's). 0 or a class; a bad setting is
 * said on stderr. */
static int listen_and_publish(const rt_tp_env *env)
{
    const char *want = getenv("SWITCHYARD_TCP_ADDR"), *ifname = getenv("SWITCHYARD_TCP_IF");
    struct sockaddr_in sa = { .sin_family = AF_INET };
    socklen_t len = sizeof sa;
    char key[48], val[96], host[INET_ADDRSTRLEN];
    int r, one_host = 1;

    for (r = 0; env->node_of && r < env->world_size; r++)
        one_host &= env->node_of[r] == env->node_of[0];
    if (ifname && *ifname) {
        if (interface_address(ifname, sa.sin_addr, &sa.sin_addr) != 0) {
            fprintf(stderr, "switchyard: rank %d: tcp: SWITCHYARD_TCP_IF=%s: no such interface with an IPv4 "
                    "address is up\n", env->world_rank, ifname);
            return RT_ERR_ARG;
        }
    } else {
        if (!want)
            want = one_host ? "127.0.0.1" : "0.0.0.0";
        if (inet_pton(AF_INET, want, &sa.sin_addr) != 1) {
            fprintf(stderr, "switchyard: rank %d: tcp: SWITCHYARD_TCP_ADDR=%s is not an IPv4 address\n",
                    env->world_rank, want);
            return RT_ERR_ARG;
        }
    }
    tcp_g.listen_fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (tcp_g.listen_fd >= 0)
        tcp_sockbuf(tcp_g.listen_fd);
    if (tcp_g.listen_fd < 0 || bind(tcp_g.listen_fd, (struct sockaddr *)&sa, sizeof sa) < 0 ||
        listen(tcp_g.listen_fd, 128) < 0 ||
        getsockname(tcp_g.listen_fd, (struct sockaddr *)&sa, &len) < 0)
        return RT_ERR_OTHER;
    if (sa.sin_addr.s_addr == htonl(INADDR_ANY) && host_address(&sa.sin_addr) != 0) {
        fprintf(stderr, "switchyard: rank %d: tcp: no network interface but loopback is up, and ranks "
                "run on other hosts\n", env->world_rank);
        return RT_ERR_OTHER;
    }
    inet_ntop(AF_INET, &sa.sin_addr, host, sizeof host);
    snprintf(key, sizeof key, "swy.tcp.%d", env->world_rank);
    snprintf(val, sizeof val, "%s:%u/%ld", host, (unsigned)ntohs(sa.sin_port), (long)getpid());
    if (tcp_g.debug)
        fprintf(stderr, "switchyard: rank %d: tcp: listening at %s:%u\n", env->world_rank, host,
                (unsigned)ntohs(sa.sin_port));
    return env->kvs_put(key, val) < 0 ? RT_ERR_OTHER : 0;
}

/* SWITCHYARD_TCP_HANDSHAKE_TIMEOUT=<seconds> (a positive number, fractions allowed): how long an
 * accepted connection may stay unauthenticated before the gatekeeper drops it; TCP_AUTH_NS
 * without it. A bad value is said on stderr (rank 0) and the default kept. */
static long long handshake_timeout(const rt_tp_env *env)
{
    const char *v = getenv("SWITCHYARD_TCP_HANDSHAKE_TIMEOUT");
    char *end;
    double s;

    if (!v || !*v)
        return TCP_AUTH_NS;
    s = strtod(v, &end);
    if (*end || !(s > 0) || s > 1e6) {
        if (env->world_rank == 0)
            fprintf(stderr, "switchyard: rank 0: tcp: SWITCHYARD_TCP_HANDSHAKE_TIMEOUT=%s is not a number "
                    "of seconds above 0 (up to 1e6): using %g s\n", v, (double)TCP_AUTH_NS / 1e9);
        return TCP_AUTH_NS;
    }
    return (long long)(s * 1e9);
}

/* rt_tp_ops.init: collective only when some rank needs TCP (every rank decides alike). */
int tcp_init(const rt_tp_env *env)
{
    const char *force = getenv("SWITCHYARD_TRANSPORT");
    int r, need = 0, rc;

    memset(&tcp_g, 0, sizeof tcp_g);
    tcp_g.listen_fd = tcp_g.epfd = -1;
    tcp_g.env = env;
    tcp_g.forced = force && strcmp(force, "tcp") == 0;
    if ((force = getenv("SWITCHYARD_TCP_SOCKBUF")) != NULL)
        tcp_g.sockbuf = atoi(force) > 0 ? atoi(force) : 0;
    tcp_g.debug = (force = getenv("SWITCHYARD_DEBUG")) != NULL && strstr(force, "transport") != NULL;
    tcp_g.auth_ns = handshake_timeout(env);
    for (r = 0; r < env->world_size && !need; r++) /* alike everywhere: some rank is elsewhere */
        need = wanted(env, r);
    if (!need)
        return 0;
    tp_pool_init(&tcp_g.sends, sizeof(struct tcp_send));
    tp_pool_init(&tcp_g.recvs, sizeof(struct tcp_recv));
    tcp_g.peer = calloc((size_t)env->world_size, sizeof *tcp_g.peer);
    tcp_g.epfd = epoll_create1(EPOLL_CLOEXEC);
    rc = !tcp_g.peer || tcp_g.epfd < 0 ? RT_ERR_NO_MEM : tcp_secret_init(env);
    if (!rc)
        rc = listen_and_publish(env);
    for (r = 0; tcp_g.peer && r < env->world_size; r++)
        tcp_g.peer[r].out_fd = -1;
    if (env->kvs_barrier() < 0 && !rc)
        rc = RT_ERR_OTHER;
    if (!rc)
        rc = tcp_secret_fetch(env);
    if (!rc) /* connections wait in the backlog until the secret is known */
        rc = tcp_gate_start(tcp_g.epfd);
    tcp_g.active = !rc;
    return rc;
}

int tcp_reaches(int r)
{
    return tcp_g.active && r >= 0 && r < tcp_g.env->world_size && wanted(tcp_g.env, r);
}

/* rt_tp_ops.send: eager payloads are copied (or packed) into the frame queue at once. */
int tcp_send(int dst, const rt_msg_hdr *h, const void *data, size_t n, void *sreq)
{
    struct tcp_frame f = { .h = *h };
    struct tcp_send *s;
    uint64_t token;
    void *copy = NULL;
    int rc;

    if (!tcp_reaches(dst) || h->len != (int64_t)n)
        return RT_ERR_INTERN;
    if (tcp_g.peer[dst].dead)
        return RT_ERR_PROC_ABORTED;
    if (n <= TCP_EAGER_MAX) {
        if (n && !(copy = malloc(n)))
            return RT_ERR_NO_MEM;
        if (n && data)
            memcpy(copy, data, n);
        else if (n)
            tcp_g.env->pack(sreq, 0, n, copy);
        f.type = TCP_EAGER;
        f.a = n;
        return tcp_queue(dst, &f, copy, n, copy, NULL);
    }
    s = tp_pool_get(&tcp_g.sends, &token);
    if (!s)
        return RT_ERR_NO_MEM;
    s->dst = dst;
    s->sreq = sreq;
    s->buf = data;
    s->len = n;
    f.type = TCP_RTS;
    f.a = token;
    rc = tcp_queue(dst, &f, NULL, 0, NULL, NULL);
    if (rc) {
        tp_pool_put(&tcp_g.sends, s);
        return rc;
    }
    return RT_TP_PENDING;
}

/* rt_tp_ops.recv_large: a CTS asks the sender for n bytes (DATA frames follow), or a FIN
 * says we take none. One connection per peer carries every channel: ctx is not needed. */
int tcp_recv_large(int src, int32_t ctx, uint64_t token, void *buf, size_t n, void *rreq)
{
    (void)ctx;
    struct tcp_recv *m = tcp_g.active ? tp_pool_find(&tcp_g.recvs, token) : NULL;
    struct tcp_frame f = { 0 };
    int rc;

    if (!m || m->active || m->src != src)
        return RT_ERR_INTERN;
    if (n > m->len)
        n = m->len;
    if (tcp_g.peer[src].dead) {
        tp_pool_put(&tcp_g.recvs, m);
        return RT_ERR_PROC_ABORTED;
    }
    f.a = m->stoken;
    if (n == 0) {
        f.type = TCP_FIN;
        tp_pool_put(&tcp_g.recvs, m);
        return tcp_queue(src, &f, NULL, 0, NULL, NULL);
    }
    m->active = 1;
    m->buf = buf;
    m->n = n;
    m->rreq = rreq;
    f.type = TCP_CTS;
    f.b = token;
    f.c = n;
    rc = tcp_queue(src, &f, NULL, 0, NULL, NULL);
    if (rc) {
        tp_pool_put(&tcp_g.recvs, m);
        return rc;
    }
    return RT_TP_PENDING;
}

/* An event on our connection to dst: finishes a connect, reads the challenge and answers it,
 * reads the acknowledgement of our HELLO, then writes. */
static int writable(int dst)
{
    struct tcp_peer *p = &tcp_g.peer[dst];

    if (p->dead || p->out_fd < 0)
        return 0;
    if (p->connecting || p->authing) {
        int rc = tcp_answer(dst);

        if (rc <= 0)
            return rc < 0;
    }
    if (p->confirming) {
        int rc = tcp_confirm(dst);

        if (rc <= 0)
            return rc < 0;
    }
    return tcp_flush(dst);
}

/* Marks gone the peers of our node whose process no longer exists (their published pid). */
static void check_alive(void)
{
    const rt_tp_env *env = tcp_g.env;
    char key[48], val[96];
    int r;

    tcp_g.alive_ns = tcp_now_ns();
    for (r = 0; r < env->world_size; r++) {
        struct tcp_peer *p = &tcp_g.peer[r];
        const char *sp;

        if (!wanted(env, r) || p->gone || !env->node_of || env->node_of[r] != env->node_of[env->world_rank])
            continue;
        if (!p->pid) {
            snprintf(key, sizeof key, "swy.tcp.%d", r);
            if (env->kvs_get(key, val, sizeof val) < 0 || !(sp = strchr(val, '/')) ||
                sscanf(sp + 1, "%d", &p->pid) != 1 || p->pid <= 0) {
                p->pid = -1; /* unknown: connections alone tell */
                continue;
            }
        }
        if (p->pid > 0 && kill(p->pid, 0) < 0 && errno == ESRCH)
            p->gone = 1;
    }
}

/* Reads and handles what arrived on c, an authenticated connection; one that ended or sent
 * a malformed frame is closed and its sender is gone for us. Frames handled. */
static int incoming(struct tcp_conn *c)
{
    int rc = tcp_read(c), peer = c->peer;

    if (rc >= 0)
        return rc;
    tcp_conn_log(c);
    tcp_conn_close(c);
    tcp_fail_peer(peer);
    return 1;
}

/* Adopts the connections the gate authenticated: frames may already wait in their read-ahead,
 * which no poller announces, so each is read once now. */
static int adopt(void)
{
    struct tcp_conn *c = tcp_gate_take(), *next;
    int done = 0;

    for (; c; c = next) {
        struct epoll_event ev = { .events = EPOLLIN, .data.ptr = c };

        next = c->next;
        c->next = tcp_g.conns;
        tcp_g.conns = c;
        epoll_ctl(tcp_g.epfd, EPOLL_CTL_ADD, c->fd, &ev);
        done += incoming(c);
    }
    return done;
}

/* Completes the large sends tcp_flush finished writing. */
static int complete_sends(void)
{
    int n = 0;

    while (tcp_g.done) {
        struct tcp_send *s = tcp_g.done;
        void *sreq = s->sreq;

        tcp_g.done = s->next_done;
        free(s->packed);
        tp_pool_put(&tcp_g.sends, s);
        tcp_g.env->send_done(sreq, 0);
        n++;
    }
    return n;
}

int tcp_progress(void)
{
    struct epoll_event ev[TCP_EVENTS];
    int i, n, r, done = 0;

    if (!tcp_g.active || tcp_g.busy)
        return 0;
    tcp_g.busy = 1;
    for (r = 0; r < tcp_g.env->world_size; r++)
        if (tcp_g.peer[r].gone && !tcp_g.peer[r].dead) {
            tcp_fail_peer(r);
            done++;
        }
    done += complete_sends();
    n = epoll_wait(tcp_g.epfd, ev, TCP_EVENTS, 0);
    for (i = 0; i < n; i++) {
        uint64_t u = ev[i].data.u64;

        if (u == 0)
            done += adopt();
        else if (u & 1)
            done += writable((int)(u >> 1));
        else
            done += incoming(ev[i].data.ptr);
    }
    done += complete_sends();
    tcp_g.busy = 0;
    return done;
}

void tcp_wait(long timeout_ns)
{
    struct pollfd p = { .fd = tcp_g.epfd, .events = POLLIN };

    if (!tcp_g.active || timeout_ns == 0)
        return;
    if (timeout_ns < 0 || timeout_ns > 100000000L)
        timeout_ns = 100000000L;
    ppoll(&p, 1, &(struct timespec){ 0, timeout_ns }, NULL);
    if (tcp_now_ns() - tcp_g.alive_ns >= TCP_ALIVE_NS)
        check_alive();
}

/* rt_tp_ops.finalize: writes what is queued to live peers, then the job-wide barrier (the
 * connections close after it, so no peer takes that for a failure), then frees. */
void tcp_finalize(void)
{
    const rt_tp_env *env = tcp_g.env;
    int r, owed;
    struct tcp_conn *c;

    if (!env || !tcp_g.peer)
        return;
    do {
        owed = 0;
        for (r = 0; r < env->world_size; r++)
            owed |= !tcp_g.peer[r].dead && tcp_g.peer[r].q != NULL;
        if (owed && !tcp_progress())
            tcp_wait(1000000L);
    } while (owed);
    tcp_g.active = 0;
    if (tcp_g.debug)
        fprintf(stderr, "switchyard: rank %d: tcp: %llu writes, %llu of them partial\n",
                env->world_rank, tcp_g.writes, tcp_g.short_writes);
    env->kvs_barrier();
    tcp_gate_stop();
    while ((c = tcp_g.conns))
        tcp_conn_close(c);
    for (r = 0; r < env->world_size; r++)
        if (tcp_g.peer[r].out_fd >= 0)
            close(tcp_g.peer[r].out_fd);
    if (tcp_g.listen_fd >= 0)
        close(tcp_g.listen_fd);
    if (tcp_g.epfd >= 0)
        close(tcp_g.epfd);
    tp_pool_destroy(&tcp_g.sends);
    tp_pool_destroy(&tcp_g.recvs);
    free(tcp_g.peer);
    memset(&tcp_g, 0, sizeof tcp_g);
}

/* rt_tp_ops.watch: without a connection to r, makes one now (refused: nobody listens there
 * any more, r is dead); with one, r closing its end (it died, or left the job while we wait
 * for it) fails it. */
static void tcp_watch(int r)
{
    struct tcp_peer *p;
    char c;

    if (!tcp_reaches(r))
        return;
    p = &tcp_g.peer[r];
    if (p->dead || p->gone)
        return;
    if (p->out_fd < 0) {
        if (tcp_connect(r) == RT_ERR_PROC_ABORTED)
            tcp_fail_peer(r);
        return;
    }
    /* the end of a connection still in its handshake says only that r dropped us (tcp_redial) */
    if (!tcp_handshaking(r) && recv(p->out_fd, &c, 1, MSG_PEEK | MSG_DONTWAIT) == 0)
        tcp_fail_peer(r);
}

const rt_tp_ops rt_tp_tcp = {
    .version = RT_TP_VERSION,
    .size = sizeof(rt_tp_ops),
    .name = "tcp",
    .eager_max = TCP_EAGER_MAX,
    .init = tcp_init,
    .reaches = tcp_reaches,
    .send = tcp_send,
    .recv_large = tcp_recv_large,
    .progress = tcp_progress,
    .wait = tcp_wait,
    .finalize = tcp_finalize,
    .watch = tcp_watch,
};
