/* coll_check.c — SWITCHYARD_COLL_CHECK=1: before each collective on an intra-communicator, its
 * processes agree that every one accepted its arguments and that they passed the same root. */
#include "coll_algo.h"

#include <limits.h>
#include <stdlib.h>

static int checking = -1; /* read on first use */
static int agreeing;      /* the agreement's own allreduce is not checked */

static int rooted(rt__coll_build_fn b)
{
    return b == rt__build_bcast || b == rt__build_gather || b == rt__build_scatter || b == rt__build_reduce;
}

int rt__coll_agree(rt_comm *comm, rt__coll_build_fn build, const rt__coll_args *a, int local_err, const char *fn)
{
    if (checking < 0) {
        const char *e = getenv("SWITCHYARD_COLL_CHECK");
        checking = e && (e[0] == '1' || e[0] == 'y' || e[0] == 't');
    }
    if (!checking || agreeing || comm->remote_size > 0)
        return local_err;
    /* MAX of {refused, root, -root}: a process that refused its arguments counts no root */
    int root = build && rooted(build) ? a->root : 0;
    int mine[3] = {local_err != 0, local_err ? INT_MIN : root, local_err ? INT_MIN : -root}, all[3];
    const rt__coll_args m = {.sbuf = mine, .rbuf = all, .scount = 3, .stype = (rt_type *)rt_builtins[RT_B_INT],
                             .op = (rt_op *)rt_builtins[RT_B_MAX]};
    agreeing = 1;
    int err = rt__coll_run(comm, rt__build_allreduce, &m, RT__COLL_BLOCKING, NULL, fn);
    agreeing = 0;
    if (err || local_err)
        return local_err ? local_err : err;
    if (all[1] != root || -all[2] != root)
        return rt_raise((rt_obj *)comm, RT_ERR_ROOT, fn,
                        "invalid root = %d: the processes of the communicator passed roots from %d to %d "
                        "(SWITCHYARD_COLL_CHECK)", root, -all[2], all[1]);
    if (all[0])
        return rt_raise((rt_obj *)comm, RT_ERR_OTHER, fn,
                        "another process of the communicator refused its arguments to this collective "
                        "(SWITCHYARD_COLL_CHECK)");
    return RT_SUCCESS;
}

int rt_coll_refused(rt_comm *comm, int err, const char *fn)
{
    return comm ? rt__coll_agree(comm, NULL, NULL, err, fn) : err;
}
