/* errors.c — raising errors: instance codes and the ring of their messages, the choice of
 * error handler, fatal errors and job abort, and the init-state check of entry points. */
#include "err.h"

#include "pmi.h"
#include "pmi_wire.h" /* RT_FATAL_PREFIX, RT_PEER_FAILED_PREFIX */

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <unistd.h>

struct rt__err_state rt__err = {.lastused = RT_ERR_LASTCODE};

_Thread_local const char *rt__large_call; /* rt.h */

/* The MPI name of a runtime entry point: "rt_Comm_rank" -> "MPI_Comm_rank"; any other
 * name (already "MPI_...") is copied as it is. Truncates to n-1 chars; returns buf. */

const char *rt__mpi_name(const char *fn, char *buf, size_t n)
{
    if (!fn)
        fn = "MPI";
    if (strncmp(fn, "rt_", 3) == 0 && fn[3] != '_')
        snprintf(buf, n, "MPI_%s", fn + 3);
    else
        snprintf(buf, n, "%s", fn);
    if (rt__large_call && strcmp(buf, rt__large_call) == 0 && strlen(buf) + 3 <= n)
        strcat(buf, "_c"); /* the large-count form is the one called */
    return buf;
}

/* See err.h. */
const char *rt__rank_text(int r, char *buf, size_t n)
{
    switch (r) {
    case RT_PROC_NULL: return "MPI_PROC_NULL";
    case RT_ANY_SOURCE: return "MPI_ANY_SOURCE";
    case RT_ROOT: return "MPI_ROOT";
    case RT_UNDEFINED: return "MPI_UNDEFINED";
    default: snprintf(buf, n, "%d", r); return buf;
    }
}

/* Ends the job with exit status `status`. Singleton: exits the process (stdio flushed,
 * atexit handlers run). A second call while exiting (e.g. from an atexit handler) exits
 * at once. Never returns. */
static _Noreturn void end_job(int status, const char *why)
{
    if (rt__err.aborting)
        _exit(status);
    rt__err.aborting = 1;
    fflush(NULL);
    if (rt_ready && !rt__pmi_singleton()) /* MPI_Init's or a session's runtime is up */
        rt__pmi_abort(status, why); /* the launcher ends the whole job */
    exit(status);
}

_Noreturn void rt__abort_job(int status)
{
    end_job(status, "MPI_Abort");
}

/* Prints "Switchyard: fatal error: <msg>" to stderr, ends the job with status 1; the launcher
 * is told it was a fatal error (RT_FATAL_PREFIX), not a call of MPI_Abort. */
_Noreturn void rt__fatal(const char *msg)
{
    char why[512];
    fprintf(stderr, "Switchyard: fatal error: %s\n", msg);
    snprintf(why, sizeof why, RT_FATAL_PREFIX "%s", msg);
    end_job(1, why);
}

/* As rt__fatal, for a fatal error of code `code`: when its class says a peer process failed
 * (RT_ERR_PROC_ABORTED, RT_X_ERR_PROC_FAILED), the launcher is told so (RT_PEER_FAILED_PREFIX)
 * and names the peer that failed rather than this process. */
_Noreturn void rt__fatal_code(int code, const char *msg)
{
    int cls = rt_error_class_of(code);
    const char *name = rt_error_class_name(cls);
    char why[512], named[480];

    if (name && !strstr(msg, name)) { /* the message names the class, as MPI_Error_class would */
        snprintf(named, sizeof named, "%s (%s)", msg, name);
        msg = named;
    }
    if (cls != RT_ERR_PROC_ABORTED && cls != RT_X_ERR_PROC_FAILED)
        rt__fatal(msg);
    fprintf(stderr, "Switchyard: fatal error: %s\n", msg);
    snprintf(why, sizeof why, RT_PEER_FAILED_PREFIX "%s", msg);
    end_job(1, why);
}

int rt_ready;

/* rt_require_init's slow half: RT_SUCCESS while MPI is initialized and not finalized;
 * otherwise a fatal error "<MPI name of fn>: MPI_Init has not been called" / "...: called
 * after MPI_Finalize". */
int rt__require_init_failed(const char *fn)
{
    char name[64], msg[160];
    int st = rt__g.life.state;

    if (st == RT_STATE_INITIALIZED)
        return RT_SUCCESS;
    rt__mpi_name(fn, name, sizeof name);
    if (st == RT_STATE_PRE_INIT)
        snprintf(msg, sizeof msg, "%s: MPI_Init has not been called", name);
    else
        snprintf(msg, sizeof msg, "%s: called after MPI_Finalize", name);
    rt__fatal(msg);
}

