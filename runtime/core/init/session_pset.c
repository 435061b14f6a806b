/* session_pset.c — the process sets a session knows (mpi://WORLD, mpi://SELF): their names,
 * their info ("mpi_size") and the groups MPI_Group_from_session_pset makes of them. */
#include "group/group.h"
#include "info/info.h"
#include "init.h"

#include <stdio.h>
#include <stdlib.h>
#include <strings.h>

static const char *const psets[] = {"mpi://WORLD", "mpi://SELF"};
enum { NPSETS = sizeof psets / sizeof *psets };

/* *idx = the index of the process set named name (case-insensitive): RT_SUCCESS; else the
 * code of RT_ERR_ARG raised on session, naming fn. */
static int find(rt_session *session, const char *fn, const char *name, int *idx)
{
    for (int i = 0; i < NPSETS; i++)
        if (strcasecmp(name, psets[i]) == 0)
            return *idx = i, RT_SUCCESS;
    return rt_raise(&session->obj, RT_ERR_ARG, fn, "'pset_name' = \"%.200s\" is not a process set of the "
                    "session (mpi://WORLD, mpi://SELF)", name);
}

/* The size of process set i. */
static int pset_size(int i)
{
    return i == 0 ? rt__g.world.size : 1;
}

/* MPI_Session_get_num_psets: *npset_names = the number of process sets (info: ignored). */
int rt_Session_get_num_psets(rt_session *session, rt_info *info, int *npset_names)
{
    (void)session;
    (void)info;
    *npset_names = NPSETS;
    return RT_SUCCESS;
}

/* MPI_Session_get_nth_pset: the name of process set n (0-based; else RT_ERR_ARG). *pset_len
 * 0: only *pset_len = the name's length + 1. Otherwise pset_name gets at most *pset_len - 1
 * chars and a NUL, and *pset_len = the name's length + 1 (more than given: truncated). */
int rt_Session_get_nth_pset(rt_session *session, rt_info *info, int n, int *pset_len, char *pset_name)
{
    (void)info;
    if (n < 0 || n >= NPSETS)
        return RT_ERR(session, RT_ERR_ARG, "'n' = %d is not a process set index: the session has %d "
                      "process sets (0..%d)", n, NPSETS, NPSETS - 1);
    if (*pset_len < 0)
        return RT_ERR(session, RT_ERR_ARG, "'pset_len' = %d is negative", *pset_len);
    int len = (int)strlen(psets[n]);
    if (*pset_len > 0) {
        int k = len < *pset_len - 1 ? len : *pset_len - 1;
        memcpy(pset_name, psets[n], (size_t)k);
        pset_name[k] = '\0';
    }
    *pset_len = len + 1;
    return RT_SUCCESS;
}

/* MPI_Session_get_pset_info: *info = a new info with "mpi_size" = the process set's size.
 * Unknown name: RT_ERR_ARG. */
int rt_Session_get_pset_info(rt_session *session, const char *pset_name, rt_info **info)
{
    int i, err = find(session, __func__, pset_name, &i);
    if (err)
        return err;
    char size[16];
    snprintf(size, sizeof size, "%d", pset_size(i));
    rt_info *n = (rt_info *)rt__obj_new(RT_CLASS_INFO);
    if (!n || rt__info_put(n, "mpi_size", size)) {
        if (n)
            rt__obj_release(&n->obj);
        return RT_ERR(session, RT_ERR_NO_MEM, "cannot create another info object");
    }
    *info = n;
    return RT_SUCCESS;
}

/* MPI_Group_from_session_pset: *newgroup = the process set's processes in world-rank order
 * (mpi://SELF: this process). Unknown name: RT_ERR_ARG; out of memory: RT_ERR_NO_MEM. */
int rt_Group_from_session_pset(rt_session *session, const char *pset_name, rt_group **newgroup)
{
    int i, err = find(session, __func__, pset_name, &i);
    if (err)
        return err;
    int n = pset_size(i), *ranks = malloc(sizeof *ranks * (size_t)n);
    if (!ranks)
        return RT_ERR(session, RT_ERR_NO_MEM, "out of memory");
    for (int r = 0; r < n; r++)
        ranks[r] = i == 0 ? r : rt__g.world.rank;
    *newgroup = rt__group_adopt(n, ranks);
    if (!*newgroup)
        return RT_ERR(session, RT_ERR_NO_MEM, "cannot create another group");
    if (!(*newgroup)->obj.builtin) { /* the group derives from the session (its buffer: p2p_bsend.c) */
        (*newgroup)->session = session;
        rt__obj_retain(&session->obj);
    }
    return RT_SUCCESS;
}
