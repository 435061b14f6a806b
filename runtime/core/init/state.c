/* state.c — the MPI lifecycle: MPI_Init/_thread, MPI_Finalize, MPI_Initialized/Finalized,
 * thread level queries and the main thread. */
#include "info/info.h"
#include "attr/attr.h"
#include "type/type.h"
#include "comm/comm.h"
#include "init.h"
#include "p2p/p2p.h"

#include <stdio.h>
#include <stdlib.h>
#include <strings.h>

/* At load: the loading thread counts as the main thread until MPI_Init. */
void rt__state_load(void)
{
    rt__g.life.main_thread = pthread_self();
}

/* The current enum rt_state. */
int rt_state(void)
{
    return rt__g.life.state;
}

static int valid_level(int level)
{
    return level == RT_THREAD_SINGLE || level == RT_THREAD_FUNNELED ||
           level == RT_THREAD_SERIALIZED || level == RT_THREAD_MULTIPLE;
}

/* The highest thread level MPI_Init_thread gives: MPI_THREAD_MULTIPLE, unless
 * SWITCHYARD_THREAD_LEVEL (single, funneled, serialized or multiple, any case, with or without
 * the MPI_THREAD_ prefix) lowers it; another value is reported and ignored. */
static int thread_level_max(void)
{
    static const char *const names[] = {"single", "funneled", "serialized", "multiple"};
    static const int levels[] = {RT_THREAD_SINGLE, RT_THREAD_FUNNELED, RT_THREAD_SERIALIZED,
                                 RT_THREAD_MULTIPLE};
    const char *e = getenv("SWITCHYARD_THREAD_LEVEL");
    if (!e || !*e)
        return RT_THREAD_MULTIPLE;
    const char *name = strncasecmp(e, "MPI_THREAD_", 11) == 0 ? e + 11 : e;
    for (int i = 0; i < 4; i++)
        if (strcasecmp(name, names[i]) == 0)
            return levels[i];
    fprintf(stderr, "Switchyard: SWITCHYARD_THREAD_LEVEL=%s is not a thread level (single, funneled, "
            "serialized or multiple); ignored\n", e);
    return RT_THREAD_MULTIPLE;
}

/* Whether the runtime is up (world joined, transports wired: by MPI_Init or the first
 * MPI_Session_init), was taken down (for good: PMI-1 lets a process finalize once), and how
 * many sessions are live (docs/internals.md, "Sessions"). */
static int up, down, nsessions;

static void tear_down(void);

/* At exit (registered by a bring-up): takes the runtime down if MPI_Init is not holding it
 * (a program of sessions only, or sessions left after MPI_Finalize). */
static void exit_tear_down(void)
{
    if (up && rt__g.life.state != RT_STATE_INITIALIZED && !rt__err.aborting)
        tear_down();
}

/* Brings the runtime up: joins the job, wires the transports (collective over the job, as the
 * launcher's fences are), sets up the builtins and MPI_INFO_ENV; required is the thread level
 * wanted. Returns RT_SUCCESS or an error class (raised under fn). */
static int bring_up(const char *fn, int *argc, char ***argv, int required)
{
    int err;

    if (down)
        return rt_raise(NULL, RT_ERR_UNSUPPORTED_OPERATION, fn, "a session cannot start after MPI_Finalize "
                        "took the process out of the job (PMI-1 joins a job once)");
    if ((err = rt__world_init()) != RT_SUCCESS)
        return rt_raise(NULL, err, fn, "cannot join the job");
    rt__g.life.thread_required = required;
    int max = thread_level_max();
    rt__g.life.thread_provided = required < max ? required : max;
    rt__g.life.main_thread = pthread_self();
    rt__comm_init();
    if ((err = rt__p2p_init()) != RT_SUCCESS)
        return rt_raise(NULL, err, fn, "cannot set up the transports between the processes");
    rt__attr_init();
    rt__info_env_init(argc ? *argc : 0, argv ? *argv : NULL, required);
    up = 1;
    __atomic_store_n(&rt_ready, 1, __ATOMIC_RELEASE); /* read without the lock: rt_fast_ok */
    rt__progress_thread_start();
    if (rt__g.life.thread_provided == RT_THREAD_MULTIPLE)
        rt__threads_multiple();
    static int registered;
    if (!registered++)
        atexit(exit_tear_down);
    return RT_SUCCESS;
}

/* Raises the process's thread level towards required (never lowers it). Returns the level
 * given. */
static int raise_level(int required)
{
    int max = thread_level_max(), want = required < max ? required : max;
    if (want > rt__g.life.thread_provided) {
        if (want == RT_THREAD_MULTIPLE)
            rt__threads_multiple();
        rt__g.life.thread_provided = want;
    }
    return rt__g.life.thread_provided < required ? rt__g.life.thread_provided : required;
}

/* Takes the runtime down (collective over the job): the transports, the job, WORLD and SELF. */
static void tear_down(void)
{
    rt__progress_thread_stop();
    rt__p2p_finalize();
    rt__world_finalize();
    rt__comm_finalize();
    rt__type_attrs_finalize();
    up = 0;
    down = 1;
    __atomic_store_n(&rt_ready, 0, __ATOMIC_RELEASE);
}

