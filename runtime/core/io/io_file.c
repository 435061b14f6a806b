/* io_file.c — files: MPI_File_open/close/delete, size, amode, group, atomicity, sync, error
 * handlers (MPI_FILE_NULL's included), and the errors the system's calls report. */
#define _GNU_SOURCE /* O_CLOEXEC, fdatasync */
#include "io.h"
#include "coll/coll.h"
#include "comm/comm.h"
#include "info/info.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* MPI_FILE_NULL: a file that is never open, made at first use and marked predefined (the faces
 * show it as the null handle; it is never freed); its handler reports the errors that have no
 * file (MPI_File_open, MPI_File_delete) and is the one new files start with. */
static rt_file *file_null;

rt_obj *rt_file_null(void)
{
    if (!file_null) {
        rt_file *f = (rt_file *)rt__obj_new(RT_CLASS_FILE);
        if (!f)
            rt__fatal("out of memory for MPI_FILE_NULL's error handler");
        f->obj.builtin = 1;
        f->fd = -1;
        f->errh = (rt_errhandler *)rt_builtins[RT_B_ERRORS_RETURN];
        file_null = f;
    }
    return &file_null->obj;
}

int rt__io_errno_class(int e)
{
    switch (e) {
    case ENOENT: case ENOTDIR: return RT_ERR_NO_SUCH_FILE;
    case EEXIST: return RT_ERR_FILE_EXISTS;
    case EACCES: case EPERM: return RT_ERR_ACCESS;
    case EROFS: return RT_ERR_READ_ONLY;
    case ENOSPC: case EFBIG: return RT_ERR_NO_SPACE;
    case EDQUOT: return RT_ERR_QUOTA;
    case ENAMETOOLONG: case EISDIR: return RT_ERR_BAD_FILE;
    case ENOMEM: return RT_ERR_NO_MEM;
    case ETXTBSY: return RT_ERR_FILE_IN_USE;
    default: return RT_ERR_IO;
    }
}

int rt__io_errno(rt_obj *eo, int e, const char *fn, const char *what)
{
    return rt_raise(eo, rt__io_errno_class(e), fn, "%s: %s", what, strerror(e));
}

/* The path a file name stands for: ROMIO's file-system prefixes ("ufs:", "nfs:" ...) name the
 * POSIX file after them. */
static const char *path_of(const char *filename)
{
    static const char *const prefixes[] = {"ufs:", "nfs:", "lustre:", "gpfs:", "pvfs2:", "testfs:", "panfs:",
                                           "xfs:", "daos:", "unify:"};
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
        if (strncmp(filename, prefixes[i], strlen(prefixes[i])) == 0)
            return filename + strlen(prefixes[i]);
    return filename;
}

/* What is wrong with amode on its own, or NULL. */
static const char *amode_problem(int amode)
{
    int rw = !!(amode & RT_MODE_RDONLY) + !!(amode & RT_MODE_WRONLY) + !!(amode & RT_MODE_RDWR);
    if (rw != 1)
        return "exactly one of MPI_MODE_RDONLY, MPI_MODE_WRONLY and MPI_MODE_RDWR is required";
    if ((amode & RT_MODE_RDONLY) && (amode & (RT_MODE_CREATE | RT_MODE_EXCL)))
        return "MPI_MODE_RDONLY cannot go with MPI_MODE_CREATE or MPI_MODE_EXCL";
    if ((amode & RT_MODE_RDWR) && (amode & RT_MODE_SEQUENTIAL))
        return "MPI_MODE_SEQUENTIAL cannot go with MPI_MODE_RDWR";
    return NULL;
}

/* open(2) flags for amode; create: this process creates the file. */
static int open_flags(int amode, int create)
{
    int f = O_CLOEXEC;
    f |= amode & RT_MODE_RDONLY ? O_RDONLY : amode & RT_MODE_WRONLY ? O_WRONLY : O_RDWR;
    if (create && (amode & RT_MODE_CREATE))
        f |= O_CREAT;
    if (create && (amode & RT_MODE_EXCL))
        f |= O_EXCL;
    return f;
}

/* This process's open files (under the library's lock). */
static rt_file *open_files;

static void forget_open(rt_file *fh)
{
    for (rt_file **p = &open_files; *p; p = &(*p)->next_open)
        if (*p == fh) {
            *p = fh->next_open;
            return;
        }
}

