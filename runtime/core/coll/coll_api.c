/* coll_api.c — the collective entry points: each procedure's blocking, nonblocking (MPI_I*)
 * and persistent (*_init) forms fill one rt__coll_args and run the same schedule builder. */
#include "coll.h"
#include "type/type.h"

/* Checks the datatypes a collective uses (non-NULL ones must be committed). */
static int types_ok(rt_comm *comm, const rt__coll_args *a, const char *fn)
{
    int err = RT_SUCCESS;
    if (a->stype && (a->sbuf != RT_IN_PLACE || !a->rtype)) /* reductions: rtype NULL */
        err = rt__type_check(a->stype, (rt_obj *)comm, fn);
    if (!err && a->rtype)
        err = rt__type_check(a->rtype, (rt_obj *)comm, fn);
    return err;
}

/* MPI_IN_PLACE is a send buffer, except in scatters, where the root passes it as recvbuf; never
 * on inter-communicators. */
int rt__coll_call(rt_comm *comm, rt__coll_build_fn build, const rt__coll_args *a, int mode, rt_request **req,
                  const char *fn)
{
    int scatter = build == rt__build_scatter;
    if (comm->remote_size > 0) {
        if (a->sbuf == RT_IN_PLACE || a->rbuf == RT_IN_PLACE)
            return rt__coll_bad_in_place(comm, fn, a->sbuf == RT_IN_PLACE ? "sendbuf" : "recvbuf");
        rt__coll_build_fn inter = rt__coll_inter_builder(build);
        if (!inter)
            return rt_raise((rt_obj *)comm, RT_ERR_COMM, fn, "not defined on an inter-communicator");
        build = inter;
    }
    int err = RT_SUCCESS;
    if (a->rbuf == RT_IN_PLACE && !scatter)
        err = rt__coll_bad_in_place(comm, fn, "recvbuf");
    else if (a->sbuf == RT_IN_PLACE && scatter)
        err = rt__coll_bad_in_place(comm, fn, "sendbuf");
    else
        err = types_ok(comm, a, fn);
    return err ? rt__coll_agree(comm, build, a, err, fn) : rt__coll_run(comm, build, a, mode, req, fn);
}

#define P_BARRIER rt_comm *comm
COLLECTIVE(Barrier, Ibarrier, P_BARRIER, rt__build_barrier, .root = 0)

#define P_BCAST void *buffer, rt_count count, rt_type *datatype, int root, rt_comm *comm
COLLECTIVE(Bcast, Ibcast, P_BCAST, rt__build_bcast, .rbuf = buffer, .rcount = count, .rtype = datatype, .root = root)

#define P_GATHER                                                                                        \
    const void *sendbuf, rt_count sendcount, rt_type *sendtype, void *recvbuf, rt_count recvcount,      \
        rt_type *recvtype, int root, rt_comm *comm
#define A_GATHER                                                                                        \
    .sbuf = sendbuf, .scount = sendcount, .stype = sendtype, .rbuf = recvbuf, .rcount = recvcount,      \
    .rtype = recvtype, .root = root
COLLECTIVE(Gather, Igather, P_GATHER, rt__build_gather, A_GATHER)
COLLECTIVE(Scatter, Iscatter, P_GATHER, rt__build_scatter, A_GATHER)

#define P_GATHERV                                                                                       \
    const void *sendbuf, rt_count sendcount, rt_type *sendtype, void *recvbuf, rt_counts recvcounts,    \
        rt_counts displs, rt_type *recvtype, int root, rt_comm *comm
COLLECTIVE(Gatherv, Igatherv, P_GATHERV, rt__build_gather, .sbuf = sendbuf, .scount = sendcount,
           .stype = sendtype, .rbuf = recvbuf, .rcounts = recvcounts, .rdispls = displs, .rtype = recvtype,
           .root = root, .varies = 1)

#define P_SCATTERV                                                                                      \
    const void *sendbuf, rt_counts sendcounts, rt_counts displs, rt_type *sendtype, void *recvbuf,      \
        rt_count recvcount, rt_type *recvtype, int root, rt_comm *comm
COLLECTIVE(Scatterv, Iscatterv, P_SCATTERV, rt__build_scatter, .sbuf = sendbuf, .scounts = sendcounts,
           .sdispls = displs, .stype = sendtype, .rbuf = recvbuf, .rcount = recvcount, .rtype = recvtype,
           .root = root, .varies = 1)

COLLECTIVE(Allgather, Iallgather, P_ALLGATHER, rt__build_allgather, A_ALLGATHER)
COLLECTIVE(Alltoall, Ialltoall, P_ALLGATHER, rt__build_alltoall, A_ALLGATHER)
COLLECTIVE(Allgatherv, Iallgatherv, P_ALLGATHERV, rt__build_allgather, A_ALLGATHERV)
COLLECTIVE(Alltoallv, Ialltoallv, P_ALLTOALLV, rt__build_alltoall, A_ALLTOALLV)

#define P_ALLTOALLW                                                                                     \
    const void *sendbuf, rt_counts sendcounts, rt_counts sdispls, rt_handle_array sendtypes,            \
        void *recvbuf, rt_counts recvcounts, rt_counts rdispls, rt_handle_array recvtypes, rt_comm *comm
COLLECTIVE(Alltoallw, Ialltoallw, P_ALLTOALLW, rt__build_alltoall, .sbuf = sendbuf, .scounts = sendcounts,
           .sdispls = sdispls, .stypes = sendtypes, .rbuf = recvbuf, .rcounts = recvcounts, .rdispls = rdispls,
           .rtypes = recvtypes, .varies = 1)

#define P_REDUCE                                                                                        \
    const void *sendbuf, void *recvbuf, rt_count count, rt_type *datatype, rt_op *op, int root,         \
        rt_comm *comm
COLLECTIVE(Reduce, Ireduce, P_REDUCE, rt__build_reduce, .sbuf = sendbuf, .rbuf = recvbuf, .scount = count,
           .stype = datatype, .op = op, .root = root)

#define P_ALLREDUCE const void *sendbuf, void *recvbuf, rt_count count, rt_type *datatype, rt_op *op, rt_comm *comm
#define A_ALLREDUCE .sbuf = sendbuf, .rbuf = recvbuf, .scount = count, .stype = datatype, .op = op
COLLECTIVE(Allreduce, Iallreduce, P_ALLREDUCE, rt__build_allreduce, A_ALLREDUCE)
COLLECTIVE(Scan, Iscan, P_ALLREDUCE, rt__build_scan, A_ALLREDUCE)
COLLECTIVE(Exscan, Iexscan, P_ALLREDUCE, rt__build_exscan, A_ALLREDUCE)

#define P_REDUCE_SCATTER_BLOCK                                                                          \
    const void *sendbuf, void *recvbuf, rt_count recvcount, rt_type *datatype, rt_op *op, rt_comm *comm
COLLECTIVE(Reduce_scatter_block, Ireduce_scatter_block, P_REDUCE_SCATTER_BLOCK, rt__build_reduce_scatter,
           .sbuf = sendbuf, .rbuf = recvbuf, .rcount = recvcount, .stype = datatype, .op = op)

#define P_REDUCE_SCATTER                                                                                \
    const void *sendbuf, void *recvbuf, rt_counts recvcounts, rt_type *datatype, rt_op *op, rt_comm *comm
COLLECTIVE(Reduce_scatter, Ireduce_scatter, P_REDUCE_SCATTER, rt__build_reduce_scatter, .sbuf = sendbuf,
           .rbuf = recvbuf, .rcounts = recvcounts, .stype = datatype, .op = op, .varies = 1)
