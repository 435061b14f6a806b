/* type_layout.c — compact datatype layouts: items of (count, stride, leaf or sub-layout) built
 * from the constructor tree, and the walks that pack, unpack, count and convert through them. */
#include "type.h"

#include <stdlib.h>

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define HOST_BIG 1
#else
#define HOST_BIG 0
#endif

#define INLINE_ITEMS 8 /* a single copy of a sub-layout this small is inlined, not referenced */

struct rt__layout *rt__lay_new(void)
{
    struct rt__layout *l = calloc(1, sizeof *l);
    if (l) {
        l->refs = 1;
        l->dense = 1;
    }
    return l;
}

void rt__lay_retain(struct rt__layout *l)
{
    if (l && l->refs > 0)
        l->refs++;
}

void rt__lay_release(struct rt__layout *l)
{
    if (!l || l->refs < 0 || --l->refs > 0)
        return;
    for (int i = 0; i < l->nitems; i++)
        rt__lay_release(l->items[i].sub);
    free(l->items);
    free(l);
}

static int same_kind(struct rt__kind a, struct rt__kind b)
{
    return a.nsz == b.nsz && a.xsz == b.xsz && a.swap == b.swap && a.sign == b.sign;
}

/* Same data per copy: two leaves of one kind and length, or copies of one sub-layout. */
static int same_piece(const struct rt__item *a, const struct rt__item *b)
{
    return a->len == b->len && a->sub == b->sub && (a->sub || same_kind(a->kind, b->kind));
}

/* Appends item x (taking a new reference to its sub-layout), merged into the last item when it
 * continues it: adjacent leaves of one kind, or one more copy at the last item's stride. */
static int add_item(struct rt__layout *l, struct rt__item x)
{
    if (x.count == 0 || x.len == 0)
        return 0;
    if (!x.sub && x.count > 1 && x.stride == x.len) { /* copies that touch: one run */
        x.len *= x.count;
        x.count = 1;
        x.stride = 0;
    }
    if (l->nitems > 0) {
        struct rt__item *p = &l->items[l->nitems - 1];
        if (!p->sub && !x.sub && p->count == 1 && x.count == 1 && same_kind(p->kind, x.kind) &&
            p->off + p->len == x.off) {
            p->len += x.len;
            return 0;
        }
        if (x.count == 1 && same_piece(p, &x)) {
            if (p->count == 1) {
                p->stride = x.off - p->off;
                p->count = 2;
                return 0;
            }
            if (x.off == p->off + p->count * p->stride) {
                p->count++;
                return 0;
            }
        }
    }
    if (l->nitems == l->cap) {
        int cap = l->cap ? 2 * l->cap : 4;
        struct rt__item *it = realloc(l->items, (size_t)cap * sizeof *it);
        if (!it)
            return -1;
        l->items = it;
        l->cap = cap;
    }
    rt__lay_retain(x.sub);
    l->items[l->nitems++] = x;
    return 0;
}

int rt__lay_add_leaf(struct rt__layout *l, rt_aint off, rt_count len, struct rt__kind k)
{
    return add_item(l, (struct rt__item){off, 0, 1, len, NULL, k});
}

int rt__lay_add_copies(struct rt__layout *l, rt_aint off, rt_count count, rt_aint stride, struct rt__layout *sub)
{
    if (count == 0 || sub->size == 0)
        return 0;
    if (sub->nitems == 1) { /* copies of one item: often one item again */
        struct rt__item x = sub->items[0];
        x.off += off;
        if (count == 1)
            return add_item(l, x);
        if (x.count == 1) {
            x.count = count;
            x.stride = stride;
            return add_item(l, x);
        }
        rt_aint span;
        if (!__builtin_mul_overflow(x.count, x.stride, &span) && span == stride) { /* continues x's stride */
            x.count *= count;
            return add_item(l, x);
        }
    } else if (count == 1 && sub->nitems <= INLINE_ITEMS) {
        for (int i = 0; i < sub->nitems; i++) {
            struct rt__item x = sub->items[i];
            x.off += off;
            if (add_item(l, x))
                return -1;
        }
        return 0;
    }
    return add_item(l, (struct rt__item){off, stride, count, sub->size, sub, {0, 0, 0, 0}});
}

int rt__lay_finish(struct rt__layout *l)
{
    rt_count size = 0, elems = 0, xsize = 0;
    rt_aint end = 0;
    l->dense = 1;
    l->dlo = 0;
    for (int i = 0; i < l->nitems; i++) {
        const struct rt__item *x = &l->items[i];
        rt_count n, e, xs;
        if (__builtin_mul_overflow(x->count, x->len, &n) || __builtin_add_overflow(size, n, &size))
            return -1;
        if (x->sub) {
            e = x->count * x->sub->elements;
            xs = x->sub->xsize < 0 ? -1 : x->count * x->sub->xsize;
        } else {
            e = n / x->kind.nsz;
            xs = x->kind.xsz ? e * x->kind.xsz : -1;
        }
        elems += e;
        xsize = xsize < 0 || xs < 0 ? -1 : xsize + xs;
        int dense = x->sub ? x->sub->dense && (x->count == 1 || x->stride == x->len) : x->count == 1;
        rt_aint start = x->off + (x->sub ? x->sub->dlo : 0);
        if (!dense || (i > 0 && start != end))
            l->dense = 0;
        if (i == 0)
            l->dlo = start;
        end = start + n;
    }
    l->size = size;
    l->elements = elems;
    l->xsize = xsize;
    return 0;
}

