/* coll_neighbor.c — neighbourhood collectives (allgather(v), alltoall(v,w); blocking, MPI_I*, persistent
 * restarted) on Cartesian grids (periodic dimensions of size 1 and 2), a graph and distributed graphs with
 * multi-edges; every received value and every untouched gap checked; bad input refused. */
#include "check.h"

#define MAXD 64 /* neighbours at most */

enum { T_CART, T_GRAPH, T_DIST_MULTI, T_DIST_STAR };
enum { AG, AGV, A2A, A2AV, A2AW, NOPS };
static const char *op_name[NOPS] = {"allgather", "allgatherv", "alltoall", "alltoallv", "alltoallw"};

static int me, np;
static MPI_Datatype pair, vec; /* two contiguous ints; two ints with a one-int gap */

struct topo {
    const char *name;
    int kind;
    MPI_Comm comm;
    int nin, nout, in[MAXD], out[MAXD];
};

static int mod(int a)
{
    return ((a % np) + np) % np;
}

/* The distributed graphs, as every process can compute them for any rank p. Multi: p sends to
 * p+1 twice and p+2 once, receives from p-1 twice and p-2 once. Star: rank 0 sends to every
 * other rank (from the last down), receives nothing. */
static void dist_lists(int kind, int p, int *in, int *nin, int *out, int *nout)
{
    if (kind == T_DIST_MULTI) {
        int o[3] = {mod(p + 1), mod(p + 2), mod(p + 1)}, i[3] = {mod(p - 1), mod(p - 2), mod(p - 1)};
        *nin = *nout = 3;
        memcpy(in, i, sizeof i);
        memcpy(out, o, sizeof o);
        return;
    }
    *nin = *nout = 0;
    if (p == 0)
        for (int r = np - 1; r > 0; r--)
            out[(*nout)++] = r;
    else
        in[(*nin)++] = 0;
}

/* The graph: node i's neighbours are i+1, i-1, i+1, i-1 (multi-edges both ways), and node 0
 * has a self-loop at the end. */
static int graph_list(int p, int *nb)
{
    int n = 0;
    for (int k = 0; k < 2; k++)
        nb[n++] = mod(p + 1), nb[n++] = mod(p - 1);
    if (p == 0)
        nb[n++] = 0;
    return n;
}

/* The slot of the sender's send buffer whose block lands in my receive slot i (in[i] not
 * MPI_PROC_NULL). Cartesian: the -1 neighbour sent it in its +1 direction and vice versa.
 * Graphs: the k-th edge from p to me matches the k-th occurrence of p among my sources. */
static int peer_slot(const struct topo *t, int i)
{
    if (t->kind == T_CART)
        return i ^ 1;
    int p = t->in[i], k = 0, out[MAXD], nout, in[MAXD], nin;
    for (int x = 0; x < i; x++)
        k += t->in[x] == p;
    if (t->kind == T_GRAPH)
        nout = graph_list(p, out);
    else
        dist_lists(t->kind, p, in, &nin, out, &nout);
    for (int j = 0; j < nout; j++)
        if (out[j] == me && k-- == 0)
            return j;
    CHECK(0, "%s: no edge from %d to %d for my slot %d", t->name, p, me, i);
    return -1;
}

static int gval(int p, int round, int e)
{
    return p * 100 + round * 10 + e + 1;
}

static int aval(int p, int j, int round, int e)
{
    return p * 10000 + j * 100 + round * 10 + e + 1;
}

/* The buffers and layouts of one operation on one topology. */
struct bufs {
    int sbuf[4 * MAXD + 4], rbuf[4 * MAXD + 4], want[4 * MAXD + 4];
    int scounts[MAXD], sdispls[MAXD], rcounts[MAXD], rdispls[MAXD];
    MPI_Aint sbytes[MAXD], rbytes[MAXD];
    MPI_Datatype stypes[MAXD], rtypes[MAXD];
    int rlen; /* ints of rbuf in use */
};

