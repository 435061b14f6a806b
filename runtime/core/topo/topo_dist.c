/* topo_dist.c — distributed-graph topologies: MPI_Dist_graph_create(_adjacent),
 * MPI_Dist_graph_neighbors(_count), and how MPI_UNWEIGHTED / MPI_WEIGHTS_EMPTY are recognized. */
#define _GNU_SOURCE /* RTLD_DEFAULT */
#include "topo.h"
#include "coll/coll.h"
#include "comm/comm.h"

#include <stdlib.h>

/* The standard ABI's values are (int *)10 and (int *)11. The MPICH-ABI C face passes the
 * addresses its exported MPI_UNWEIGHTED / MPI_WEIGHTS_EMPTY point at, and Fortran those of
 * the common blocks mpif.h puts them in (MPIFCMB5 / MPIFCMB9): all looked up once by name
 * (interim, until the faces map these arguments themselves). */
int rt_weights_kind(const int *weights)
{
    if (weights == RT_UNWEIGHTED)
        return 1;
    if (weights == RT_WEIGHTS_EMPTY)
        return 2;
    return 0;
}

/* Checks n ranks of comm (RT_ERR_RANK) and, if w, n weights (RT_ERR_ARG if negative). */
static int check_list(rt_comm *comm, int n, const int *ranks, const int *w, const char *rname, const char *wname,
                      const char *fn)
{
    if (n > 0 && !ranks)
        return rt__null_arg(&comm->obj, fn, rname);
    for (int i = 0; i < n; i++) {
        if (ranks[i] < 0 || ranks[i] >= comm->size)
            return rt_raise(&comm->obj, RT_ERR_RANK, fn, "invalid rank '%s[%d]' = %s: the communicator has %d processes",
                            rname, i, rt__rank_text(ranks[i], (char[16]){0}, 16), comm->size);
        if (w && w[i] < 0)
            return rt_raise(&comm->obj, RT_ERR_ARG, fn, "invalid argument '%s[%d]' = %d: must be >= 0", wname, i, w[i]);
    }
    return RT_SUCCESS;
}

/* The weights array to read for n edges (NULL: none to read); raises RT_ERR_ARG when a
 * weighted graph's n > 0 weights are missing. */
static int weights_of(rt_comm *comm, int n, const int *w, int weighted, const char *name, const int **out,
                      const char *fn)
{
    *out = NULL;
    if (!weighted || n == 0)
        return RT_SUCCESS;
    if (!w || rt_weights_kind(w) != 0)
        return rt_raise(&comm->obj, RT_ERR_ARG, fn, "invalid argument '%s': %d weights are needed", name, n);
    *out = w;
    return RT_SUCCESS;
}

/* A distributed-graph description with copies of the lists (weights: NULL = unweighted). */
static struct rt__topo *dist_new(int indeg, const int *in, const int *inw, int outdeg, const int *out,
                                 const int *outw, int weighted)
{
    struct rt__topo *t = rt__topo_new(RT_DIST_GRAPH);
    if (!t)
        return NULL;
    t->indeg = indeg;
    t->outdeg = outdeg;
    t->weighted = weighted;
    t->in = rt__ints_dup(in, indeg);
    t->out = rt__ints_dup(out, outdeg);
    int ok = t->in && t->out;
    if (ok && weighted) {
        t->inw = inw ? rt__ints_dup(inw, indeg) : calloc((size_t)indeg + 1, sizeof *t->inw);
        t->outw = outw ? rt__ints_dup(outw, outdeg) : calloc((size_t)outdeg + 1, sizeof *t->outw);
        ok = t->inw && t->outw;
    }
    if (!ok) {
        rt__topo_free(t);
        return NULL;
    }
    return t;
}

/* MPI_Dist_graph_create_adjacent: every process of comm_old names its in- and
 * out-neighbors; all get the new communicator (ranks unchanged). Weights: arrays, or
 * MPI_UNWEIGHTED (for either list: unweighted), or MPI_WEIGHTS_EMPTY for an empty list.
 * comm_old an inter-communicator: RT_ERR_COMM; bad degrees or weights: RT_ERR_ARG; bad
 * ranks: RT_ERR_RANK. */