/* Shared by MPI_Init and MPI_Init_thread: checks the state, brings the runtime up unless a
 * session did, and enters the world model; *provided (may be NULL) = the level given. */
static int init(const char *fn, int *argc, char ***argv, int required, int *provided)
{
    int err;

    if (rt__g.life.state == RT_STATE_INITIALIZED)
        return rt_raise(NULL, RT_ERR_OTHER, fn, "MPI is already initialized: MPI_Init or "
                        "MPI_Init_thread may be called only once");
    if (rt__g.life.state == RT_STATE_FINALIZED)
        return rt_raise(NULL, RT_ERR_OTHER, fn, "MPI cannot be initialized again after "
                        "MPI_Finalize");
    if (!valid_level(required))
        return rt_raise(NULL, RT_ERR_ARG, fn, "'required' = %d is not a thread level", required);
    if (!up) {
        if ((err = bring_up(fn, argc, argv, required)) != RT_SUCCESS)
            return err;
    } else {
        raise_level(required);
        rt__g.life.thread_required = required;
        rt__g.life.main_thread = pthread_self();
        rt__info_env_init(argc ? *argc : 0, argv ? *argv : NULL, required);
    }
    rt__g.life.state = RT_STATE_INITIALIZED;
    if (provided)
        *provided = rt__g.life.thread_provided;
    return RT_SUCCESS;
}

/* A session starts (MPI_Session_init): brings the runtime up if neither MPI_Init nor another
 * session has; *provided = the thread level the session gets for required. Returns
 * RT_SUCCESS or the error code raised under fn. */
int rt__session_enter(const char *fn, int required, int *provided)
{
    int err;

    if (!up && (err = bring_up(fn, NULL, NULL, required)) != RT_SUCCESS)
        return err;
    *provided = raise_level(required);
    nsessions++;
    return RT_SUCCESS;
}

/* A session ends (MPI_Session_finalize). The runtime stays up for later sessions (the process
 * cannot join the job twice): MPI_Finalize or the process's exit takes it down. */
void rt__session_leave(void)
{
    nsessions--;
}

/* MPI_Init: initializes MPI (thread level SINGLE). argc/argv may be NULL; they are read
 * (for MPI_INFO_ENV), never changed. A second call or a call after MPI_Finalize: RT_ERR_OTHER
 * (fatal: there is no error handler yet). */
int rt_Init(int *argc, char ***argv)
{
    return init(__func__, argc, argv, RT_THREAD_SINGLE, NULL);
}

/* MPI_Init_thread: as rt_Init; *provided = min(required, the highest level: MULTIPLE unless
 * SWITCHYARD_THREAD_LEVEL lowers it). Invalid
 * required or NULL provided: RT_ERR_ARG. */
int rt_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    if (!provided)
        return rt__null_arg(NULL, __func__, "provided");
    return init(__func__, argc, argv, required, provided);
}

/* MPI_Initialized: *flag = 1 once MPI_Init has been called (also after MPI_Finalize). */
int rt_Initialized(int *flag)
{
    if (!flag)
        return rt__null_arg(NULL, __func__, "flag");
    *flag = rt__g.life.state != RT_STATE_PRE_INIT;
    return RT_SUCCESS;
}

/* MPI_Finalized: *flag = 1 once MPI_Finalize has been called. */
int rt_Finalized(int *flag)
{
    if (!flag)
        return rt__null_arg(NULL, __func__, "flag");
    *flag = rt__g.life.state == RT_STATE_FINALIZED;
    return RT_SUCCESS;
}

/* MPI_Finalize: first deletes MPI_COMM_SELF's attributes, newest first (a delete callback's
 * error fails the call, MPI stays initialized); then ends the world model. WORLD and SELF
 * drop their user error handlers and attributes; user objects stay the user's. Before init /
 * twice: fatal (rt_require_init). */
int rt_Finalize(void)
{
    int err;

    rt_require_init(__func__);
    if (rt__g.life.state != RT_STATE_INITIALIZED)
        return rt__require_init_failed(__func__); /* sessions keep the runtime up: not MPI_Init */
    rt__progress_thread_stop();
    if ((err = rt__comm_attrs_finalize()) != RT_SUCCESS) {
        rt__progress_thread_start();
        return err;
    }
    if (nsessions == 0) {
        tear_down();
    } else { /* live sessions keep the transports: the process's exit takes them down */
        rt__progress_thread_start();
    }
    rt__g.life.state = RT_STATE_FINALIZED;
    return RT_SUCCESS;
}

/* MPI_Query_thread: *provided = the thread level given at init (SINGLE before). */
int rt_Query_thread(int *provided)
{
    if (!provided)
        return rt__null_arg(NULL, __func__, "provided");
    *provided = rt__g.life.thread_provided;
    return RT_SUCCESS;
}

/* MPI_Is_thread_main: *flag = 1 if the calling thread called MPI_Init (before init: the
 * thread that loaded the library). */
int rt_Is_thread_main(int *flag)
{
    if (!flag)
        return rt__null_arg(NULL, __func__, "flag");
    *flag = pthread_equal(pthread_self(), rt__g.life.main_thread) != 0;
    return RT_SUCCESS;
}
