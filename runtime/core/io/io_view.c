/* io_view.c — file views: MPI_File_set_view/get_view, the filetype flattened into runs of
 * bytes, the individual file pointer (seek, position, byte offset), and moving data through a view. */
#include "io.h"
#include "coll/coll.h"
#include "type/type.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Runs being built. */
struct runs {
    struct rt__io_run *v;
    int n, cap;
    rt_offset at;
};

/* Appends len bytes at off, merged with the last run where they continue it. -1: no memory. */
static int add_run(struct runs *r, rt_offset off, rt_offset len)
{
    if (len <= 0)
        return 0;
    if (r->n && r->v[r->n - 1].off + r->v[r->n - 1].len == off) {
        r->v[r->n - 1].len += len;
    } else {
        if (r->n == r->cap) {
            int cap = r->cap ? 2 * r->cap : 16;
            struct rt__io_run *v = realloc(r->v, sizeof *v * (size_t)cap);
            if (!v)
                return -1;
            r->v = v, r->cap = cap;
        }
        r->v[r->n++] = (struct rt__io_run){off, len, r->at};
    }
    r->at += len;
    return 0;
}

/* Appends the data of one element of layout l whose origin is at byte base. */
static int flatten(struct runs *r, const struct rt__layout *l, rt_offset base)
{
    if (l->dense)
        return add_run(r, base + l->dlo, l->size);
    for (int i = 0; i < l->nitems; i++) {
        const struct rt__item *it = &l->items[i];
        for (rt_count c = 0; c < it->count; c++) {
            rt_offset at = base + it->off + (rt_offset)c * it->stride;
            if (it->sub ? flatten(r, it->sub, at) : add_run(r, at, it->len))
                return -1;
        }
    }
    return 0;
}

void rt__io_view_free(rt_file *fh)
{
    if (fh->etype)
        rt__obj_release(&fh->etype->obj);
    if (fh->filetype)
        rt__obj_release(&fh->filetype->obj);
    free(fh->runs);
    fh->etype = fh->filetype = NULL;
    fh->runs = NULL;
    fh->nruns = 0;
}

/* Makes etype/filetype/disp fh's view in representation rep (the types retained), fe and ff
 * being etype and filetype as laid out in the file; what it says about the filetype's shape or
 * RT_ERR_NO_MEM. */
static int view_set(rt_file *fh, rt_offset disp, rt_type *etype, rt_type *filetype, rt_type *fe, rt_type *ff,
                    const char *datarep, const struct rt__datarep *rep, const char **why)
{
    struct runs r = {0};
    *why = NULL;
    if (flatten(&r, ff->lay, 0)) {
        free(r.v);
        return RT_ERR_NO_MEM;
    }
    for (int i = 0; i < r.n && !*why; i++)
        if (r.v[i].off < 0 || (i && r.v[i].off < r.v[i - 1].off + r.v[i - 1].len))
            *why = "its displacements must be non-negative and monotonically nondecreasing";
    if (*why) {
        free(r.v);
        return RT_ERR_TYPE;
    }
    rt__obj_retain(&etype->obj);
    rt__obj_retain(&filetype->obj);
    rt__io_view_free(fh);
    fh->disp = disp;
    fh->etype = etype;
    fh->filetype = filetype;
    fh->runs = r.v;
    fh->nruns = r.n;
    fh->ft_size = ff->size;
    fh->ft_extent = ff->extent;
    fh->esize = fe->size;
    rt__copy_str(fh->datarep, sizeof fh->datarep, datarep);
    fh->rep = rep;
    return RT_SUCCESS;
}

int rt__io_view_default(rt_file *fh)
{
    rt_type *byte = (rt_type *)rt_builtins[RT_B_BYTE];
    const char *why;
    return view_set(fh, 0, byte, byte, byte, byte, "native", NULL, &why);
}

