/* info.h — the info part's contract: info objects for the other parts (copy, put) and
 * MPI_INFO_ENV's contents. */
#ifndef RT_INFO_H
#define RT_INFO_H

#include "rt_internal.h"

struct rt__info_ent {
    char *key;  /* owned, NUL-terminated, 1..RT_MAX_INFO_KEY-1 chars */
    char *val;  /* owned, NUL-terminated, 0..RT_MAX_INFO_VAL chars */
};

struct rt_info {
    rt_obj obj;
    int n, cap;                 /* entries in use / allocated */
    struct rt__info_ent *ent;   /* insertion order */
    int readonly;               /* 1 for MPI_INFO_ENV: users may not modify it */
};

/* ------------------------------------------------------------ info (info.c, info_env.c) */

/* Sets up MPI_INFO_ENV (empty, read-only) at load. */
void rt__info_builtins_init(void);
/* Destructor of user infos; also used to empty MPI_INFO_ENV. */
void rt__info_destroy(rt_obj *o);
/* Sets key=val in info, ignoring the read-only flag; no argument checks (internal use).
 * Returns RT_SUCCESS or RT_ERR_NO_MEM (nothing raised). */
int rt__info_put(rt_info *info, const char *key, const char *val);
/* Fills info with the MPI_INFO_ENV keys for the given command line (argv may be NULL:
 * then /proc/self/cmdline is used if readable); thread_level < 0 omits "thread_level".
 * Best effort: keys that cannot be determined are left out. */
void rt__info_fill_env(rt_info *info, int argc, char **argv, int thread_level);
/* At init: (re)fills MPI_INFO_ENV. */
void rt__info_env_init(int argc, char **argv, int thread_level);
/* Name of a runtime thread level ("MPI_THREAD_SINGLE" ...), NULL if not one. */
const char *rt__thread_level_name(int level);

#endif
