/* win_info.c — a window's hints: the keys the standard defines for windows, with their
 * defaults, the values the program gave where valid, and what they change (no_locks, alignment). */
#include "win.h"
#include "comm/comm.h"
#include "info/info.h"

#include <stdlib.h>
#include <string.h>

/* A window hint: its default, whether a value is valid for it, the windows it is for. */
struct hint {
    const char *key, *dflt;
    int (*valid)(const char *v);
    int at_creation_only; /* MPI_Win_set_info cannot change it */
    int for_memory;       /* ALL windows, ALLOCATED (memory from MPI), SHARED ones */
};
enum { ALL, ALLOCATED, SHARED };

static int boolean(const char *v)
{
    return strcmp(v, "true") == 0 || strcmp(v, "false") == 0;
}

/* "none", or a comma-separated list of rar, raw, war, waw */
static int ordering(const char *v)
{
    if (strcmp(v, "none") == 0)
        return 1;
    for (const char *p = v;; p += 4) {
        if (strncmp(p, "rar", 3) && strncmp(p, "raw", 3) && strncmp(p, "war", 3) && strncmp(p, "waw", 3))
            return 0;
        if (p[3] == '\0')
            return 1;
        if (p[3] != ',')
            return 0;
    }
}

static int acc_ops(const char *v)
{
    return strcmp(v, "same_op") == 0 || strcmp(v, "same_op_no_op") == 0;
}

/* a power of two, at most 1 GiB */
static int alignment(const char *v)
{
    char *end;
    long a = strtol(v, &end, 10);
    return *v && !*end && a > 0 && a <= (1L << 30) && (a & (a - 1)) == 0;
}

static const struct hint hints[] = {
    {"no_locks", "false", boolean, 1, ALL}, /* fixed: it decides whether the window serves locks */
    {"accumulate_ordering", "rar,raw,war,waw", ordering, 0, ALL},
    {"accumulate_ops", "same_op_no_op", acc_ops, 0, ALL},
    {"same_size", "false", boolean, 0, ALL},
    {"same_disp_unit", "false", boolean, 0, ALL},
    {"alloc_shared_noncontig", "false", boolean, 1, SHARED},
    {"mpi_minimum_memory_alignment", "64", alignment, 1, ALLOCATED},
};

/* The value of key in info, or NULL. */
static const char *value_of(const rt_info *info, const char *key)
{
    for (int i = 0; info && i < info->n; i++)
        if (strcmp(info->ent[i].key, key) == 0)
            return info->ent[i].val;
    return NULL;
}

/* Whether hint h applies to windows of flavor f. */
static int applies(const struct hint *h, int f)
{
    return h->for_memory == ALL || f == RT_WIN_FLAVOR_SHARED ||
           (h->for_memory == ALLOCATED && f == RT_WIN_FLAVOR_ALLOCATE);
}

/* Copies the valid values of info's window hints into w->info (creating: all of them, else
 * those MPI_Win_set_info may change), then sets what they decide. */
static int take(rt_win *w, const rt_info *info, int creating)
{
    for (size_t i = 0; i < sizeof hints / sizeof *hints; i++) {
        const struct hint *h = &hints[i];
        const char *v = value_of(info, h->key);
        if (!applies(h, w->flavor) || (!creating && h->at_creation_only))
            continue;
        if (creating && !(v && h->valid(v)))
            v = h->dflt;
        if (v && h->valid(v) && rt__info_put(w->info, h->key, v) != RT_SUCCESS)
            return RT_ERR_NO_MEM;
    }
    w->no_locks = strcmp(value_of(w->info, "no_locks"), "true") == 0;
    const char *nc = value_of(w->info, "alloc_shared_noncontig");
    w->noncontig = nc && strcmp(nc, "true") == 0;
    const char *a = value_of(w->info, "mpi_minimum_memory_alignment");
    w->align = a ? (size_t)strtol(a, NULL, 10) : 64;
    if (w->align < 64)
        w->align = 64; /* at least a cache line, whatever was asked */
    return RT_SUCCESS;
}

int rt__win_hints_init(rt_win *w, const rt_info *info)
{
    if (!(w->info = rt__info_copy(NULL)))
        return RT_ERR_NO_MEM;
    return take(w, info, 1);
}

/* MPI_Win_set_info: the valid values of the window hints in info replace those in force
 * (except those fixed at creation); other keys are ignored, as the standard allows. */
int rt_Win_set_info(rt_win *win, rt_info *info)
{
    if (take(win, info, 0) != RT_SUCCESS)
        return RT_ERR(win, RT_ERR_NO_MEM, "out of memory");
    return RT_SUCCESS;
}

/* MPI_Win_get_info: a new info object with the hints in force. */
int rt_Win_get_info(rt_win *win, rt_info **info_used)
{
    rt_info *info = rt__info_copy(win->info);
    if (!info)
        return RT_ERR(win, RT_ERR_NO_MEM, "out of memory");
    *info_used = info;
    return RT_SUCCESS;
}