/* base + off, in integers: base may be MPI_BOTTOM (NULL) with absolute offsets, or a scratch
 * buffer shifted down by a type's absolute true lower bound (rt__sched_buffer), whose pointer
 * arithmetic would wrap around the address space. */
static inline char *at(const void *base, rt_aint off)
{
    return (char *)((uintptr_t)base + (uintptr_t)off);
}

/* count runs of len bytes, `sstride` bytes apart at s, to `dstride` apart at d; the common
 * small sizes are constant-size copies the compiler inlines (a strided vector of doubles is
 * runs of 8 bytes). */
static void copy_runs(char *d, rt_aint dstride, const char *s, rt_aint sstride, rt_count count, rt_count len)
{
#define COPY_RUNS(n) for (rt_count k = 0; k < count; k++, d += dstride, s += sstride) memcpy(d, s, n)
    switch (len) {
    case 4: COPY_RUNS(4); break;
    case 8: COPY_RUNS(8); break;
    case 16: COPY_RUNS(16); break;
    default: COPY_RUNS((size_t)len); break;
    }
#undef COPY_RUNS
}

char *rt__lay_pack(const struct rt__layout *l, const char *base, char *out)
{
    if (l->dense) {
        memcpy(out, at(base, l->dlo), (size_t)l->size);
        return out + l->size;
    }
    for (int i = 0; i < l->nitems; i++) {
        const struct rt__item *x = &l->items[i];
        const char *p = at(base, x->off);
        if (!x->sub) {
            copy_runs(out, x->len, p, x->stride, x->count, x->len);
            out += x->count * x->len;
        } else if (x->sub->dense && (x->count == 1 || x->stride == x->len)) {
            memcpy(out, p + x->sub->dlo, (size_t)(x->count * x->len));
            out += x->count * x->len;
        } else {
            for (rt_count k = 0; k < x->count; k++, p += x->stride)
                out = rt__lay_pack(x->sub, p, out);
        }
    }
    return out;
}

void rt__lay_unpack(const struct rt__layout *l, char *base, const char **in, rt_count *left)
{
    if (l->dense) {
        rt_count n = l->size < *left ? l->size : *left;
        memcpy(at(base, l->dlo), *in, (size_t)n);
        *in += n;
        *left -= n;
        return;
    }
    for (int i = 0; i < l->nitems && *left > 0; i++) {
        const struct rt__item *x = &l->items[i];
        char *p = at(base, x->off);
        if (!x->sub) {
            rt_count whole = *left / x->len < x->count ? *left / x->len : x->count;
            copy_runs(p, x->stride, *in, x->len, whole, x->len);
            *in += whole * x->len;
            *left -= whole * x->len;
            if (whole < x->count && *left > 0) { /* the first bytes of one more run */
                memcpy(p + whole * x->stride, *in, (size_t)*left);
                *in += *left;
                *left = 0;
            }
        } else {
            for (rt_count k = 0; k < x->count && *left > 0; k++, p += x->stride)
                rt__lay_unpack(x->sub, p, in, left);
        }
    }
}

/* Copies bytes [*skip, *skip + *len) of the packed stream of one element of l at base to or
 * from *buf (to_stream: pack), advancing *buf and consuming *skip and *len. */
static void part(const struct rt__layout *l, char *base, rt_count *skip, rt_count *len, char **buf, int to_stream)
{
    for (int i = 0; i < l->nitems && *len > 0; i++) {
        const struct rt__item *x = &l->items[i];
        int flat = !x->sub || (x->sub->dense && (x->count == 1 || x->stride == x->len));
        rt_count total = x->count * x->len;
        if (*skip >= total) {
            *skip -= total;
            continue;
        }
        if (flat && x->sub) { /* dense copies that touch: one run of total bytes */
            char *p = at(base, x->off + x->sub->dlo + *skip);
            rt_count n = total - *skip < *len ? total - *skip : *len;
            memcpy(to_stream ? *buf : p, to_stream ? p : *buf, (size_t)n);
            *buf += n, *len -= n, *skip = 0;
            continue;
        }
        rt_count k = *skip / x->len;
        *skip -= k * x->len;
        char *p = at(base, x->off + k * x->stride);
        if (!flat) { /* copies of a sub-layout: the first may start inside */
            for (; k < x->count && *len > 0; k++, p += x->stride)
                part(x->sub, p, skip, len, buf, to_stream);
            continue;
        }
        if (*skip) { /* the rest of a run begun in an earlier part */
            rt_count n = x->len - *skip < *len ? x->len - *skip : *len;
            memcpy(to_stream ? *buf : p + *skip, to_stream ? p + *skip : *buf, (size_t)n);
            *buf += n, *len -= n, *skip = 0, k++, p += x->stride;
        }
        rt_count whole = *len / x->len < x->count - k ? *len / x->len : x->count - k;
        if (to_stream)
            copy_runs(*buf, x->len, p, x->stride, whole, x->len);
        else
            copy_runs(p, x->stride, *buf, x->len, whole, x->len);
        *buf += whole * x->len, *len -= whole * x->len, k += whole, p += whole * x->stride;
        if (*len > 0 && k < x->count) { /* the first bytes of one more run */
            memcpy(to_stream ? *buf : p, to_stream ? p : *buf, (size_t)*len);
            *buf += *len, *len = 0;
        }
    }
}

