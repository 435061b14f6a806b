/* win_create.c — window objects: MPI_Win_create, allocate, allocate_shared (+shared_query,
 * contiguous and not), create_dynamic (+attach/detach), free (collective, returns
 * MPI_WIN_NULL, nothing left in /dev/shm), group, name, info, error handlers, bad input. */
#include <dirent.h>
#include <unistd.h>

#include "check.h"

static int me, np, handler_calls;

static void win_handler(MPI_Win *win, int *code, ...)
{
    (void)win, (void)code;
    handler_calls++;
}

/* Entries of /dev/shm made for windows of this job. */
static int shm_leftovers(void)
{
    const char *job = getenv("SWITCHYARD_JOBID");
    DIR *d = opendir("/dev/shm");
    int n = 0;
    for (struct dirent *e; d && job && (e = readdir(d));)
        n += strstr(e->d_name, job) && strstr(e->d_name, "-win-");
    if (d)
        closedir(d);
    return n;
}

static void created(void)
{
    int mem[16] = {0}, len, flag;
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "no_locks", "true");
    MPI_Win win;
    CHECK_SUCCESS(MPI_Win_create(mem, sizeof mem, sizeof(int), info, MPI_COMM_WORLD, &win));
    MPI_Info_free(&info);
    MPI_Group g, wg;
    int cmp;
    CHECK_SUCCESS(MPI_Win_get_group(win, &g));
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    MPI_Group_compare(g, wg, &cmp);
    CHECK_EQ_INT(cmp, MPI_IDENT);
    MPI_Group_free(&g);
    MPI_Group_free(&wg);
    char name[MPI_MAX_OBJECT_NAME];
    CHECK_SUCCESS(MPI_Win_get_name(win, name, &len));
    CHECK(len == 0, "an unnamed window is called \"%s\"", name);
    CHECK_SUCCESS(MPI_Win_set_name(win, "grid"));
    CHECK_SUCCESS(MPI_Win_get_name(win, name, &len));
    CHECK(len == 4 && strcmp(name, "grid") == 0, "window name \"%s\"", name);
    MPI_Info used;
    char val[MPI_MAX_INFO_VAL];
    CHECK_SUCCESS(MPI_Win_get_info(win, &used));
    CHECK_SUCCESS(MPI_Info_get(used, "no_locks", MPI_MAX_INFO_VAL - 1, val, &flag));
    CHECK(flag && strcmp(val, "true") == 0, "no_locks hint lost");
    MPI_Info_free(&used);
    /* error handlers: fatal by default; RETURN and a user handler work on windows */
    MPI_Errhandler eh;
    CHECK_SUCCESS(MPI_Win_get_errhandler(win, &eh));
    CHECK(eh == MPI_ERRORS_ARE_FATAL, "a new window's handler is not MPI_ERRORS_ARE_FATAL");
    MPI_Errhandler_free(&eh);
    CHECK_SUCCESS(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    MPI_Aint sz;
    int du;
    void *p;
    CHECK_ERR(MPI_Win_shared_query(win, 0, &sz, &du, &p), MPI_ERR_RMA_FLAVOR, "MPI_Win_shared_query");
    CHECK_ERR(MPI_Win_attach(win, mem, 4), MPI_ERR_RMA_FLAVOR, "MPI_Win_attach");
    CHECK_SUCCESS(MPI_Win_create_errhandler(win_handler, &eh));
    CHECK_SUCCESS(MPI_Win_set_errhandler(win, eh));
    CHECK_SUCCESS(MPI_Win_call_errhandler(win, MPI_ERR_OTHER));
    CHECK_EQ_INT(handler_calls, 1);
    MPI_Win_detach(win, mem); /* a real error goes to the window's handler */
    CHECK_EQ_INT(handler_calls, 2);
    MPI_Errhandler_free(&eh);
    CHECK_ERR(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN), MPI_SUCCESS, NULL);
    /* Win_free waits for everyone: rank 0 announces itself first, late */
    if (me == 0) {
        usleep(100000);
        int token = 1;
        CHECK_SUCCESS(MPI_Send(&token, 1, MPI_INT, np > 1 ? 1 : 0, 44, MPI_COMM_WORLD));
    }
    CHECK_SUCCESS(MPI_Win_free(&win));
    CHECK(win == MPI_WIN_NULL, "MPI_Win_free did not set MPI_WIN_NULL");
    if (me == (np > 1 ? 1 : 0)) {
        int there = 0, token;
        for (int k = 0; k < 1000 && !there; k++)
            MPI_Iprobe(0, 44, MPI_COMM_WORLD, &there, MPI_STATUS_IGNORE);
        CHECK(there, "MPI_Win_free returned before rank 0 called it");
        MPI_Recv(&token, 1, MPI_INT, 0, 44, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
}

static void allocated(void)
{
    MPI_Win win;
    double *base = NULL;
    MPI_Aint size = me % 2 ? 0 : 100 * sizeof(double);
    CHECK_SUCCESS(MPI_Win_allocate(size, sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win));
    CHECK(size == 0 || base != NULL, "MPI_Win_allocate gave no memory");
    for (int i = 0; size && i < 100; i++)
        base[i] = i; /* the memory is usable */
    CHECK_SUCCESS(MPI_Win_free(&win));
}

static void shared(int noncontig)
{
    MPI_Info info = MPI_INFO_NULL;
    if (noncontig) {
        MPI_Info_create(&info);
        MPI_Info_set(info, "alloc_shared_noncontig", "true");
    }
    MPI_Win win;
    int *mine = NULL;
    MPI_Aint size = (me + 1) * 3 * sizeof(int);
    CHECK_SUCCESS(MPI_Win_allocate_shared(size, sizeof(int), info, MPI_COMM_WORLD, &mine, &win));
    if (info != MPI_INFO_NULL)
        MPI_Info_free(&info);
    for (int i = 0; i < (me + 1) * 3; i++)
        mine[i] = me * 1000 + i;
    MPI_Barrier(MPI_COMM_WORLD);
    char *prev_end = NULL;
    for (int r = 0; r < np; r++) {
        MPI_Aint sz;
    int du;
        int *p;
        CHECK_SUCCESS(MPI_Win_shared_query(win, r, &sz, &du, &p));
        CHECK(sz == (MPI_Aint)((r + 1) * 3 * sizeof(int)) && du == sizeof(int), "rank %d: size %ld unit %d", r,
              (long)sz, du);
        for (int i = 0; i < (r + 1) * 3; i++)
            CHECK(p[i] == r * 1000 + i, "rank %d's part [%d] = %d", r, i, p[i]);
        if (r == me)
            CHECK(p == mine, "shared_query of my own part differs from baseptr");
        if (prev_end && !noncontig)
            CHECK((char *)p == prev_end, "parts are not contiguous at rank %d", r);
        if (noncontig)
            CHECK(((uintptr_t)p & 4095) == 0, "noncontig part of rank %d not on a page boundary", r);
        prev_end = (char *)p + sz;
    }
    MPI_Aint sz;
    int du;
    int *p;
    CHECK_SUCCESS(MPI_Win_shared_query(win, MPI_PROC_NULL, &sz, &du, &p));
    CHECK(sz == 3 * sizeof(int), "MPI_PROC_NULL query: size %ld", (long)sz);
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_SUCCESS(MPI_Win_free(&win));
}

static void dynamic(void)
{
    MPI_Win win;
    char a[64], b[64];
    CHECK_SUCCESS(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    CHECK_SUCCESS(MPI_Win_attach(win, a, sizeof a));
    CHECK_SUCCESS(MPI_Win_attach(win, b, sizeof b));
    CHECK_ERR(MPI_Win_attach(win, a + 8, 8), MPI_ERR_RMA_ATTACH, "MPI_Win_attach", "overlaps");
    CHECK_SUCCESS(MPI_Win_detach(win, a));
    CHECK_ERR(MPI_Win_detach(win, a), MPI_ERR_RMA_ATTACH, "MPI_Win_detach");
    CHECK_SUCCESS(MPI_Win_detach(win, b));
    CHECK_SUCCESS(MPI_Win_free(&win));
}

static void bad_input(void)
{
    MPI_Win win = MPI_WIN_NULL;
    int mem[4];
    CHECK_ERR(MPI_Win_create(mem, -1, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win), MPI_ERR_SIZE, "MPI_Win_create", "size");
    CHECK_ERR(MPI_Win_create(mem, 16, 0, MPI_INFO_NULL, MPI_COMM_WORLD, &win), MPI_ERR_DISP, "MPI_Win_create",
              "disp_unit");
    CHECK_ERR(MPI_Win_free(&win), MPI_ERR_WIN, "MPI_Win_free");
    if (np > 1) {
        MPI_Comm half, ic;
        MPI_Comm_split(MPI_COMM_WORLD, me % 2, me, &half);
        MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, me % 2 ? 0 : 1, 5, &ic);
        MPI_Comm_set_errhandler(ic, MPI_ERRORS_RETURN);
        CHECK_ERR(MPI_Win_create(mem, 16, 1, MPI_INFO_NULL, ic, &win), MPI_ERR_COMM, "MPI_Win_create",
                  "inter-communicator");
        MPI_Comm_free(&ic);
        MPI_Comm_free(&half);
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    created();
    allocated();
    shared(0);
    shared(1);
    dynamic();
    bad_input();
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK(shm_leftovers() == 0, "a window's segment is still in /dev/shm");
    MPI_Finalize();
    return 0;
}
