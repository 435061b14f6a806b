/* tcp.h — internals of the TCP transport rt_tp_tcp: frames, one outgoing connection per peer
 * it sends to (made on first use) and the incoming ones it accepts, and the process state. */
#ifndef SWITCHYARD_TCP_H
#define SWITCHYARD_TCP_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <unistd.h>

#include "transport.h"
#include "common/tp_pool.h"

#define TCP_EAGER_MAX (64u << 10)   /* payloads copied at send(); larger ones: RTS, CTS, DATA */
#define TCP_CHUNK (1u << 20)        /* largest DATA frame */
#define TCP_MAGIC 0x3150435459575331ull /* "1SWYTCP1": the first frame of a connection */
#define TCP_CHAL_MAGIC 0x3248435459575331ull /* "1SWYTCH2": the acceptor's challenge */
#define TCP_ACK_MAGIC 0x334b415459575331ull /* "1SWYTAK3": the acceptor took our HELLO */
#define TCP_NONCE 32                /* random bytes of a challenge */
#define TCP_MAC 32                  /* HMAC-SHA256 bytes, the payload of HELLO */
#define TCP_AUTH_NS 1000000000LL    /* an accepted connection has this long to authenticate,
                                     * unless SWITCHYARD_TCP_HANDSHAKE_TIMEOUT says otherwise */
#define TCP_SECRET_MAX 128          /* bytes of the job's secret (the hex text is the key) */
#define TCP_REDIALS_MAX 100         /* our connections to one peer it may drop before acknowledging
                                     * them (a rank of the job: only when silent for its handshake
                                     * timeout) before we give up on it */
#define TCP_EVENTS 64
#define TCP_RBUF 8192               /* read-ahead of a connection: reads of fewer bytes go through it */

/* The handshake. The acceptor writes a challenge at once; the connector answers with HELLO
 * whose payload is HMAC-SHA256(secret, "switchyard-tcp-v1" || nonce || sender rank || receiver
 * rank), ranks as 4 bytes big-endian. Nothing else is written before, or read before it
 * is checked. The acceptor then writes TCP_ACK_MAGIC (8 bytes), and only then does the
 * connector write other frames: a connection that ends before that acknowledgement was dropped
 * unauthenticated (the acceptor found us too slow), nothing of it was read, and the connector
 * connects again instead of taking the end for the peer's death. */
struct tcp_challenge {
    uint64_t magic;             /* TCP_CHAL_MAGIC */
    unsigned char nonce[TCP_NONCE];
};

/* A frame: this header, then `a` payload bytes for EAGER and `c` for DATA. Each connection
 * carries frames one way only, from the rank that connected to the rank that accepted. */
enum { TCP_HELLO = 1, TCP_EAGER, TCP_RTS, TCP_CTS, TCP_DATA, TCP_FIN };
struct tcp_frame {
    uint32_t type;
    uint32_t pad;
    uint64_t a, b, c;
    rt_msg_hdr h;
};
/* HELLO: a = TCP_MAGIC, b = the sender's world rank, c = TCP_MAC, then the MAC. EAGER: a =
 * payload bytes, h.  RTS: a = sender token, h.  CTS: a = sender token, b = receiver token, c =
 * bytes wanted (> 0).  DATA: a = receiver token, b = offset, c = bytes.  FIN: a = sender
 * token, b = 0 or an error class (the receiver wants no bytes). */

/* Bytes waiting to be written on an outgoing connection: a header, then a payload that is
 * owned (freed once written) or borrowed from a large send (done: that send completes). */
struct tcp_out {
    struct tcp_frame f;
    const unsigned char *data;
    size_t len, off;            /* off counts header and payload bytes written */
    void *owned;
    struct tcp_send *done;
    struct tcp_out *next;
};

struct tcp_peer {
    int out_fd;                 /* ours to it; -1 until the first frame */
    int connecting;             /* connect() in progress */
    int authing;                /* connected, reading the challenge: nothing written yet */
    struct tcp_challenge chal;  /* the challenge as read */
    size_t chal_got;
    unsigned char *mac;         /* the HELLO's payload (queued first), filled from chal */
    int confirming;             /* HELLO written, waiting for TCP_ACK_MAGIC: nothing else written */
    uint64_t ack;               /* the acknowledgement as read */
    size_t ack_got;
    unsigned redials;           /* connections dropped before the acknowledgement, made again */
    int polling_out;            /* its epoll entry asks for EPOLLOUT */
    struct tcp_out *q, *q_last; /* frames not fully written */
    int pid;                    /* on our node: its process id (0: not fetched yet) */
    int gone;                   /* found gone by the liveness check: progress reports it */
    int dead;                   /* reported through peer_failed: nothing more goes to it */
};

/* Why tcp_read gave up on a connection (tcp_conn_drop logs all but TCP_CLOSED). */
enum { TCP_CLOSED, TCP_DROP_BAD, TCP_DROP_AUTH, TCP_DROP_SILENT, TCP_DROP_EOF, TCP_DROP_MALFORMED,
       TCP_DROP_NOMEM };

