/* tools_init.c — MPI_T_init_thread and MPI_T_finalize (nestable, before MPI_Init and after
 * MPI_Finalize alike) and the string rule every MPI_T call shares. */
#include "tools.h"

#include <string.h>

static int count; /* MPI_T_init_thread calls not yet matched by MPI_T_finalize (library lock) */

int rt__tools_ready(void)
{
    return count > 0 ? RT_SUCCESS : RT_T_ERR_NOT_INITIALIZED;
}

void rt__tools_str(char *dst, int *len, const char *src)
{
    size_t n = strlen(src);

    if (!len)
        return;
    if (!dst || *len <= 0) {
        *len = (int)n + 1;
        return;
    }
    if (n > (size_t)*len - 1)
        n = (size_t)*len - 1;
    memcpy(dst, src, n);
    dst[n] = '\0';
    *len = (int)n + 1;
}

/* MPI_T_init_thread: counts the call. The level given is at most MPI_THREAD_SERIALIZED
 * unless MPI runs at MPI_THREAD_MULTIPLE (then every entry takes the library lock). */
int rt_T_init_thread(int required, int *provided)
{
    int most = RT_THREAD_SERIALIZED;

    if (rt__g.life.state == RT_STATE_INITIALIZED && rt__g.life.thread_provided == RT_THREAD_MULTIPLE)
        most = RT_THREAD_MULTIPLE;
    if (count == __INT_MAX__)
        return RT_T_ERR_CANNOT_INIT;
    count++;
    *provided = required < most ? required : most;
    return RT_SUCCESS;
}

/* MPI_T_finalize: undoes one MPI_T_init_thread; RT_T_ERR_NOT_INITIALIZED without one. */
int rt_T_finalize(void)
{
    if (count == 0)
        return RT_T_ERR_NOT_INITIALIZED;
    if (--count == 0)
        rt__tools_cvar_handles_free();
    return RT_SUCCESS;
}
