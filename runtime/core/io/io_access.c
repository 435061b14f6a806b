/* io_access.c — data access: explicit offsets, the individual and the shared file pointer,
 * ordered, each independent or collective, blocking, nonblocking or split collective. */
#define _GNU_SOURCE /* F_OFD_SETLKW */
#include "io.h"
#include "coll/coll.h"
#include "type/type.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>

/* Where an access starts. */
enum where { AT, INDIVIDUAL, SHARED, ORDERED };

/* Takes (type F_RDLCK or F_WRLCK) or gives back (F_UNLCK) the whole file's lock: atomic mode. */
static int lock_file(rt_file *fh, short type)
{
    struct flock l = {.l_type = type, .l_whence = SEEK_SET};
    while (fcntl(fh->fd, F_OFD_SETLKW, &l) != 0)
        if (errno != EINTR)
            return errno;
    return 0;
}

/* What forbids this access on fh, or RT_SUCCESS (raised on fh naming fn); *fbytes = the bytes
 * its data take in the file. */
static int access_check(rt_file *fh, int where, rt_offset offset, rt_type *type, rt_count count, int write,
                        rt_offset *fbytes, const char *fn)
{
    *fbytes = 0;
    if (write && (fh->amode & RT_MODE_RDONLY))
        return rt_raise(&fh->obj, RT_ERR_READ_ONLY, fn, "the file was opened MPI_MODE_RDONLY");
    if (!write && (fh->amode & RT_MODE_WRONLY))
        return rt_raise(&fh->obj, RT_ERR_ACCESS, fn, "the file was opened MPI_MODE_WRONLY");
    if ((where == AT || where == INDIVIDUAL) && (fh->amode & RT_MODE_SEQUENTIAL))
        return rt_raise(&fh->obj, RT_ERR_UNSUPPORTED_OPERATION, fn,
                        "the file was opened MPI_MODE_SEQUENTIAL: only the shared file pointer may be used");
    if (offset < 0)
        return rt_raise(&fh->obj, RT_ERR_ARG, fn, "invalid offset 'offset' = %lld", (long long)offset);
    int err = rt__type_check(type, &fh->obj, fn);
    if (err || (err = rt__io_file_bytes(fh, type, count, fbytes, fn)))
        return err;
    if (*fbytes % fh->esize)
        return rt_raise(&fh->obj, RT_ERR_TYPE, fn,
                        "%lld elements of datatype 'datatype' (%lld bytes in the file) are not whole etypes of the "
                        "view (%lld bytes)", (long long)count, (long long)*fbytes, (long long)fh->esize);
    return RT_SUCCESS;
}

static int move_native(rt_file *fh, int where, int coll, rt_offset pos, void *buf, rt_count count,
                       rt_type *type, int write, rt_status *status, const char *fn);

/* move() for a view in another representation than native: the data go through the file's
 * form, fbytes bytes (converted after a read: only the whole elements that arrived); the status
 * counts their native bytes. */
static int move_converted(rt_file *fh, int where, int coll, rt_offset pos, void *buf, rt_count count,
                          rt_type *type, rt_offset fbytes, int write, rt_status *status, const char *fn)
{
    rt_offset x = count ? fbytes / count : 0;
    char *fdata = malloc((size_t)fbytes + 1);
    rt_type *byte = (rt_type *)rt_builtins[RT_B_BYTE];
    rt_status st = {0};
    int err = RT_SUCCESS;
    if (!fdata)
        err = rt_raise(&fh->obj, RT_ERR_NO_MEM, fn, "out of memory for %lld bytes", (long long)fbytes);
    else if (write && !(err = rt__io_convert(fh, 1, buf, type, count, fdata, x, fn)))
        err = move_native(fh, where, coll, pos, fdata, fbytes, byte, 1, &st, fn);
    else if (!write && !(err = move_native(fh, where, coll, pos, fdata, fbytes, byte, 0, &st, fn)) && x > 0 &&
             st.count / x)
        err = rt__io_convert(fh, 0, buf, type, st.count / x, fdata, x, fn);
    st.count = x > 0 ? st.count / x * type->size : 0; /* the whole elements moved, in memory's bytes */
    if (!err && status)
        *status = st;
    free(fdata);
    return err;
}

