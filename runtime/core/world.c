/* world.c — this process's place in the job (size, rank, appnum, universe size): the one
 * place a launcher client (PMI-1, later) fills. Without a launcher: a singleton. */
#include "rt_internal.h"

/* At init: fills rt__g.world. Singleton for now: size 1, rank 0, appnum 0, universe 1.
 * Returns RT_SUCCESS (a launcher client may return an error class). */
int rt__world_init(void)
{
    rt__g.world.size = 1;
    rt__g.world.rank = 0;
    rt__g.world.appnum = 0;
    rt__g.world.universe_size = rt__g.world.size;
    return RT_SUCCESS;
}