static void layout(const struct topo *t, int op, struct bufs *b)
{
    for (int j = 0; j < t->nout; j++) {
        b->scounts[j] = op == A2AW ? (j % 2 ? 1 : 2) : 1 + j % 2;
        b->sdispls[j] = 3 * (t->nout - 1 - j);
        b->sbytes[j] = (MPI_Aint)sizeof(int) * 2 * (t->nout - 1 - j);
        b->stypes[j] = j % 2 ? pair : MPI_INT;
    }
    for (int i = 0; i < t->nin; i++) {
        int j = t->in[i] == MPI_PROC_NULL ? 0 : peer_slot(t, i);
        b->rcounts[i] = op == AGV ? 2 : op == A2AW ? (i % 2 ? 1 : 2) : 1 + j % 2;
        b->rdispls[i] = op == AGV ? 3 * (t->nin - 1 - i) : 3 * i + 1;
        b->rbytes[i] = (MPI_Aint)sizeof(int) * 4 * i;
        b->rtypes[i] = i % 2 ? vec : MPI_INT; /* odd slots: two ints with a one-int gap */
    }
    b->rlen = 4 * t->nin + 4;
}

/* The send data of round and the receive buffer as it must end (-1: untouched). */
static void fill(const struct topo *t, int op, int round, struct bufs *b)
{
    for (int x = 0; x < 4 * MAXD + 4; x++)
        b->sbuf[x] = -2, b->rbuf[x] = -1, b->want[x] = -1;
    if (op == AG || op == AGV)
        b->sbuf[0] = gval(me, round, 0), b->sbuf[1] = gval(me, round, 1);
    for (int j = 0; j < t->nout && op != AG && op != AGV; j++)
        for (int e = 0; e < 2; e++) {
            int at = op == A2A ? 2 * j : op == A2AV ? b->sdispls[j] : (int)(b->sbytes[j] / (MPI_Aint)sizeof(int));
            if (op != A2AV || e < b->scounts[j])
                b->sbuf[at + e] = aval(me, j, round, e);
        }
    for (int i = 0; i < t->nin; i++) {
        if (t->in[i] == MPI_PROC_NULL)
            continue;
        int p = t->in[i], j = peer_slot(t, i);
        for (int e = 0; e < 2; e++) {
            if (op == AG)
                b->want[2 * i + e] = gval(p, round, e);
            else if (op == AGV)
                b->want[b->rdispls[i] + e] = gval(p, round, e);
            else if (op == A2A)
                b->want[2 * i + e] = aval(p, j, round, e);
            else if (op == A2AV && e < b->rcounts[i])
                b->want[b->rdispls[i] + e] = aval(p, j, round, e);
            else if (op == A2AW) /* odd slots: a vector with a one-int gap */
                b->want[4 * i + (i % 2 ? 2 * e : e)] = aval(p, j, round, e);
        }
    }
}