/* Moves count elements of type at buf through fh's view from etype `pos`: status gets the bytes
 * moved; the individual pointer moves past them (INDIVIDUAL). Checked by access_check. */
static int move_native(rt_file *fh, int where, int coll, rt_offset pos, void *buf, rt_count count,
                       rt_type *type, int write, rt_status *status, const char *fn)
{
    rt_offset bytes = count * type->size, esize = fh->esize;
    int contig = rt__type_contig(type) && buf;
    char *data = contig ? buf : bytes ? malloc((size_t)bytes) : NULL;
    if (bytes && !data)
        return rt_raise(&fh->obj, RT_ERR_NO_MEM, fn, "out of memory for %lld bytes", (long long)bytes);
    if (write && !contig && bytes)
        rt__type_pack(type, buf, count, data);
    rt_offset got = 0;
    if (coll) {
        int err = rt__io_coll_move(fh, pos * esize, data, bytes, write, &got, fn);
        if (err) {
            if (!contig)
                free(data);
            return err;
        }
    } else {
        int e = fh->atomic ? lock_file(fh, write ? F_WRLCK : F_RDLCK) : 0;
        got = e ? -e : rt__io_view_move(fh, pos * esize, data, bytes, write);
        if (fh->atomic && !e)
            lock_file(fh, F_UNLCK);
    }
    if (got >= 0 && !write && !contig)
        rt__type_unpack(type, data, got, buf);
    if (!contig)
        free(data);
    if (got < 0)
        return rt__io_errno(&fh->obj, (int)-got, fn, write ? "cannot write" : "cannot read");
    if (where == INDIVIDUAL)
        fh->fp = pos + got / esize;
    if (status)
        *status = (rt_status){.source = RT_ANY_SOURCE, .tag = RT_ANY_TAG, .count = got};
    return RT_SUCCESS;
}

/* Moves count elements of type at buf (fbytes bytes in the file) through fh's view from etype
 * pos, in the view's data representation (see move_native). */
static int move(rt_file *fh, int where, int coll, rt_offset pos, void *buf, rt_count count, rt_type *type,
                rt_offset fbytes, int write, rt_status *status, const char *fn)
{
    if (fh->rep)
        return move_converted(fh, where, coll, pos, buf, count, type, fbytes, write, status, fn);
    return move_native(fh, where, coll, pos, buf, count, type, write, status, fn);
}

/* One access that starts at offset (AT), the individual or the shared pointer. */
static int access_one(rt_file *fh, int where, rt_offset offset, void *buf, rt_count count, rt_type *type,
                      int write, rt_status *status, const char *fn)
{
    rt_offset fbytes;
    int err = access_check(fh, where, where == AT ? offset : 0, type, count, write, &fbytes, fn);
    if (err)
        return err;
    rt_offset pos = where == AT ? offset : fh->fp;
    if (where == SHARED && (err = rt__io_shared_fetch_add(fh, fbytes / fh->esize, &pos, fn)))
        return err;
    return move(fh, where, 0, pos, buf, count, type, fbytes, write, status, fn);
}

/* The collective access of every process of fh from offset (AT) or the individual pointer: a
 * process whose own access is invalid takes part with no data, then reports its error. */
static int access_all(rt_file *fh, int where, rt_offset offset, void *buf, rt_count count, rt_type *type,
                      int write, rt_status *status, const char *fn)
{
    rt_offset fbytes, pos = where == AT ? offset : fh->fp, none;
    int err = access_check(fh, where, where == AT ? offset : 0, type, count, write, &fbytes, fn);
    if (err) {
        rt__io_coll_move(fh, 0, NULL, 0, write, &none, fn);
        return err;
    }
    return move(fh, where, 1, pos, buf, count, type, fbytes, write, status, fn);
}

/* The ordered access (collective): each process's data follow the lower ranks', from the shared
 * pointer, which then moves past all of them. */
