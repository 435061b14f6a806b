/* io_coll.c — collective data access by two-phase I/O: a few aggregators each own a domain of
 * the file and move it in rounds of cb_buffer_size, the processes exchanging their pieces with them. */
#include "io.h"
#include "coll/coll.h"
#include "p2p/p2p.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* One process's range of file, [lo, hi) (lo > hi: it moves nothing). */
struct range {
    rt_offset lo, hi;
};

/* What a process sends an aggregator in one round: pieces, and their bytes. */
struct share {
    rt_offset npieces, bytes;
};

/* A collective access in progress. */
struct plan {
    rt_file *fh;
    int n, me, write;
    struct rt__io_piece *mine; /* this process's pieces */
    int nmine;
    char *data;                /* this process's data (packed) */
    int naggr, *aggr;          /* the aggregators' ranks; my index among them (or -1): me_aggr */
    int me_aggr;
    rt_offset glo, ghi, domain, rounds;
    /* per round */
    struct share *out, *in;    /* by rank */
    rt_count *sc, *sd, *rc, *rd; /* counts and displacements for alltoallv (bytes) */
    int e;                     /* this process's errno (0: none) */
};

/* Whether the processes' ranges overlap (then their accesses interleave). */
static int interleaved(const struct range *all, int n)
{
    rt_offset hi = -1;
    for (int r = 0; r < n; r++) { /* ranges in rank order: interleaved unless each starts after the last end */
        if (all[r].lo > all[r].hi)
            continue;
        if (all[r].lo < hi)
            return 1;
        hi = all[r].hi;
    }
    return 0;
}

/* The aggregators: the first process of each node, then, if more are wanted, others in rank order. */
static int pick_aggregators(struct plan *p, int want)
{
    rt_comm *c = p->fh->comm;
    p->aggr = malloc(sizeof *p->aggr * (size_t)p->n);
    char *taken = calloc((size_t)p->n, 1);
    if (!p->aggr || !taken) {
        free(taken);
        return -1;
    }
    if (want < 1)
        want = 1;
    if (want > p->n)
        want = p->n;
    p->naggr = 0;
    for (int r = 0; r < p->n && p->naggr < want; r++) {
        int node = rt__node_of(rt__comm_world_rank(c, r)), first = 1;
        for (int q = 0; q < r && first; q++)
            first = rt__node_of(rt__comm_world_rank(c, q)) != node;
        if (first)
            p->aggr[p->naggr++] = r, taken[r] = 1;
    }
    for (int r = 0; r < p->n && p->naggr < want; r++)
        if (!taken[r])
            p->aggr[p->naggr++] = r;
    free(taken);
    p->me_aggr = -1;
    for (int i = 0; i < p->naggr; i++)
        if (p->aggr[i] == p->me)
            p->me_aggr = i;
    return 0;
}

/* Aggregator i's window in round r. */
static struct range window(const struct plan *p, int i, rt_offset r)
{
    rt_offset start = p->glo + i * p->domain, end = start + p->domain;
    if (end > p->ghi)
        end = p->ghi;
    struct range w = {start + r * p->fh->cb_buffer, start + (r + 1) * p->fh->cb_buffer};
    if (w.hi > end)
        w.hi = end;
    return w;
}

