/* topo.h — virtual topologies attached to communicators (topo*.c): the Cartesian, graph and
 * distributed-graph descriptions, and the constructor shared by their create calls. */
#ifndef RT_TOPO_H
#define RT_TOPO_H

#include "rt_internal.h"

struct rt__topo {
    int kind;                 /* RT_CART, RT_GRAPH or RT_DIST_GRAPH */
    /* RT_CART */
    int ndims;
    int *dims, *periods;      /* ndims each */
    /* RT_GRAPH */
    int nnodes, nedges;
    int *index, *edges;       /* nnodes, nedges */
    /* RT_DIST_GRAPH */
    int indeg, outdeg;
    int weighted;             /* 0: created with MPI_UNWEIGHTED */
    int *in, *inw;            /* indeg sources and their weights (inw NULL if unweighted) */
    int *out, *outw;          /* outdeg destinations and their weights */
};

/* A new zeroed topology of kind; NULL when out of memory. */
struct rt__topo *rt__topo_new(int kind);
/* A copy of n ints (n == 0: a valid 1-int allocation); NULL when out of memory. */
int *rt__ints_dup(const int *a, int n);

/* Creates the communicator of a topology over old (an intra-communicator): the processes
 * of old with ranks members[0..n) (NULL: 0..n-1), in that order, get a new communicator
 * carrying topology t; the others MPI_COMM_NULL. Collective over old (the context id is
 * agreed by all of it). Takes t (freed when not attached). Raises errors naming fn. */
int rt__topo_comm(rt_comm *old, int n, const int *members, struct rt__topo *t, rt_comm **newcomm, const char *fn);

/* RT_SUCCESS if comm carries a topology of kind; else raises RT_ERR_TOPOLOGY naming fn. */
int rt__topo_check(rt_comm *comm, int kind, const char *fn);

/* ------------------------------------------------------------ topologies (topo*.c) */

/* A deep copy of topology t (NULL: NULL); *ok = 0 when out of memory. */
struct rt__topo *rt__topo_dup(const struct rt__topo *t, int *ok);
/* Frees topology t (NULL: nothing). */
void rt__topo_free(struct rt__topo *t);
/* What the weights argument of the distributed-graph calls is: 0 = an array of weights,
 * 1 = MPI_UNWEIGHTED, 2 = MPI_WEIGHTS_EMPTY. */
int rt_weights_kind(const int *weights);

#endif