void rt__lay_part(const struct rt__layout *l, char *base, rt_count *skip, rt_count *len, char **buf, int to_stream)
{
    part(l, base, skip, len, buf, to_stream);
}

rt_count rt__lay_elements_in(const struct rt__layout *l, rt_count bytes)
{
    rt_count n = 0;
    for (int i = 0; i < l->nitems && bytes > 0; i++) {
        const struct rt__item *x = &l->items[i];
        if (!x->sub) {
            rt_count take = x->count * x->len < bytes ? x->count * x->len : bytes;
            if (take % x->kind.nsz)
                return -1;
            n += take / x->kind.nsz;
            bytes -= take;
            continue;
        }
        rt_count q = bytes / x->len < x->count ? bytes / x->len : x->count;
        n += q * x->sub->elements;
        bytes -= q * x->len;
        if (q < x->count && bytes > 0) { /* ends inside copy q */
            rt_count r = rt__lay_elements_in(x->sub, bytes);
            if (r < 0)
                return -1;
            return n + r;
        }
    }
    return n;
}

rt_count rt__lay_bytes_of(const struct rt__layout *l, rt_count elems)
{
    rt_count bytes = 0;
    for (int i = 0; i < l->nitems && elems > 0; i++) {
        const struct rt__item *x = &l->items[i];
        if (!x->sub) {
            rt_count all = x->count * (x->len / x->kind.nsz), take = all < elems ? all : elems;
            bytes += take * x->kind.nsz;
            elems -= take;
            continue;
        }
        rt_count q = elems / x->sub->elements < x->count ? elems / x->sub->elements : x->count;
        bytes += q * x->len;
        elems -= q * x->sub->elements;
        if (q < x->count && elems > 0)
            return bytes + rt__lay_bytes_of(x->sub, elems);
    }
    return bytes;
}

/* Converts n bytes of basic elements of kind k between native (*nat) and external32 (*ext). */
static void convert_run(struct rt__kind k, rt_count n, unsigned char **natp, unsigned char **extp, int to_ext)
{
    unsigned char *nat = *natp, *ext = *extp;
    for (rt_count e = 0; e < n / k.nsz; e++, nat += k.nsz, ext += k.xsz) {
        if (k.xsz == k.nsz) { /* same size: reverse each swap unit */
            unsigned char *src = to_ext ? nat : ext, *dst = to_ext ? ext : nat;
            for (int u = 0; u < k.nsz; u += k.swap)
                for (int b = 0; b < k.swap; b++)
                    dst[u + b] = src[u + (HOST_BIG ? b : k.swap - 1 - b)];
            continue;
        }
        /* an integer narrowed to xsz bytes (long, wchar_t) */
        uint64_t v = 0;
        if (to_ext) {
            for (int b = 0; b < k.nsz; b++)
                v |= (uint64_t)nat[HOST_BIG ? k.nsz - 1 - b : b] << (8 * b);
            for (int b = 0; b < k.xsz; b++)
                ext[k.xsz - 1 - b] = (unsigned char)(v >> (8 * b));
        } else {
            for (int b = 0; b < k.xsz; b++)
                v |= (uint64_t)ext[k.xsz - 1 - b] << (8 * b);
            if (k.sign && (v >> (8 * k.xsz - 1)) & 1)
                v |= ~(uint64_t)0 << (8 * k.xsz);
            for (int b = 0; b < k.nsz; b++)
                nat[HOST_BIG ? k.nsz - 1 - b : b] = (unsigned char)(v >> (8 * b));
        }
    }
    *natp = nat;
    *extp = ext;
}

void rt__lay_convert(const struct rt__layout *l, unsigned char **nat, unsigned char **ext, int to_ext)
{
    for (int i = 0; i < l->nitems; i++) {
        const struct rt__item *x = &l->items[i];
        if (!x->sub)
            convert_run(x->kind, x->count * x->len, nat, ext, to_ext); /* the stream is contiguous */
        else
            for (rt_count k = 0; k < x->count; k++)
                rt__lay_convert(x->sub, nat, ext, to_ext);
    }
}
