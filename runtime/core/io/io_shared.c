/* io_shared.c — the shared file pointer: one MPI_Offset in a window at the file's rank 0, moved
 * with atomic MPI_Fetch_and_op (loads and stores on one node, messages across hosts). */
#include "io.h"
#include "coll/coll.h"

#include <stdio.h>

int rt__io_shared_open(rt_file *fh, rt_offset start, const char *fn)
{
    rt_aint size = fh->comm->rank == 0 ? (rt_aint)sizeof(rt_offset) : 0;
    int err = rt_Win_allocate(size, 1, NULL, fh->comm, &fh->shared_mem, &fh->shared);
    if (err)
        return rt_raise(rt_file_null(), err, fn, "cannot make the shared file pointer's window");
    if (fh->comm->rank == 0)
        *fh->shared_mem = start;
    rt_Win_fence(0, fh->shared); /* the start value is in place before anyone moves it */
    return RT_SUCCESS;
}

void rt__io_shared_close(rt_file *fh)
{
    if (fh->shared)
        rt_Win_free(&fh->shared);
    fh->shared = NULL;
    fh->shared_mem = NULL;
}

/* One atomic operation on the pointer: *result = old value, then op(value, *in). */
static int shared_op(rt_file *fh, const rt_offset *in, rt_offset *result, int op, const char *fn)
{
    rt_win *w = fh->shared;
    int err = rt_Win_lock(RT_LOCK_SHARED, 0, 0, w);
    if (!err) {
        err = rt_Fetch_and_op(in, result, (rt_type *)rt_builtins[RT_B_OFFSET], 0, 0, (rt_op *)rt_builtins[op], w);
        int uerr = rt_Win_unlock(0, w);
        err = err ? err : uerr;
    }
    return err ? rt_raise(&fh->obj, err, fn, "the shared file pointer could not be reached") : RT_SUCCESS;
}

int rt__io_shared_fetch_add(rt_file *fh, rt_offset add, rt_offset *old, const char *fn)
{
    return shared_op(fh, &add, old, add ? RT_B_SUM : RT_B_NO_OP, fn);
}

int rt__io_shared_set(rt_file *fh, rt_offset to, const char *fn)
{
    rt_offset old;
    return shared_op(fh, &to, &old, RT_B_REPLACE, fn);
}

/* MPI_File_get_position_shared: the shared pointer, in etypes of the view. */
int rt_File_get_position_shared(rt_file *fh, rt_offset *offset)
{
    return rt__io_shared_fetch_add(fh, 0, offset, __func__);
}

/* MPI_File_seek_shared: collective; every process gives the same offset and whence (else
 * RT_ERR_ARG); the first moves the pointer, then all go on. */
int rt_File_seek_shared(rt_file *fh, rt_offset offset, int whence)
{
    rt_offset cur, to;
    int err = rt__io_shared_fetch_add(fh, 0, &cur, __func__);
    if (!err)
        err = rt__io_seek_target(fh, offset, whence, cur, &to, __func__);
    rt_offset mine[2] = {err ? -1 : to, err ? 1 : ~to}, all[2] = {mine[0], mine[1]};
    rt__team t = rt__team_of(fh->comm);
    int cerr = rt__coll_barrier(&t);
    if (!cerr)
        cerr = rt__coll_allreduce(&t, all, sizeof all, rt__op_band);
    if (err)
        return err;
    if (cerr)
        return rt_raise(&fh->obj, cerr, __func__, "the processes could not agree");
    if (all[0] != mine[0] || all[1] != mine[1])
        return rt_raise(&fh->obj, RT_ERR_ARG, __func__, "the processes gave different 'offset' or 'whence'");
    if (fh->comm->rank == 0 && (err = rt__io_shared_set(fh, to, __func__)))
        return err;
    if ((cerr = rt__coll_barrier(&t)))
        return rt_raise(&fh->obj, cerr, __func__, "the processes could not agree");
    return RT_SUCCESS;
}
