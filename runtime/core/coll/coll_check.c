/* coll_check.c — SWITCHYARD_COLL_CHECK=1: before each collective on an intra-communicator, its
 * processes agree that every one accepted its arguments and called the same collective with the
 * same root, op and type signature of the data every process exchanges alike. */
#include "coll.h"

#include <limits.h>
#include <stdlib.h>

static int checking = -1; /* read on first use */
/* The calling thread runs an agreement, whose own allreduce is not checked. Per thread: under
 * MPI_THREAD_MULTIPLE another thread's collective on another communicator may run while this
 * one waits for its agreement (the wait lets the library's lock go), and must be checked. */
static _Thread_local int agreeing;

/* What the processes must agree on, each compared by the MAX of v and of -v (its minimum). */
enum { F_REFUSED, F_PROC, F_ROOT, F_OP, F_BASIC, F_ELEMENTS, NF };
#define UNKNOWN LLONG_MIN /* a field this process cannot tell: left out of the comparison */

static int rooted(rt__coll_build_fn b)
{
    return b == rt__build_bcast || b == rt__build_gather || b == rt__build_scatter || b == rt__build_reduce;
}

/* The procedure, by name (the same in every process, whatever its address there). */
static long long proc_id(const char *fn)
{
    unsigned h = 2166136261u; /* FNV-1a */
    for (; *fn; fn++)
        h = (h ^ (unsigned char)*fn) * 16777619u;
    return h;
}

/* The count and datatype every process gives alike (per peer), or none: a v or w collective's
 * vary by process. MPI_IN_PLACE takes its signature from the other side. */
static int uniform_side(rt__coll_build_fn b, const rt__coll_args *a, rt_count *count, rt_type **type)
{
    int known = b == rt__build_bcast || b == rt__build_gather || b == rt__build_scatter || b == rt__build_allgather ||
                b == rt__build_alltoall || b == rt__build_reduce || b == rt__build_allreduce || b == rt__build_scan ||
                b == rt__build_exscan || b == rt__build_reduce_scatter;
    if (!known || a->varies) /* neighbourhood collectives match by pairs of neighbours only */
        return 0;
    if (b == rt__build_bcast || (b == rt__build_scatter && a->rbuf != RT_IN_PLACE) ||
        (b != rt__build_scatter && a->sbuf == RT_IN_PLACE && a->rtype))
        *count = a->rcount, *type = a->rtype;
    else if (b == rt__build_reduce_scatter)
        *count = a->rcount, *type = a->stype;
    else
        *count = a->scount, *type = a->stype;
    return *type != NULL;
}

/* The type signature of count elements of t: its basic type and their number, or for a type
 * of mixed basic types its bytes (basic -1); MPI_PACKED matches anything (UNKNOWN). */
static void signature(rt_count count, const rt_type *t, long long *basic, long long *elements)
{
    if (t->basic == RT_B_PACKED) {
        *basic = *elements = UNKNOWN;
    } else if (t->basic >= 0 && t->lay) {
        *basic = t->basic;
        *elements = (long long)(count * t->lay->elements);
    } else {
        *basic = -1;
        *elements = (long long)(count * t->size);
    }
}

/* This process's fields (UNKNOWN where it does not tell). */
static void fields(rt__coll_build_fn build, const rt__coll_args *a, const char *fn, long long *v)
{
    v[F_PROC] = proc_id(fn);
    v[F_ROOT] = build && rooted(build) ? a->root : 0;
    v[F_OP] = !a || !a->op ? 0 : a->op->obj.builtin ? a->op->obj.index : UNKNOWN; /* user ops differ by address */
    rt_count count;
    rt_type *type;
    if (build && a && uniform_side(build, a, &count, &type))
        signature(count, type, &v[F_BASIC], &v[F_ELEMENTS]);
    else
        v[F_BASIC] = v[F_ELEMENTS] = UNKNOWN;
}

/* The mismatch of field f among the processes (lo < hi), raised on comm naming fn. */
static int mismatch(rt_comm *comm, int f, long long mine, long long lo, long long hi, const char *fn)
{
    switch (f) {
    case F_PROC:
        return rt_raise((rt_obj *)comm, RT_ERR_OTHER, fn,
                        "the processes of the communicator called different collectives here: another one "
                        "called another procedure, or the blocking, nonblocking or persistent form of it "
                        "(SWITCHYARD_COLL_CHECK)");
    case F_ROOT:
        return rt_raise((rt_obj *)comm, RT_ERR_ROOT, fn,
                        "invalid root = %lld: the processes of the communicator passed roots from %lld to %lld "
                        "(SWITCHYARD_COLL_CHECK)", mine, lo, hi);
    case F_OP:
        return rt_raise((rt_obj *)comm, RT_ERR_OP, fn,
                        "the processes of the communicator passed different operations (SWITCHYARD_COLL_CHECK)");
    case F_BASIC:
        return rt_raise((rt_obj *)comm, RT_ERR_TYPE, fn,
                        "the processes of the communicator passed datatypes of different type signatures "
                        "(SWITCHYARD_COLL_CHECK)");
    default:
        return rt_raise((rt_obj *)comm, RT_ERR_COUNT, fn,
                        "type signature mismatch: this process passed %lld elements, the processes of the "
                        "communicator from %lld to %lld (SWITCHYARD_COLL_CHECK)", mine, lo, hi);
    }
}

int rt__coll_agree(rt_comm *comm, rt__coll_build_fn build, const rt__coll_args *a, int local_err, const char *fn)
{
    if (checking < 0) {
        const char *e = getenv("SWITCHYARD_COLL_CHECK");
        checking = e && (e[0] == '1' || e[0] == 'y' || e[0] == 't');
    }
    if (!checking || agreeing || comm->remote_size > 0)
        return local_err;
    /* a process that refused its arguments tells only that */
    long long v[NF] = {0}, mine[2 * NF], all[2 * NF];
    if (!local_err)
        fields(build, a, fn, v);
    for (int f = 0; f < NF; f++) {
        int known = f == F_REFUSED || (!local_err && v[f] != UNKNOWN);
        mine[2 * f] = f == F_REFUSED ? local_err != 0 : known ? v[f] : UNKNOWN;
        mine[2 * f + 1] = f == F_REFUSED ? 0 : known ? -v[f] : UNKNOWN;
    }
    const rt__coll_args m = {.sbuf = mine, .rbuf = all, .scount = 2 * NF,
                             .stype = (rt_type *)rt_builtins[RT_B_LONG_LONG], .op = (rt_op *)rt_builtins[RT_B_MAX]};
    agreeing = 1;
    int err = rt__coll_run(comm, rt__build_allreduce, &m, RT__COLL_BLOCKING, NULL, fn);
    agreeing = 0;
    if (err || local_err)
        return local_err ? local_err : err;
    for (int f = F_PROC; f < NF; f++) { /* the first field some disagree on, on every process */
        long long hi = all[2 * f];
        if (hi != UNKNOWN && -all[2 * f + 1] != hi)
            return mismatch(comm, f, v[f], -all[2 * f + 1], hi, fn);
    }
    if (all[2 * F_REFUSED])
        return rt_raise((rt_obj *)comm, RT_ERR_OTHER, fn,
                        "another process of the communicator refused its arguments to this collective "
                        "(SWITCHYARD_COLL_CHECK)");
    return RT_SUCCESS;
}

int rt_coll_refused(rt_comm *comm, int err, const char *fn)
{
    return comm ? rt__coll_agree(comm, NULL, NULL, err, fn) : err;
}
