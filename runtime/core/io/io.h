/* io.h — the I/O part's contract: file objects (MPI_File) over POSIX files, their views and the
 * data access calls (docs/internals.md, "Parallel I/O"). */
#ifndef RT_IO_H
#define RT_IO_H

#include "rt_internal.h"

/* One run of data bytes of a view's filetype: `len` bytes at byte `off` of a filetype element;
 * `at` is where they start in the element's data stream (the sum of the earlier runs' len). */
struct rt__io_run {
    rt_offset off, len, at;
};

/* An open file (io_file.c): every process of `comm` (a private dup of the opening
 * communicator) holds one. The view and the pointers are this process's. */
struct rt_file {
    rt_obj obj;
    rt_errhandler *errh;
    rt_comm *comm;              /* owned */
    int fd;                     /* -1 once closed */
    int amode;                  /* RT_MODE_* bits */
    int atomic;                 /* MPI_File_set_atomicity */
    char *path;                 /* as opened (owned) */
    uint64_t dev, ino;          /* the file's identity (fstat), for MPI_File_delete */
    struct rt_file *next_open;  /* this process's open files (io_file.c) */
    rt_info *info;              /* the hints in force (owned; io_info.c) */
    rt_offset cb_buffer;        /* from them: collective buffering's buffer (cb_buffer_size) */
    int cb_nodes;               /* its aggregators (cb_nodes) */
    int cb_read, cb_write;      /* romio_cb_read/write: 0 disable, 1 enable, 2 automatic */
    int ds_read;                /* romio_ds_read: independent reads sieve (not disable) */
    rt_offset ds_buffer;        /* ind_rd_buffer_size: their buffer */
    /* the view (io_view.c) */
    rt_offset disp;             /* bytes */
    rt_type *etype, *filetype;  /* each holds a reference */
    char datarep[RT_MAX_DATAREP_STRING];
    const struct rt__datarep *rep; /* the data representation: NULL for native (io_datarep.c) */
    struct rt__io_run *runs;    /* the filetype's data in the file, in order (owned); one run:
                                   contiguous */
    int nruns;
    rt_offset ft_size, ft_extent; /* bytes of data in a filetype element in the file, its extent */
    rt_offset esize;            /* bytes of an etype in the file */
    rt_offset fp;               /* the individual file pointer, in etypes of the view */
    /* the shared file pointer (io_shared.c): one MPI_Offset in a window at rank 0 */
    rt_win *shared;
    rt_offset *shared_mem;
    /* a split collective (MPI_File_*_begin) whose end has not come yet */
    int split;                  /* 0: none; else the begin's kind (io_access.c) */
    rt_status split_status;
    int split_err;
};

/* The destructor of files (closes what MPI_File_close has not). */
void rt__file_destroy(rt_obj *o);


/* The error class errno e stands for (RT_ERR_NO_SUCH_FILE for ENOENT, ...; RT_ERR_IO else). */
int rt__io_errno_class(int e);
/* Raises the error class errno `e` stands for (RT_ERR_NO_SUCH_FILE for ENOENT, ...) on eo,
 * naming fn, with `what` and the system's text ("cannot open 'f': No such file"). */
int rt__io_errno(rt_obj *eo, int e, const char *fn, const char *what);

/* ---- views (io_view.c) */

/* Sets fh's view to the default one (displacement 0, bytes, "native"). RT_ERR_NO_MEM or 0. */
int rt__io_view_default(rt_file *fh);
/* Releases the view's types and runs. */
void rt__io_view_free(rt_file *fh);
/* The file offset of byte `pos` of the view's data stream. */
rt_offset rt__io_view_offset(const rt_file *fh, rt_offset pos);
/* How many bytes of the view's data stream lie before file offset `off`. */
rt_offset rt__io_view_bytes_below(const rt_file *fh, rt_offset off);
/* *to = offset etypes from whence's origin (MPI_SEEK_CUR: cur); a negative result or an
 * unknown whence: RT_ERR_ARG raised on fh naming fn. */
int rt__io_seek_target(rt_file *fh, rt_offset offset, int whence, rt_offset cur, rt_offset *to, const char *fn);
/* Moves n bytes at file offset off of fd: all of them (pwrite, retried while short; a write
 * that makes no progress is -EIO), or up to the end of file (pread). Bytes moved or -errno. */
