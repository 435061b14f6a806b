/* shm_xfer.c — a large message copied by both sides at once: the receiver reads pieces from
 * the sender's buffer while the sender, waiting in progress(), writes other pieces into the
 * receiver's buffer (struct shm_xfer); the side that copies the last piece ends the message. */
#include "shm.h"

#include "rt_consts.h"

static struct shm_xfer *entry(const struct shm_chan *ch, const struct shm_recv *m)
{
    return &shm_g.peer[m->peer].slot->chan[ch->c].xfer[(uint32_t)m->stoken - 1];
}

/* Bytes of piece k of x. */
static uint64_t piece_len(const struct shm_xfer *x, uint64_t k)
{
    uint64_t off = k * x->piece;

    return x->n - off < x->piece ? x->n - off : x->piece;
}

/* Copies piece k from the sender; 0, an error class, or 1 when copying is refused. */
static int read_piece(struct shm_recv *m, const struct shm_xfer *x, uint64_t k)
{
    uint64_t off = k * x->piece;
    int rc = shm_cma_outcome(shm_cma_read(shm_g.peer[m->peer].pid, m->buf + off, m->addr + off,
                                          piece_len(x, k)));

    if (rc == 1)
        shm_g.cma = 0;
    return rc;
}

/* Every piece is in, or given up: re-reads the piece the sender failed to write, then FIN.
 * 0 or an error class (m released), or RT_TP_PENDING (the pipeline brings it all). */
static int finish(struct shm_chan *ch, struct shm_recv *m)
{
    struct shm_xfer *x = entry(ch, m);
    uint32_t redo = atomic_load_explicit(&x->redo, memory_order_relaxed);
    int err = m->err, rc;

    if (redo && !err) {
        err = read_piece(m, x, redo - 1);
        if (err == 1)
            return shm_recv_pipe(ch, m); /* nobody copies any more: safe to start over */
    }
    rc = shm_ctl_send(ch, m->peer, SHM_FIN, m->stoken, (uint64_t)err, 0);
    tp_pool_put(&ch->recvs, m);
    return err ? err : rc;
}

int shm_xfer_recv(struct shm_chan *ch, struct shm_recv *m, void *buf, uint64_t n, void *rreq)
{
    struct shm_xfer *x = entry(ch, m);
    uint64_t piece = (n / SHM_XFER_PIECES + 4095) & ~(uint64_t)4095, k;
    int rc;

    if (piece < SHM_XFER_MIN)
        piece = SHM_XFER_MIN;
    m->buf = buf;
    m->n = n;
    m->rreq = rreq;
    m->err = 0;
    m->active = SHM_RECV_XFER;
    x->piece = piece;
    x->pieces = (n + piece - 1) / piece;
    x->n = n;
    x->raddr = (uint64_t)(uintptr_t)buf;
    x->rtoken = m->token;
    atomic_store_explicit(&x->redo, 0, memory_order_relaxed);
    atomic_store_explicit(&x->next, 0, memory_order_relaxed);
    atomic_store_explicit(&x->done, 0, memory_order_relaxed);
    atomic_store_explicit(&x->state, SHM_XFER_OPEN, memory_order_release);
    shm_bell_ring(shm_g.peer[m->peer].slot); /* a sleeping sender helps once awake */
    while ((k = atomic_fetch_add_explicit(&x->next, 1, memory_order_relaxed)) < x->pieces) {
        if (!m->err) {
            rc = read_piece(m, x, k);
            if (rc == 1) {
                /* Take what is left so that the sender stops, and never count this piece:
                 * the transfer cannot end here, the pipeline resends everything. */
                atomic_fetch_add_explicit(&x->next, x->pieces, memory_order_relaxed);
                return shm_recv_pipe(ch, m);
            }
            m->err = rc;
        }
        if (atomic_fetch_add_explicit(&x->done, 1, memory_order_acq_rel) + 1 == x->pieces)
            return finish(ch, m);
    }
    return RT_TP_PENDING; /* the sender copies the last pieces: XDONE follows */
}

void shm_xfer_done(struct shm_chan *ch, struct shm_recv *m)
{
    void *rreq = m->rreq;
    int rc = finish(ch, m);

    if (rc != RT_TP_PENDING)
        shm_g.env->recv_done(rreq, rc);
}

void shm_xfer_offer(struct shm_chan *ch, uint32_t i)
{
    if (i >= SHM_XFERS || !shm_g.cma_write)
        return;
    atomic_store_explicit(&ch->mine->xfer[i].state, 0, memory_order_relaxed);
    ch->helping |= 1ull << i;
}

void shm_xfer_withdraw(struct shm_chan *ch, uint32_t i)
{
    if (i < SHM_XFERS)
        ch->helping &= ~(1ull << i);
}

/* Entry i of ch if its receiver opened it and pieces are left to take, else NULL. */
static struct shm_xfer *open_entry(struct shm_chan *ch, uint32_t i)
{
    struct shm_xfer *x = &ch->mine->xfer[i];

    if (atomic_load_explicit(&x->state, memory_order_acquire) != SHM_XFER_OPEN ||
        atomic_load_explicit(&x->next, memory_order_relaxed) >= x->pieces)
        return NULL;
    return x;
}

/* Writes pieces of entry i's message while there are pieces to take; returns how many. */
static int help(struct shm_chan *ch, uint32_t i, struct shm_xfer *x)
{
    const struct shm_send *s = tp_pool_at(&ch->sends, i);
    pid_t pid = shm_g.peer[s->peer].pid;
    uint64_t k, off;
    int n = 0, rc = 0;

    while (!rc && (k = atomic_fetch_add_explicit(&x->next, 1, memory_order_relaxed)) < x->pieces) {
        off = k * x->piece;
        rc = shm_cma_write(pid, x->raddr + off, s->buf + off, piece_len(x, k));
        ch->pieces_written += !rc;
        if (rc) { /* the receiver copies it at the end; we stop helping with this one */
            atomic_store_explicit(&x->redo, (uint32_t)k + 1, memory_order_relaxed);
            if (shm_cma_outcome(rc) == 1)
                shm_g.cma_write = 0;
        }
        n++;
        if (atomic_fetch_add_explicit(&x->done, 1, memory_order_acq_rel) + 1 == x->pieces)
            shm_ctl_send(ch, s->peer, SHM_XDONE, x->rtoken, 0, 0);
    }
    shm_xfer_withdraw(ch, i);
    return n;
}

int shm_xfer_help(struct shm_chan *ch)
{
    uint64_t todo = ch->helping;
    struct shm_xfer *x;
    uint32_t i;
    int n = 0;

    while (todo && shm_g.cma_write) {
        i = (uint32_t)__builtin_ctzll(todo);
        todo &= todo - 1;
        if ((x = open_entry(ch, i)))
            n += help(ch, i, x);
    }
    if (!shm_g.cma_write)
        ch->helping = 0;
    return n;
}

int shm_xfer_ready(struct shm_chan *ch)
{
    uint64_t todo = ch->helping;

    for (; todo; todo &= todo - 1)
        if (open_entry(ch, (uint32_t)__builtin_ctzll(todo)))
            return 1;
    return 0;
}

uint64_t shm_pieces_written(void)
{
    uint64_t n = 0;
    int c;

    for (c = 0; c < shm_g.nchan; c++)
        n += shm_g.ch[c].pieces_written;
    return n;
}