void rt__file_destroy(rt_obj *o)
{
    rt_file *fh = (rt_file *)o;
    forget_open(fh);
    if (fh->fd >= 0)
        close(fh->fd);
    fh->fd = -1;
    rt__io_view_free(fh);
    free(fh->path);
    fh->path = NULL;
    if (fh->info)
        rt__obj_release(&fh->info->obj);
    if (fh->comm)
        rt__obj_release(&fh->comm->obj);
    if (fh->errh)
        rt__obj_release(&fh->errh->obj);
    fh->info = NULL, fh->comm = NULL, fh->errh = NULL;
}

/* The first process of t that failed (its errno in errs, 0: none), -1 if none did. */
static int first_failed(const int *errs, int n)
{
    for (int i = 0; i < n; i++)
        if (errs[i])
            return i;
    return -1;
}

/* Opens the file on every process of comm: the first creates it where amode says so, then the
 * others open it. On failure every process raises the first failure (rank and system text). */
static int open_all(rt_comm *comm, const char *path, int amode, int *fd, const char *fn)
{
    rt__team t = rt__team_of(comm);
    int e = 0, *errs = malloc(sizeof *errs * (size_t)comm->size), err;
    if (!errs)
        return rt_raise(rt_file_null(), RT_ERR_NO_MEM, fn, "out of memory opening '%s'", path);
    *fd = -1;
    if (comm->rank == 0 && (*fd = open(path, open_flags(amode, 1), 0666)) < 0)
        e = errno;
    if ((err = rt__coll_bcast(&t, &e, sizeof e, 0)) == RT_SUCCESS && !e && comm->rank != 0 &&
        (*fd = open(path, open_flags(amode, 0))) < 0)
        e = errno;
    if (!err)
        err = rt__coll_allgather(&t, &e, errs, sizeof e);
    int bad = err ? -1 : first_failed(errs, comm->size);
    if (!err && bad >= 0) {
        char what[600];
        snprintf(what, sizeof what, "cannot open '%s' (rank %d)", path, bad);
        err = rt__io_errno(rt_file_null(), errs[bad], fn, what);
    } else if (err) {
        err = rt_raise(rt_file_null(), err, fn, "the processes could not agree opening '%s'", path);
    }
    free(errs);
    if (err && *fd >= 0)
        close(*fd), *fd = -1;
    return err;
}

/* MPI_File_open: collective over comm (an intra-communicator); every process gives the same
 * amode (else RT_ERR_AMODE everywhere) and file name. Errors go to MPI_FILE_NULL's handler. */
int rt_File_open(rt_comm *comm, const char *filename, int amode, rt_info *info, rt_file **fh)
{
    int err = rt__comm_check_intra(comm, __func__, "comm");
    if (err)
        return err;
    const char *problem = amode_problem(amode);
    uint32_t agree[3] = {(uint32_t)amode, ~(uint32_t)amode, problem ? 0u : 1u};
    rt__team t = rt__team_of(comm);
    if ((err = rt__coll_allreduce(&t, agree, sizeof agree, rt__op_band)) != RT_SUCCESS)
        return rt_raise(rt_file_null(), err, __func__, "the processes could not agree opening '%s'", filename);
    if (problem)
        return rt_raise(rt_file_null(), RT_ERR_AMODE, __func__, "invalid access mode 'amode' = 0x%x: %s", amode,
                        problem);
    if (!agree[2])
        return rt_raise(rt_file_null(), RT_ERR_AMODE, __func__, "another process's access mode is invalid");
    if (agree[0] != (uint32_t)amode || agree[1] != ~(uint32_t)amode)
        return rt_raise(rt_file_null(), RT_ERR_AMODE, __func__,
                        "the processes opening '%s' gave different access modes (this one 0x%x)", filename, amode);
    const char *path = path_of(filename);
    int fd = -1;
    if ((err = open_all(comm, path, amode, &fd, __func__)) != RT_SUCCESS)
        return err;
    rt_file *f = (rt_file *)rt__obj_new(RT_CLASS_FILE);
    if (!f) {
        close(fd);
        return rt_raise(rt_file_null(), RT_ERR_NO_MEM, __func__, "out of memory for a file");
    }
    f->fd = fd;
    f->amode = amode;
    f->errh = ((rt_file *)rt_file_null())->errh;
    rt__obj_retain(&f->errh->obj);
    if (!(f->path = strdup(path)) || rt__io_view_default(f)) {
        err = rt_raise(rt_file_null(), RT_ERR_NO_MEM, __func__, "out of memory for a file");
    } else if ((err = rt_Comm_dup(comm, &f->comm)) == RT_SUCCESS) {
        rt__obj_release(&f->comm->errh->obj); /* its failures are raised on the file */
        f->comm->errh = (rt_errhandler *)rt_builtins[RT_B_ERRORS_RETURN];
        if (rt__io_hints(f, info))
            err = rt_raise(rt_file_null(), RT_ERR_NO_MEM, __func__, "out of memory for a file");
        struct stat st;
        rt_offset start = (amode & RT_MODE_APPEND) && fstat(fd, &st) == 0 ? st.st_size : 0;
        f->fp = start;
        if (!err)
            err = rt__io_shared_open(f, start, __func__);
    }
    if (err) {
        rt__file_destroy(&f->obj);
        rt__obj_release(&f->obj);
        return err;
    }
    struct stat st;
    if (fstat(fd, &st) == 0) {
        f->dev = st.st_dev, f->ino = st.st_ino;
        f->next_open = open_files;
        open_files = f;
    }
    *fh = f;
    return RT_SUCCESS;
}

