/* errors: error classes and strings, user error classes/codes/strings,
 * MPI_LASTUSEDCODE, and user error handlers on communicators. */
#include "check.h"

static const int classes[] = {
    MPI_SUCCESS, MPI_ERR_BUFFER, MPI_ERR_COUNT, MPI_ERR_TYPE, MPI_ERR_TAG,
    MPI_ERR_COMM, MPI_ERR_RANK, MPI_ERR_REQUEST, MPI_ERR_ROOT, MPI_ERR_GROUP,
    MPI_ERR_OP, MPI_ERR_TOPOLOGY, MPI_ERR_DIMS, MPI_ERR_ARG, MPI_ERR_UNKNOWN,
    MPI_ERR_TRUNCATE, MPI_ERR_OTHER, MPI_ERR_INTERN, MPI_ERR_PENDING,
    MPI_ERR_IN_STATUS, MPI_ERR_ACCESS, MPI_ERR_AMODE, MPI_ERR_ASSERT,
    MPI_ERR_BAD_FILE, MPI_ERR_BASE, MPI_ERR_CONVERSION, MPI_ERR_DISP,
    MPI_ERR_DUP_DATAREP, MPI_ERR_FILE_EXISTS, MPI_ERR_FILE_IN_USE, MPI_ERR_FILE,
    MPI_ERR_INFO_KEY, MPI_ERR_INFO_NOKEY, MPI_ERR_INFO_VALUE, MPI_ERR_INFO,
    MPI_ERR_IO, MPI_ERR_KEYVAL, MPI_ERR_LOCKTYPE, MPI_ERR_NAME, MPI_ERR_NO_MEM,
    MPI_ERR_NOT_SAME, MPI_ERR_NO_SPACE, MPI_ERR_NO_SUCH_FILE, MPI_ERR_PORT,
    MPI_ERR_QUOTA, MPI_ERR_READ_ONLY, MPI_ERR_RMA_ATTACH, MPI_ERR_RMA_CONFLICT,
    MPI_ERR_RMA_RANGE, MPI_ERR_RMA_SHARED, MPI_ERR_RMA_SYNC, MPI_ERR_SERVICE,
    MPI_ERR_SIZE, MPI_ERR_SPAWN, MPI_ERR_UNSUPPORTED_DATAREP,
    MPI_ERR_UNSUPPORTED_OPERATION, MPI_ERR_WIN, MPI_ERR_RMA_FLAVOR,
    MPI_ERR_PROC_ABORTED, MPI_ERR_VALUE_TOO_LARGE, MPI_ERR_SESSION,
#if MPI_VERSION > 4 || (MPI_VERSION == 4 && MPI_SUBVERSION >= 1)
    MPI_ERR_ERRHANDLER,
#endif
};
#define NCLASSES ((int)(sizeof classes / sizeof classes[0]))

/* the user handler records what it was called with */
static int calls, last_code;
static MPI_Comm last_comm;

static void handler(MPI_Comm *comm, int *code, ...)
{
    calls++;
    last_comm = *comm;
    last_code = *code;
}

#define CHECK_CALLED(n, comm, code)                                          \
    do {                                                                     \
        CHECK_EQ_INT(calls, n);                                              \
        CHECK(last_comm == (comm), "handler got the wrong communicator");    \
        CHECK_EQ_INT(last_code, code);                                       \
    } while (0)

static void test_classes(void)
{
    char msg[MPI_MAX_ERROR_STRING];
    int i, j, cls, len;

    for (i = 0; i < NCLASSES; i++) {
        CHECK_SUCCESS(MPI_Error_class(classes[i], &cls));
        CHECK_EQ_INT(cls, classes[i]);
        CHECK(classes[i] <= MPI_ERR_LASTCODE, "class %d > MPI_ERR_LASTCODE", classes[i]);
        len = -1;
        CHECK_SUCCESS(MPI_Error_string(classes[i], msg, &len));
        CHECK(len > 0 && len < MPI_MAX_ERROR_STRING, "class %d: string length %d",
              classes[i], len);
        CHECK_EQ_INT(strlen(msg), len);
        for (j = 0; j < i; j++)
            CHECK(classes[i] != classes[j], "classes #%d and #%d are equal", i, j);
    }
}

