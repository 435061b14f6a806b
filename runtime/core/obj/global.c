/* global.c — the runtime's one global state struct (rt__g). Everything mutable lives in
 * rt__g, so one lock can guard it later. */
#include "obj.h"

struct rt__global rt__g = {
    .life = {.state = RT_STATE_PRE_INIT, .thread_required = RT_THREAD_SINGLE,
             .thread_provided = RT_THREAD_SINGLE},
    .world = {.size = 1, .rank = 0, .appnum = 0, .universe_size = 1},
};
