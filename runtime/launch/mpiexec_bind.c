/* mpiexec_bind.c — binding ranks to CPUs: rank i on the i-th CPU of mpiexec's affinity mask
 * when there are enough of them (-bind-to core, the default), else unbound. */
#define _GNU_SOURCE
#include "mpiexec.h"

#include <sched.h>

void mx_bind_plan(struct mx_job *job)
{
    cpu_set_t mask;
    int cpu = -1;

    for (int i = 0; i < job->n; i++)
        job->ranks[i].cpu = -1;
    if (job->opt.bind != MX_BIND_CORE || sched_getaffinity(0, sizeof mask, &mask) < 0 ||
        job->n > CPU_COUNT(&mask))
        return; /* oversubscribed: bound ranks could not all run at once */
    for (int i = 0; i < job->n; i++) {
        do
            cpu++;
        while (!CPU_ISSET(cpu, &mask));
        job->ranks[i].cpu = cpu;
    }
}

void mx_bind_child(int cpu)
{
    cpu_set_t one;

    if (cpu < 0)
        return;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    (void)sched_setaffinity(0, sizeof one, &one);
}