/* Calls operation op in mode 0 (blocking), 1 (MPI_I*, then MPI_Wait) or 2 (*_init into *rq). */
static int call(const struct topo *t, int op, int mode, struct bufs *b, MPI_Request *rq)
{
    MPI_Comm c = t->comm;
    MPI_Request r = MPI_REQUEST_NULL;
    int err = MPI_SUCCESS;
    switch (op * 3 + mode) {
    case AG * 3 + 0: return MPI_Neighbor_allgather(b->sbuf, 2, MPI_INT, b->rbuf, 2, MPI_INT, c);
    case AG * 3 + 1: err = MPI_Ineighbor_allgather(b->sbuf, 2, MPI_INT, b->rbuf, 2, MPI_INT, c, &r); break;
    case AG * 3 + 2: return MPI_Neighbor_allgather_init(b->sbuf, 2, MPI_INT, b->rbuf, 2, MPI_INT, c, MPI_INFO_NULL, rq);
    case AGV * 3 + 0: return MPI_Neighbor_allgatherv(b->sbuf, 1, pair, b->rbuf, b->rcounts, b->rdispls, MPI_INT, c);
    case AGV * 3 + 1:
        err = MPI_Ineighbor_allgatherv(b->sbuf, 1, pair, b->rbuf, b->rcounts, b->rdispls, MPI_INT, c, &r);
        break;
    case AGV * 3 + 2:
        return MPI_Neighbor_allgatherv_init(b->sbuf, 1, pair, b->rbuf, b->rcounts, b->rdispls, MPI_INT, c,
                                            MPI_INFO_NULL, rq);
    case A2A * 3 + 0: return MPI_Neighbor_alltoall(b->sbuf, 2, MPI_INT, b->rbuf, 1, pair, c);
    case A2A * 3 + 1: err = MPI_Ineighbor_alltoall(b->sbuf, 2, MPI_INT, b->rbuf, 1, pair, c, &r); break;
    case A2A * 3 + 2: return MPI_Neighbor_alltoall_init(b->sbuf, 2, MPI_INT, b->rbuf, 1, pair, c, MPI_INFO_NULL, rq);
    case A2AV * 3 + 0:
        return MPI_Neighbor_alltoallv(b->sbuf, b->scounts, b->sdispls, MPI_INT, b->rbuf, b->rcounts, b->rdispls,
                                      MPI_INT, c);
    case A2AV * 3 + 1:
        err = MPI_Ineighbor_alltoallv(b->sbuf, b->scounts, b->sdispls, MPI_INT, b->rbuf, b->rcounts, b->rdispls,
                                      MPI_INT, c, &r);
        break;
    case A2AV * 3 + 2:
        return MPI_Neighbor_alltoallv_init(b->sbuf, b->scounts, b->sdispls, MPI_INT, b->rbuf, b->rcounts,
                                           b->rdispls, MPI_INT, c, MPI_INFO_NULL, rq);
    case A2AW * 3 + 0:
        return MPI_Neighbor_alltoallw(b->sbuf, b->scounts, b->sbytes, b->stypes, b->rbuf, b->rcounts, b->rbytes,
                                      b->rtypes, c);
    case A2AW * 3 + 1:
        err = MPI_Ineighbor_alltoallw(b->sbuf, b->scounts, b->sbytes, b->stypes, b->rbuf, b->rcounts, b->rbytes,
                                      b->rtypes, c, &r);
        break;
    default:
        return MPI_Neighbor_alltoallw_init(b->sbuf, b->scounts, b->sbytes, b->stypes, b->rbuf, b->rcounts,
                                           b->rbytes, b->rtypes, c, MPI_INFO_NULL, rq);
    }
    if (err == MPI_SUCCESS) {
        /* let it progress while we "compute": test a few times before waiting */
        int flag = 0;
        for (int k = 0; k < 3 && !flag && err == MPI_SUCCESS; k++)
            err = MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
        if (err == MPI_SUCCESS && !flag)
            err = MPI_Wait(&r, MPI_STATUS_IGNORE);
    }
    return err;
}

static void run(const struct topo *t)
{
    static struct bufs b;
    for (int op = 0; op < NOPS; op++)
        for (int mode = 0; mode < 3; mode++) {
            layout(t, op, &b);
            fill(t, op, 0, &b);
            MPI_Request rq = MPI_REQUEST_NULL;
            if (mode == 2)
                CHECK_SUCCESS(call(t, op, 2, &b, &rq));
            for (int round = 0; round < (mode == 2 ? 4 : 1); round++) {
                fill(t, op, round, &b);
                if (mode == 2) {
                    CHECK_SUCCESS(MPI_Start(&rq));
                    CHECK_SUCCESS(MPI_Wait(&rq, MPI_STATUS_IGNORE));
                    CHECK(rq != MPI_REQUEST_NULL, "the persistent request was freed");
                } else {
                    CHECK_SUCCESS(call(t, op, mode, &b, &rq));
                }
                for (int x = 0; x < b.rlen; x++)
                    CHECK(b.rbuf[x] == b.want[x], "%s, %s mode %d round %d, rank %d: recvbuf[%d] = %d, expected %d",
                          t->name, op_name[op], mode, round, me, x, b.rbuf[x], b.want[x]);
                for (int x = b.rlen; x < 4 * MAXD + 4; x++)
                    CHECK(b.rbuf[x] == -1, "%s, %s: wrote past the blocks at %d", t->name, op_name[op], x);
            }
            if (mode == 2)
                CHECK_SUCCESS(MPI_Request_free(&rq));
        }
}

