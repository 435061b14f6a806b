/* bad_handles_matrix: the generated bad-input matrix (gen/emit_badinput.py): every C function given
 * a bad handle (alone or in an array), rank, repeated rank, tag, count, dimension, buffer,
 * uncommitted datatype or NULL output pointer must refuse it with the class spec/bad_input.json names and a message
 * naming the function and argument. */
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#if defined(MPI_ABI_VERSION)
#include <mpi_legacy.h> /* the MPI-1 names the standard ABI leaves out */
#endif

enum { BH_GARBAGE, BH_FREED, BH_NULL };

/* The bad values of each category, by number v (NULL: none there); a handle class's are these three. */
static const char *bh_handle_variants[] = {"garbage", "freed", "null", NULL};
#define bh_variants_comm bh_handle_variants
#define bh_variants_datatype bh_handle_variants
#define bh_variants_group bh_handle_variants
#define bh_variants_op bh_handle_variants
#define bh_variants_info bh_handle_variants
#define bh_variants_errhandler bh_handle_variants
#define bh_variants_request bh_handle_variants
static const char *bh_variants_rank[] = {"the communicator's size", "-7", NULL};
#define bh_variants_rank_nni bh_variants_rank
#define bh_variants_root bh_variants_rank
#define bh_variants_grid_rank bh_variants_rank
static const char *bh_variants_tag[] = {"-5", "MPI_TAG_UB + 1", NULL}; /* the second only if MPI_TAG_UB < INT_MAX */
static const char *bh_variants_nonneg[] = {"-1", NULL};
#define bh_variants_positive bh_variants_nonneg
static const char *bh_variants_buffer[] = {"NULL with count 1 of MPI_INT", NULL};
static const char *bh_variants_null_pointer[] = {"NULL", NULL};
static const char *bh_variants_null_array[] = {"NULL", NULL};
static const char *bh_variants_in_place[] = {"MPI_IN_PLACE", NULL};
static const char *bh_variants_aliased[] = {"the buffer it must be distinct from", NULL};
static const char *bh_variants_uncommitted[] = {"MPI_Type_contiguous(2, MPI_INT) not committed", NULL};
/* an IN array of handles: element 0 garbage or freed (bh_bad_<class>), the others valid */
static const char *bh_array_variants[] = {"garbage at index 0", "freed at index 0", NULL};
#define bh_variants_comm_array bh_array_variants
#define bh_variants_datatype_array bh_array_variants
#define bh_variants_group_array bh_array_variants
#define bh_variants_op_array bh_array_variants
#define bh_variants_info_array bh_array_variants
#define bh_variants_errhandler_array bh_array_variants
#define bh_variants_request_array bh_array_variants
static const char *bh_variants_distinct[] = {"rank 0 given twice (length 2)", NULL};
static const char *bh_variants_ndims[] = {"-1", NULL};
static const char *bh_variants_dims[] = {"-1 at index 0", NULL};
static const char *bh_variants_dims_size[] = {"the communicator's size + 1 at index 0", NULL};
static const char *bh_variants_count_array[] = {"-1 at index 0", NULL};
#define bh_variants_dtype_count_array bh_variants_count_array
static const char *bh_variants_dtype_size_array[] = {"0 at index 0", NULL};
static const char *bh_variants_disp[] = {"-1", NULL};
static const char *bh_variants_position[] = {"-1", NULL};
static const char *bh_variants_blocklength[] = {"-1", NULL};

struct bh_case {
    const char *fn, *param, *cls;
    int err;                 /* the error class the case must give */
    int null;                /* the class's null handle is refused there too */
    int ranks;               /* the processes the case needs (fewer: skipped) */
    int (*call)(int v);
    const char **variants;   /* bh_variants_<cls> */
    const char *known;       /* a known defect's reason (spec/bad_input.json), else NULL */
};

static MPI_Group g_group;
static MPI_Info g_info;
static MPI_Win g_win, g_win_shared;
static MPI_Comm g_cart, g_graph;
static int g_winbuf[16];

static MPI_Comm bh_default_comm(void) { return MPI_COMM_WORLD; }
static MPI_Datatype bh_default_datatype(void) { return MPI_INT; }
static MPI_Group bh_default_group(void) { return g_group; }
static MPI_Op bh_default_op(void) { return MPI_SUM; }
static MPI_Info bh_default_info(void) { return g_info; }
static MPI_Errhandler bh_default_errhandler(void) { return MPI_ERRORS_RETURN; }
static MPI_Request bh_default_request(void) { return MPI_REQUEST_NULL; }
static MPI_Win bh_default_win(void) { return g_win; }
/* the objects a parameter's `requires` asks for: a 1-D Cartesian communicator and a graph
 * communicator without edges over MPI_COMM_WORLD, a window of shared memory; the Cartesian
 * one is also the communicator of an array as long as a topology's degree (degree_comm: in-
 * and out-degree 2, MPI_PROC_NULL neighbours at the ends) */