static int access_ordered(rt_file *fh, void *buf, rt_count count, rt_type *type, int write, rt_status *status,
                          const char *fn)
{
    rt_offset fbytes;
    int err = access_check(fh, ORDERED, 0, type, count, write, &fbytes, fn), n = fh->comm->size;
    rt_offset mine = err ? -1 : fbytes / fh->esize, *all = malloc(sizeof *all * (size_t)n);
    rt__team t = rt__team_of(fh->comm);
    int cerr = all ? rt__coll_allgather(&t, &mine, all, sizeof mine) : RT_ERR_NO_MEM;
    rt_offset before = 0, total = 0, base = 0;
    for (int r = 0; !cerr && r < n; r++) {
        if (all[r] < 0)
            cerr = RT_ERR_OTHER;
        before += r < fh->comm->rank ? all[r] : 0;
        total += all[r];
    }
    free(all);
    if (err)
        return err;
    if (cerr == RT_ERR_OTHER)
        return rt_raise(&fh->obj, cerr, fn, "another process's part of the ordered access is invalid");
    if (cerr)
        return rt_raise(&fh->obj, cerr, fn, "the processes could not agree");
    if (fh->comm->rank == 0)
        err = rt__io_shared_fetch_add(fh, total, &base, fn);
    rt_offset got[2] = {err ? -1 : base, 0};
    if ((cerr = rt__coll_bcast(&t, got, sizeof got, 0)))
        return err ? err : rt_raise(&fh->obj, cerr, fn, "the processes could not agree");
    if (err || got[0] < 0)
        return err ? err : rt_raise(&fh->obj, RT_ERR_OTHER, fn, "the shared file pointer could not be read");
    return move(fh, ORDERED, 0, got[0] + before, buf, count, type, fbytes, write, status, fn);
}

static int complete_request(rt_file *fh, int err, const rt_status *status, rt_request **request, const char *fn);

/* A nonblocking access: checked and placed now (the pointers move by what it asks), moved by the
 * I/O thread (in atomic mode or another representation than native, now). The nonblocking
 * collective accesses come here too: their start must not wait for the other processes (a
 * process may start one, then send to a process that starts its part only after receiving),
 * and their result is by the standard that of each process's own access, so each process's
 * part is an independent access (no two-phase I/O for them). */
static int access_nb(rt_file *fh, int where, rt_offset offset, void *buf, rt_count count, rt_type *type,
                     int write, rt_request **request, const char *fn)
{
    rt_offset fbytes;
    int err = access_check(fh, where, where == AT ? offset : 0, type, count, write, &fbytes, fn);
    if (err)
        return err;
    rt_offset pos = where == AT ? offset : fh->fp, etypes = fbytes / fh->esize;
    if (where == SHARED && (err = rt__io_shared_fetch_add(fh, etypes, &pos, fn)))
        return err;
    if (fh->atomic || fh->rep) { /* done now: under the lock, or converted */
        rt_status st;
        err = move(fh, where, 0, pos, buf, count, type, fbytes, write, &st, fn);
        return complete_request(fh, err, &st, request, fn);
    }
    if (where == INDIVIDUAL)
        fh->fp = pos + etypes;
    return rt__io_async_start(fh, pos, buf, count, type, write, request, fn);
}

/* A request already complete with status: a nonblocking access runs at its start. */
static int complete_request(rt_file *fh, int err, const rt_status *status, rt_request **request, const char *fn)
{
    if (err)
        return err;
    rt_request *r = rt__request_new(RT__REQ_RECV, fh->comm, NULL);
    if (!r)
        return rt_raise(&fh->obj, RT_ERR_NO_MEM, fn, "out of memory for a request");
    r->peer = RT_PROC_NULL;
    r->status = *status;
    rt__request_complete(r);
    *request = r;
    return RT_SUCCESS;
}

/* ---- explicit offsets */

int rt_File_read_at(rt_file *fh, rt_offset offset, void *buf, rt_count count, rt_type *datatype, rt_status *status)
{
    return access_one(fh, AT, offset, buf, count, datatype, 0, status, __func__);
}

int rt_File_write_at(rt_file *fh, rt_offset offset, const void *buf, rt_count count, rt_type *datatype,
                     rt_status *status)
{
    return access_one(fh, AT, offset, (void *)buf, count, datatype, 1, status, __func__);
}

int rt_File_read_at_all(rt_file *fh, rt_offset offset, void *buf, rt_count count, rt_type *datatype,
                        rt_status *status)
{
    return access_all(fh, AT, offset, buf, count, datatype, 0, status, __func__);
}

int rt_File_write_at_all(rt_file *fh, rt_offset offset, const void *buf, rt_count count, rt_type *datatype,
                         rt_status *status)
{
    return access_all(fh, AT, offset, (void *)buf, count, datatype, 1, status, __func__);
}