/* A Cartesian grid over every process; checks its neighbour lists against MPI_Cart_shift and
 * runs every operation on it. */
static void cart(const char *name, int ndims, int *dims, const int *periods)
{
    struct topo t = {.name = name, .kind = T_CART};
    if (!dims[0])
        CHECK_SUCCESS(MPI_Dims_create(np, ndims, dims));
    CHECK_SUCCESS(MPI_Cart_create(MPI_COMM_WORLD, ndims, dims, periods, 0, &t.comm));
    MPI_Comm_set_errhandler(t.comm, MPI_ERRORS_RETURN);
    int coords[8];
    CHECK_SUCCESS(MPI_Cart_coords(t.comm, me, ndims, coords));
    for (int d = 0; d < ndims; d++) {
        CHECK_SUCCESS(MPI_Cart_shift(t.comm, d, 1, &t.in[2 * d], &t.in[2 * d + 1]));
        /* the shift agrees with the coordinates */
        int c = coords[d] - 1, n = dims[d];
        CHECK(c >= 0 || periods[d] || t.in[2 * d] == MPI_PROC_NULL, "%s: dim %d low edge", name, d);
        c = coords[d] + 1;
        CHECK(c < n || periods[d] || t.in[2 * d + 1] == MPI_PROC_NULL, "%s: dim %d high edge", name, d);
        if (n == 1 && periods[d])
            CHECK(t.in[2 * d] == me && t.in[2 * d + 1] == me, "%s: dim %d of size 1 is not myself", name, d);
    }
    t.nin = t.nout = 2 * ndims;
    memcpy(t.out, t.in, sizeof t.in);
    run(&t);
    MPI_Comm_free(&t.comm);
}

static void graph(void)
{
    int *index = malloc(sizeof(int) * (size_t)np), *edges = malloc(sizeof(int) * (5 * (size_t)np)), ne = 0;
    for (int p = 0; p < np; p++) {
        ne += graph_list(p, edges + ne);
        index[p] = ne;
    }
    struct topo t = {.name = "graph", .kind = T_GRAPH};
    CHECK_SUCCESS(MPI_Graph_create(MPI_COMM_WORLD, np, index, edges, 0, &t.comm));
    MPI_Comm_set_errhandler(t.comm, MPI_ERRORS_RETURN);
    CHECK_SUCCESS(MPI_Graph_neighbors_count(t.comm, me, &t.nin));
    CHECK_SUCCESS(MPI_Graph_neighbors(t.comm, me, MAXD, t.in));
    t.nout = t.nin;
    memcpy(t.out, t.in, sizeof t.in);
    run(&t);
    MPI_Comm_free(&t.comm);
    free(index);
    free(edges);
}

