/* backend.c — chooses, when libmpi_abi.so.1 loads, who implements the standard-ABI calls:
 * Switchyard's runtime (default), MPICH or Open MPI (SWITCHYARD_ABI_BACKEND=mpich|openmpi|path). */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aface.h"

#include "afb_procs.h"

#define AFB_MPICH_LIB "/usr/lib/x86_64-linux-gnu/libmpich.so.12"
#define AFB_OPENMPI_LIB "/usr/lib/x86_64-linux-gnu/libmpi.so.40"

int af_backend;
static void *backend_lib;
const char *afb_lib_path = "", *afb_lib_choice = "";

/* The backend's PMPI_<T>_<what>, NULL if it lacks it. */
static void *conversion(const char *T, const char *what)
{
    char name[64];
    snprintf(name, sizeof name, "PMPI_%s_%s", T, what);
    return dlsym(backend_lib, name);
}

int afb_c2f(const char *T, void *h)
{
    int (*c2f)(void *) = (int (*)(void *))conversion(T, "c2f");
    return c2f ? c2f(h) + AF_PREDEFINED_LIMIT : -1;
}

void *afb_f2c(const char *T, int v)
{
    void *(*f2c)(int) = (void *(*)(int))conversion(T, "f2c");
    return f2c && v >= AF_PREDEFINED_LIMIT ? f2c(v - AF_PREDEFINED_LIMIT) : NULL;
}

/* Reads SWITCHYARD_ABI_BACKEND once: unset, empty or "switchyard" keeps the runtime; "mpich" or
 * "openmpi" loads Debian's library, an absolute path loads that library (Open MPI's ABI if it
 * defines ompi_mpi_comm_world, else MPICH's). RTLD_DEEPBIND keeps the library's own MPI_* calls
 * inside it, never on this library's exports. Failure to load is fatal: a message naming the
 * library and dlerror(), exit status 1. */
__attribute__((constructor)) static void afb_choose(void)
{
    const char *v = getenv("SWITCHYARD_ABI_BACKEND");
    if (!v || !*v || !strcmp(v, "switchyard"))
        return;
    const char *path = !strcmp(v, "mpich") ? AFB_MPICH_LIB : !strcmp(v, "openmpi") ? AFB_OPENMPI_LIB : v;
    if (path[0] != '/') {
        fprintf(stderr, "libmpi_abi: SWITCHYARD_ABI_BACKEND=%s: expected switchyard, mpich, openmpi or the "
                "absolute path of an MPICH-ABI or Open MPI library\n", v);
        exit(1);
    }
    void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND);
    if (!lib) {
        fprintf(stderr, "libmpi_abi: cannot load the MPI library %s (SWITCHYARD_ABI_BACKEND=%s): %s\n", path, v,
                dlerror());
        exit(1);
    }
    int kind = dlsym(lib, "ompi_mpi_comm_world") ? AF_BACKEND_OPENMPI : AF_BACKEND_MPICH;
    if (kind == AF_BACKEND_OPENMPI)
        afb_bind_components(lib);
    if (!(kind == AF_BACKEND_OPENMPI ? afbo_resolve(lib) : afbm_resolve(lib))) {
        fprintf(stderr, "libmpi_abi: %s (SWITCHYARD_ABI_BACKEND=%s) lacks PMPI_Init or PMPI_Comm_size: "
                "not an MPI library\n", path, v);
        exit(1);
    }
    backend_lib = lib;
    afb_lib_path = path;
    afb_lib_choice = v;
    af_backend = kind;
}