static MPI_Comm bh_default_comm_cartesian(void) { return g_cart; }
static MPI_Comm bh_default_comm_graph(void) { return g_graph; }
static MPI_Win bh_default_win_shared(void) { return g_win_shared; }
static MPI_Message bh_default_message(void) { return MPI_MESSAGE_NO_PROC; }
static int bh_default_keyval(void) { return MPI_TAG_UB; }

/* A garbage handle: an odd number, neither an object's address (standard ABI) nor a valid
 * integer handle (MPICH ABI). */
#define BH_GARBAGE_VALUE ((intptr_t)0x12345677)

static void user_fn(void *in, void *inout, int *len, MPI_Datatype *t)
{
    (void)in; (void)inout; (void)len; (void)t;
}

static void user_eh(MPI_Comm *c, int *code, ...)
{
    (void)c; (void)code;
}

/* bh_bad_<class>(v): the garbage handle, the old handle of a user object just freed, or the null handle */
static MPI_Comm bh_bad_comm(int v)
{
    MPI_Comm c, old;
    if (v == BH_GARBAGE)
        return (MPI_Comm)BH_GARBAGE_VALUE;
    if (v == BH_NULL)
        return MPI_COMM_NULL;
    CHECK_SUCCESS(MPI_Comm_dup(MPI_COMM_WORLD, &c));
    old = c;
    CHECK_SUCCESS(MPI_Comm_free(&c));
    return old;
}

static MPI_Datatype bh_bad_datatype(int v)
{
    MPI_Datatype t, old;
    if (v == BH_GARBAGE)
        return (MPI_Datatype)BH_GARBAGE_VALUE;
    if (v == BH_NULL)
        return MPI_DATATYPE_NULL;
    CHECK_SUCCESS(MPI_Type_contiguous(2, MPI_INT, &t));
    CHECK_SUCCESS(MPI_Type_commit(&t));
    old = t;
    CHECK_SUCCESS(MPI_Type_free(&t));
    return old;
}

static MPI_Group bh_bad_group(int v)
{
    MPI_Group g, old;
    int zero = 0;
    if (v == BH_GARBAGE)
        return (MPI_Group)BH_GARBAGE_VALUE;
    if (v == BH_NULL)
        return MPI_GROUP_NULL;
    CHECK_SUCCESS(MPI_Group_incl(g_group, 1, &zero, &g));
    old = g;
    CHECK_SUCCESS(MPI_Group_free(&g));
    return old;
}

static MPI_Op bh_bad_op(int v)
{
    MPI_Op op, old;
    if (v == BH_GARBAGE)
        return (MPI_Op)BH_GARBAGE_VALUE;
    if (v == BH_NULL)
        return MPI_OP_NULL;
    CHECK_SUCCESS(MPI_Op_create(user_fn, 1, &op));
    old = op;
    CHECK_SUCCESS(MPI_Op_free(&op));
    return old;
}

static MPI_Info bh_bad_info(int v)
{
    MPI_Info info, old;
    if (v == BH_GARBAGE)
        return (MPI_Info)BH_GARBAGE_VALUE;
    if (v == BH_NULL)
        return MPI_INFO_NULL;
    CHECK_SUCCESS(MPI_Info_create(&info));
    old = info;
    CHECK_SUCCESS(MPI_Info_free(&info));
    return old;
}

static MPI_Errhandler bh_bad_errhandler(int v)
{
    MPI_Errhandler eh, old;
    if (v == BH_GARBAGE)
        return (MPI_Errhandler)BH_GARBAGE_VALUE;
    if (v == BH_NULL)
        return MPI_ERRHANDLER_NULL;
    CHECK_SUCCESS(MPI_Comm_create_errhandler(user_eh, &eh));
    old = eh;
    CHECK_SUCCESS(MPI_Errhandler_free(&eh));
    return old;
}

static MPI_Request bh_bad_request(int v)
{
    static int buf;
    MPI_Request r, old;
    if (v == BH_GARBAGE)
        return (MPI_Request)BH_GARBAGE_VALUE;
    if (v == BH_NULL)
        return MPI_REQUEST_NULL;
    CHECK_SUCCESS(MPI_Send_init(&buf, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, &r));
    old = r;
    CHECK_SUCCESS(MPI_Request_free(&r));
    return old;
}

static int g_size, g_tag_ub;

/* bh_bad_<check>(v): a bad value of a scalar of that kind check (spec/bad_input.json's scalar_checks);
 * the default communicator and window are over MPI_COMM_WORLD */