static void dist(int kind)
{
    struct topo t = {.name = kind == T_DIST_MULTI ? "dist graph (multi-edges, weights)" : "dist graph (star)",
                     .kind = kind};
    dist_lists(kind, me, t.in, &t.nin, t.out, &t.nout);
    int inw[MAXD], outw[MAXD];
    for (int i = 0; i < MAXD; i++)
        inw[i] = 40 + i, outw[i] = 70 + i;
    int weighted = kind == T_DIST_MULTI;
    CHECK_SUCCESS(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, t.nin, t.in, weighted ? inw : MPI_UNWEIGHTED,
                                                 t.nout, t.out, weighted ? outw : MPI_UNWEIGHTED, MPI_INFO_NULL, 0,
                                                 &t.comm));
    MPI_Comm_set_errhandler(t.comm, MPI_ERRORS_RETURN);
    int nin, nout, w, s[MAXD], sw[MAXD], d[MAXD], dw[MAXD];
    CHECK_SUCCESS(MPI_Dist_graph_neighbors_count(t.comm, &nin, &nout, &w));
    CHECK(nin == t.nin && nout == t.nout && w == weighted, "%s: degrees %d %d %d", t.name, nin, nout, w);
    if (weighted) {
        CHECK_SUCCESS(MPI_Dist_graph_neighbors(t.comm, MAXD, s, sw, MAXD, d, dw));
        for (int i = 0; i < nin; i++)
            CHECK(s[i] == t.in[i] && sw[i] == 40 + i, "%s: source %d", t.name, i);
        for (int j = 0; j < nout; j++)
            CHECK(d[j] == t.out[j] && dw[j] == 70 + j, "%s: destination %d", t.name, j);
    }
    run(&t);
    MPI_Comm_free(&t.comm);
}

