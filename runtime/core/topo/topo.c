/* topo.c — what the topology kinds share: their descriptions' life (new, copy, free), the
 * constructor of topology communicators, the kind check, and MPI_Topo_test. */
#include "topo.h"
#include "comm/comm.h"

#include <stdlib.h>

/* A zeroed topology of kind, NULL when out of memory. */
struct rt__topo *rt__topo_new(int kind)
{
    struct rt__topo *t = calloc(1, sizeof *t);
    if (t)
        t->kind = kind;
    return t;
}

/* A copy of a[0..n) (at least one int allocated), NULL when out of memory. */
int *rt__ints_dup(const int *a, int n)
{
    int *c = malloc(sizeof *c * (size_t)(n > 0 ? n : 1));
    if (c && n > 0)
        memcpy(c, a, sizeof *c * (size_t)n);
    return c;
}

/* Frees t and its arrays (NULL: nothing). */
void rt__topo_free(struct rt__topo *t)
{
    if (!t)
        return;
    free(t->dims);
    free(t->periods);
    free(t->index);
    free(t->edges);
    free(t->in);
    free(t->inw);
    free(t->out);
    free(t->outw);
    free(t);
}

/* Copies array field f of n ints from t to c; 0 when out of memory. */
#define DUP(f, n) (!t->f || (c->f = rt__ints_dup(t->f, (n))) != NULL)

/* A deep copy of t (NULL for NULL); *ok = 0 when out of memory. */
struct rt__topo *rt__topo_dup(const struct rt__topo *t, int *ok)
{
    *ok = 1;
    if (!t)
        return NULL;
    struct rt__topo *c = malloc(sizeof *c);
    if (!c) {
        *ok = 0;
        return NULL;
    }
    *c = *t;
    c->dims = c->periods = c->index = c->edges = c->in = c->inw = c->out = c->outw = NULL;
    if (!(DUP(dims, t->ndims) && DUP(periods, t->ndims) && DUP(index, t->nnodes) && DUP(edges, t->nedges) &&
          DUP(in, t->indeg) && DUP(inw, t->indeg) && DUP(out, t->outdeg) && DUP(outw, t->outdeg))) {
        rt__topo_free(c);
        *ok = 0;
        return NULL;
    }
    return c;
}

/* The communicator of a new topology over old (see topo.h). */
int rt__topo_comm(rt_comm *old, int n, const int *members, struct rt__topo *t, rt_comm **newcomm, const char *fn)
{
    int id, err = rt__ctx_agree(old, &id);
    *newcomm = NULL;
    if (err) {
        rt__topo_free(t);
        return rt_raise(&old->obj, err, fn, "the processes could not agree (internal communication failed: %s)",
                rt__class_string(err));
    }
    if (id < 0) {
        rt__topo_free(t);
        return rt_raise(&old->obj, RT_ERR_OTHER, fn,
                        "out of context ids: all %d communicators this process may share are in use", RT__CTX_IDS - 2);
    }
    int pos = -1;
    for (int i = 0; i < n && pos < 0; i++)
        if ((members ? members[i] : i) == old->rank)
            pos = i;
    if (pos < 0) {
        rt__topo_free(t);
        return RT_SUCCESS;
    }
    int *w = malloc(sizeof *w * (size_t)n);
    for (int i = 0; w && i < n; i++)
        w[i] = rt__comm_local_world(old, members ? members[i] : i);
    rt_comm *c = w ? rt__comm_new(old, id, n, pos, w, 0, NULL) : NULL;
    if (!c) {
        rt__topo_free(t);
        return rt_raise(&old->obj, RT_ERR_NO_MEM, fn, "out of memory");
    }
    c->topo = t;
    *newcomm = c;
    return RT_SUCCESS;
}

static const char *kind_name(int kind)
{
    return kind == RT_CART ? "Cartesian" : kind == RT_GRAPH ? "graph" : "distributed-graph";
}

/* RT_ERR_TOPOLOGY (raised) unless comm has a topology of kind. */
int rt__topo_check(rt_comm *comm, int kind, const char *fn)
{
    if (comm->topo && comm->topo->kind == kind)
        return RT_SUCCESS;
    return rt_raise(&comm->obj, RT_ERR_TOPOLOGY, fn, "invalid communicator 'comm': it has no %s topology",
                    kind_name(kind));
}

/* MPI_Topo_test: RT_CART, RT_GRAPH, RT_DIST_GRAPH, or RT_UNDEFINED without a topology. */
int rt_Topo_test(rt_comm *comm, int *status)
{
    *status = comm->topo ? comm->topo->kind : RT_UNDEFINED;
    return RT_SUCCESS;
}