/* The run holding byte w (< ft_size) of an element's data stream. */
static int run_of(const rt_file *fh, rt_offset w)
{
    int lo = 0, hi = fh->nruns - 1;
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (fh->runs[mid].at <= w)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

rt_offset rt__io_view_offset(const rt_file *fh, rt_offset pos)
{
    if (fh->ft_size <= 0)
        return fh->disp;
    rt_offset k = pos / fh->ft_size, w = pos % fh->ft_size;
    const struct rt__io_run *run = &fh->runs[run_of(fh, w)];
    return fh->disp + k * fh->ft_extent + run->off + (w - run->at);
}

rt_offset rt__io_view_bytes_below(const rt_file *fh, rt_offset off)
{
    if (off <= fh->disp || fh->ft_size <= 0 || fh->ft_extent <= 0)
        return 0;
    rt_offset rel = off - fh->disp, k = rel / fh->ft_extent, w = rel % fh->ft_extent, below = k * fh->ft_size;
    for (int i = 0; i < fh->nruns && fh->runs[i].off < w; i++)
        below += w - fh->runs[i].off < fh->runs[i].len ? w - fh->runs[i].off : fh->runs[i].len;
    return below;
}

/* Whether the view's data are one run filling each filetype extent: the file itself from disp. */
static int view_contiguous(const rt_file *fh)
{
    return fh->nruns == 1 && fh->runs[0].off == 0 && fh->runs[0].len == fh->ft_extent;
}

/* Runs shorter than this on average are read by data sieving. */
#define SIEVE_RUN 32768

rt_offset rt__io_pmove(int fd, char *buf, rt_offset n, rt_offset off, int write)
{
    rt_offset done = 0;
    while (done < n) {
        ssize_t k = write ? pwrite(fd, buf + done, (size_t)(n - done), off + done)
                          : pread(fd, buf + done, (size_t)(n - done), off + done);
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0)
            return -errno;
        if (k == 0) {
            if (write)
                return -EIO; /* no progress: never reported as success */
            break;
        }
        done += k;
    }
    return done;
}

/* Data sieving for a read: the pieces of [pos, pos + n) grouped into spans of at most
 * ind_rd_buffer_size bytes of file, each read with one pread and its pieces copied out. Returns
 * the bytes read (up to the first piece byte past the end of file), -errno, or -ENOMEM before
 * anything was read (the caller then reads run by run). */
static rt_offset sieve_read(rt_file *fh, rt_offset pos, char *buf, rt_offset n)
{
    struct rt__io_piece *v;
    int k;
    if (rt__io_view_pieces(fh, pos, n, &v, &k))
        return -ENOMEM;
    rt_offset cap = fh->ds_buffer, done = 0;
    char *sbuf = malloc((size_t)cap);
    if (!sbuf) {
        free(v);
        return -ENOMEM;
    }
    for (int a = 0; a < k;) {
        int b = a + 1; /* pieces [a, b) in one span: as many as fit, at least one */
        while (b < k && v[b].off + v[b].len - v[a].off <= cap)
            b++;
        rt_offset lo = v[a].off, hi = v[b - 1].off + v[b - 1].len;
        if (hi - lo > cap) { /* one piece larger than the buffer: straight into place */
            rt_offset got = rt__io_pmove(fh->fd, buf + v[a].at, v[a].len, v[a].off, 0);
            if (got < 0 || got < v[a].len) {
                done = got < 0 ? got : done + got;
                break;
            }
            done += got;
            a = b;
            continue;
        }
        rt_offset got = rt__io_pmove(fh->fd, sbuf, hi - lo, lo, 0);
        if (got < 0) {
            done = got;
            break;
        }
        int short_read = 0;
        for (int j = a; j < b && !short_read; j++) {
            rt_offset have = got - (v[j].off - lo); /* bytes of this piece before the end of file */
            rt_offset len = have < v[j].len ? (have > 0 ? have : 0) : v[j].len;
            memcpy(buf + v[j].at, sbuf + (v[j].off - lo), (size_t)len);
            done += len;
            short_read = len < v[j].len;
        }
        if (short_read)
            break;
        a = b;
    }
    free(sbuf);
    free(v);
    return done;
}

rt_offset rt__io_view_move(rt_file *fh, rt_offset pos, char *buf, rt_offset n, int write)
{
    if (n <= 0)
        return 0;
    if (view_contiguous(fh))
        return rt__io_pmove(fh->fd, buf, n, fh->disp + pos, write);
    /* small runs with holes between them: a read takes the holes too (data sieving); a write
     * could only do so by rewriting the holes, which another process may be writing: never */
    if (!write && fh->ds_read && fh->ft_size < SIEVE_RUN * fh->nruns) {
        rt_offset got = sieve_read(fh, pos, buf, n);
        if (got != -ENOMEM)
            return got;
    }
    rt_offset k = pos / fh->ft_size, w = pos % fh->ft_size, done = 0;
    int i = run_of(fh, w);
    while (done < n) {
        const struct rt__io_run *run = &fh->runs[i];
        rt_offset skip = w - run->at, len = run->len - skip < n - done ? run->len - skip : n - done;
        rt_offset got = rt__io_pmove(fh->fd, buf + done, len, fh->disp + k * fh->ft_extent + run->off + skip, write);
        if (got < 0)
            return got;
        done += got;
        if (got < len)
            break; /* the end of file */
        if (++i == fh->nruns)
            i = 0, k++;
        w = fh->runs[i].at;
    }
    return done;
}

