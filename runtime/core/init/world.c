/* world.c — this process's place in the job (size, rank, appnum, universe size): the one
 * place a launcher client (PMI-1, later) fills. Without a launcher: a singleton. */
#include "init.h"

#include <stdio.h>

#include "pmi.h"

/* At init: fills rt__g.world from the launcher (PMI-1: Switchyard's mpiexec or MPICH's
 * Hydra), or as a singleton without one. Returns RT_SUCCESS or RT_ERR_OTHER (the PMI
 * client's reason is printed: nothing can be raised through MPI yet). */
int rt__world_init(void)
{
    int rank, size, appnum;
    if (rt__pmi_init(&rank, &size, &appnum) != 0) {
        fprintf(stderr, "Switchyard: cannot join the job: %s\n", rt__pmi_error());
        return RT_ERR_OTHER;
    }
    rt__g.world.size = size;
    rt__g.world.rank = rank;
    rt__g.world.appnum = appnum;
    rt__g.world.universe_size = size;
    return RT_SUCCESS;
}

/* At finalize: tells the launcher this rank is done. */
void rt__world_finalize(void)
{
    rt__pmi_finalize();
}