/* An incoming connection and the frame it is reading. */
struct tcp_conn {
    int fd;
    int peer;                   /* world rank after HELLO, -1 before */
    unsigned char nonce[TCP_NONCE]; /* the challenge we sent */
    long long born_ns;          /* accepted then: still unauthenticated tcp_g.auth_ns later, dropped */
    char from[48];              /* "address:port" of the other end, for the log */
    int offence;                /* TCP_CLOSED or TCP_DROP_*, set when tcp_read returns -1 */
    struct tcp_frame f;
    size_t got;                 /* bytes of f, then of the payload */
    unsigned char *buf;         /* EAGER payload, or DATA bytes for an unpacking receive */
    size_t cap;
    unsigned char *rb;          /* read-ahead: one read takes a frame and what follows it */
    size_t rb_off, rb_len;      /* its unparsed bytes are rb[rb_off .. rb_len) */
    int rb_dry;                 /* the last read was short: the socket had no more then */
    struct tcp_conn *next;
};

/* A large send announced by an RTS. */
struct tcp_send {
    struct tp_pool_ent ent;
    int dst;
    void *sreq;
    const unsigned char *buf;   /* NULL: read through env->pack */
    uint64_t len;
    unsigned char *packed;      /* the packed bytes of a non-contiguous send, after CTS */
    struct tcp_send *next_done; /* on tcp_g.done: written, send_done not called yet */
};

/* A large message announced by an RTS, then received through DATA. */
struct tcp_recv {
    struct tp_pool_ent ent;
    int src;
    uint64_t stoken, len;
    int active;
    unsigned char *buf;         /* NULL: through env->unpack */
    uint64_t n, got;
    void *rreq;
};

struct tcp_state {
    const rt_tp_env *env;
    int active, forced;
    int sockbuf;                /* SWITCHYARD_TCP_SOCKBUF: SO_SNDBUF/SO_RCVBUF of every socket, 0: the OS's */
    int debug;                  /* SWITCHYARD_DEBUG has "transport": buffer sizes and write counts on stderr */
    unsigned long long writes, short_writes; /* sendmsg calls that wrote, and those that wrote less than asked */
    int listen_fd, epfd;
    unsigned char secret[TCP_SECRET_MAX];
    size_t secret_len;
    unsigned logged;            /* offence kinds already logged (one line each per process) */
    long long auth_ns;          /* SWITCHYARD_TCP_HANDSHAKE_TIMEOUT, else TCP_AUTH_NS: an accepted
                                 * connection still unauthenticated this long after accept is dropped */
    struct tcp_peer *peer;      /* world_size entries */
    struct tcp_conn *conns;     /* authenticated connections, from tcp_gate_take */
    struct tp_pool sends, recvs;
    int busy;
    struct tcp_send *done;      /* large sends fully written: progress() completes them (never
                                 * inside send() or recv_large(), which may write too) */
    long long alive_ns;         /* last liveness check of the peers on our node */
};

#define TCP_ALIVE_NS 50000000LL /* peers on our node are checked this often (a peer that
                                 * never connected to us shows its death no other way) */
extern struct tcp_state tcp_g;

/* A byte source with read(2)'s contract (bytes read, 0 at the end, -1 with errno; EAGAIN:
 * nothing more now). */
typedef ssize_t (*tcp_source)(void *ctx, void *dst, size_t n);

/* The socket as a byte source: read(2) on the descriptor *ctx. */
static inline ssize_t tcp_fd_source(void *ctx, void *dst, size_t n)
{
    return read(*(const int *)ctx, dst, n);
}

/* ---- tcp_conn.c: connections ------------------------------------------------------- */
/* Opens our connection to dst (address from the key-value space) and queues HELLO. 0 or an
 * error class (RT_ERR_NO_SPACE: socket() found no descriptor, EMFILE or ENFILE). */
int tcp_connect(int dst);
/* SWITCHYARD_TCP_SOCKBUF's SO_SNDBUF, SO_RCVBUF (and a segment size to match) on fd; on the
 * listening socket and before connect, so that the handshake already uses them. */
void tcp_sockbuf(int fd);
/* Nonblocking, no Nagle delay (frames are written whole or as the socket takes them), and
 * the buffer sizes SWITCHYARD_TCP_SOCKBUF asks for (tiny ones split every read and write). */
void tcp_tune(int fd);
/* Closes an authenticated connection and unlinks it from tcp_g.conns. */
void tcp_conn_close(struct tcp_conn *c);
/* Closes c's socket and frees c (linked nowhere). */
void tcp_conn_free(struct tcp_conn *c);
/* Says c's offence (c->offence, set when tcp_read refused it) on stderr, once per kind per
 * process whichever thread finds it; TCP_CLOSED is not said. */
void tcp_conn_log(const struct tcp_conn *c);
/* Our connection to dst: the connect finished or the challenge is (partly) readable. Reads
 * the challenge and fills the HELLO's MAC; 0 while waiting, 1 when done, -1 if dst failed. */