int rt__io_view_pieces(const rt_file *fh, rt_offset pos, rt_offset n, struct rt__io_piece **out, int *count)
{
    struct rt__io_piece *v = NULL;
    int k = 0, cap = 0;
    if (n > 0 && view_contiguous(fh)) {
        if (!(v = malloc(sizeof *v)))
            return -1;
        *v = (struct rt__io_piece){fh->disp + pos, n, 0};
        *out = v;
        *count = 1;
        return 0;
    }
    rt_offset done = 0, kk = fh->ft_size > 0 ? pos / fh->ft_size : 0, w = fh->ft_size > 0 ? pos % fh->ft_size : 0;
    int i = fh->ft_size > 0 ? run_of(fh, w) : 0;
    while (done < n) {
        const struct rt__io_run *run = &fh->runs[i];
        rt_offset skip = w - run->at, len = run->len - skip < n - done ? run->len - skip : n - done;
        rt_offset off = fh->disp + kk * fh->ft_extent + run->off + skip;
        if (k && v[k - 1].off + v[k - 1].len == off) {
            v[k - 1].len += len;
        } else {
            if (k == cap) {
                cap = cap ? 2 * cap : 64;
                struct rt__io_piece *nv = realloc(v, sizeof *v * (size_t)cap);
                if (!nv) {
                    free(v);
                    return -1;
                }
                v = nv;
            }
            v[k++] = (struct rt__io_piece){off, len, done};
        }
        done += len;
        if (++i == fh->nruns)
            i = 0, kk++;
        w = fh->runs[i].at;
    }
    *out = v;
    *count = k;
    return 0;
}

/* MPI_File_set_view: collective; the view starts at disp (MPI_DISPLACEMENT_CURRENT: the shared
 * pointer's place, MPI_MODE_SEQUENTIAL files only) and tiles the file with filetype, whose data
 * are etypes, both as laid out in representation datarep; both file pointers go back to 0. */
int rt_File_set_view(rt_file *fh, rt_offset disp, rt_type *etype, rt_type *filetype, const char *datarep,
                     rt_info *info)
{
    (void)info;
    int err;
    const struct rt__datarep *rep;
    if ((err = rt__type_check(etype, &fh->obj, __func__)) || (err = rt__type_check(filetype, &fh->obj, __func__)))
        return err;
    if (!rt__io_datarep_find(datarep, &rep))
        return rt_raise(&fh->obj, RT_ERR_UNSUPPORTED_DATAREP, __func__,
                        "data representation 'datarep' = \"%s\" is not defined (native, internal, external32 or "
                        "one made by MPI_Register_datarep)", datarep);
    if (etype->size <= 0)
        return rt_raise(&fh->obj, RT_ERR_TYPE, __func__, "etype 'etype' holds no data");
    if (disp < 0 && disp != RT_DISPLACEMENT_CURRENT)
        return rt_raise(&fh->obj, RT_ERR_ARG, __func__, "invalid displacement 'disp' = %lld", (long long)disp);
    if (disp == RT_DISPLACEMENT_CURRENT && !(fh->amode & RT_MODE_SEQUENTIAL))
        return rt_raise(&fh->obj, RT_ERR_ARG, __func__,
                        "'disp' = MPI_DISPLACEMENT_CURRENT needs a file opened MPI_MODE_SEQUENTIAL");
    rt_type *fe = NULL, *ff = NULL;
    if ((err = rt__io_file_type(fh, rep, etype, &fe, __func__)) ||
        (err = rt__io_file_type(fh, rep, filetype, &ff, __func__)))
        goto out;
    if (fe->size <= 0) {
        err = rt_raise(&fh->obj, RT_ERR_CONVERSION, __func__, "etype 'etype' takes no bytes in data representation \"%s\"",
                       datarep);
        goto out;
    }
    if (ff->size % fe->size) {
        err = rt_raise(&fh->obj, RT_ERR_TYPE, __func__,
                       "filetype 'filetype' (%lld bytes of data in the file) is not made of etypes (%lld bytes)",
                       (long long)ff->size, (long long)fe->size);
        goto out;
    }
    if (disp == RT_DISPLACEMENT_CURRENT) {
        rt_offset at;
        if ((err = rt__io_shared_fetch_add(fh, 0, &at, __func__)))
            goto out;
        disp = rt__io_view_offset(fh, at * fh->esize);
    }
    const char *why;
    rt__team t = rt__team_of(fh->comm);
    if ((err = rt__coll_barrier(&t))) { /* no process still uses the old shared pointer */
        err = rt_raise(&fh->obj, err, __func__, "the processes could not agree");
        goto out;
    }
    if ((err = view_set(fh, disp, etype, filetype, fe, ff, datarep, rep, &why))) {
        err = err == RT_ERR_NO_MEM ? rt_raise(&fh->obj, err, __func__, "out of memory for the view")
                                   : rt_raise(&fh->obj, err, __func__, "invalid filetype 'filetype': %s", why);
        goto out;
    }
    fh->fp = 0;
    if (fh->comm->rank == 0 && (err = rt__io_shared_set(fh, 0, __func__)))
        goto out;
    if ((err = rt__coll_barrier(&t)))
        err = rt_raise(&fh->obj, err, __func__, "the processes could not agree");
out:
    if (fe)
        rt__obj_release(&fe->obj);
    if (ff)
        rt__obj_release(&ff->obj);
    return err;
}

