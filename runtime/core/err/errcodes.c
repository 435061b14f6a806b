/* errcodes.c — error classes and codes: predefined class texts, user classes/codes/strings
 * (MPI_Add_error_*, MPI_Remove_error_*), MPI_Error_class and MPI_Error_string. */
#include "err.h"

#include <stdio.h>
#include <stdlib.h>

/* Texts of the predefined classes (after the MPI standard's table of error classes). */
static const char *const class_text[] = {
    [RT_SUCCESS] = "no error",
    [RT_ERR_BUFFER] = "invalid buffer pointer",
    [RT_ERR_COUNT] = "invalid count argument",
    [RT_ERR_TYPE] = "invalid datatype",
    [RT_ERR_TAG] = "invalid tag",
    [RT_ERR_COMM] = "invalid communicator",
    [RT_ERR_RANK] = "invalid rank",
    [RT_ERR_REQUEST] = "invalid request (handle)",
    [RT_ERR_ROOT] = "invalid root",
    [RT_ERR_GROUP] = "invalid group",
    [RT_ERR_OP] = "invalid operation",
    [RT_ERR_TOPOLOGY] = "invalid topology",
    [RT_ERR_DIMS] = "invalid dimension argument",
    [RT_ERR_ARG] = "invalid argument of some other kind",
    [RT_ERR_UNKNOWN] = "unknown error",
    [RT_ERR_TRUNCATE] = "message truncated on receive",
    [RT_ERR_OTHER] = "known error not in this list",
    [RT_ERR_INTERN] = "internal MPI (implementation) error",
    [RT_ERR_PENDING] = "pending request",
    [RT_ERR_IN_STATUS] = "error code is in status",
    [RT_ERR_ACCESS] = "permission denied",
    [RT_ERR_AMODE] = "error related to the amode passed to MPI_File_open",
    [RT_ERR_ASSERT] = "invalid assertion argument",
    [RT_ERR_BAD_FILE] = "invalid file name (e.g., path name too long)",
    [RT_ERR_BASE] = "invalid base argument",
    [RT_ERR_CONVERSION] = "an error in a user-supplied data conversion function",
    [RT_ERR_DISP] = "invalid displacement argument",
    [RT_ERR_DUP_DATAREP] = "data representation identifier already registered",
    [RT_ERR_FILE_EXISTS] = "file exists",
    [RT_ERR_FILE_IN_USE] = "file operation could not be completed: the file is open",
    [RT_ERR_FILE] = "invalid file handle",
    [RT_ERR_INFO_KEY] = "invalid info key (empty or longer than MPI_MAX_INFO_KEY)",
    [RT_ERR_INFO_NOKEY] = "info key not defined",
    [RT_ERR_INFO_VALUE] = "info value longer than MPI_MAX_INFO_VAL",
    [RT_ERR_INFO] = "invalid info argument",
    [RT_ERR_IO] = "other I/O error",
    [RT_ERR_KEYVAL] = "invalid keyval",
    [RT_ERR_LOCKTYPE] = "invalid locktype argument",
    [RT_ERR_NAME] = "invalid service name passed to MPI_Lookup_name",
    [RT_ERR_NO_MEM] = "out of memory (MPI_Alloc_mem or internal allocation)",
    [RT_ERR_NOT_SAME] = ("collective argument not identical on all processes, "
                         "or collective calls in a different order"),
    [RT_ERR_NO_SPACE] = "not enough space",
    [RT_ERR_NO_SUCH_FILE] = "file does not exist",
    [RT_ERR_PORT] = "invalid port name",
    [RT_ERR_QUOTA] = "quota exceeded",
    [RT_ERR_READ_ONLY] = "read-only file or file system",
    [RT_ERR_RMA_ATTACH] = "memory cannot be attached to the window",
    [RT_ERR_RMA_CONFLICT] = "conflicting accesses to window",
    [RT_ERR_RMA_RANGE] = "target memory is not part of the window",
    [RT_ERR_RMA_SHARED] = "memory cannot be shared",
    [RT_ERR_RMA_SYNC] = "invalid synchronization of RMA calls",
    [RT_ERR_SERVICE] = "invalid service name passed to MPI_Unpublish_name",
    [RT_ERR_SIZE] = "invalid size argument",
    [RT_ERR_SPAWN] = "error in spawning processes",
    [RT_ERR_UNSUPPORTED_DATAREP] = "unsupported data representation",
    [RT_ERR_UNSUPPORTED_OPERATION] = "unsupported operation",
    [RT_ERR_WIN] = "invalid window argument",
    [RT_ERR_RMA_FLAVOR] = "window has the wrong flavor for the called function",
    [RT_ERR_PROC_ABORTED] = "operation failed because a peer process has aborted",
    [RT_ERR_VALUE_TOO_LARGE] = "value is too large to store",
    [RT_ERR_SESSION] = "invalid session argument",
    [RT_ERR_ERRHANDLER] = "invalid errhandler argument",
    [RT_ERR_ABI] = "error related to the MPI ABI",
};
#define NCLASS_TEXT ((int)(sizeof class_text / sizeof class_text[0]))