/* MPI_File_close: collective; *fh = NULL. MPI_MODE_DELETE_ON_CLOSE: the first process deletes
 * the file once every process has closed it. */
int rt_File_close(rt_file **fh)
{
    rt_file *f = *fh;
    int err = RT_SUCCESS, e = 0;
    rt__io_async_drain(f); /* nonblocking accesses the program left unfinished (erroneous) */
    rt__io_shared_close(f);
    if (f->fd >= 0 && close(f->fd) != 0)
        e = errno;
    f->fd = -1;
    rt__team t = rt__team_of(f->comm);
    int cerr = rt__coll_barrier(&t);
    if (!cerr && (f->amode & RT_MODE_DELETE_ON_CLOSE) && f->comm->rank == 0 && unlink(f->path) != 0 && !e)
        e = errno;
    if (e)
        err = rt__io_errno(&f->obj, e, __func__, "closing the file");
    else if (cerr)
        err = rt_raise(&f->obj, cerr, __func__, "the processes could not agree closing the file");
    rt__file_destroy(&f->obj);
    rt__obj_release(&f->obj);
    *fh = NULL;
    return err;
}

/* MPI_File_delete: removes the file (not collective); a file this process has open:
 * RT_ERR_FILE_IN_USE (other processes' opens are not seen). Errors go to MPI_FILE_NULL's handler. */
int rt_File_delete(const char *filename, rt_info *info)
{
    (void)info;
    const char *path = path_of(filename);
    struct stat st;
    if (stat(path, &st) == 0)
        for (rt_file *f = open_files; f; f = f->next_open)
            if (f->dev == (uint64_t)st.st_dev && f->ino == (uint64_t)st.st_ino)
                return rt_raise(rt_file_null(), RT_ERR_FILE_IN_USE, __func__,
                                "cannot delete '%s': this process has it open (MPI_File_close it first)", path);
    if (unlink(path) != 0) {
        char what[600];
        snprintf(what, sizeof what, "cannot delete '%s'", path);
        return rt__io_errno(rt_file_null(), errno, __func__, what);
    }
    return RT_SUCCESS;
}

int rt_File_get_amode(rt_file *fh, int *amode)
{
    *amode = fh->amode;
    return RT_SUCCESS;
}

int rt_File_get_group(rt_file *fh, rt_group **group)
{
    return rt_Comm_group(fh->comm, group);
}

/* MPI_File_set_atomicity: collective; every process gives the same flag (else RT_ERR_ARG). */
int rt_File_set_atomicity(rt_file *fh, int flag)
{
    uint32_t agree[2] = {flag ? 1u : 0u, flag ? 0u : 1u};
    rt__team t = rt__team_of(fh->comm);
    int err = rt__coll_allreduce(&t, agree, sizeof agree, rt__op_band);
    if (err)
        return rt_raise(&fh->obj, err, __func__, "the processes could not agree on atomicity");
    if (!agree[0] && !agree[1])
        return rt_raise(&fh->obj, RT_ERR_ARG, __func__, "the processes gave different values of 'flag'");
    fh->atomic = flag != 0;
    return RT_SUCCESS;
}

int rt_File_get_atomicity(rt_file *fh, int *flag)
{
    *flag = fh->atomic;
    return RT_SUCCESS;
}

/* MPI_File_sync: collective; this process's writes reach the storage device. */
int rt_File_sync(rt_file *fh)
{
    if (fh->amode & RT_MODE_RDONLY)
        return rt_raise(&fh->obj, RT_ERR_ACCESS, __func__, "the file was opened MPI_MODE_RDONLY");
    rt__io_async_drain(fh);
    int e = fdatasync(fh->fd) != 0 ? errno : 0;
    rt__team t = rt__team_of(fh->comm);
    int err = rt__coll_barrier(&t);
    if (e)
        return rt__io_errno(&fh->obj, e, __func__, "fdatasync");
    return err ? rt_raise(&fh->obj, err, __func__, "the processes could not agree") : RT_SUCCESS;
}