int rt_File_iread_at(rt_file *fh, rt_offset offset, void *buf, rt_count count, rt_type *datatype,
                     rt_request **request)
{
    return access_nb(fh, AT, offset, buf, count, datatype, 0, request, __func__);
}

int rt_File_iwrite_at(rt_file *fh, rt_offset offset, const void *buf, rt_count count, rt_type *datatype,
                      rt_request **request)
{
    return access_nb(fh, AT, offset, (void *)buf, count, datatype, 1, request, __func__);
}

int rt_File_iread_at_all(rt_file *fh, rt_offset offset, void *buf, rt_count count, rt_type *datatype,
                         rt_request **request)
{
    return access_nb(fh, AT, offset, buf, count, datatype, 0, request, __func__);
}

int rt_File_iwrite_at_all(rt_file *fh, rt_offset offset, const void *buf, rt_count count, rt_type *datatype,
                          rt_request **request)
{
    return access_nb(fh, AT, offset, (void *)buf, count, datatype, 1, request, __func__);
}

/* ---- the individual file pointer */

int rt_File_read(rt_file *fh, void *buf, rt_count count, rt_type *datatype, rt_status *status)
{
    return access_one(fh, INDIVIDUAL, 0, buf, count, datatype, 0, status, __func__);
}

int rt_File_write(rt_file *fh, const void *buf, rt_count count, rt_type *datatype, rt_status *status)
{
    return access_one(fh, INDIVIDUAL, 0, (void *)buf, count, datatype, 1, status, __func__);
}

int rt_File_read_all(rt_file *fh, void *buf, rt_count count, rt_type *datatype, rt_status *status)
{
    return access_all(fh, INDIVIDUAL, 0, buf, count, datatype, 0, status, __func__);
}

int rt_File_write_all(rt_file *fh, const void *buf, rt_count count, rt_type *datatype, rt_status *status)
{
    return access_all(fh, INDIVIDUAL, 0, (void *)buf, count, datatype, 1, status, __func__);
}

int rt_File_iread(rt_file *fh, void *buf, rt_count count, rt_type *datatype, rt_request **request)
{
    return access_nb(fh, INDIVIDUAL, 0, buf, count, datatype, 0, request, __func__);
}

int rt_File_iwrite(rt_file *fh, const void *buf, rt_count count, rt_type *datatype, rt_request **request)
{
    return access_nb(fh, INDIVIDUAL, 0, (void *)buf, count, datatype, 1, request, __func__);
}

int rt_File_iread_all(rt_file *fh, void *buf, rt_count count, rt_type *datatype, rt_request **request)
{
    return access_nb(fh, INDIVIDUAL, 0, buf, count, datatype, 0, request, __func__);
}

int rt_File_iwrite_all(rt_file *fh, const void *buf, rt_count count, rt_type *datatype, rt_request **request)
{
    return access_nb(fh, INDIVIDUAL, 0, (void *)buf, count, datatype, 1, request, __func__);
}

/* ---- the shared file pointer */

int rt_File_read_shared(rt_file *fh, void *buf, rt_count count, rt_type *datatype, rt_status *status)
{
    return access_one(fh, SHARED, 0, buf, count, datatype, 0, status, __func__);
}

int rt_File_write_shared(rt_file *fh, const void *buf, rt_count count, rt_type *datatype, rt_status *status)
{
    return access_one(fh, SHARED, 0, (void *)buf, count, datatype, 1, status, __func__);
}

int rt_File_iread_shared(rt_file *fh, void *buf, rt_count count, rt_type *datatype, rt_request **request)
{
    return access_nb(fh, SHARED, 0, buf, count, datatype, 0, request, __func__);
}

int rt_File_iwrite_shared(rt_file *fh, const void *buf, rt_count count, rt_type *datatype, rt_request **request)
{
    return access_nb(fh, SHARED, 0, (void *)buf, count, datatype, 1, request, __func__);
}

int rt_File_read_ordered(rt_file *fh, void *buf, rt_count count, rt_type *datatype, rt_status *status)
{
    return access_ordered(fh, buf, count, datatype, 0, status, __func__);
}

int rt_File_write_ordered(rt_file *fh, const void *buf, rt_count count, rt_type *datatype, rt_status *status)
{
    return access_ordered(fh, (void *)buf, count, datatype, 1, status, __func__);
}

