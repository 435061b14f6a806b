/* win.c — RMA window objects: creation (create, allocate, allocate_shared, create_dynamic),
 * MPI_Win_free, attach/detach, shared queries, group, name, info and error handlers. */
#include "info/info.h"
#include "win_rma.h"
#include "attr/attr.h"
#include "coll/coll.h"
#include "comm/comm.h"

#include <limits.h>
#include <stdlib.h>

int rt__all_ok(rt_comm *comm, int ok, int *err)
{
    uint32_t flag = ok ? 1u : 0u;
    rt__team t = rt__team_of(comm);
    *err = rt__coll_allreduce(&t, &flag, sizeof flag, rt__op_band);
    return !*err && flag;
}

static int win_failed(rt_obj *eo, int err, const char *fn)
{
    if (err == RT_ERR_NO_MEM)
        return rt_raise(eo, err, fn, "out of memory for the window");
    return rt_raise(eo, err, fn, "the members could not agree (internal communication failed: %s)",
                    rt__class_string(err));
}

/* Common part of the creation calls: checks, a private communicator (a dup of comm), the
 * members' sizes and displacement units. On success *out is the new window (not yet
 * holding memory); on failure the error is raised on comm. */
static int win_new(rt_aint size, rt_aint disp_unit, rt_info *info, rt_comm *comm, int flavor, rt_win **out,
                   const char *fn)
{
    int err = rt__comm_check_intra(comm, fn, "comm");
    if (err)
        return err;
    if (size < 0)
        return rt_raise(&comm->obj, RT_ERR_SIZE, fn, "invalid size 'size' = %lld: must be >= 0", (long long)size);
    if (disp_unit <= 0)
        return rt_raise(&comm->obj, RT_ERR_DISP, fn, "invalid displacement unit 'disp_unit' = %lld: must be > 0",
                        (long long)disp_unit);
    rt_win *w = (rt_win *)rt__obj_new(RT_CLASS_WIN);
    struct { rt_aint size, disp_unit; } mine = {size, disp_unit};
    if (!w || !(w->peers = malloc(sizeof *w->peers * (size_t)comm->size))) {
        if (w)
            rt__obj_release(&w->obj);
        return win_failed(&comm->obj, RT_ERR_NO_MEM, fn);
    }
    rt__team t = rt__team_of(comm);
    if ((err = rt__coll_allgather(&t, &mine, w->peers, sizeof mine)) != RT_SUCCESS) {
        rt__win_destroy(&w->obj);
        rt__obj_release(&w->obj);
        return win_failed(&comm->obj, err, fn);
    }
    if ((err = rt_Comm_dup(comm, &w->comm)) != RT_SUCCESS) {
        rt__win_destroy(&w->obj);
        rt__obj_release(&w->obj);
        return err; /* raised on comm by MPI_Comm_dup */
    }
    rt__obj_release(&w->comm->errh->obj); /* its failures are raised on the window */
    w->comm->errh = (rt_errhandler *)rt_builtins[RT_B_ERRORS_RETURN];
    if (rt__win_rma_init(w) != RT_SUCCESS) {
        rt__win_destroy(&w->obj);
        rt__obj_release(&w->obj);
        return win_failed(&comm->obj, RT_ERR_NO_MEM, fn);
    }
    w->size = size;
    w->disp_unit = disp_unit;
    w->disp_unit_int = disp_unit > INT_MAX ? INT_MAX : (int)disp_unit;
    w->flavor = flavor;
    w->errh = (rt_errhandler *)rt_builtins[RT_B_ERRORS_ARE_FATAL];
    rt__obj_retain(&w->errh->obj);
    if (rt__win_hints_init(w, info) != RT_SUCCESS) {
        rt__win_destroy(&w->obj);
        rt__obj_release(&w->obj);
        return win_failed(&comm->obj, RT_ERR_NO_MEM, fn);
    }
    *out = w;
    return RT_SUCCESS;
}

void rt__win_destroy(rt_obj *o)
{
    rt_win *w = (rt_win *)o;
    rt__win_shm_unmap(w);
    free(w->mem);
    free(w->peers);
    free(w->attached);
    free(w->cma);
    rt__win_rma_fini(w);
    if (w->comm)
        rt__obj_release(&w->comm->obj);
    if (w->info)
        rt__obj_release(&w->info->obj);
    if (w->errh)
        rt__obj_release(&w->errh->obj);
    rt__attrs_clear(o); /* MPI_Win_free deleted them: left only if it never ran */
    w->mem = NULL, w->peers = NULL, w->attached = NULL, w->cma = NULL, w->comm = NULL, w->info = NULL, w->errh = NULL;
}

