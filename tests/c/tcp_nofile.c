/* tcp_nofile.c — 2 ranks over SWITCHYARD_TRANSPORT=tcp (issue 9): rank 0 lowers its own
 * RLIMIT_NOFILE and uses up its descriptors, so its first send finds none for the connection:
 * MPI_ERR_NO_SPACE whose text names RLIMIT_NOFILE, the limit and `ulimit -n`; then it frees
 * them and the same send goes through (a later send may retry). */
#include <dirent.h>
#include <errno.h>
#include <sys/resource.h>
#include <unistd.h>

#include "check.h"

#define MAXFD 256

/* Descriptors this process has open now. */
static int open_fds(void)
{
    DIR *d = opendir("/proc/self/fd");
    struct dirent *e;
    int n = 0;

    CHECK(d != NULL, "opendir /proc/self/fd");
    while ((e = readdir(d)) != NULL)
        n += e->d_name[0] != '.';
    closedir(d);
    return n - 1; /* the directory's own */
}

int main(int argc, char **argv)
{
    int me, size, fds[MAXFD], n = 0, x = 7, err, cls, len;
    char msg[MPI_MAX_ERROR_STRING], lim[64];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(size == 2, "needs 2 ranks, got %d", size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (me == 0) {
        struct rlimit rl, old;
        CHECK(getrlimit(RLIMIT_NOFILE, &old) == 0, "getrlimit");
        rl = old;
        rl.rlim_cur = (rlim_t)open_fds() + 8;
        CHECK(rl.rlim_cur <= old.rlim_cur && setrlimit(RLIMIT_NOFILE, &rl) == 0,
              "setrlimit to %llu", (unsigned long long)rl.rlim_cur);
        while (n < MAXFD && (fds[n] = dup(2)) >= 0)
            n++;
        CHECK(n > 0 && n < MAXFD && errno == EMFILE, "%d descriptors opened before EMFILE", n);

        err = MPI_Send(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
        CHECK(err != MPI_SUCCESS, "the send succeeded with no descriptor left");
        MPI_Error_class(err, &cls);
        CHECK(cls == MPI_ERR_NO_SPACE, "error class %d, expected MPI_ERR_NO_SPACE (%d)", cls, MPI_ERR_NO_SPACE);
        MPI_Error_string(err, msg, &len);
        snprintf(lim, sizeof lim, "may have %llu open: RLIMIT_NOFILE", (unsigned long long)rl.rlim_cur);
        CHECK(strstr(msg, "no file descriptor left") && strstr(msg, lim) && strstr(msg, "`ulimit -n`"),
              "the message does not explain the limit: %s", msg);
        fprintf(stderr, "rank 0, %d descriptors opened, limit %llu: %s\n", n, (unsigned long long)rl.rlim_cur, msg);

        while (n)
            close(fds[--n]);
        CHECK(setrlimit(RLIMIT_NOFILE, &old) == 0, "setrlimit back");
        x = 8;
        err = MPI_Send(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
        CHECK(err == MPI_SUCCESS, "the send after freeing the descriptors failed (%d)", err);
    } else {
        MPI_Recv(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        CHECK(x == 8, "rank 1 got %d, expected 8 (the failed send must send nothing)", x);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (me == 0)
        printf("tcp_nofile: ok\n");
    MPI_Finalize();
    return 0;
}