static int bh_bad_rank(int v) { return v == 0 ? g_size : -7; } /* -7: no sentinel on either face */
#define bh_bad_rank_nni bh_bad_rank
#define bh_bad_root bh_bad_rank
#define bh_bad_grid_rank bh_bad_rank /* MPI_Type_create_darray's: the default size is 1 */
static int bh_bad_tag(int v) { return v == 0 ? -5 : g_tag_ub + 1; }
static int bh_bad_nonneg(int v) { (void)v; return -1; }
#define bh_bad_positive bh_bad_nonneg
#define bh_bad_ndims bh_bad_nonneg
/* an element of a dimension array: negative, or more processes than the communicator has */
static int bh_bad_dims(int v) { (void)v; return -1; }
static int bh_bad_dims_size(int v) { (void)v; return g_size + 1; }
/* an element of a count array (a v/w collective's counts...): negative */
#define bh_bad_count_array bh_bad_nonneg
/* an element of a datatype constructor's count array (array_of_blocklengths...): negative */
#define bh_bad_dtype_count_array bh_bad_nonneg
/* an element of a datatype constructor's size array (array_of_sizes, array_of_gsizes...): 0 */
static int bh_bad_dtype_size_array(int v) { (void)v; return 0; }
/* an RMA target displacement: negative */
static MPI_Aint bh_bad_disp(int v) { (void)v; return -1; }
/* a pack position (the value an INOUT pointer gives): negative */
#define bh_bad_position bh_bad_nonneg
/* the default callback of a call that takes one (cast to its type): a case never calls it */
static void bh_any_function(void) {}
/* a datatype constructor's scalar blocklength: negative */
#define bh_bad_blocklength bh_bad_nonneg

/* A datatype not committed (MPI_Type_contiguous(2, MPI_INT)), for an argument that describes a buffer. */
static MPI_Datatype bh_bad_uncommitted(int v)
{
    MPI_Datatype t;
    (void)v;
    CHECK_SUCCESS(MPI_Type_contiguous(2, MPI_INT, &t));
    return t;
}

#include "bad_handles_cases.h"

enum { BH_PASS, BH_WRONG_CLASS = 10, BH_NO_NAME = 11 };

/* Cases and passes by category (a handle class or a scalar check, buffer, uncommitted). */
static struct { const char *cls; int cases, passed; } g_cat[32];

static void tally(const char *cls, int passed)
{
    int i = 0;
    while (g_cat[i].cls && strcmp(g_cat[i].cls, cls))
        i++;
    CHECK(i < (int)(sizeof g_cat / sizeof g_cat[0]) - 1, "too many categories");
    g_cat[i].cls = cls;
    g_cat[i].cases++;
    g_cat[i].passed += passed;
}

/* The child's part: the call, its class and its message. */
static int run_case(const struct bh_case *c, int v)
{
    char msg[MPI_MAX_ERROR_STRING];
    int len = 0, code, cls;

    alarm(10);
    code = c->call(v);
    cls = error_class(code);
    msg[0] = '\0';
    MPI_Error_string(code, msg, &len);
    if (cls != c->err) {
        fprintf(stderr, "  %s(%s = %s %s): class %d, expected %d: \"%s\"\n", c->fn, c->param,
                c->variants[v], c->cls, cls, c->err, msg);
        return BH_WRONG_CLASS;
    }
    if (!strstr(msg, c->fn) || !strstr(msg, c->param)) {
        fprintf(stderr, "  %s(%s = %s %s): the message does not name the function and the argument: \"%s\"\n",
                c->fn, c->param, c->variants[v], c->cls, msg);
        return BH_NO_NAME;
    }
    return BH_PASS;
}