/* ---- split collectives: the begin does the access, the end hands over its status */

enum split { SPLIT_READ_AT = 1, SPLIT_WRITE_AT, SPLIT_READ, SPLIT_WRITE, SPLIT_READ_ORDERED, SPLIT_WRITE_ORDERED };

static const char *const split_begin_name[] = {NULL, "MPI_File_read_at_all_begin", "MPI_File_write_at_all_begin",
                                               "MPI_File_read_all_begin", "MPI_File_write_all_begin",
                                               "MPI_File_read_ordered_begin", "MPI_File_write_ordered_begin"};

/* The begin of split collective `kind`: one may be active per file. */
static int split_begin(rt_file *fh, int kind, int where, rt_offset offset, void *buf, rt_count count,
                       rt_type *type, int write, const char *fn)
{
    if (fh->split)
        return rt_raise(&fh->obj, RT_ERR_OTHER, fn, "%s is still active on this file (one split collective at a time)",
                        split_begin_name[fh->split]);
    int err = where == ORDERED ? access_ordered(fh, buf, count, type, write, &fh->split_status, fn)
                               : access_all(fh, where, offset, buf, count, type, write, &fh->split_status, fn);
    if (!err)
        fh->split = kind;
    return err;
}

/* The end of split collective `kind`. */
static int split_end(rt_file *fh, int kind, rt_status *status, const char *fn)
{
    if (fh->split != kind)
        return rt_raise(&fh->obj, RT_ERR_OTHER, fn, "no matching %s is active on this file", split_begin_name[kind]);
    fh->split = 0;
    if (status)
        *status = fh->split_status;
    return RT_SUCCESS;
}

int rt_File_read_at_all_begin(rt_file *fh, rt_offset offset, void *buf, rt_count count, rt_type *datatype)
{
    return split_begin(fh, SPLIT_READ_AT, AT, offset, buf, count, datatype, 0, __func__);
}

int rt_File_read_at_all_end(rt_file *fh, void *buf, rt_status *status)
{
    (void)buf;
    return split_end(fh, SPLIT_READ_AT, status, __func__);
}

int rt_File_write_at_all_begin(rt_file *fh, rt_offset offset, const void *buf, rt_count count, rt_type *datatype)
{
    return split_begin(fh, SPLIT_WRITE_AT, AT, offset, (void *)buf, count, datatype, 1, __func__);
}

int rt_File_write_at_all_end(rt_file *fh, const void *buf, rt_status *status)
{
    (void)buf;
    return split_end(fh, SPLIT_WRITE_AT, status, __func__);
}

int rt_File_read_all_begin(rt_file *fh, void *buf, rt_count count, rt_type *datatype)
{
    return split_begin(fh, SPLIT_READ, INDIVIDUAL, 0, buf, count, datatype, 0, __func__);
}

int rt_File_read_all_end(rt_file *fh, void *buf, rt_status *status)
{
    (void)buf;
    return split_end(fh, SPLIT_READ, status, __func__);
}

int rt_File_write_all_begin(rt_file *fh, const void *buf, rt_count count, rt_type *datatype)
{
    return split_begin(fh, SPLIT_WRITE, INDIVIDUAL, 0, (void *)buf, count, datatype, 1, __func__);
}

int rt_File_write_all_end(rt_file *fh, const void *buf, rt_status *status)
{
    (void)buf;
    return split_end(fh, SPLIT_WRITE, status, __func__);
}

int rt_File_read_ordered_begin(rt_file *fh, void *buf, rt_count count, rt_type *datatype)
{
    return split_begin(fh, SPLIT_READ_ORDERED, ORDERED, 0, buf, count, datatype, 0, __func__);
}

int rt_File_read_ordered_end(rt_file *fh, void *buf, rt_status *status)
{
    (void)buf;
    return split_end(fh, SPLIT_READ_ORDERED, status, __func__);
}

int rt_File_write_ordered_begin(rt_file *fh, const void *buf, rt_count count, rt_type *datatype)
{
    return split_begin(fh, SPLIT_WRITE_ORDERED, ORDERED, 0, (void *)buf, count, datatype, 1, __func__);
}

int rt_File_write_ordered_end(rt_file *fh, const void *buf, rt_status *status)
{
    (void)buf;
    return split_end(fh, SPLIT_WRITE_ORDERED, status, __func__);
}