/* MPI_Win_create: a window over the caller's memory [base, base + size). Collective over
 * comm (an intra-communicator). Bad size: RT_ERR_SIZE; disp_unit <= 0: RT_ERR_DISP. On one
 * node, large puts and gets copy straight between processes (rt__win_cma_setup). */
int rt_Win_create(void *base, rt_aint size, rt_aint disp_unit, rt_info *info, rt_comm *comm, rt_win **win)
{
    rt_win *w;
    int err = win_new(size, disp_unit, info, comm, RT_WIN_FLAVOR_CREATE, &w, __func__);
    if (err)
        return err;
    w->base = base;
    if ((err = rt__win_cma_setup(w, __func__)) != RT_SUCCESS) {
        rt__win_destroy(&w->obj);
        rt__obj_release(&w->obj);
        return err;
    }
    rt__win_rma_open(w);
    *win = w;
    return RT_SUCCESS;
}

/* MPI_Win_allocate: as MPI_Win_create over size bytes the library allocates (aligned as the
 * hints say, at least for any type); *(void **)baseptr = their address. When the processes
 * share memory (rt__win_direct_agree), the memory is a shared segment's parts, each on pages
 * of its own, and operations are loads and stores. */
int rt_Win_allocate(rt_aint size, rt_aint disp_unit, rt_info *info, rt_comm *comm, void *baseptr, rt_win **win)
{
    rt_win *w;
    int err = win_new(size, disp_unit, info, comm, RT_WIN_FLAVOR_ALLOCATE, &w, __func__);
    if (err)
        return err;
    if ((w->direct = rt__win_direct_agree(w, &err) )) {
        if ((err = rt__win_shm_map(w, 1, __func__)) != RT_SUCCESS) {
            rt__win_destroy(&w->obj);
            rt__obj_release(&w->obj);
            return err;
        }
    } else {
        if (!err && posix_memalign(&w->mem, w->align, (size_t)(size > 0 ? size : 1)) != 0)
            w->mem = NULL;
        if (err || !rt__all_ok(w->comm, w->mem != NULL, &err)) { /* all have the window, or none */
            rt__win_destroy(&w->obj);
            rt__obj_release(&w->obj);
            return win_failed(&comm->obj, err ? err : RT_ERR_NO_MEM, __func__);
        }
        w->base = w->mem;
    }
    rt__win_rma_open(w);
    *(void **)baseptr = w->base;
    *win = w;
    return RT_SUCCESS;
}

/* MPI_Win_allocate_shared: one shared segment for the processes of comm (all on this node,
 * else RT_ERR_RMA_SHARED), each process's part contiguous after the previous rank's
 * (unless the alloc_shared_noncontig hint: parts then start on page boundaries);
 * *(void **)baseptr = this process's part. */
int rt_Win_allocate_shared(rt_aint size, rt_aint disp_unit, rt_info *info, rt_comm *comm, void *baseptr,
                           rt_win **win)
{
    rt_win *w;
    int err = win_new(size, disp_unit, info, comm, RT_WIN_FLAVOR_SHARED, &w, __func__);
    if (err)
        return err;
    w->direct = rt__win_direct_agree(w, &err) ;
    if (err)
        err = win_failed(&comm->obj, err, __func__);
    if (err || (err = rt__win_shm_map(w, w->noncontig, __func__)) != RT_SUCCESS) {
        rt__win_destroy(&w->obj);
        rt__obj_release(&w->obj);
        return err;
    }
    rt__win_rma_open(w);
    *(void **)baseptr = w->base;
    *win = w;
    return RT_SUCCESS;
}

/* MPI_Win_create_dynamic: a window without memory; processes attach regions later. */
int rt_Win_create_dynamic(rt_info *info, rt_comm *comm, rt_win **win)
{
    int err = win_new(0, 1, info, comm, RT_WIN_FLAVOR_DYNAMIC, win, __func__);
    if (!err)
        rt__win_rma_open(*win);
    return err;
}

/* MPI_Win_attach: exposes [base, base + size) in a dynamic window (RT_ERR_RMA_FLAVOR for
 * other windows; overlapping an attached region: RT_ERR_RMA_ATTACH). */
int rt_Win_attach(rt_win *win, void *base, rt_aint size)
{
    if (win->flavor != RT_WIN_FLAVOR_DYNAMIC)
        return RT_ERR(win, RT_ERR_RMA_FLAVOR, "memory can only be attached to a dynamic window");
    if (size < 0)
        return RT_ERR(win, RT_ERR_SIZE, "invalid size 'size' = %lld: must be >= 0", (long long)size);
    char *b = base;
    for (int i = 0; i < win->nattached; i++) {
        char *ob = win->attached[i].base;
        if (b < ob + win->attached[i].size && ob < b + size)
            return RT_ERR(win, RT_ERR_RMA_ATTACH, "region %p of %lld bytes overlaps one attached already", base,
                          (long long)size);
    }
    struct rt__win_region *r = realloc(win->attached, sizeof *r * (size_t)(win->nattached + 1));
    if (!r)
        return RT_ERR(win, RT_ERR_NO_MEM, "out of memory");
    win->attached = r;
    r[win->nattached++] = (struct rt__win_region){base, size};
    return RT_SUCCESS;
}