rt_offset rt__io_pmove(int fd, char *buf, rt_offset n, rt_offset off, int write);
/* Moves `n` bytes between buf and the file, starting at byte `pos` of the view's data stream
 * (write: to the file). Returns bytes moved (a read stops at the end of file), or -errno. */
rt_offset rt__io_view_move(rt_file *fh, rt_offset pos, char *buf, rt_offset n, int write);

/* A piece of one process's access: `len` bytes at file offset `off`, at byte `at` of its data. */
struct rt__io_piece {
    rt_offset off, len, at;
};
/* The pieces of file that bytes [pos, pos + n) of the view's data stream occupy, in order
 * (which is file order: a view's offsets never go back), adjacent ones merged: *out (malloc'ed,
 * NULL when n is 0) and *count. -1 when out of memory. */
int rt__io_view_pieces(const rt_file *fh, rt_offset pos, rt_offset n, struct rt__io_piece **out, int *count);

/* ---- data representations (io_datarep.c) */

/* A data representation other than native: external32 or one registered by the user. */
struct rt__datarep;
/* The standard's big-endian representation. */
extern const struct rt__datarep rt__io_external32;
/* 1 if `name` is a data representation this process knows (*rep: NULL for native and
 * internal, which are the same here), else 0. */
int rt__io_datarep_find(const char *name, const struct rt__datarep **rep);
/* *out (a new reference) = t as laid out in files of representation rep (NULL: t itself): its
 * basic elements of their file extents (rt__type_remap). Errors (an extent function's, a type
 * with no external32 form) are raised on fh naming fn. */
int rt__io_file_type(rt_file *fh, const struct rt__datarep *rep, rt_type *t, rt_type **out, const char *fn);
/* *bytes = the bytes count elements of type take in fh's file (its view's representation). */
int rt__io_file_bytes(rt_file *fh, rt_type *type, rt_count count, rt_offset *bytes, const char *fn);
/* Converts count elements of type between buf (the user's, native) and filebuf (the file's
 * form, fsize bytes each) through fh's representation (to_file: buf -> filebuf). Errors are
 * raised on fh naming fn. */
int rt__io_convert(rt_file *fh, int to_file, void *buf, rt_type *type, rt_count count, void *filebuf,
                   rt_offset fsize, const char *fn);

/* ---- collective access (io_coll.c) */

/* Moves n bytes of data between this process and bytes [pos, pos + n) of fh's view (write: to
 * the file), together with every process of fh->comm (collective): two-phase I/O where the
 * processes' accesses interleave (or the hints say so), each its own part otherwise. *moved =
 * the bytes moved (a read stops at the end of file). Errors are raised on fh naming fn. */
int rt__io_coll_move(rt_file *fh, rt_offset pos, char *data, rt_offset n, int write, rt_offset *moved,
                     const char *fn);

/* ---- the shared file pointer (io_shared.c) */

/* Makes fh's shared pointer (collective over fh->comm), at `start` etypes. */
int rt__io_shared_open(rt_file *fh, rt_offset start, const char *fn);
/* Frees it (collective). */
void rt__io_shared_close(rt_file *fh);
/* *old = the shared pointer, then it advances by `add` etypes (atomically for all processes). */
int rt__io_shared_fetch_add(rt_file *fh, rt_offset add, rt_offset *old, const char *fn);
/* Sets it to `to` (one process calls it). */
int rt__io_shared_set(rt_file *fh, rt_offset to, const char *fn);

/* ---- nonblocking independent accesses (io_async.c) */

/* Starts moving count elements of type at buf through fh's view from etype pos (write: to the
 * file) on the process's I/O thread; *request completes in a pass of the engine once it is done
 * (its status: the bytes moved; an I/O error, its class). Errors are raised on fh naming fn. */
int rt__io_async_start(rt_file *fh, rt_offset pos, void *buf, rt_count count, rt_type *type, int write,
                       rt_request **request, const char *fn);
/* Completes the requests of finished accesses; returns how many (the engine's pass, through
 * rt__io_progress). */
int rt__io_async_progress(void);
/* Waits until fh has no access in flight. */
void rt__io_async_drain(rt_file *fh);

/* ---- hints (io_info.c) */

/* Sets fh->info to the hints in force: the defaults, with the valid ones of `info` (NULL: none). */
int rt__io_hints(rt_file *fh, rt_info *info);

#endif
