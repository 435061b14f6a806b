/* global.c — the runtime's one global state struct (rt__g) and what runs at library
 * load and unload. Everything mutable lives in rt__g, so one lock can guard it later. */
#include "rt_internal.h"

struct rt__global rt__g = {
    .life = {.state = RT_STATE_PRE_INIT, .thread_required = RT_THREAD_SINGLE,
             .thread_provided = RT_THREAD_SINGLE},
    .world = {.size = 1, .rank = 0, .appnum = 0, .universe_size = 1},
    .err = {.lastused = RT_ERR_LASTCODE},
};

/* Before any face's constructor (priority 101 is the first one allowed to programs). */
__attribute__((constructor(101))) static void rt__load(void)
{
    rt__state_load();
    rt__env_load();
    rt__objs_load();
}

/* At unload (after the program's atexit handlers): frees the heap memory the runtime
 * itself holds, so that memory checkers report only the user's objects. */
__attribute__((destructor(101))) static void rt__unload(void)
{
    rt__info_destroy(rt_builtins[RT_B_INFO_ENV]);
    rt__errcodes_unload();
    rt__objs_unload();
}