int rt_Dist_graph_create_adjacent(rt_comm *comm_old, int indegree, const int *sources, const int *sourceweights,
                                  int outdegree, const int *destinations, const int *destweights, rt_info *info,
                                  int reorder, rt_comm **comm_dist_graph)
{
    (void)info;
    (void)reorder;
    rt_comm *c = comm_old;
    int err;
    if ((err = rt__comm_check_intra(c, __func__, "comm_old")) != RT_SUCCESS)
        return err;
    if (indegree < 0 || outdegree < 0)
        return RT_ERR(c, RT_ERR_ARG, "invalid argument '%s' = %d: must be >= 0", indegree < 0 ? "indegree" : "outdegree",
                      indegree < 0 ? indegree : outdegree);
    int weighted = rt_weights_kind(sourceweights) != 1 && rt_weights_kind(destweights) != 1;
    const int *sw, *dw;
    if ((err = weights_of(c, indegree, sourceweights, weighted, "sourceweights", &sw, __func__)) != RT_SUCCESS ||
        (err = weights_of(c, outdegree, destweights, weighted, "destweights", &dw, __func__)) != RT_SUCCESS ||
        (err = check_list(c, indegree, sources, sw, "sources", "sourceweights", __func__)) != RT_SUCCESS ||
        (err = check_list(c, outdegree, destinations, dw, "destinations", "destweights", __func__)) != RT_SUCCESS)
        return err;
    struct rt__topo *t = dist_new(indegree, sources, sw, outdegree, destinations, dw, weighted);
    if (!t)
        return RT_ERR(c, RT_ERR_NO_MEM, "out of memory");
    return rt__topo_comm(c, c->size, NULL, t, comm_dist_graph, __func__);
}

/* MPI_Dist_graph_create: each process contributes edges sources[i] -> destinations[..]
 * (degrees[i] of them); the graph is gathered, and every process of comm_old gets the new
 * communicator with its in- and out-neighbors (ordered by contributing process, then by
 * position). Unweighted when any process passed MPI_UNWEIGHTED. Errors as for
 * MPI_Dist_graph_create_adjacent. */
int rt_Dist_graph_create(rt_comm *comm_old, int n, const int *sources, const int *degrees, const int *destinations,
                         const int *weights, rt_info *info, int reorder, rt_comm **comm_dist_graph)
{
    (void)info;
    (void)reorder;
    rt_comm *c = comm_old;
    int err;
    if ((err = rt__comm_check_intra(c, __func__, "comm_old")) != RT_SUCCESS)
        return err;
    if (n < 0)
        return RT_ERR(c, RT_ERR_ARG, "invalid argument 'n' = %d: must be >= 0", n);
    if (n > 0 && (!sources || !degrees))
        return rt__null_arg(&c->obj, __func__, !sources ? "sources" : "degrees");
    long long total = 0;
    for (int i = 0; i < n; i++) {
        if (degrees[i] < 0)
            return RT_ERR(c, RT_ERR_ARG, "invalid argument 'degrees[%d]' = %d: must be >= 0", i, degrees[i]);
        total += degrees[i];
    }
    if (total > (1 << 26))
        return RT_ERR(c, RT_ERR_ARG, "invalid argument 'degrees': %lld edges are too many", total);
    int unweighted = rt_weights_kind(weights) == 1;
    const int *w;
    if ((err = weights_of(c, (int)total, weights, !unweighted, "weights", &w, __func__)) != RT_SUCCESS ||
        (err = check_list(c, n, sources, NULL, "sources", NULL, __func__)) != RT_SUCCESS ||
        (err = check_list(c, (int)total, destinations, w, "destinations", "weights", __func__)) != RT_SUCCESS)
        return err;

    /* my edges as (source, destination, weight) */
    int *mine = malloc(sizeof *mine * 3 * (size_t)(total + 1));
    int *info2 = malloc(sizeof *info2 * 2 * (size_t)c->size);
    size_t *bytes = malloc(sizeof *bytes * (size_t)c->size);
    if (!mine || !info2 || !bytes) {
        free(mine);
        free(info2);
        free(bytes);
        return RT_ERR(c, RT_ERR_NO_MEM, "out of memory");
    }
    for (int i = 0, e = 0; i < n; i++)
        for (int j = 0; j < degrees[i]; j++, e++) {
            mine[3 * e] = sources[i];
            mine[3 * e + 1] = destinations[e];
            mine[3 * e + 2] = w ? w[e] : 0;
        }
    rt__team team = rt__team_of(c);
    int me2[2] = {(int)total, unweighted}, *all = NULL;
    err = rt__coll_allgather(&team, me2, info2, sizeof me2);
    long long sum = 0;
    int weighted = 1;
    for (int r = 0; !err && r < c->size; r++) {
        bytes[r] = sizeof *mine * 3 * (size_t)info2[2 * r];
        sum += info2[2 * r];
        if (info2[2 * r + 1])
            weighted = 0;
    }
    if (!err && !(all = malloc(sizeof *all * 3 * (size_t)(sum + 1))))
        err = RT_ERR_NO_MEM; /* (the others then wait: a broken job) */
    if (!err)
        err = rt__coll_allgatherv(&team, mine, all, bytes);
    free(mine);
    free(info2);
    free(bytes);
    if (err) {
        free(all);
        return RT_ERR(c, err, "the processes could not agree (internal communication failed: %s)",
                rt__class_string(err));
    }
    /* my in- and out-neighbors */
    int indeg = 0, outdeg = 0;
    for (long long e = 0; e < sum; e++) {
        indeg += all[3 * e + 1] == c->rank;
        outdeg += all[3 * e] == c->rank;
    }
    int *in = malloc(sizeof *in * 2 * (size_t)(indeg + 1)), *out = malloc(sizeof *out * 2 * (size_t)(outdeg + 1));
    struct rt__topo *t = NULL;
    if (in && out) {
        int *inw = in + indeg + 1, *outw = out + outdeg + 1, ni = 0, no = 0;
        for (long long e = 0; e < sum; e++) {
            if (all[3 * e + 1] == c->rank) {
                inw[ni] = all[3 * e + 2];
                in[ni++] = all[3 * e];
            }
            if (all[3 * e] == c->rank) {
                outw[no] = all[3 * e + 2];
                out[no++] = all[3 * e + 1];
            }
        }
        t = dist_new(indeg, in, weighted ? inw : NULL, outdeg, out, weighted ? outw : NULL, weighted);
    }
    free(all);
    free(in);
    free(out);
    if (!t)
        return RT_ERR(c, RT_ERR_NO_MEM, "out of memory");
    return rt__topo_comm(c, c->size, NULL, t, comm_dist_graph, __func__);
}

