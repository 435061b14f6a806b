/* win.c — RMA windows: what the runtime answers before one-sided communication exists
 * (no window can be created yet, so only the null handle reaches these). */
#include "rt_internal.h"

/* MPI_Win_get_name: "MPI_WIN_NULL" for win NULL, the null handle (MPI-4.1); a window has no
 * name stored yet ("", the standard's answer for an unnamed window). */
int rt_Win_get_name(rt_win *win, char *win_name, int *resultlen)
{
    *resultlen = rt__copy_str(win_name, RT_MAX_OBJECT_NAME, win ? "" : "MPI_WIN_NULL");
    return RT_SUCCESS;
}