/* The MPI_T_ERR_* return codes of the tool interface and MPICH's MPIX_ERR_* classes, which
 * are classes too. */
static const char *tool_text(int cls)
{
    switch (cls) {
    case RT_T_ERR_CANNOT_INIT: return "the tool interface cannot be initialized";
    case RT_T_ERR_NOT_ACCESSIBLE: return "the tool interface is not accessible";
    case RT_T_ERR_NOT_INITIALIZED: return "the tool interface is not initialized";
    case RT_T_ERR_NOT_SUPPORTED: return "the requested tool interface function is not supported";
    case RT_T_ERR_MEMORY: return "out of memory in the tool interface";
    case RT_T_ERR_INVALID: return "invalid use of the tool interface or invalid parameter";
    case RT_T_ERR_INVALID_INDEX: return "invalid tool interface index";
    case RT_T_ERR_INVALID_ITEM: return "invalid tool interface item index";
    case RT_T_ERR_INVALID_SESSION: return "invalid tool interface performance session";
    case RT_T_ERR_INVALID_HANDLE: return "invalid tool interface handle";
    case RT_T_ERR_INVALID_NAME: return "invalid tool interface variable name";
    case RT_T_ERR_OUT_OF_HANDLES: return "no more tool interface handles available";
    case RT_T_ERR_OUT_OF_SESSIONS: return "no more tool interface sessions available";
    case RT_T_ERR_CVAR_SET_NOT_NOW: return "control variable cannot be set at this moment";
    case RT_T_ERR_CVAR_SET_NEVER: return "control variable cannot be set until the end of execution";
    case RT_T_ERR_PVAR_NO_STARTSTOP: return "performance variable cannot be started or stopped";
    case RT_T_ERR_PVAR_NO_WRITE: return "performance variable cannot be written or reset";
    case RT_T_ERR_PVAR_NO_ATOMIC: return "performance variable cannot be read and reset atomically";
    /* MPICH's fault-tolerance classes (MPIX_ERR_*), which MPICH-built programs test for */
    case RT_X_ERR_PROC_FAILED: return "process failure";
    case RT_X_ERR_PROC_FAILED_PENDING: return "a process failure has caused this request to be pending";
    case RT_X_ERR_REVOKED: return "the communication object has been revoked";
    case RT_X_ERR_EAGAIN: return "operation could not be issued: try again";
    case RT_X_ERR_NOREQ: return "cannot allocate a request";
    default: return NULL;
    }
}

/* The predefined text of predefined class cls, NULL if cls is not a predefined class. */
const char *rt__class_string(int cls)
{
    if (cls >= 0 && cls < NCLASS_TEXT)
        return class_text[cls];
    return tool_text(cls);
}

/* Bookkeeping beside rt__err.user (same indices, same capacity) that makes adding and
 * removing O(1): a live user class's count of live codes, and the removed entries as a
 * free list (LIFO) that add_user takes from before it grows the table. Mutable state
 * outside rt__g: whatever lock comes to guard rt__g.err must guard it too. */
static struct {
    int *aux;       /* live class: its live codes; removed entry: the next removed (-1: end) */
    int free_head;  /* the last removed entry, -1 if none */
} book = {NULL, -1};

/* The live user class/code entry of code, or NULL. */
static struct rt__usererr *user_entry(int code)
{
    int i = code - RT_ERR_DYNAMIC_BASE;

    if (code < RT_ERR_DYNAMIC_BASE || i >= rt__err.nuser || !rt__err.user[i].live)
        return NULL;
    return &rt__err.user[i];
}

/* Marks live entry u removed (its string freed) and puts it on the free list. */
static void remove_user(struct rt__usererr *u)
{
    int i = (int)(u - rt__err.user);

    free(u->str);
    u->str = NULL;
    u->live = 0;
    book.aux[i] = book.free_head;
    book.free_head = i;
}

/* The class of any runtime error code: predefined class, user class or code, or instance
 * (whose class is in its low byte; RT_ERRINST_X + n: the MPIX classes). -1 if code is none of these. */