int rt_File_get_size(rt_file *fh, rt_offset *size)
{
    struct stat st;
    if (fstat(fh->fd, &st) != 0)
        return rt__io_errno(&fh->obj, errno, __func__, "fstat");
    *size = st.st_size;
    return RT_SUCCESS;
}

/* Runs op on the first process (its errno, 0 on success), then everyone learns the outcome:
 * the collective resizing calls. */
static int first_does(rt_file *fh, int (*op)(int fd, rt_offset size), rt_offset size, const char *what,
                      const char *fn)
{
    if (size < 0)
        return rt_raise(&fh->obj, RT_ERR_ARG, fn, "invalid size 'size' = %lld: must be >= 0", (long long)size);
    if (fh->amode & RT_MODE_RDONLY)
        return rt_raise(&fh->obj, RT_ERR_ACCESS, fn, "the file was opened MPI_MODE_RDONLY");
    if (fh->amode & RT_MODE_SEQUENTIAL)
        return rt_raise(&fh->obj, RT_ERR_UNSUPPORTED_OPERATION, fn, "the file was opened MPI_MODE_SEQUENTIAL");
    int e = fh->comm->rank == 0 ? op(fh->fd, size) : 0;
    rt__team t = rt__team_of(fh->comm);
    int err = rt__coll_bcast(&t, &e, sizeof e, 0);
    if (err)
        return rt_raise(&fh->obj, err, fn, "the processes could not agree");
    return e ? rt__io_errno(&fh->obj, e, fn, what) : RT_SUCCESS;
}

static int truncate_to(int fd, rt_offset size)
{
    return ftruncate(fd, size) != 0 ? errno : 0;
}

static int allocate_to(int fd, rt_offset size)
{
    return size > 0 ? posix_fallocate(fd, 0, size) : 0;
}

/* MPI_File_set_size: collective; the file is cut or extended (with zeros) to size bytes. */
int rt_File_set_size(rt_file *fh, rt_offset size)
{
    return first_does(fh, truncate_to, size, "ftruncate", __func__);
}

/* MPI_File_preallocate: collective; storage for the first size bytes (the file grows to size
 * if smaller, never shrinks). */
int rt_File_preallocate(rt_file *fh, rt_offset size)
{
    return first_does(fh, allocate_to, size, "posix_fallocate", __func__);
}

/* ---- error handlers */

/* The file errhandler applies to (MPI_FILE_NULL's for the null handle). */
static rt_file *errh_owner(rt_file *file)
{
    return file ? file : (rt_file *)rt_file_null();
}

/* MPI_File_set_errhandler: file's handler (MPI_FILE_NULL: the one files opened from now on
 * start with) becomes errhandler (one made for another class: RT_ERR_ARG). */
int rt_File_set_errhandler(rt_file *file, rt_errhandler *errhandler)
{
    rt_file *f = errh_owner(file);
    if (errhandler->for_cls != RT_CLASS_NONE && errhandler->for_cls != RT_CLASS_FILE)
        return rt_raise(&f->obj, RT_ERR_ARG, __func__,
                        "error handler 'errhandler' was created for %s and cannot be set on a file",
                        rt__errhandler_class_noun(errhandler->for_cls));
    rt__errhandler_replace(&f->errh, errhandler);
    return RT_SUCCESS;
}

int rt_File_get_errhandler(rt_file *file, rt_errhandler **errhandler)
{
    rt_file *f = errh_owner(file);
    rt__obj_retain(&f->errh->obj);
    *errhandler = f->errh;
    return RT_SUCCESS;
}

/* MPI_File_call_errhandler: runs file's handler with errorcode (unknown code: RT_ERR_ARG). */
int rt_File_call_errhandler(rt_file *fh, int errorcode)
{
    rt_file *f = errh_owner(fh);
    char name[64], msg[RT_MAX_ERROR_STRING];
    int n = snprintf(msg, sizeof msg, "%s: ", rt__mpi_name(__func__, name, sizeof name));
    if (rt__error_text(errorcode, msg + n, sizeof msg - (size_t)n) < 0)
        return RT_ERR(f, RT_ERR_ARG, "invalid error code %d", errorcode);
    rt__errhandler_invoke(f->errh, &f->obj, errorcode, msg);
    return RT_SUCCESS;
}
