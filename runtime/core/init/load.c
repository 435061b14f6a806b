/* load.c — what runs at library load and unload: the parts' set-up in layer order, and the
 * functions the higher parts register with the lower ones (docs/internals.md, "parts"). */
#include "coll/coll.h"
#include "info/info.h"
#include "group/group.h"
#include "type/type.h"
#include "p2p/p2p.h"
#include "comm/comm.h"
#include "topo/topo.h"
#include "init.h"

/* A user's error handler makes its attribute calls from the C view, whatever the failing
 * call had announced (rt_attr_next_kind). */
static void attr_view_reset(void)
{
    rt_attr_next_kind(RT_ATTR_PTR);
}

/* Before any face's constructor (priority 101 is the first one allowed to programs). */
__attribute__((constructor(101))) static void rt__load(void)
{
    rt__state_load();
    rt__env_load();
    rt__objs_load();
    rt__obj_set_destructor(RT_CLASS_COMM, rt__comm_destroy);
    rt__obj_set_destructor(RT_CLASS_INFO, rt__info_destroy);
    rt__obj_set_destructor(RT_CLASS_DATATYPE, rt__type_destroy);
    rt__obj_set_destructor(RT_CLASS_GROUP, rt__group_destroy);
    rt__obj_set_destructor(RT_CLASS_REQUEST, rt__request_destroy);
    rt__obj_set_destructor(RT_CLASS_MESSAGE, rt__message_destroy);
    rt__obj_set_destructor(RT_CLASS_WIN, rt__win_destroy);
    rt__errhandler_on_user_call(attr_view_reset);
    rt__coll_hooks = (struct rt__coll_hooks){.progress = rt__coll_progress, .start = rt__coll_start,
                                             .destroy = rt__coll_destroy, .error = rt__coll_error};
    rt__topo_hooks = (struct rt__topo_hooks){.dup = rt__topo_dup, .free = rt__topo_free};
    rt__errhandler_builtins_init();
    rt__comm_builtins_init();
    rt__info_builtins_init();
    rt__type_builtins_init();
}

/* At unload (after the program's atexit handlers): frees the heap memory the runtime
 * itself holds, so that memory checkers report only the user's objects. Not when the program
 * exits between MPI_Init and MPI_Finalize: the runtime's threads (asynchronous progress, the
 * TCP gate) still run then, and would use what is freed; the system takes it back. */
__attribute__((destructor(101))) static void rt__unload(void)
{
    if (rt__g.life.state == RT_STATE_INITIALIZED)
        return;
    rt__info_destroy(rt_builtins[RT_B_INFO_ENV]);
    rt__errcodes_unload();
    rt__objs_unload();
}