static void test_user_codes(void)
{
    char msg[MPI_MAX_ERROR_STRING];
    int cls = -1, code = -1, got, len, flag = 0, i, *lastused = NULL;

    CHECK_SUCCESS(MPI_Add_error_class(&cls));
    for (i = 0; i < NCLASSES; i++)
        CHECK(cls != classes[i], "new class %d is a predefined one", cls);
    CHECK_SUCCESS(MPI_Add_error_code(cls, &code));
    CHECK(code != cls, "new code equals its class %d", cls);
    CHECK_SUCCESS(MPI_Error_class(code, &got));
    CHECK_EQ_INT(got, cls);
    CHECK_SUCCESS(MPI_Error_class(cls, &got));
    CHECK_EQ_INT(got, cls);

    CHECK_SUCCESS(MPI_Add_error_string(cls, "switchyard test class"));
    CHECK_SUCCESS(MPI_Add_error_string(code, "switchyard test code"));
    CHECK_SUCCESS(MPI_Error_string(code, msg, &len));
    CHECK(strcmp(msg, "switchyard test code") == 0, "code string '%s'", msg);
    CHECK_EQ_INT(len, strlen(msg));
    CHECK_SUCCESS(MPI_Error_string(cls, msg, &len));
    CHECK(strcmp(msg, "switchyard test class") == 0, "class string '%s'", msg);

    CHECK_SUCCESS(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &lastused, &flag));
    CHECK(flag && lastused, "MPI_LASTUSEDCODE not set on MPI_COMM_WORLD");
    /* the standard calls it the largest error class; Switchyard counts codes too */
    CHECK(*lastused >= cls, "MPI_LASTUSEDCODE %d < class %d", *lastused, cls);
    CHECK(!CHECK_SWITCHYARD || *lastused >= code, "MPI_LASTUSEDCODE %d < code %d",
          *lastused, code);
}

static void test_handlers(void)
{
    MPI_Errhandler eh = MPI_ERRHANDLER_NULL, got = MPI_ERRHANDLER_NULL;
    int code, cls;

    CHECK_SUCCESS(MPI_Comm_get_errhandler(MPI_COMM_WORLD, &got));
    CHECK(got == MPI_ERRORS_ARE_FATAL, "default handler is not MPI_ERRORS_ARE_FATAL");
    CHECK_SUCCESS(MPI_Errhandler_free(&got));

    CHECK_SUCCESS(MPI_Comm_create_errhandler(handler, &eh));
    CHECK(eh != MPI_ERRHANDLER_NULL, "MPI_Comm_create_errhandler gave NULL");
    CHECK_SUCCESS(MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh));
    CHECK_SUCCESS(MPI_Comm_get_errhandler(MPI_COMM_WORLD, &got));
    CHECK(got == eh, "MPI_Comm_get_errhandler did not return the handler set");
    CHECK_SUCCESS(MPI_Errhandler_free(&got));
    CHECK(got == MPI_ERRHANDLER_NULL, "MPI_Errhandler_free did not set NULL");

    CHECK_SUCCESS(MPI_Comm_call_errhandler(MPI_COMM_WORLD, MPI_ERR_OTHER));
    CHECK_CALLED(1, MPI_COMM_WORLD, MPI_ERR_OTHER);

    /* a real error runs the handler, then the call returns the code */
    code = MPI_Comm_size(MPI_COMM_WORLD, NULL);
    CHECK_CALLED(2, MPI_COMM_WORLD, code);
    CHECK_SUCCESS(MPI_Error_class(code, &cls));
    CHECK_EQ_INT(cls, MPI_ERR_ARG);

    /* freeing the handle keeps the handler alive while WORLD uses it */
    CHECK_SUCCESS(MPI_Errhandler_free(&eh));
    CHECK(eh == MPI_ERRHANDLER_NULL, "MPI_Errhandler_free did not set NULL");
    CHECK_SUCCESS(MPI_Comm_call_errhandler(MPI_COMM_WORLD, MPI_ERR_TAG));
    CHECK_CALLED(3, MPI_COMM_WORLD, MPI_ERR_TAG);

    /* MPI_ERRORS_RETURN: a bad call returns its code, no handler runs */
    CHECK_SUCCESS(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_SUCCESS(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
    CHECK_ERR(MPI_Comm_size(MPI_COMM_WORLD, NULL), MPI_ERR_ARG, "MPI_Comm_size");
    CHECK_EQ_INT(calls, 3);

    /* MPI_ERRORS_ABORT exists and can be set and read back (MPICH 4.0.2
     * asserts in MPI_Comm_set_errhandler on it, hence the guard) */
    CHECK(MPI_ERRORS_ABORT != MPI_ERRHANDLER_NULL, "MPI_ERRORS_ABORT is NULL");
    if (CHECK_SWITCHYARD) {
        CHECK_SUCCESS(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_ABORT));
        CHECK_SUCCESS(MPI_Comm_get_errhandler(MPI_COMM_SELF, &got));
        CHECK(got == MPI_ERRORS_ABORT, "MPI_COMM_SELF handler is not MPI_ERRORS_ABORT");
        CHECK_SUCCESS(MPI_Errhandler_free(&got));
        CHECK_SUCCESS(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
    }
}

int main(void)
{
    test_classes(); /* MPI-4: allowed before MPI_Init */
    CHECK_SUCCESS(MPI_Init(NULL, NULL));
    test_classes();
    test_user_codes();
    test_handlers();
    CHECK_SUCCESS(MPI_Finalize());
    return 0;
}
