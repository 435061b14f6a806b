/* env.c — environment procedures: versions, processor name, timers, MPI_Abort, memory
 * allocation (MPI_Alloc_mem/MPI_Free_mem), MPI_Pcontrol and address arithmetic. */
#include "comm/comm.h"
#include "info/info.h"
#include "init.h"

#include "pmi.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define LIBRARY_VERSION "Switchyard 0.1 (MPI 5.0; MPICH ABI and MPI-5.0 standard ABI; " \
                        "transports: shared memory within a node, TCP between nodes; " \
                        "launch: PMI-1, by Switchyard's mpiexec or MPICH's Hydra)"
#define ALLOC_ALIGN 64  /* MPI_Alloc_mem alignment unless an info asks for more */

static double monotonic_now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* At load: MPI_Wtime counts from here (keeps the double's precision for short runs). */
void rt__env_load(void)
{
    rt__g.wtime_base = monotonic_now();
}

/* MPI_Get_version: 5.0. Callable at any time. */
int rt_Get_version(int *version, int *subversion)
{
    if (!version)
        return rt__null_arg(NULL, __func__, "version");
    if (!subversion)
        return rt__null_arg(NULL, __func__, "subversion");
    *version = 5;
    *subversion = 0;
    return RT_SUCCESS;
}

/* MPI_Get_library_version: version (MPI_MAX_LIBRARY_VERSION_STRING chars) gets the
 * library's description, *resultlen its length. Callable at any time. */
int rt_Get_library_version(char *version, int *resultlen)
{
    if (!version)
        return rt__null_arg(NULL, __func__, "version");
    if (!resultlen)
        return rt__null_arg(NULL, __func__, "resultlen");
    *resultlen = rt__copy_str(version, RT_MAX_LIBRARY_VERSION_STRING, LIBRARY_VERSION);
    return RT_SUCCESS;
}

/* MPI_Get_processor_name: name (MPI_MAX_PROCESSOR_NAME chars) = the host name,
 * *resultlen its length. gethostname failing: RT_ERR_OTHER. */
int rt_Get_processor_name(char *name, int *resultlen)
{
    char host[RT_MAX_PROCESSOR_NAME];

    rt_require_init(__func__);
    if (!name)
        return rt__null_arg(NULL, __func__, "name");
    if (!resultlen)
        return rt__null_arg(NULL, __func__, "resultlen");
    if (gethostname(host, sizeof host) != 0)
        return RT_ERR(NULL, RT_ERR_OTHER, "gethostname failed (errno %d)", errno);
    host[sizeof host - 1] = '\0';
    *resultlen = rt__copy_str(name, RT_MAX_PROCESSOR_NAME, host);
    return RT_SUCCESS;
}

/* MPI_Wtime: seconds since library load (CLOCK_MONOTONIC: never goes back; not global). */
double rt_Wtime(void)
{
    return monotonic_now() - rt__g.wtime_base;
}

/* MPI_Wtick: the resolution of rt_Wtime in seconds. */
double rt_Wtick(void)
{
    struct timespec res;

    if (clock_getres(CLOCK_MONOTONIC, &res) != 0 || (res.tv_sec == 0 && res.tv_nsec == 0))
        return 1e-9;
    return (double)res.tv_sec + (double)res.tv_nsec * 1e-9;
}

/* MPI_Abort: prints "Switchyard: MPI_Abort(<comm name>, <code>) called" to stderr and ends
 * the job with exit status errorcode (the low 8 bits, as exit does). Does not return, even
 * for an invalid comm. */
int rt_Abort(rt_comm *comm, int errorcode)
{
    const char *name = "an invalid communicator";

    rt_require_init(__func__);
    if (rt_obj_is(comm, RT_CLASS_COMM))
        name = comm->name[0] ? comm->name : "an unnamed communicator";
    char msg[200];
    snprintf(msg, sizeof msg, "MPI_Abort(%s, %d) called", name, errorcode);
    if (!rt__pmi_singleton())
        rt__pmi_abort(errorcode, msg); /* the launcher reports it and ends the job */
    fprintf(stderr, "Switchyard: %s\n", msg);
    rt__abort_job(errorcode);
}

/* The alignment an info asks for with "mpi_minimum_memory_alignment" (a power of two),
 * at least ALLOC_ALIGN. */
static size_t wanted_alignment(rt_info *info)
{
    size_t align = ALLOC_ALIGN;

    if (!rt_obj_is(info, RT_CLASS_INFO))
        return align;
    for (int i = 0; i < info->n; i++) {
        if (strcmp(info->ent[i].key, "mpi_minimum_memory_alignment") == 0) {
            char *end;
            unsigned long v = strtoul(info->ent[i].val, &end, 10);

            if (*end == '\0' && v > align && v <= (1ul << 30) && (v & (v - 1)) == 0)
                align = v;
        }
    }
    return align;
}

/* MPI_Alloc_mem: *(void **)baseptr = size bytes aligned to 64 (or the info's
 * "mpi_minimum_memory_alignment" if larger); size 0 gives a unique pointer. The memory is
 * the user's until rt_Free_mem. info may be NULL. Negative size: RT_ERR_SIZE; out of
 * memory: RT_ERR_NO_MEM; bad info: RT_ERR_INFO. */
int rt_Alloc_mem(rt_aint size, rt_info *info, void *baseptr)
{
    void *p = NULL;
    int rc;

    rt_require_init(__func__);
    if (size < 0)
        return RT_ERR(NULL, RT_ERR_SIZE, "invalid argument 'size' = %ld", (long)size);
    if (info && !rt_obj_is(info, RT_CLASS_INFO))
        return RT_ERR(NULL, RT_ERR_INFO, "invalid info object 'info'");
    if (!baseptr)
        return rt__null_arg(NULL, __func__, "baseptr");
    rc = posix_memalign(&p, wanted_alignment(info), size > 0 ? (size_t)size : 1);
    if (rc != 0)
        return RT_ERR(NULL, RT_ERR_NO_MEM, "cannot allocate %ld bytes", (long)size);
    *(void **)baseptr = p;
    return RT_SUCCESS;
}

/* MPI_Free_mem: frees memory from rt_Alloc_mem; NULL is accepted (nothing to do). */
int rt_Free_mem(void *base)
{
    rt_require_init(__func__);
    free(base);
    return RT_SUCCESS;
}

/* MPI_Pcontrol: Switchyard has no profiling levels, so this is a no-op. */
int rt_Pcontrol(int level)
{
    (void)level;
    rt_require_init(__func__);
    return RT_SUCCESS;
}

/* MPI_Aint_diff: addr1 - addr2 (pure arithmetic, wrapping like the addresses it takes). */
rt_aint rt_Aint_diff(rt_aint addr1, rt_aint addr2)
{
    return (rt_aint)((uintptr_t)addr1 - (uintptr_t)addr2);
}

/* MPI_Aint_add: base + disp (pure arithmetic, wrapping). */
rt_aint rt_Aint_add(rt_aint base, rt_aint disp)
{
    return (rt_aint)((uintptr_t)base + (uintptr_t)disp);
}

/* MPI_Get_hw_resource_info (MPI-4.1): a new info describing the hardware this process runs
 * on. The keys are the implementation's to choose: the node's name, its online processors
 * and memory, and the resource type MPI_Comm_split_type understands. */
int rt_Get_hw_resource_info(rt_info **hw_info)
{
    char v[64];
    int err = rt_Info_create(hw_info);
    if (err)
        return err;
    if (gethostname(v, sizeof v) == 0) {
        v[sizeof v - 1] = '\0';
        rt__info_put(*hw_info, "mpi_hw_node", v);
    }
    snprintf(v, sizeof v, "%ld", sysconf(_SC_NPROCESSORS_ONLN));
    rt__info_put(*hw_info, "mpi_hw_processors", v);
    snprintf(v, sizeof v, "%lld", (long long)sysconf(_SC_PHYS_PAGES) * (long long)sysconf(_SC_PAGESIZE));
    rt__info_put(*hw_info, "mpi_hw_memory_bytes", v);
    rt__info_put(*hw_info, "mpi_hw_resource_type", "mpi_shared_memory");
    return RT_SUCCESS;
}