int tcp_answer(int dst);
/* tcp_answer once connected (dst authing), with the challenge's bytes taken from src(ctx, ...)
 * (tcp_source, above) instead of the socket: never more than the challenge's 40 bytes; a short
 * stream (EOF, error), a wrong magic or no MAC fails dst. 0, 1 or -1 as tcp_answer
 * (fuzz/tcp_challenge.c). */
int tcp_answer_from(int dst, tcp_source src, void *ctx);
/* Peer r is gone: fails what is pending with it, then tells the engine once. */
void tcp_fail_peer(int r);
/* Whether our connection to dst has not finished its handshake (connecting, reading the
 * challenge, writing HELLO or waiting for the acknowledgement): its end is no evidence that dst
 * died, only that dst dropped us (tcp_redial). */
int tcp_handshaking(int dst);
/* HELLO written to dst (confirming): reads the acceptor's acknowledgement. 0 while waiting, 1
 * when it came (frames may be written now), -1 if dst failed (a wrong acknowledgement). A
 * connection that ends before it is made again (tcp_redial), and 0 is returned. */
int tcp_confirm(int dst);
/* dst closed our connection before the handshake finished (it dropped us as too slow): closes
 * it and connects again, with a fresh HELLO ahead of the frames still queued (none of them was
 * written). If the new connection cannot be made (refused: nobody listens, dst is dead), dst is
 * marked gone and progress fails it. */
void tcp_redial(int dst);

/* ---- tcp_auth.c: the job's secret and the MAC ------------------------------------------ */
/* Takes the job's secret from SWITCHYARD_JOB_SECRET (>= 32 hex digits); without it, rank 0
 * draws 32 bytes from getrandom and puts them in the key-value space, the others read them
 * after the next kvs_barrier (tcp_secret_fetch). 0 or an error class. */
int tcp_secret_init(const rt_tp_env *env);
/* After the barrier: reads the secret rank 0 published, if needed. 0 or an error class. */
int tcp_secret_fetch(const rt_tp_env *env);
/* out = HMAC-SHA256 of the handshake text for this nonce, sender and receiver (TCP_MAC
 * bytes). 0, or -1 (no secret, or libcrypto failed: out is not a MAC). */
int tcp_mac(const unsigned char *nonce, int from, int to, unsigned char *out);
/* Fresh random bytes from getrandom; 0 or -1. */
int tcp_random(void *buf, size_t n);
/* Monotonic time in ns. */
long long tcp_now_ns(void);

/* ---- tcp_gate.c: the gatekeeper thread ------------------------------------------------ */
/* Starts the thread that accepts on tcp_g.listen_fd (the secret must be known), challenges
 * each connection and drops the ones not authenticated within tcp_g.auth_ns, logging them
 * (tcp_conn_log); an event with data.u64 == 0 on engine_ep then says authenticated ones wait
 * for tcp_gate_take. 0 or an error class. */
int tcp_gate_start(int engine_ep);
/* The authenticated connections handed over since the last call (linked by next; their
 * read-ahead may hold frames already), or NULL. Clears the event. */
struct tcp_conn *tcp_gate_take(void);
/* Stops the thread and frees what it holds (no-op if it never started). */
void tcp_gate_stop(void);

/* ---- tcp_out.c: writing ------------------------------------------------------------ */
/* Queues a frame (and payload: owned buffers are freed once written) to dst, connecting
 * first if needed, and writes what the socket takes. 0 or an error class. */
int tcp_queue(int dst, const struct tcp_frame *f, const void *data, size_t len, void *owned,
              struct tcp_send *done);
/* Writes queued frames to dst while the socket takes them; 1 if something was written. A
 * send fully written goes on tcp_g.done; a write error marks dst gone (progress reports it). */
int tcp_flush(int dst);

/* ---- tcp_in.c: reading -------------------------------------------------------------- */
/* Reads and handles the frames available on c; returns frames handled, -1 if c ended or must
 * be dropped (c->offence says why). Before c's HELLO is authenticated nothing else is handled,
 * and the call returns right after it (the gate hands c over; what followed the HELLO may
 * wait in c's read-ahead). */
int tcp_read(struct tcp_conn *c);
/* tcp_read with the bytes taken from src(ctx, ...) instead of c->fd: the whole frame parser
 * (header checks, handshake, payloads, handling) without a socket (fuzz/tcp_frames.c). */
int tcp_read_from(struct tcp_conn *c, tcp_source src, void *ctx);

/* ---- tcp_ops.c ---------------------------------------------------------------------- */
int tcp_init(const rt_tp_env *env);
int tcp_reaches(int r);
int tcp_send(int dst, const rt_msg_hdr *h, const void *data, size_t n, void *sreq);
int tcp_recv_large(int src, int32_t ctx, uint64_t token, void *buf, size_t n, void *rreq);
int tcp_progress(void);
void tcp_wait(long timeout_ns);
void tcp_finalize(void);

#endif