int main(void)
{
    int n = (int)(sizeof bh_cases / sizeof bh_cases[0]);
    int cases = 0, passed = 0, crashed = 0, hung = 0, wrong = 0, unnamed = 0, known = 0, stale = 0, skipped = 0;
    int *tag_ub, flag = 0;

    CHECK_SUCCESS(MPI_Init(NULL, NULL));
    CHECK_SUCCESS(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_SUCCESS(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
    CHECK_SUCCESS(MPI_Comm_size(MPI_COMM_WORLD, &g_size));
    CHECK_SUCCESS(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &tag_ub, &flag));
    CHECK(flag && *tag_ub >= 32767, "MPI_TAG_UB");
    g_tag_ub = *tag_ub;
    if (g_tag_ub == INT_MAX)
        bh_variants_tag[1] = NULL;
    CHECK_SUCCESS(MPI_Comm_group(MPI_COMM_WORLD, &g_group));
    CHECK_SUCCESS(MPI_Info_create(&g_info));
    CHECK_SUCCESS(MPI_Win_create(g_winbuf, sizeof g_winbuf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &g_win));
    CHECK_SUCCESS(MPI_Win_set_errhandler(g_win, MPI_ERRORS_RETURN));
    {
        int dims[1] = {g_size}, periods[1] = {0}, index[64] = {0}, edges[1] = {0};
        void *base = NULL;
        CHECK(g_size <= 64, "at most 64 processes");
        CHECK_SUCCESS(MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &g_cart));
        CHECK_SUCCESS(MPI_Graph_create(MPI_COMM_WORLD, g_size, index, edges, 0, &g_graph));
        CHECK_SUCCESS(MPI_Comm_set_errhandler(g_cart, MPI_ERRORS_RETURN));
        CHECK_SUCCESS(MPI_Comm_set_errhandler(g_graph, MPI_ERRORS_RETURN));
        CHECK_SUCCESS(MPI_Win_allocate_shared(64, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &g_win_shared));
        CHECK_SUCCESS(MPI_Win_set_errhandler(g_win_shared, MPI_ERRORS_RETURN));
    }
    /* BH_RANKS=N (tests/testlist): only the cases that need N processes, run by rank 0 (the
     * others run them at fewer processes); without it every case this many processes allow */
    const char *only = getenv("BH_RANKS");
    int want = only ? atoi(only) : 0, me = 0;
    CHECK(!only || want == g_size, "BH_RANKS must be the number of processes");
    CHECK_SUCCESS(MPI_Comm_rank(MPI_COMM_WORLD, &me));
    fflush(stdout);
    fflush(stderr);
    for (int i = 0; i < n; i++) {
        const struct bh_case *c = &bh_cases[i];
        if (want && (c->ranks != want || me != 0))
            continue;
        if (c->ranks > g_size) {
            skipped++;
            continue;
        }
        for (int v = 0; c->variants[v]; v++) {
            if (c->variants == bh_handle_variants && v == BH_NULL && !c->null)
                continue;
            int st = 0, ok;
            pid_t pid = fork();
            CHECK(pid >= 0, "fork");
            if (pid == 0)
                _exit(run_case(c, v));
            CHECK(waitpid(pid, &st, 0) == pid, "waitpid");
            cases++;
            ok = WIFEXITED(st) && WEXITSTATUS(st) == BH_PASS;
            tally(c->cls, ok);
            if (c->known) {
                if (ok) {
                    stale++;
                    fprintf(stderr, "  %s(%s): listed as a known defect but passes: remove it from "
                            "spec/bad_input.json\n", c->fn, c->param);
                } else {
                    known++;
                }
                continue;
            }
            if (ok) {
                passed++;
            } else if (WIFSIGNALED(st) && WTERMSIG(st) == SIGALRM) {
                hung++;
                fprintf(stderr, "  %s(%s = %s %s): hung\n", c->fn, c->param, c->variants[v], c->cls);
            } else if (WIFSIGNALED(st)) {
                crashed++;
                fprintf(stderr, "  %s(%s = %s %s): crashed (signal %d)\n", c->fn, c->param,
                        c->variants[v], c->cls, WTERMSIG(st));
            } else if (WEXITSTATUS(st) == BH_WRONG_CLASS) {
                wrong++;
            } else if (WEXITSTATUS(st) == BH_NO_NAME) {
                unnamed++;
            } else {
                crashed++;
                fprintf(stderr, "  %s(%s = %s %s): exited with %d\n", c->fn, c->param,
                        c->variants[v], c->cls, WEXITSTATUS(st));
            }
        }
    }
    if (me == 0)
        printf("bad_handles_matrix: %d cases (%d function and argument pairs): "
           "%d passed, %d crashed, %d hung, %d wrong class, %d unnamed, known defects: %d\n",
           cases, n, passed, crashed, hung, wrong, unnamed, known);
    if (skipped)
        printf("  skipped: %d function and argument pairs that need more than %d process%s\n", skipped, g_size,
               g_size == 1 ? "" : "es");
    for (int i = 0; g_cat[i].cls; i++)
        printf("  %s: %d cases, %d passed\n", g_cat[i].cls, g_cat[i].cases, g_cat[i].passed);
    CHECK_SUCCESS(MPI_Win_free(&g_win_shared));
    CHECK_SUCCESS(MPI_Comm_free(&g_graph));
    CHECK_SUCCESS(MPI_Comm_free(&g_cart));
    CHECK_SUCCESS(MPI_Win_free(&g_win));
    CHECK_SUCCESS(MPI_Info_free(&g_info));
    CHECK_SUCCESS(MPI_Group_free(&g_group));
    CHECK_SUCCESS(MPI_Finalize());
    return passed + known == cases && stale == 0 && (cases > 0 || me != 0) ? 0 : 1;
}
