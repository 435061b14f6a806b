/* session.c — MPI-4 sessions: MPI_Session_init/_finalize, the session's info (its thread
 * level) and its error handler. The runtime under them is state.c's (docs/internals.md, "Sessions"). */
#include "info/info.h"
#include "init.h"
#include "p2p/p2p.h"

#include <stdio.h>
#include <strings.h>

/* The thread level an info asks for with "thread_level" (or "mpi_thread_support_level"):
 * one of the MPI_THREAD_* names, any case; MPI_THREAD_SINGLE without one (hints: a value that
 * is not a level is ignored). */
static int level_wanted(const rt_info *info)
{
    static const int levels[] = {RT_THREAD_SINGLE, RT_THREAD_FUNNELED, RT_THREAD_SERIALIZED,
                                 RT_THREAD_MULTIPLE};
    if (!info)
        return RT_THREAD_SINGLE;
    for (int i = 0; i < info->n; i++) {
        if (strcmp(info->ent[i].key, "thread_level") != 0 &&
            strcmp(info->ent[i].key, "mpi_thread_support_level") != 0)
            continue;
        for (int l = 0; l < 4; l++)
            if (strcasecmp(info->ent[i].val, rt__thread_level_name(levels[l])) == 0)
                return levels[l];
    }
    return RT_THREAD_SINGLE;
}

/* MPI_Session_init: a new session with errhandler (one made for sessions, or a predefined
 * one; else RT_ERR_ARG) and the thread level info asks for (info may be NULL). The first
 * session, when MPI_Init has not run, brings the runtime up (collective over the job). */
int rt_Session_init(rt_info *info, rt_errhandler *errhandler, rt_session **session)
{
    *session = NULL;
    if (errhandler && errhandler->for_cls != RT_CLASS_NONE && errhandler->for_cls != RT_CLASS_SESSION)
        return RT_ERR(NULL, RT_ERR_ARG, "error handler 'errhandler' was created for %s and cannot be set on a session",
                      rt__errhandler_class_noun(errhandler->for_cls));
    int provided, err = rt__session_enter(__func__, level_wanted(info), &provided);
    if (err)
        return err;
    rt_session *s = (rt_session *)rt__obj_new(RT_CLASS_SESSION);
    if (!s) {
        rt__session_leave();
        return RT_ERR(NULL, RT_ERR_NO_MEM, "cannot create another session");
    }
    rt__errhandler_replace(&s->errh, errhandler ? errhandler : (rt_errhandler *)rt_builtins[RT_B_ERRORS_ARE_FATAL]);
    s->thread_level = provided;
    *session = s;
    return RT_SUCCESS;
}

/* MPI_Session_finalize: flushes and detaches the session's buffer (MPI_Session_attach_buffer),
 * frees *session and sets it to NULL. Objects derived from it stay
 * usable until the process ends (the runtime stays up: state.c); freeing them first is the
 * program's part, as the standard asks. */
int rt_Session_finalize(rt_session **session)
{
    rt_session *s = *session;
    rt__bsend_session_gone(s); /* its buffered messages go out first */
    rt_errhandler *eh = s->errh;
    s->errh = NULL;
    rt__obj_release(&eh->obj);
    rt__obj_release(&s->obj);
    *session = NULL;
    rt__session_leave();
    return RT_SUCCESS;
}

/* MPI_Session_get_info: *info_used = a new info with "thread_level" and
 * "mpi_thread_support_level" = the session's level (MPI_THREAD_*). */
int rt_Session_get_info(rt_session *session, rt_info **info_used)
{
    rt_info *n = (rt_info *)rt__obj_new(RT_CLASS_INFO);
    const char *lvl = rt__thread_level_name(session->thread_level);
    if (!n || rt__info_put(n, "thread_level", lvl) || rt__info_put(n, "mpi_thread_support_level", lvl)) {
        if (n)
            rt__obj_release(&n->obj);
        return RT_ERR(session, RT_ERR_NO_MEM, "cannot create another info object");
    }
    *info_used = n;
    return RT_SUCCESS;
}

/* MPI_Session_set_errhandler: session's handler becomes errhandler (one made for another
 * class: RT_ERR_ARG). */
int rt_Session_set_errhandler(rt_session *session, rt_errhandler *errhandler)
{
    if (errhandler->for_cls != RT_CLASS_NONE && errhandler->for_cls != RT_CLASS_SESSION)
        return RT_ERR(session, RT_ERR_ARG, "error handler 'errhandler' was created for %s and cannot be set on a session",
                      rt__errhandler_class_noun(errhandler->for_cls));
    rt__errhandler_replace(&session->errh, errhandler);
    return RT_SUCCESS;
}

/* MPI_Session_get_errhandler: *errhandler = session's handler (a new reference). */
int rt_Session_get_errhandler(rt_session *session, rt_errhandler **errhandler)
{
    rt__obj_retain(&session->errh->obj);
    *errhandler = session->errh;
    return RT_SUCCESS;
}

/* MPI_Session_call_errhandler: runs session's handler with errorcode (unknown code: RT_ERR_ARG). */
int rt_Session_call_errhandler(rt_session *session, int errorcode)
{
    char name[64], msg[RT_MAX_ERROR_STRING];
    int n = snprintf(msg, sizeof msg, "%s: ", rt__mpi_name(__func__, name, sizeof name));
    if (rt__error_text(errorcode, msg + n, sizeof msg - (size_t)n) < 0)
        return RT_ERR(session, RT_ERR_ARG, "invalid error code %d", errorcode);
    rt__errhandler_invoke(session->errh, &session->obj, errorcode, msg);
    return RT_SUCCESS;
}
