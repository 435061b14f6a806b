/* load.c — what runs at library load and unload: the parts' set-up in layer order, and the
 * functions the higher parts register with the lower ones (docs/internals.md, "parts"). */
#include "attr/attr.h"
#include "coll/coll.h"
#include "info/info.h"
#include "group/group.h"
#include "type/type.h"
#include "p2p/p2p.h"
#include "comm/comm.h"
#include "topo/topo.h"
#include "win/win.h"
#include "io/io.h"
#include "init.h"

#include <stddef.h>

/* Storage of the builtin objects: one slot per rt_builtin_id, as large as any class that
 * has builtins, so builtins need no heap and exist from load to exit. */
union rt__builtin_store {
    rt_obj obj;
    struct rt_comm comm;
    struct rt_errhandler errhandler;
    struct rt_info info;
    struct rt_keyval keyval;
    struct rt_group group;
    struct rt_type type;
    struct rt_op op;
    struct rt_message message;
};
static union rt__builtin_store builtin_store[RT_NBUILTINS];

/* Every class's struct size, destructor, and where it keeps its error handler and its
 * attributes: the lower parts that handle objects of every class learn them here. */
static void describe_classes(void)
{
    rt__obj_set_class(RT_CLASS_COMM, sizeof(struct rt_comm), rt__comm_destroy);
    rt__obj_set_class(RT_CLASS_GROUP, sizeof(struct rt_group), rt__group_destroy);
    rt__obj_set_class(RT_CLASS_DATATYPE, sizeof(struct rt_type), rt__type_destroy);
    rt__obj_set_class(RT_CLASS_REQUEST, sizeof(struct rt_request), rt__request_destroy);
    rt__obj_set_class(RT_CLASS_OP, sizeof(struct rt_op), NULL);
    rt__obj_set_class(RT_CLASS_ERRHANDLER, sizeof(struct rt_errhandler), NULL);
    rt__obj_set_class(RT_CLASS_INFO, sizeof(struct rt_info), rt__info_destroy);
    rt__obj_set_class(RT_CLASS_WIN, sizeof(struct rt_win), rt__win_destroy);
    rt__obj_set_class(RT_CLASS_FILE, sizeof(struct rt_file), rt__file_destroy);
    rt__obj_set_class(RT_CLASS_SESSION, sizeof(struct rt_session), NULL);
    rt__obj_set_class(RT_CLASS_MESSAGE, sizeof(struct rt_message), rt__message_destroy);
    rt__obj_set_class(RT_CLASS_KEYVAL, sizeof(struct rt_keyval), NULL);
    rt__errhandler_set_slot(RT_CLASS_COMM, offsetof(struct rt_comm, errh));
    rt__errhandler_set_slot(RT_CLASS_WIN, offsetof(struct rt_win, errh));
    rt__errhandler_set_slot(RT_CLASS_FILE, offsetof(struct rt_file, errh));
    rt__errhandler_set_slot(RT_CLASS_SESSION, offsetof(struct rt_session, errh));
    rt__attrs_set_offset(RT_CLASS_COMM, offsetof(struct rt_comm, attrs));
    rt__attrs_set_offset(RT_CLASS_DATATYPE, offsetof(struct rt_type, attrs));
    rt__attrs_set_offset(RT_CLASS_WIN, offsetof(struct rt_win, attrs));
}

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
    rt__objs_load(builtin_store, sizeof builtin_store[0]);
    describe_classes();
    rt__errhandler_on_user_call(attr_view_reset);
    rt__raise_lock = rt__raise_lock_p2p;
    rt__coll_hooks = (struct rt__coll_hooks){.progress = rt__coll_progress, .start = rt__coll_start,
                                             .destroy = rt__coll_destroy, .error = rt__coll_error};
    rt__topo_hooks = (struct rt__topo_hooks){.dup = rt__topo_dup, .free = rt__topo_free};
    rt__win_progress = rt__win_rma_progress;
    rt__io_progress = rt__io_async_progress;
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
    if (rt__g.life.state == RT_STATE_INITIALIZED || rt_ready)
        return;
    rt__info_destroy(rt_builtins[RT_B_INFO_ENV]);
    rt__errcodes_unload();
    rt__objs_unload();
}
