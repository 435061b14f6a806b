/* session_psets.c — a session's process sets (names, pset_len, mpi_size), its info (thread
 * level), its error handler, and the error classes of bad input, without MPI_Init. */
#include <mpi.h>

#include "check.h"

static int calls, last_code;

static void session_eh(MPI_Session *s, int *code, ...)
{
    (void)s;
    calls++;
    last_code = *code;
}

static void check_info(MPI_Info info, const char *key, const char *want)
{
    char v[MPI_MAX_INFO_VAL + 1];
    int flag = 0, len = MPI_MAX_INFO_VAL;
    CHECK_SUCCESS(MPI_Info_get_string(info, key, &len, v, &flag));
    CHECK(flag, "info key %s missing", key);
    CHECK(strcmp(v, want) == 0, "info %s = \"%s\", expected \"%s\"", key, v, want);
}

int main(void)
{
    MPI_Session s;
    MPI_Info req, info;
    MPI_Info_create(&req);
    MPI_Info_set(req, "thread_level", "MPI_THREAD_SERIALIZED");
    CHECK_SUCCESS(MPI_Session_init(req, MPI_ERRORS_RETURN, &s));
    MPI_Info_free(&req);

    CHECK_SUCCESS(MPI_Session_get_info(s, &info));
    check_info(info, "thread_level", "MPI_THREAD_SERIALIZED");
    MPI_Info_free(&info);

    /* the process sets: mpi://WORLD (size = the job's) and mpi://SELF (1) */
    MPI_Group g;
    int np, n;
    CHECK_SUCCESS(MPI_Group_from_session_pset(s, "mpi://WORLD", &g));
    MPI_Group_size(g, &np);
    MPI_Group_free(&g);
    CHECK_SUCCESS(MPI_Session_get_num_psets(s, MPI_INFO_NULL, &n));
    CHECK_EQ_INT(n, 2);
    const char *want[2] = {"mpi://WORLD", "mpi://SELF"};
    char npstr[16];
    snprintf(npstr, sizeof npstr, "%d", np);
    const char *size[2] = {npstr, "1"};
    for (int i = 0; i < n; i++) {
        char name[64];
        int len = 0;
        CHECK_SUCCESS(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, i, &len, name)); /* 0: the length */
        CHECK_EQ_INT(len, (int)strlen(want[i]) + 1);
        CHECK_SUCCESS(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, i, &len, name));
        CHECK(strcmp(name, want[i]) == 0, "pset %d = \"%s\", expected \"%s\"", i, name, want[i]);
        len = 6; /* truncated: 5 chars and a NUL */
        memset(name, 'x', sizeof name);
        CHECK_SUCCESS(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, i, &len, name));
        CHECK(memcmp(name, "mpi:/", 5) == 0 && name[5] == '\0' && name[6] == 'x', "truncation wrote \"%.8s\"", name);
        CHECK_EQ_INT(len, (int)strlen(want[i]) + 1);
        CHECK_SUCCESS(MPI_Session_get_pset_info(s, want[i], &info));
        check_info(info, "mpi_size", size[i]);
        MPI_Info_free(&info);
    }

    /* bad input, reported by the session's handler */
    char name[64];
    int len = sizeof name;
    CHECK_ERR(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, 2, &len, name), MPI_ERR_ARG, "MPI_Session_get_nth_pset", "'n' = 2");
    CHECK_ERR(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, -1, &len, name), MPI_ERR_ARG, "'n' = -1");
    CHECK_ERR(MPI_Session_get_pset_info(s, "mpi://NOWHERE", &info), MPI_ERR_ARG, "MPI_Session_get_pset_info",
              "mpi://NOWHERE");
    CHECK_ERR(MPI_Group_from_session_pset(s, "app://x", &g), MPI_ERR_ARG, "MPI_Group_from_session_pset", "app://x");

    /* a user's session error handler gets them */
    MPI_Errhandler eh, got;
    CHECK_SUCCESS(MPI_Session_create_errhandler(session_eh, &eh));
    CHECK_SUCCESS(MPI_Session_set_errhandler(s, eh));
    CHECK_SUCCESS(MPI_Session_get_errhandler(s, &got));
    CHECK(got == eh, "MPI_Session_get_errhandler gave another handler");
    MPI_Errhandler_free(&got);
    int err = MPI_Session_get_pset_info(s, "mpi://nope", &info);
    CHECK_EQ_INT(calls, 1);
    CHECK_EQ_INT(last_code, err);
    CHECK_ERR(err, MPI_ERR_ARG, "mpi://nope");
    CHECK_SUCCESS(MPI_Session_call_errhandler(s, MPI_ERR_OTHER));
    CHECK_EQ_INT(calls, 2);
    CHECK_EQ_INT(last_code, MPI_ERR_OTHER);
    MPI_Errhandler_free(&eh);

    CHECK_SUCCESS(MPI_Session_finalize(&s));
    return 0;
}