/* A handle to give the user for view type t: predefined types as they are, others a new copy. */
static int type_out(rt_type *t, rt_type **out)
{
    if (t->obj.builtin) {
        *out = t;
        return RT_SUCCESS;
    }
    return rt_Type_dup(t, out);
}

int rt_File_get_view(rt_file *fh, rt_offset *disp, rt_type **etype, rt_type **filetype, char *datarep)
{
    int err = type_out(fh->etype, etype);
    if (!err && (err = type_out(fh->filetype, filetype)) && !fh->etype->obj.builtin)
        rt_Type_free(etype);
    if (err)
        return err;
    *disp = fh->disp;
    rt__copy_str(datarep, RT_MAX_DATAREP_STRING, fh->datarep);
    return RT_SUCCESS;
}

/* MPI_File_get_type_extent: the extent of datatype in the file's representation (native: its
 * memory extent). */
int rt_File_get_type_extent(rt_file *fh, rt_type *datatype, rt_count *extent)
{
    rt_type *ft;
    int err = rt__io_file_type(fh, fh->rep, datatype, &ft, __func__);
    if (err)
        return err;
    *extent = ft->extent;
    rt__obj_release(&ft->obj);
    return RT_SUCCESS;
}

/* MPI_File_get_byte_offset: the file offset of etype `offset` of the view. */
int rt_File_get_byte_offset(rt_file *fh, rt_offset offset, rt_offset *disp)
{
    if (offset < 0)
        return rt_raise(&fh->obj, RT_ERR_ARG, __func__, "invalid offset 'offset' = %lld", (long long)offset);
    *disp = rt__io_view_offset(fh, offset * fh->esize);
    return RT_SUCCESS;
}

/* The end of file in etypes of the view (MPI_SEEK_END's origin). */
static int end_in_etypes(rt_file *fh, rt_offset *end, const char *fn)
{
    rt_offset size;
    int err = rt_File_get_size(fh, &size);
    if (err)
        return err;
    (void)fn;
    rt_offset bytes = rt__io_view_bytes_below(fh, size);
    *end = (bytes + fh->esize - 1) / fh->esize;
    return RT_SUCCESS;
}

/* The new position for MPI_File_seek(_shared): offset from whence's origin `cur`. */
int rt__io_seek_target(rt_file *fh, rt_offset offset, int whence, rt_offset cur, rt_offset *to, const char *fn)
{
    rt_offset base = 0;
    int err;
    if (whence == RT_SEEK_CUR)
        base = cur;
    else if (whence == RT_SEEK_END && (err = end_in_etypes(fh, &base, fn)))
        return err;
    else if (whence != RT_SEEK_SET && whence != RT_SEEK_END)
        return rt_raise(&fh->obj, RT_ERR_ARG, fn, "invalid 'whence' = %d", whence);
    if (base + offset < 0)
        return rt_raise(&fh->obj, RT_ERR_ARG, fn, "the file pointer would go before the view's start (%lld)",
                        (long long)(base + offset));
    *to = base + offset;
    return RT_SUCCESS;
}

/* MPI_File_seek: the individual file pointer, in etypes of the view. */
int rt_File_seek(rt_file *fh, rt_offset offset, int whence)
{
    if (fh->amode & RT_MODE_SEQUENTIAL)
        return rt_raise(&fh->obj, RT_ERR_UNSUPPORTED_OPERATION, __func__,
                        "the file was opened MPI_MODE_SEQUENTIAL: it has no individual file pointer");
    return rt__io_seek_target(fh, offset, whence, fh->fp, &fh->fp, __func__);
}

int rt_File_get_position(rt_file *fh, rt_offset *offset)
{
    *offset = fh->fp;
    return RT_SUCCESS;
}