/* Every rank makes the same bad call on a grid where everyone has 4 neighbour slots. */
static void bad_input(void)
{
    int dims[2] = {0, 0}, periods[2] = {0, 1}, x[64] = {0}, y[64] = {0}, counts[4] = {1, 1, 1, 1},
        displs[4] = {0, 1, 2, 3};
    MPI_Aint bytes[4] = {0, 4, 8, 12};
    MPI_Datatype types[4] = {MPI_INT, MPI_INT, MPI_INT, MPI_INT}, loose;
    MPI_Comm c;
    MPI_Request rq = MPI_REQUEST_NULL;
    CHECK_SUCCESS(MPI_Dims_create(np, 2, dims));
    CHECK_SUCCESS(MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &c));
    MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN);
    MPI_Type_contiguous(2, MPI_INT, &loose); /* never committed */

    CHECK_ERR(MPI_Neighbor_allgather(x, 1, MPI_INT, y, 1, MPI_INT, MPI_COMM_WORLD), MPI_ERR_TOPOLOGY,
              "MPI_Neighbor_allgather", "topology");
    CHECK_ERR(MPI_Ineighbor_alltoall(x, 1, MPI_INT, y, 1, MPI_INT, MPI_COMM_SELF, &rq), MPI_ERR_TOPOLOGY,
              "MPI_Ineighbor_alltoall");
    CHECK(rq == MPI_REQUEST_NULL, "a refused MPI_Ineighbor_alltoall returned a request");
    CHECK_ERR(MPI_Neighbor_alltoallw_init(x, counts, bytes, types, y, counts, bytes, types, MPI_COMM_WORLD,
                                          MPI_INFO_NULL, &rq),
              MPI_ERR_TOPOLOGY, "MPI_Neighbor_alltoallw_init");
    CHECK(rq == MPI_REQUEST_NULL, "a refused MPI_Neighbor_alltoallw_init returned a request");
    CHECK_ERR(MPI_Neighbor_allgather(MPI_IN_PLACE, 1, MPI_INT, y, 1, MPI_INT, c), MPI_ERR_BUFFER,
              "MPI_Neighbor_allgather", "sendbuf");
    CHECK_ERR(MPI_Neighbor_alltoall(x, 1, MPI_INT, MPI_IN_PLACE, 1, MPI_INT, c), MPI_ERR_BUFFER,
              "MPI_Neighbor_alltoall", "recvbuf");
    CHECK_ERR(MPI_Ineighbor_alltoallv(MPI_IN_PLACE, counts, displs, MPI_INT, y, counts, displs, MPI_INT, c, &rq),
              MPI_ERR_BUFFER, "MPI_Ineighbor_alltoallv", "sendbuf");
    counts[3] = -1;
    CHECK_ERR(MPI_Neighbor_allgatherv(x, 1, MPI_INT, y, counts, displs, MPI_INT, c), MPI_ERR_COUNT,
              "MPI_Neighbor_allgatherv", "recvcounts[3]");
    int ok[4] = {1, 1, 1, 1};
    CHECK_ERR(MPI_Neighbor_alltoallv(x, counts, displs, MPI_INT, y, ok, displs, MPI_INT, c), MPI_ERR_COUNT,
              "MPI_Neighbor_alltoallv", "sendcounts[3]");
    CHECK_ERR(MPI_Neighbor_alltoallw_init(x, ok, bytes, types, y, counts, bytes, types, c, MPI_INFO_NULL, &rq),
              MPI_ERR_COUNT, "MPI_Neighbor_alltoallw_init", "recvcounts[3]");
    counts[3] = 1;
    CHECK_ERR(MPI_Neighbor_alltoall(x, 1, loose, y, 1, MPI_INT, c), MPI_ERR_TYPE, "MPI_Neighbor_alltoall");
    types[2] = MPI_DATATYPE_NULL;
    MPI_Datatype good[4] = {MPI_INT, MPI_INT, MPI_INT, MPI_INT};
    CHECK_ERR(MPI_Neighbor_alltoallw(x, counts, bytes, types, y, counts, bytes, good, c), MPI_ERR_TYPE,
              "MPI_Neighbor_alltoallw", "sendtypes[2]");
    types[2] = loose;
    CHECK_ERR(MPI_Ineighbor_alltoallw(x, counts, bytes, good, y, counts, bytes, types, c, &rq),
              MPI_ERR_TYPE, "MPI_Ineighbor_alltoallw");
    CHECK(rq == MPI_REQUEST_NULL, "a refused MPI_Ineighbor_alltoallw returned a request");
    MPI_Type_free(&loose);

    /* the communicator still works, and so does a large-count form */
    MPI_Count cc[4] = {1, 1, 1, 1};
    MPI_Aint cd[4] = {0, 1, 2, 3};
    for (int i = 0; i < 4; i++)
        x[i] = me * 10 + i, y[i] = -1;
    CHECK_SUCCESS(MPI_Neighbor_alltoallv_c(x, cc, cd, MPI_INT, y, cc, cd, MPI_INT, c));
    int nb[4];
    CHECK_SUCCESS(MPI_Cart_shift(c, 0, 1, &nb[0], &nb[1]));
    CHECK_SUCCESS(MPI_Cart_shift(c, 1, 1, &nb[2], &nb[3]));
    for (int i = 0; i < 4; i++)
        CHECK_EQ_INT(y[i], nb[i] == MPI_PROC_NULL ? -1 : nb[i] * 10 + (i ^ 1));
    MPI_Comm_free(&c);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    CHECK(np <= 16, "at most 16 processes");
    CHECK_SUCCESS(MPI_Type_contiguous(2, MPI_INT, &pair));
    CHECK_SUCCESS(MPI_Type_commit(&pair));
    CHECK_SUCCESS(MPI_Type_vector(2, 1, 2, MPI_INT, &vec));
    CHECK_SUCCESS(MPI_Type_commit(&vec));

    int d2[2] = {0, 0}, d2b[2] = {0, 0}, d3[3] = {1, np, 1};
    cart("2-D periodic grid", 2, d2, (int[]){1, 1});
    cart("2-D non-periodic grid", 2, d2b, (int[]){0, 0});
    cart("np x 1, periodic dimension of size 1", 2, (int[]){np, 1}, (int[]){0, 1});
    if (np % 2 == 0)
        cart("2 x np/2, periodic dimension of size 2", 2, (int[]){2, np / 2}, (int[]){1, 0});
    cart("1 x np x 1, all periodic", 3, d3, (int[]){1, 1, 1});
    cart("1 x np x 1, none periodic", 3, (int[]){1, np, 1}, (int[]){0, 0, 0});
    cart("ring", 1, (int[]){np}, (int[]){1});
    graph();
    dist(T_DIST_MULTI);
    dist(T_DIST_STAR);
    bad_input();

    MPI_Type_free(&pair);
    MPI_Type_free(&vec);
    MPI_Finalize();
    return 0;
}