/* The first of my pieces that ends after off. */
static int first_piece_after(const struct plan *p, rt_offset off)
{
    int lo = 0, hi = p->nmine;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (p->mine[mid].off + p->mine[mid].len <= off)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* My pieces within window w, clipped to it, appended to out (if not NULL); returns how many,
 * *bytes their total and *at where the first starts in my data. */
static int clip(const struct plan *p, struct range w, struct rt__io_piece *out, rt_offset *bytes, rt_offset *at)
{
    int k = 0;
    *bytes = 0;
    *at = 0;
    for (int j = first_piece_after(p, w.lo); j < p->nmine && p->mine[j].off < w.hi; j++) {
        rt_offset lo = p->mine[j].off > w.lo ? p->mine[j].off : w.lo;
        rt_offset hi = p->mine[j].off + p->mine[j].len < w.hi ? p->mine[j].off + p->mine[j].len : w.hi;
        if (k == 0)
            *at = p->mine[j].at + (lo - p->mine[j].off);
        if (out)
            out[k] = (struct rt__io_piece){lo, hi - lo, 0};
        k++;
        *bytes += hi - lo;
    }
    return k;
}

/* Moves n bytes at file offset off; a read past the end of file gives zeros. Returns 0 or an
 * errno. */
static int file_io(int fd, char *buf, rt_offset n, rt_offset off, int write)
{
    rt_offset got = rt__io_pmove(fd, buf, n, off, write);
    if (got < 0)
        return (int)-got;
    memset(buf + got, 0, (size_t)(n - got));
    return 0;
}

/* Two-phase I/O's buffers (0: what the processes send, 1: the aggregator's extent), kept for the
 * process's next collective access so that their pages are faulted in once; used under the
 * library's lock only. */
static struct {
    char *mem;
    size_t size;
} scratch_buf[2];

/* Buffer i of at least n bytes; NULL when out of memory. */
static char *scratch(int i, size_t n)
{
    if (scratch_buf[i].size < n) {
        free(scratch_buf[i].mem);
        scratch_buf[i].size = 0;
        if (!(scratch_buf[i].mem = malloc(n)))
            return NULL;
        scratch_buf[i].size = n;
    }
    return scratch_buf[i].mem;
}

static int by_offset(const void *a, const void *b)
{
    rt_offset x = ((const struct rt__io_piece *)a)->off, y = ((const struct rt__io_piece *)b)->off;
    return x < y ? -1 : x > y;
}

/* Whether sorted pieces cover [lo, hi) without a gap. */
static int covered(struct rt__io_piece *v, int k, rt_offset lo, rt_offset hi)
{
    rt_offset reach = lo;
    for (int j = 0; j < k; j++) {
        if (v[j].off > reach)
            return 0;
        if (v[j].off + v[j].len > reach)
            reach = v[j].off + v[j].len;
    }
    return reach >= hi;
}

/* Whether the pieces, in the order their data came, are [lo, hi) without a gap: the data are
 * then the file's bytes as they are. */
static int in_order(const struct rt__io_piece *v, rt_offset k, rt_offset lo, rt_offset hi)
{
    rt_offset at = lo;
    for (rt_offset j = 0; j < k; j++) {
        if (v[j].off != at)
            return 0;
        at += v[j].len;
    }
    return at == hi;
}

static rt_type *bytes_type(void)
{
    return (rt_type *)rt_builtins[RT_B_BYTE];
}

static rt_counts wide(const rt_count *a)
{
    return (rt_counts){a, 1};
}

/* One round: exchange with the aggregators, which move their windows. RT_SUCCESS or the class of
 * a failed exchange (file errors are kept in p->e). */
static int round_move(struct plan *p, rt_offset r)
{
    rt_comm *c = p->fh->comm;
    int err;
    struct rt__io_piece *sdesc = NULL, *rdesc = NULL;
    char *agg = NULL, *rdata = NULL;
    /* what goes to each aggregator */
    memset(p->out, 0, sizeof *p->out * (size_t)p->n);
    rt_offset total_pieces = 0, *at = calloc((size_t)p->naggr, sizeof *at);
    if (!at)
        return RT_ERR_NO_MEM;
    for (int i = 0; i < p->naggr; i++) {
        struct share *s = &p->out[p->aggr[i]];
        s->npieces = clip(p, window(p, i, r), NULL, &s->bytes, &at[i]);
        total_pieces += s->npieces;
    }
    err = rt_Alltoall(p->out, 2, (rt_type *)rt_builtins[RT_B_INT64_T], p->in, 2,
                      (rt_type *)rt_builtins[RT_B_INT64_T], c);
    rt_offset in_pieces = 0, in_bytes = 0;
    for (int q = 0; !err && q < p->n; q++)
        in_pieces += p->in[q].npieces, in_bytes += p->in[q].bytes;
    if (!err && (!(sdesc = malloc(sizeof *sdesc * (size_t)(total_pieces + 1))) ||
                 !(rdesc = malloc(sizeof *rdesc * (size_t)(in_pieces + 1))) ||
                 !(rdata = scratch(0, (size_t)in_bytes + 1))))
        err = RT_ERR_NO_MEM;
    /* the pieces' places, to the aggregators */
    rt_offset d = 0;
    for (int q = 0; !err && q < p->n; q++)
        p->sc[q] = 0, p->sd[q] = 0;
    for (int i = 0; !err && i < p->naggr; i++) {
        int q = p->aggr[i];
        p->sd[q] = d * (rt_offset)sizeof *sdesc;
        p->sc[q] = p->out[q].npieces * (rt_offset)sizeof *sdesc;
        rt_offset b;
        clip(p, window(p, i, r), sdesc + d, &b, &at[i]);
        d += p->out[q].npieces;
    }
    d = 0;
    for (int q = 0; !err && q < p->n; q++) {
        p->rd[q] = d * (rt_offset)sizeof *rdesc;
        p->rc[q] = p->in[q].npieces * (rt_offset)sizeof *rdesc;
        d += p->in[q].npieces;
    }
    if (!err)
        err = rt_Alltoallv(sdesc, wide(p->sc), wide(p->sd), bytes_type(), rdesc, wide(p->rc), wide(p->rd),
                           bytes_type(), c);
    /* data displacements: mine are contiguous per aggregator (file order is data order) */
    for (int q = 0; q < p->n; q++)
        p->sc[q] = p->sd[q] = 0;
    for (int i = 0; !err && i < p->naggr; i++) {
        int q = p->aggr[i];
        p->sc[q] = p->out[q].bytes;
        p->sd[q] = at[i];
    }
    d = 0;
    for (int q = 0; !err && q < p->n; q++) {
        p->rd[q] = d;
        p->rc[q] = p->in[q].bytes;
        d += p->in[q].bytes;
    }
    if (!err && p->write)
        err = rt_Alltoallv(p->data, wide(p->sc), wide(p->sd), bytes_type(), rdata, wide(p->rc), wide(p->rd),
                           bytes_type(), c);
    /* the aggregator moves the extent its window's pieces span */
    if (!err && p->me_aggr >= 0 && in_pieces > 0) {
        rt_offset lo = LLONG_MAX, hi = 0;
        for (rt_offset j = 0; j < in_pieces; j++) {
            lo = rdesc[j].off < lo ? rdesc[j].off : lo;
            hi = rdesc[j].off + rdesc[j].len > hi ? rdesc[j].off + rdesc[j].len : hi;
            rdesc[j].at = 0;
        }
        if (!(agg = scratch(1, (size_t)(hi - lo)))) {
            err = RT_ERR_NO_MEM;
        } else if (p->write) {
            /* where pieces leave holes, the file's bytes stay: read them first */
            rt_offset pos = 0;
            for (rt_offset j = 0; j < in_pieces; j++)
                rdesc[j].at = pos, pos += rdesc[j].len;
            struct rt__io_piece *sorted = malloc(sizeof *sorted * (size_t)in_pieces);
            if (!sorted) {
                err = RT_ERR_NO_MEM;
            } else {
                memcpy(sorted, rdesc, sizeof *sorted * (size_t)in_pieces);
                qsort(sorted, (size_t)in_pieces, sizeof *sorted, by_offset);
                if (in_order(rdesc, in_pieces, lo, hi)) { /* the data came as the file has them */
                    if (!p->e)
                        p->e = file_io(p->fh->fd, rdata, hi - lo, lo, 1);
                } else {
                    if (!covered(sorted, (int)in_pieces, lo, hi) && !p->e)
                        p->e = file_io(p->fh->fd, agg, hi - lo, lo, 0);
                    for (rt_offset j = 0; j < in_pieces; j++)
                        memcpy(agg + (rdesc[j].off - lo), rdata + rdesc[j].at, (size_t)rdesc[j].len);
                    if (!p->e)
                        p->e = file_io(p->fh->fd, agg, hi - lo, lo, 1);
                }
                free(sorted);
            }
        } else {
            if (!p->e)
                p->e = file_io(p->fh->fd, agg, hi - lo, lo, 0);
            rt_offset pos = 0;
            for (rt_offset j = 0; j < in_pieces; j++) {
                memcpy(rdata + pos, agg + (rdesc[j].off - lo), (size_t)rdesc[j].len);
                pos += rdesc[j].len;
            }
        }
    }
    /* a read: the data back from the aggregators (the counts the other way round) */
    if (!err && !p->write)
        err = rt_Alltoallv(rdata, wide(p->rc), wide(p->rd), bytes_type(), p->data, wide(p->sc), wide(p->sd),
                           bytes_type(), c);
    free(rdesc);
    free(sdesc);
    free(at);
    return err;
}

/* The plan's arrays; -1 when out of memory. */
static int plan_alloc(struct plan *p)
{
    size_t n = (size_t)p->n;
    p->out = malloc(sizeof *p->out * n);
    p->in = malloc(sizeof *p->in * n);
    p->sc = malloc(sizeof *p->sc * n), p->sd = malloc(sizeof *p->sd * n);
    p->rc = malloc(sizeof *p->rc * n), p->rd = malloc(sizeof *p->rd * n);
    return p->out && p->in && p->sc && p->sd && p->rc && p->rd ? 0 : -1;
}

static void plan_free(struct plan *p)
{
    free(p->mine), free(p->aggr), free(p->out), free(p->in);
    free(p->sc), free(p->sd), free(p->rc), free(p->rd);
}

/* The bytes a read of [pos, pos + n) of the view finds before the end of file. */
static rt_offset readable(rt_file *fh, rt_offset pos, rt_offset n)
{
    rt_offset size;
    if (rt_File_get_size(fh, &size))
        return 0;
    rt_offset below = rt__io_view_bytes_below(fh, size) - pos;
    return below < 0 ? 0 : below < n ? below : n;
}

int rt__io_coll_move(rt_file *fh, rt_offset pos, char *data, rt_offset n, int write, rt_offset *moved,
                     const char *fn)
{
    struct plan p = {.fh = fh, .n = fh->comm->size, .me = fh->comm->rank, .write = write, .data = data};
    int err = RT_SUCCESS, cb = write ? fh->cb_write : fh->cb_read, nomem = 0;
    if (rt__io_view_pieces(fh, pos, n, &p.mine, &p.nmine) || plan_alloc(&p))
        nomem = 1;
    struct range mine = {LLONG_MAX, -1}, *all = malloc(sizeof *all * (size_t)p.n);
    if (p.nmine)
        mine = (struct range){p.mine[0].off, p.mine[p.nmine - 1].off + p.mine[p.nmine - 1].len};
    if (nomem)
        mine = (struct range){-2, -2}; /* tells the others */
    rt__team t = rt__team_of(fh->comm);
    if (!all || (err = rt__coll_allgather(&t, &mine, all, sizeof mine))) {
        free(all);
        plan_free(&p);
        return rt_raise(&fh->obj, all ? err : RT_ERR_NO_MEM, fn, "the processes could not agree");
    }
    p.glo = LLONG_MAX, p.ghi = 0;
    for (int r = 0; r < p.n; r++) {
        if (all[r].lo == -2)
            nomem = 1;
        if (all[r].lo <= all[r].hi) {
            p.glo = all[r].lo < p.glo ? all[r].lo : p.glo;
            p.ghi = all[r].hi > p.ghi ? all[r].hi : p.ghi;
        }
    }
    int two_phase = cb == 1 || (cb == 2 && interleaved(all, p.n));
    free(all);
    if (nomem) {
        plan_free(&p);
        return rt_raise(&fh->obj, RT_ERR_NO_MEM, fn, "out of memory planning the collective access");
    }
    if (!two_phase || p.glo >= p.ghi) { /* each its own part */
        plan_free(&p);
        rt_offset got = rt__io_view_move(fh, pos, data, n, write);
        if (got < 0)
            return rt__io_errno(&fh->obj, (int)-got, fn, write ? "cannot write" : "cannot read");
        *moved = got;
        return RT_SUCCESS;
    }
    if (pick_aggregators(&p, fh->cb_nodes)) {
        plan_free(&p);
        return rt_raise(&fh->obj, RT_ERR_NO_MEM, fn, "out of memory planning the collective access");
    }
    p.domain = (p.ghi - p.glo + p.naggr - 1) / p.naggr;
    p.rounds = (p.domain + fh->cb_buffer - 1) / fh->cb_buffer;
    for (rt_offset r = 0; r < p.rounds && !err; r++)
        err = round_move(&p, r);
    int e = p.e, *es = malloc(sizeof *es * (size_t)p.n), first = 0;
    int cerr = es ? rt__coll_allgather(&t, &e, es, sizeof e) : RT_ERR_NO_MEM;
    for (int r = 0; !cerr && r < p.n && !first; r++)
        first = es[r];
    free(es);
    plan_free(&p);
    if (err || cerr)
        return rt_raise(&fh->obj, err ? err : cerr, fn, "the processes could not exchange their data");
    if (first)
        return rt__io_errno(&fh->obj, first, fn, write ? "cannot write" : "cannot read");
    *moved = write ? n : readable(fh, pos, n);
    return RT_SUCCESS;
}