/* MPI_Win_detach: removes the region attached at base (none: RT_ERR_RMA_ATTACH). */
int rt_Win_detach(rt_win *win, const void *base)
{
    if (win->flavor != RT_WIN_FLAVOR_DYNAMIC)
        return RT_ERR(win, RT_ERR_RMA_FLAVOR, "memory can only be detached from a dynamic window");
    for (int i = 0; i < win->nattached; i++)
        if (win->attached[i].base == base) {
            win->attached[i] = win->attached[--win->nattached];
            return RT_SUCCESS;
        }
    return RT_ERR(win, RT_ERR_RMA_ATTACH, "no region is attached at %p", base);
}

/* MPI_Win_free: collective; first the window's attributes are deleted, newest first (delete
 * callbacks); no process returns before every process has called it; then the window's
 * memory (allocate, allocate_shared) is gone and *win = NULL. A delete callback's error on
 * any process fails the call everywhere and leaves the window valid: the process whose
 * callback failed returns its code (the attribute and those set before it kept), the others
 * RT_ERR_OTHER with their attributes gone. */
int rt_Win_free(rt_win **win)
{
    rt_win *w = *win;
    int idle = rt__win_rma_idle(w), err;
    int cb = idle ? rt__attrs_delete_all(&w->obj, __func__) : RT_SUCCESS;
    if (!rt__all_ok(w->comm, idle && cb == RT_SUCCESS, &err)) { /* also the barrier */
        if (!idle)
            return RT_ERR(w, RT_ERR_RMA_SYNC,
                          "one-sided operations are pending on the window: end the epoch (MPI_Win_fence) first");
        if (cb != RT_SUCCESS)
            return cb; /* raised by rt__attrs_delete_all */
        if (err)
            return win_failed(&w->obj, err, __func__);
        return RT_ERR(w, RT_ERR_OTHER, "the window could not be freed on another process (a delete callback "
                                       "failed, or one-sided operations were pending there): the window stays");
    }
    err = rt__win_rma_settle(w); /* every epoch on w is over: replies may still be in flight */
    if (err)
        err = rt__rma_failed(w, err, RT_ANY_SOURCE, "MPI_Win_free");
    rt__win_destroy(&w->obj);
    rt__obj_release(&w->obj);
    *win = NULL;
    return err;
}

/* MPI_Win_shared_query: size, displacement unit and local address of rank's part of a
 * shared window (rank MPI_PROC_NULL: the first part of non-zero size). Other flavors:
 * RT_ERR_RMA_FLAVOR. */
int rt_Win_shared_query(rt_win *win, int rank, rt_aint *size, rt_aint *disp_unit, void *baseptr)
{
    if (win->flavor != RT_WIN_FLAVOR_SHARED)
        return RT_ERR(win, RT_ERR_RMA_FLAVOR, "not a window made by MPI_Win_allocate_shared");
    int n = win->comm->size;
    if (rank == RT_PROC_NULL)
        for (rank = 0; rank < n - 1 && win->peers[rank].size == 0; rank++)
            ;
    if (rank < 0 || rank >= n)
        return RT_ERR(win, RT_ERR_RANK, "invalid rank 'rank' = %s: the window's group has %d process%s",
                      rt__rank_text(rank, (char[16]){0}, 16), n, n == 1 ? "" : "es");
    *size = win->peers[rank].size;
    *disp_unit = win->peers[rank].disp_unit;
    *(void **)baseptr = (char *)win->shm + win->shm_off[rank];
    return RT_SUCCESS;
}

/* The size of win's group (the target ranks of its RMA calls); win was validated by the face, -1 for NULL. */
int rt_win_size_of(const rt_win *win)
{
    return win ? rt_comm_size_of(win->comm) : -1;
}

/* MPI_Win_get_group: a new group of the window's processes. */
int rt_Win_get_group(rt_win *win, rt_group **group)
{
    return rt_Comm_group(win->comm, group);
}

/* MPI_Win_set_name / get_name ("MPI_WIN_NULL" for the null handle, MPI-4.1). */
int rt_Win_set_name(rt_win *win, const char *win_name)
{
    rt__copy_str(win->name, sizeof win->name, win_name);
    return RT_SUCCESS;
}

int rt_Win_get_name(rt_win *win, char *win_name, int *resultlen)
{
    *resultlen = rt__copy_str(win_name, RT_MAX_OBJECT_NAME, win ? win->name : "MPI_WIN_NULL");
    return RT_SUCCESS;
}
