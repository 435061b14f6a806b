/* win_errhandler.c — error handlers on windows: MPI_Win_set/get_errhandler and
 * MPI_Win_call_errhandler. */
#include "win.h"

#include <stdio.h>

/* MPI_Win_set_errhandler: win's handler becomes errhandler (one made for communicators or
 * files: RT_ERR_ARG). */
int rt_Win_set_errhandler(rt_win *win, rt_errhandler *errhandler)
{
    if (errhandler->for_cls != RT_CLASS_NONE && errhandler->for_cls != RT_CLASS_WIN)
        return RT_ERR(win, RT_ERR_ARG, "error handler 'errhandler' was created for %s and cannot be set on a window",
                      rt__errhandler_class_noun(errhandler->for_cls));
    rt__errhandler_replace(&win->errh, errhandler);
    return RT_SUCCESS;
}

/* MPI_Win_get_errhandler: *errhandler = win's handler (a new reference). */
int rt_Win_get_errhandler(rt_win *win, rt_errhandler **errhandler)
{
    rt__obj_retain(&win->errh->obj);
    *errhandler = win->errh;
    return RT_SUCCESS;
}

/* MPI_Win_call_errhandler: runs win's handler with errorcode (unknown code: RT_ERR_ARG). */
int rt_Win_call_errhandler(rt_win *win, int errorcode)
{
    char name[64], msg[RT_MAX_ERROR_STRING];
    int n = snprintf(msg, sizeof msg, "%s: ", rt__mpi_name(__func__, name, sizeof name));
    if (rt__error_text(errorcode, msg + n, sizeof msg - (size_t)n) < 0)
        return RT_ERR(win, RT_ERR_ARG, "invalid error code %d", errorcode);
    rt__errhandler_invoke(win->errh, &win->obj, errorcode, msg);
    return RT_SUCCESS;
}
