/* init.h — the lifecycle part's declarations (init/ is the top part: only its own files use
 * them): load-time set-up, the job's world, environment calls. */
#ifndef RT_INIT_H
#define RT_INIT_H

#include "rt_internal.h"

/* ------------------------------------------------------------ lifecycle (state.c, world.c) */

/* At load: the loading thread is the main thread until init says otherwise. */
void rt__state_load(void);
/* At init: fills rt__g.world (singleton: size 1, rank 0; a launcher client fills it later).
 * Returns RT_SUCCESS or an error class (nothing raised). */
int rt__world_init(void);
/* At finalize: leaves the job (the launcher then knows this rank finished cleanly). */
void rt__world_finalize(void);

/* A session starts (state.c): brings the runtime up unless MPI_Init or another session did;
 * *provided = the thread level the session gets for required. RT_SUCCESS or the code raised
 * under fn. */
int rt__session_enter(const char *fn, int required, int *provided);
/* A session ends: the runtime stays up (MPI_Finalize or the process's exit takes it down). */
void rt__session_leave(void);

/* ------------------------------------------------------------ env (env.c) */

/* At load: takes the MPI_Wtime origin. */
void rt__env_load(void);

/* MPI_Aint_add: the face implements it inline today (its return kind has no runtime
 * prototype in rt_procs.h); provided for faces that prefer to call the runtime. */
rt_aint rt_Aint_add(rt_aint base, rt_aint disp);

#endif
