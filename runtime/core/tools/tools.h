/* tools.h — the tools part's contract (MPI_T): its setup count, and the string rule the
 * standard gives every MPI_T call that returns a string. Control variables: tools_vars.def. */
#ifndef RT_TOOLS_H
#define RT_TOOLS_H

#include "rt_internal.h"

/* RT_SUCCESS while MPI_T_init_thread has been called more often than MPI_T_finalize, else
 * RT_T_ERR_NOT_INITIALIZED (returned, never raised: MPI_T calls call no error handler). */
int rt__tools_ready(void);

/* The standard's rule for returning src in (dst, len): len NULL, nothing; dst NULL or *len 0,
 * *len = strlen(src) + 1; otherwise at most *len - 1 characters and a NUL copied, and *len =
 * the characters copied + 1. */
void rt__tools_str(char *dst, int *len, const char *src);

/* Categories (tools_cat.c) and control variables (tools_cvar.c), both from tools_vars.def. */
enum rt__tools_cat_id {
#define TOOLS_CAT(id, name, desc) RT__TOOLS_CAT_##id,
#define TOOLS_CVAR(env, kind, en, verb, cat, desc)
#include "tools_vars.def"
#undef TOOLS_CAT
#undef TOOLS_CVAR
    RT__TOOLS_NCAT
};
enum rt__tools_cvar_id {
#define TOOLS_CAT(id, name, desc)
#define TOOLS_CVAR(env, kind, en, verb, cat, desc) RT__TOOLS_CVAR_##env,
#include "tools_vars.def"
#undef TOOLS_CAT
#undef TOOLS_CVAR
    RT__TOOLS_NCVAR
};
/* The category of control variable i (0 <= i < RT__TOOLS_NCVAR). */
int rt__tools_cvar_cat(int i);
/* Frees every control-variable handle (the outermost MPI_T_finalize). */
void rt__tools_cvar_handles_free(void);

#endif
