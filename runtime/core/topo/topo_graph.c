/* topo_graph.c — graph topologies: MPI_Graph_create/get/neighbors/neighbors_count/map and
 * MPI_Graphdims_get. Node i of the graph is rank i (reordering is the identity). */
#include "topo.h"
#include "comm/comm.h"

#include <stdlib.h>

/* Checks a graph description (nnodes, index, edges) against comm; *nedges = its edges. */
static int graph_check(rt_comm *comm, int nnodes, const int *index, const int *edges, int *nedges, const char *fn)
{
    if (nnodes < 0 || nnodes > comm->size)
        return rt_raise(&comm->obj, RT_ERR_ARG, fn, "invalid argument 'nnodes' = %d: must be in 0..%d", nnodes,
                        comm->size);
    *nedges = 0;
    if (nnodes == 0)
        return RT_SUCCESS;
    if (!index)
        return rt__null_arg(&comm->obj, fn, "index");
    for (int i = 0; i < nnodes; i++)
        if (index[i] < (i ? index[i - 1] : 0))
            return rt_raise(&comm->obj, RT_ERR_ARG, fn,
                            "invalid argument 'index[%d]' = %d: must be >= 0 and non-decreasing", i, index[i]);
    *nedges = index[nnodes - 1];
    if (*nedges > 0 && !edges)
        return rt__null_arg(&comm->obj, fn, "edges");
    for (int e = 0; e < *nedges; e++)
        if (edges[e] < 0 || edges[e] >= nnodes)
            return rt_raise(&comm->obj, RT_ERR_ARG, fn, "invalid argument 'edges[%d]' = %d: not a node (0..%d)", e,
                            edges[e], nnodes - 1);
    return RT_SUCCESS;
}

/* MPI_Graph_create: the first nnodes processes of comm_old get a graph communicator, the
 * others MPI_COMM_NULL (all of them when nnodes = 0). comm_old an inter-communicator:
 * RT_ERR_COMM; a malformed graph: RT_ERR_ARG. */
int rt_Graph_create(rt_comm *comm_old, int nnodes, const int *index, const int *edges, int reorder,
                    rt_comm **comm_graph)
{
    (void)reorder;
    int nedges, err;
    if ((err = rt__comm_check_intra(comm_old, __func__, "comm_old")) != RT_SUCCESS ||
        (err = graph_check(comm_old, nnodes, index, edges, &nedges, __func__)) != RT_SUCCESS)
        return err;
    struct rt__topo *t = rt__topo_new(RT_GRAPH);
    if (t) {
        t->nnodes = nnodes;
        t->nedges = nedges;
        t->index = rt__ints_dup(index, nnodes);
        t->edges = rt__ints_dup(edges, nedges);
    }
    if (!t || !t->index || !t->edges) {
        rt__topo_free(t);
        return RT_ERR(comm_old, RT_ERR_NO_MEM, "out of memory");
    }
    return rt__topo_comm(comm_old, nnodes, NULL, t, comm_graph, __func__);
}

/* MPI_Graphdims_get: the number of nodes and edges. Not a graph: RT_ERR_TOPOLOGY. */
int rt_Graphdims_get(rt_comm *comm, int *nnodes, int *nedges)
{
    int err = rt__topo_check(comm, RT_GRAPH, __func__);
    if (!err) {
        *nnodes = comm->topo->nnodes;
        *nedges = comm->topo->nedges;
    }
    return err;
}

/* MPI_Graph_get: index and edges, the first maxindex and maxedges entries. Negative
 * sizes: RT_ERR_ARG; not a graph: RT_ERR_TOPOLOGY. */
int rt_Graph_get(rt_comm *comm, int maxindex, int maxedges, int *index, int *edges)
{
    int err = rt__topo_check(comm, RT_GRAPH, __func__);
    if (err)
        return err;
    const struct rt__topo *t = comm->topo;
    if (maxindex < 0 || maxedges < 0)
        return RT_ERR(comm, RT_ERR_ARG, "invalid argument '%s' = %d: must be >= 0",
                      maxindex < 0 ? "maxindex" : "maxedges", maxindex < 0 ? maxindex : maxedges);
    int ni = maxindex < t->nnodes ? maxindex : t->nnodes, ne = maxedges < t->nedges ? maxedges : t->nedges;
    if ((ni > 0 && !index) || (ne > 0 && !edges))
        return rt__null_arg(&comm->obj, __func__, ni > 0 && !index ? "index" : "edges");
    if (ni > 0)
        memcpy(index, t->index, sizeof *index * (size_t)ni);
    if (ne > 0)
        memcpy(edges, t->edges, sizeof *edges * (size_t)ne);
    return RT_SUCCESS;
}

/* The neighbors of node rank: edges[first .. first + *n). */
static int neighbors_of(rt_comm *comm, int rank, int *first, int *n, const char *fn)
{
    int err = rt__topo_check(comm, RT_GRAPH, fn);
    if (err)
        return err;
    const struct rt__topo *t = comm->topo;
    if (rank < 0 || rank >= t->nnodes)
        return rt_raise(&comm->obj, RT_ERR_RANK, fn, "invalid rank 'rank' = %s: the graph has %d nodes",
                        rt__rank_text(rank, (char[16]){0}, 16), t->nnodes);
    *first = rank ? t->index[rank - 1] : 0;
    *n = t->index[rank] - *first;
    return RT_SUCCESS;
}

/* MPI_Graph_neighbors_count: how many neighbors node rank has. Bad rank: RT_ERR_RANK;
 * not a graph: RT_ERR_TOPOLOGY. */
int rt_Graph_neighbors_count(rt_comm *comm, int rank, int *nneighbors)
{
    int first = 0;
    return neighbors_of(comm, rank, &first, nneighbors, __func__);
}

/* MPI_Graph_neighbors: the first maxneighbors neighbors of node rank, in edge order. */
int rt_Graph_neighbors(rt_comm *comm, int rank, int maxneighbors, int *neighbors)
{
    int first = 0, n = 0, err = neighbors_of(comm, rank, &first, &n, __func__);
    if (err)
        return err;
    if (maxneighbors < 0)
        return RT_ERR(comm, RT_ERR_ARG, "invalid argument 'maxneighbors' = %d: must be >= 0", maxneighbors);
    if (n > maxneighbors)
        n = maxneighbors;
    if (n > 0 && !neighbors)
        return rt__null_arg(&comm->obj, __func__, "neighbors");
    if (n > 0)
        memcpy(neighbors, comm->topo->edges + first, sizeof *neighbors * (size_t)n);
    return RT_SUCCESS;
}

/* MPI_Graph_map: the rank this process would have in such a graph (the identity), or
 * RT_UNDEFINED when it is not one of its nodes. */
int rt_Graph_map(rt_comm *comm, int nnodes, const int *index, const int *edges, int *newrank)
{
    int nedges, err;
    if ((err = rt__comm_check_intra(comm, __func__, "comm")) != RT_SUCCESS ||
        (err = graph_check(comm, nnodes, index, edges, &nedges, __func__)) != RT_SUCCESS)
        return err;
    *newrank = comm->rank < nnodes ? comm->rank : RT_UNDEFINED;
    return RT_SUCCESS;
}