/* Records msg under a new instance code of class cls (1..255, or an MPIX class
 * RT_X_ERR_PROC_FAILED..RT_X_ERR_NOREQ) and returns the code. */
static int new_instance(int cls, const char *msg)
{
    uint32_t seq = rt__err.seq++ & 0xFFFFFu;  /* 20 bits: the code stays below 2^29 */
    int byte = cls < 256 ? cls : RT_ERRINST_X + 1 + (cls - RT_X_ERR_PROC_FAILED); /* MPIX classes */
    int code = RT_ERRINST_BIT | (int)(seq << 8) | byte;
    struct rt__errmsg *e = &rt__err.ring[seq % RT__ERR_RING];

    e->code = code;
    rt__copy_str(e->msg, sizeof e->msg, msg);
    return code;
}

/* The message of instance code `code` if it is still in the ring, else NULL. */
const char *rt__instance_msg(int code)
{
    uint32_t seq;
    const struct rt__errmsg *e;

    if (code < 0 || !(code & RT_ERRINST_BIT))
        return NULL;
    seq = ((uint32_t)code >> 8) & 0xFFFFFu;
    e = &rt__err.ring[seq % RT__ERR_RING];
    return e->code == code ? e->msg : NULL;
}

int (*rt__raise_lock)(int take);

static int raise_msg(rt_obj *obj, int cls, const char *msg);

/* See rt.h. The code handed to the handler and returned: an instance code for the
 * predefined classes 1..255 and the MPIX classes, `cls` itself otherwise (user classes/codes, MPI_T codes). */
int rt_raise(rt_obj *obj, int cls, const char *fn, const char *fmt, ...)
{
    char name[64], msg[RT_MAX_ERROR_STRING];
    va_list ap;
    int n;

    /* "<MPI name>: <text>", cut at MPI_MAX_ERROR_STRING-1 chars */
    n = snprintf(msg, sizeof msg, "%s: ", rt__mpi_name(fn, name, sizeof name));
    va_start(ap, fmt);
    vsnprintf(msg + n, sizeof msg - (size_t)n, fmt, ap);
    va_end(ap);
    int took = rt__raise_lock ? rt__raise_lock(1) : 0; /* a channel entry: the library's lock */
    int code = raise_msg(obj, cls, msg);
    if (took)
        rt__raise_lock(0);
    return code;
}

/* rt_raise with its message made. */
static int raise_msg(rt_obj *obj, int cls, const char *msg)
{
    rt_errhandler **slot = NULL, *eh;
    rt_obj *target;
    int code;

    if (cls <= RT_SUCCESS)
        cls = RT_ERR_INTERN;  /* raising "success" is a runtime bug: keep it an error */
    code = cls < 256 || (cls >= RT_X_ERR_PROC_FAILED && cls <= RT_X_ERR_NOREQ) ? new_instance(cls, msg) : cls;

    /* the object's own handler if it has one (sessions, files, windows and user
     * communicators can live outside the world model); an error with no such object goes
     * to MPI_COMM_SELF's handler once the program has set one (MPI-4.0), else to
     * MPI_COMM_WORLD's (MPI-3.1, MPICH, Open MPI 4): docs/internals.md, "Errors with no object" */
    if (obj && (slot = rt__errhandler_slot(obj)) != NULL && !obj->builtin) {
        target = obj;
    } else {
        if (rt__g.life.state != RT_STATE_INITIALIZED)
            rt__fatal(msg);
        if (!slot) {
            target = rt_builtins[rt__err.self_errh_set ? RT_B_COMM_SELF : RT_B_COMM_WORLD];
            slot = rt__errhandler_slot(target);
        } else {
            target = obj;
        }
    }
    eh = *slot;
    return rt__errhandler_invoke(eh, target, code, msg);
}

/* Raises RT_ERR_UNSUPPORTED_OPERATION on obj: "<fn>: not implemented by Switchyard yet".
 * Returns the error code (if the handler returns). */
int rt__unsupported(rt_obj *obj, const char *fn)
{
    return rt_raise(obj, RT_ERR_UNSUPPORTED_OPERATION, fn, "not implemented by Switchyard yet");
}

/* Raises RT_ERR_ARG on obj for fn: "invalid argument '<arg>': NULL pointer". */
int rt__null_arg(rt_obj *obj, const char *fn, const char *arg)
{
    return rt_raise(obj, RT_ERR_ARG, fn, "invalid argument '%s': NULL pointer", arg);
}
