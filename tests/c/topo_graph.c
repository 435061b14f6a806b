/* topo_graph.c — graph and distributed-graph topologies: create, queries, neighbors with and
 * without weights (MPI_UNWEIGHTED, MPI_WEIGHTS_EMPTY), messages along the edges, bad input. */
#include <mpi.h>
#include <stdlib.h>

#include "check.h"

int main(int argc, char **argv)
{
    int me, np, topo;
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    int left = (me + np - 1) % np, right = (me + 1) % np;

    /* a ring graph: node i's neighbors are i-1 and i+1 */
    int *index = malloc(sizeof(int) * (size_t)np), *edges = malloc(sizeof(int) * 2 * (size_t)np);
    for (int i = 0; i < np; i++) {
        index[i] = 2 * (i + 1);
        edges[2 * i] = (i + np - 1) % np;
        edges[2 * i + 1] = (i + 1) % np;
    }
    MPI_Comm graph;
    CHECK_SUCCESS(MPI_Graph_create(MPI_COMM_WORLD, np, index, edges, 0, &graph));
    CHECK_SUCCESS(MPI_Topo_test(graph, &topo));
    CHECK_EQ_INT(topo, MPI_GRAPH);
    int nnodes, nedges, cnt, nb[2];
    CHECK_SUCCESS(MPI_Graphdims_get(graph, &nnodes, &nedges));
    CHECK_EQ_INT(nnodes, np);
    CHECK_EQ_INT(nedges, 2 * np);
    int *index2 = malloc(sizeof(int) * (size_t)np), *edges2 = malloc(sizeof(int) * 2 * (size_t)np);
    CHECK_SUCCESS(MPI_Graph_get(graph, np, 2 * np, index2, edges2));
    CHECK(memcmp(index, index2, sizeof(int) * (size_t)np) == 0, "index differs");
    CHECK(memcmp(edges, edges2, sizeof(int) * 2 * (size_t)np) == 0, "edges differ");
    for (int r = 0; r < np; r++) {
        CHECK_SUCCESS(MPI_Graph_neighbors_count(graph, r, &cnt));
        CHECK_EQ_INT(cnt, 2);
        CHECK_SUCCESS(MPI_Graph_neighbors(graph, r, 2, nb));
        CHECK(nb[0] == (r + np - 1) % np && nb[1] == (r + 1) % np, "node %d neighbors %d %d", r, nb[0], nb[1]);
    }
    int rank, got[2] = {-1, -1};
    MPI_Comm_rank(graph, &rank);
    CHECK_EQ_INT(rank, me);
    MPI_Request rq[4]; /* one message to each neighbor, one from each */
    MPI_Irecv(&got[0], 1, MPI_INT, left, 1, graph, &rq[0]);
    MPI_Irecv(&got[1], 1, MPI_INT, right, 2, graph, &rq[1]);
    MPI_Isend(&me, 1, MPI_INT, right, 1, graph, &rq[2]);
    MPI_Isend(&me, 1, MPI_INT, left, 2, graph, &rq[3]);
    CHECK_SUCCESS(MPI_Waitall(4, rq, MPI_STATUSES_IGNORE));
    CHECK(got[0] == left && got[1] == right, "got %d %d", got[0], got[1]);
    int newrank;
    CHECK_SUCCESS(MPI_Graph_map(MPI_COMM_WORLD, np, index, edges, &newrank));
    CHECK_EQ_INT(newrank, me);

    /* a graph of one node with a self loop: the other processes are left out */
    int one_index = 1, one_edge = 0;
    MPI_Comm small;
    CHECK_SUCCESS(MPI_Graph_create(MPI_COMM_WORLD, 1, &one_index, &one_edge, 0, &small));
    if (me == 0) {
        MPI_Graph_neighbors(small, 0, 1, nb);
        CHECK_EQ_INT(nb[0], 0);
        MPI_Comm_free(&small);
    } else {
        CHECK(small == MPI_COMM_NULL, "a process outside the graph got a communicator");
    }
    CHECK_SUCCESS(MPI_Graph_map(MPI_COMM_WORLD, 1, &one_index, &one_edge, &newrank));
    CHECK_EQ_INT(newrank, me == 0 ? 0 : MPI_UNDEFINED);

    /* distributed graph, adjacent, weighted: in from the left, out to the right */
    MPI_Comm dg;
    int inw = 100 + left, outw = 100 + me, ind, outd, weighted, s[2], sw[2], d[2], dw[2];
    CHECK_SUCCESS(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &left, &inw, 1, &right, &outw, MPI_INFO_NULL,
                                                 0, &dg));
    MPI_Topo_test(dg, &topo);
    CHECK_EQ_INT(topo, MPI_DIST_GRAPH);
    CHECK_SUCCESS(MPI_Dist_graph_neighbors_count(dg, &ind, &outd, &weighted));
    CHECK(ind == 1 && outd == 1 && weighted, "counts %d %d weighted %d", ind, outd, weighted);
    CHECK_SUCCESS(MPI_Dist_graph_neighbors(dg, 1, s, sw, 1, d, dw));
    CHECK(s[0] == left && sw[0] == 100 + left && d[0] == right && dw[0] == 100 + me, "neighbors %d(%d) %d(%d)", s[0],
          sw[0], d[0], dw[0]);
    int val = -1;
    CHECK_SUCCESS(MPI_Sendrecv(&me, 1, MPI_INT, d[0], 3, &val, 1, MPI_INT, s[0], 3, dg, MPI_STATUS_IGNORE));
    CHECK_EQ_INT(val, left);
    MPI_Comm_free(&dg);

    /* adjacent, unweighted, both neighbors both ways */
    int two[2] = {left, right};
    CHECK_SUCCESS(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 2, two, MPI_UNWEIGHTED, 2, two, MPI_UNWEIGHTED,
                                                 MPI_INFO_NULL, 1, &dg));
    CHECK_SUCCESS(MPI_Dist_graph_neighbors_count(dg, &ind, &outd, &weighted));
    CHECK(ind == 2 && outd == 2 && !weighted, "counts %d %d weighted %d", ind, outd, weighted);
    CHECK_SUCCESS(MPI_Dist_graph_neighbors(dg, 2, s, MPI_UNWEIGHTED, 2, d, MPI_UNWEIGHTED));
    CHECK(s[0] == left && s[1] == right && d[0] == left && d[1] == right, "neighbors");
    MPI_Comm dgdup; /* a dup keeps it */
    MPI_Comm_dup(dg, &dgdup);
    MPI_Dist_graph_neighbors_count(dgdup, &ind, &outd, &weighted);
    CHECK(ind == 2 && outd == 2 && !weighted, "dup counts %d %d weighted %d", ind, outd, weighted);
    MPI_Comm_free(&dgdup);
    MPI_Comm_free(&dg);

    /* adjacent with no neighbors: MPI_WEIGHTS_EMPTY keeps it weighted */
    CHECK_SUCCESS(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 0, NULL, MPI_WEIGHTS_EMPTY, 0, NULL, MPI_WEIGHTS_EMPTY,
                                                 MPI_INFO_NULL, 0, &dg));
    MPI_Dist_graph_neighbors_count(dg, &ind, &outd, &weighted);
    CHECK(ind == 0 && outd == 0 && weighted, "counts %d %d weighted %d", ind, outd, weighted);
    MPI_Comm_free(&dg);

    /* general: process 0 gives every edge i -> i+1 (weight i); the others none */
    int *srcs = malloc(sizeof(int) * (size_t)np), *degs = malloc(sizeof(int) * (size_t)np);
    int *dsts = malloc(sizeof(int) * (size_t)np), *wts = malloc(sizeof(int) * (size_t)np);
    for (int i = 0; i < np; i++) {
        srcs[i] = i;
        degs[i] = 1;
        dsts[i] = (i + 1) % np;
        wts[i] = i;
    }
    CHECK_SUCCESS(MPI_Dist_graph_create(MPI_COMM_WORLD, me == 0 ? np : 0, srcs, degs, dsts,
                                        me == 0 ? wts : MPI_WEIGHTS_EMPTY, MPI_INFO_NULL, 0, &dg));
    CHECK_SUCCESS(MPI_Dist_graph_neighbors_count(dg, &ind, &outd, &weighted));
    CHECK(ind == 1 && outd == 1 && weighted, "counts %d %d weighted %d", ind, outd, weighted);
    CHECK_SUCCESS(MPI_Dist_graph_neighbors(dg, 1, s, sw, 1, d, dw));
    CHECK(s[0] == left && sw[0] == left && d[0] == right && dw[0] == me, "neighbors %d(%d) %d(%d)", s[0], sw[0], d[0],
          dw[0]);
    MPI_Comm_free(&dg);

    /* general, unweighted: each process gives its own two out-edges */
    int deg2 = 2;
    CHECK_SUCCESS(MPI_Dist_graph_create(MPI_COMM_WORLD, 1, &me, &deg2, two, MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &dg));
    CHECK_SUCCESS(MPI_Dist_graph_neighbors_count(dg, &ind, &outd, &weighted));
    CHECK(ind == 2 && outd == 2 && !weighted, "counts %d %d weighted %d", ind, outd, weighted);
    CHECK_SUCCESS(MPI_Dist_graph_neighbors(dg, 2, s, MPI_UNWEIGHTED, 2, d, MPI_UNWEIGHTED));
    CHECK((s[0] == left && s[1] == right) || (s[0] == right && s[1] == left), "in-neighbors %d %d", s[0], s[1]);
    CHECK(d[0] == left && d[1] == right, "out-neighbors %d %d", d[0], d[1]);
    MPI_Comm_free(&dg);

    /* bad input */
    MPI_Comm nc;
    int bad_edge = np, big = np + 1;
    if (CHECK_SWITCHYARD) /* an edge to no node (MPICH does not check) */
        CHECK_ERR(MPI_Graph_create(MPI_COMM_WORLD, 1, &one_index, &bad_edge, 0, &nc), MPI_ERR_ARG, "MPI_Graph_create");
    CHECK_ERR(MPI_Graph_create(MPI_COMM_WORLD, big, index, edges, 0, &nc), MPI_ERR_ARG, NULL);
    CHECK_ERR(MPI_Graph_neighbors_count(graph, np, &cnt), MPI_ERR_RANK, "MPI_Graph_neighbors_count");
    CHECK_ERR(MPI_Graph_neighbors(MPI_COMM_WORLD, 0, 2, nb), MPI_ERR_TOPOLOGY, NULL);
    CHECK_ERR(MPI_Graphdims_get(MPI_COMM_WORLD, &nnodes, &nedges), MPI_ERR_TOPOLOGY, NULL);
    CHECK_ERR(MPI_Dist_graph_neighbors_count(graph, &ind, &outd, &weighted), MPI_ERR_TOPOLOGY, NULL);
    if (CHECK_SWITCHYARD) /* ranks outside the communicator */
        CHECK_ERR(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &bad_edge, MPI_UNWEIGHTED, 0, NULL, MPI_UNWEIGHTED,
                                                 MPI_INFO_NULL, 0, &nc), MPI_ERR_RANK, "sources[0]");

    MPI_Comm_free(&graph);
    free(index);
    free(edges);
    free(index2);
    free(edges2);
    free(srcs);
    free(degs);
    free(dsts);
    free(wts);
    MPI_Finalize();
    return 0;
}