int rt_error_class_of(int code)
{
    const struct rt__usererr *u;

    if (code < 0)
        return -1;
    if (code & RT_ERRINST_BIT) {
        int cls = code & 0xFF;
        if (cls > RT_ERRINST_X && cls <= RT_ERRINST_X + 1 + (RT_X_ERR_NOREQ - RT_X_ERR_PROC_FAILED))
            cls = RT_X_ERR_PROC_FAILED + (cls - RT_ERRINST_X - 1);
        if (code >= 2 * RT_ERRINST_BIT || cls == RT_SUCCESS || !rt__class_string(cls))
            return -1;
        return cls;
    }
    if (rt__class_string(code))
        return code;
    u = user_entry(code);
    return u ? u->cls : -1;
}

/* The MPI_Error_string text of code into buf (size n): the instance's message (or its
 * class text once the ring recycled it), a predefined text, or a user string ("" if none).
 * Returns the length, or -1 if code is invalid (buf untouched). */
int rt__error_text(int code, char *buf, size_t n)
{
    const struct rt__usererr *u;
    const char *s;
    int cls = rt_error_class_of(code);

    if (cls < 0)
        return -1;
    if (code & RT_ERRINST_BIT) {
        s = rt__instance_msg(code);
        return rt__copy_str(buf, n, s ? s : rt__class_string(cls));
    }
    if ((s = rt__class_string(code)) != NULL)
        return rt__copy_str(buf, n, s);
    u = user_entry(code);
    return rt__copy_str(buf, n, u->str ? u->str : "");
}

/* Frees the user error table (at unload). */
void rt__errcodes_unload(void)
{
    for (int i = 0; i < rt__err.nuser; i++)
        free(rt__err.user[i].str);
    free(rt__err.user);
    free(book.aux);
    rt__err.user = NULL;
    book.aux = NULL;
    book.free_head = -1;
    rt__err.nuser = rt__err.capuser = 0;
}

/* MPI_Error_class: *errorclass = the class of errorcode. Invalid code: RT_ERR_ARG. */
int rt_Error_class(int errorcode, int *errorclass)
{
    int cls;

    if (!errorclass)
        return rt__null_arg(NULL, __func__, "errorclass");
    cls = rt_error_class_of(errorcode);
    if (cls < 0)
        return RT_ERR(NULL, RT_ERR_ARG, "invalid error code %d", errorcode);
    *errorclass = cls;
    return RT_SUCCESS;
}

/* MPI_Error_string: string (MPI_MAX_ERROR_STRING chars) gets the text of errorcode,
 * *resultlen its length. Invalid code: RT_ERR_ARG. */
int rt_Error_string(int errorcode, char *string, int *resultlen)
{
    int len;

    if (!string)
        return rt__null_arg(NULL, __func__, "string");
    if (!resultlen)
        return rt__null_arg(NULL, __func__, "resultlen");
    len = rt__error_text(errorcode, string, RT_MAX_ERROR_STRING);
    if (len < 0)
        return RT_ERR(NULL, RT_ERR_ARG, "invalid error code %d", errorcode);
    *resultlen = len;
    return RT_SUCCESS;
}

/* Grows the user table (and its bookkeeping) to hold one more entry. 0 when out of memory
 * or out of codes. */
static int grow_user(void)
{
    int ncap = rt__err.capuser ? 2 * rt__err.capuser : 16;
    struct rt__usererr *nu;
    int *na;

    /* user codes never reach the instance bit's range above the base */
    if (ncap >= RT_ERRINST_BIT)
        return 0;
    nu = realloc(rt__err.user, (size_t)ncap * sizeof *nu);
    if (!nu)
        return 0;
    rt__err.user = nu;
    na = realloc(book.aux, (size_t)ncap * sizeof *na);
    if (!na)
        return 0;  /* the larger user table is kept; capuser tells the size both have */
    book.aux = na;
    rt__err.capuser = ncap;
    return 1;
}

/* A new user entry of class cls (-1: a new class, its own class): a removed entry if there
 * is one, else a new one at the end. Its code, or -1 when out of memory or codes. */
static int add_user(int cls)
{
    struct rt__usererr *e;
    int i, code;

    if (book.free_head >= 0) {
        i = book.free_head;
        book.free_head = book.aux[i];
    } else {
        if (rt__err.nuser == rt__err.capuser && !grow_user())
            return -1;
        i = rt__err.nuser++;
    }
    code = RT_ERR_DYNAMIC_BASE + i;
    e = &rt__err.user[i];
    e->is_class = cls < 0;
    e->cls = cls < 0 ? code : cls;
    e->live = 1;
    e->str = NULL;
    book.aux[i] = 0;
    if (cls >= RT_ERR_DYNAMIC_BASE)
        book.aux[cls - RT_ERR_DYNAMIC_BASE]++;
    if (code > rt__err.lastused)
        rt__err.lastused = code;
    return code;
}