/* MPI_Dist_graph_neighbors_count: in- and out-degree, and whether the graph is weighted.
 * Not a distributed graph: RT_ERR_TOPOLOGY. */
int rt_Dist_graph_neighbors_count(rt_comm *comm, int *indegree, int *outdegree, int *weighted)
{
    int err = rt__topo_check(comm, RT_DIST_GRAPH, __func__);
    if (err)
        return err;
    *indegree = comm->topo->indeg;
    *outdegree = comm->topo->outdeg;
    *weighted = comm->topo->weighted;
    return RT_SUCCESS;
}

/* MPI_Dist_graph_neighbors: the first maxindegree in-neighbors and maxoutdegree
 * out-neighbors, with their weights when the graph is weighted and the weight arguments
 * are arrays. Not a distributed graph: RT_ERR_TOPOLOGY. */
int rt_Dist_graph_neighbors(rt_comm *comm, int maxindegree, int *sources, int *sourceweights, int maxoutdegree,
                            int *destinations, int *destweights)
{
    int err = rt__topo_check(comm, RT_DIST_GRAPH, __func__);
    if (err)
        return err;
    const struct rt__topo *t = comm->topo;
    int ni = maxindegree < t->indeg ? maxindegree : t->indeg;
    int no = maxoutdegree < t->outdeg ? maxoutdegree : t->outdeg;
    if ((ni > 0 && !sources) || (no > 0 && !destinations))
        return rt__null_arg(&comm->obj, __func__, ni > 0 && !sources ? "sources" : "destinations");
    for (int i = 0; i < ni; i++)
        sources[i] = t->in[i];
    for (int i = 0; i < no; i++)
        destinations[i] = t->out[i];
    if (t->weighted && sourceweights && rt_weights_kind(sourceweights) == 0)
        for (int i = 0; i < ni; i++)
            sourceweights[i] = t->inw[i];
    if (t->weighted && destweights && rt_weights_kind(destweights) == 0)
        for (int i = 0; i < no; i++)
            destweights[i] = t->outw[i];
    return RT_SUCCESS;
}