/* MPI_Add_error_class: *errorclass = a new class (>= RT_ERR_DYNAMIC_BASE); the values of
 * removed classes and codes are reused. Out of memory: RT_ERR_NO_MEM. */
int rt_Add_error_class(int *errorclass)
{
    int code;

    if (!errorclass)
        return rt__null_arg(NULL, __func__, "errorclass");
    code = add_user(-1);
    if (code < 0)
        return RT_ERR(NULL, RT_ERR_NO_MEM, "cannot add another error class");
    *errorclass = code;
    return RT_SUCCESS;
}

/* MPI_Add_error_code: *errorcode = a new code of class errorclass (predefined or user
 * class). Not a class: RT_ERR_ARG. Out of memory: RT_ERR_NO_MEM. */
int rt_Add_error_code(int errorclass, int *errorcode)
{
    const struct rt__usererr *u = user_entry(errorclass);
    int code;

    if (!errorcode)
        return rt__null_arg(NULL, __func__, "errorcode");
    if (errorclass == RT_SUCCESS || (!rt__class_string(errorclass) && !(u && u->is_class)))
        return RT_ERR(NULL, RT_ERR_ARG, "'errorclass' = %d is not an error class", errorclass);
    code = add_user(errorclass);
    if (code < 0)
        return RT_ERR(NULL, RT_ERR_NO_MEM, "cannot add another error code");
    *errorcode = code;
    return RT_SUCCESS;
}

/* MPI_Add_error_string: sets (or replaces) the text of a user class or code; a copy is
 * kept, truncated to MPI_MAX_ERROR_STRING-1 chars. Predefined or unknown code: RT_ERR_ARG. */
int rt_Add_error_string(int errorcode, const char *string)
{
    struct rt__usererr *u = user_entry(errorcode);
    char *copy;
    size_t n;

    if (!string)
        return rt__null_arg(NULL, __func__, "string");
    if (!u)
        return RT_ERR(NULL, RT_ERR_ARG, "'errorcode' = %d is not a user error class or code "
                      "(MPI_Add_error_class/MPI_Add_error_code)", errorcode);
    n = strnlen(string, RT_MAX_ERROR_STRING - 1);
    copy = malloc(n + 1);
    if (!copy)
        return RT_ERR(NULL, RT_ERR_NO_MEM, "out of memory");
    memcpy(copy, string, n);
    copy[n] = '\0';
    free(u->str);
    u->str = copy;
    return RT_SUCCESS;
}

/* MPI_Remove_error_class: removes a user class without live codes (its string goes with
 * it). Not a user class, or codes left: RT_ERR_ARG. */
int rt_Remove_error_class(int errorclass)
{
    struct rt__usererr *u = user_entry(errorclass);

    if (!u || !u->is_class)
        return RT_ERR(NULL, RT_ERR_ARG, "'errorclass' = %d is not a user error class "
                      "(MPI_Add_error_class)", errorclass);
    int ncodes = book.aux[errorclass - RT_ERR_DYNAMIC_BASE];
    if (ncodes > 0)
        return RT_ERR(NULL, RT_ERR_ARG, "error class %d still has %d error code%s: remove "
                      "them first", errorclass, ncodes, ncodes == 1 ? "" : "s");
    remove_user(u);
    return RT_SUCCESS;
}

/* MPI_Remove_error_code: removes a user code whose string was removed before. Not a user
 * code, or its string still set: RT_ERR_ARG. */
int rt_Remove_error_code(int errorcode)
{
    struct rt__usererr *u = user_entry(errorcode);

    if (!u || u->is_class)
        return RT_ERR(NULL, RT_ERR_ARG, "'errorcode' = %d is not a user error code "
                      "(MPI_Add_error_code)", errorcode);
    if (u->str)
        return RT_ERR(NULL, RT_ERR_ARG, "error code %d still has an error string: call "
                      "MPI_Remove_error_string first", errorcode);
    if (u->cls >= RT_ERR_DYNAMIC_BASE)
        book.aux[u->cls - RT_ERR_DYNAMIC_BASE]--;
    remove_user(u);
    return RT_SUCCESS;
}

/* MPI_Remove_error_string: removes the text of a user class or code. No such code, or no
 * string set: RT_ERR_ARG. */
int rt_Remove_error_string(int errorcode)
{
    struct rt__usererr *u = user_entry(errorcode);

    if (!u)
        return RT_ERR(NULL, RT_ERR_ARG, "'errorcode' = %d is not a user error class or code",
                      errorcode);
    if (!u->str)
        return RT_ERR(NULL, RT_ERR_ARG, "error code %d has no error string "
                      "(MPI_Add_error_string)", errorcode);
    free(u->str);
    u->str = NULL;
    return RT_SUCCESS;
}
