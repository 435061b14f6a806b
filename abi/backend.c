/* backend.c — chooses, when libmpi_abi.so.1 loads, who implements the standard-ABI calls:
 * Switchyard's runtime (default) or a foreign MPICH-ABI library (SWITCHYARD_ABI_BACKEND=mpich). */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aface.h"

#define AFB_MPICH_LIB "/usr/lib/x86_64-linux-gnu/libmpich.so.12"

int af_backend;
static void *backend_lib;
const char *afb_lib_path = "", *afb_lib_choice = "";

int afb_file_to_int(void *file)
{
    int (*c2f)(void *) = (int (*)(void *))dlsym(backend_lib, "PMPI_File_c2f");
    return c2f ? c2f(file) : 0;
}

void *afb_file_from_int(int v)
{
    void *(*f2c)(int) = (void *(*)(int))dlsym(backend_lib, "PMPI_File_f2c");
    return f2c ? f2c(v) : NULL;
}

/* Reads SWITCHYARD_ABI_BACKEND once: unset, empty or "switchyard" keeps the runtime; "mpich"
 * loads Debian MPICH's library, an absolute path loads that MPICH-ABI library. RTLD_DEEPBIND
 * keeps the library's own MPI_* calls inside it, never on this library's exports. Failure to
 * load is fatal: a message naming the library and dlerror(), exit status 1. */
__attribute__((constructor)) static void afb_choose(void)
{
    const char *v = getenv("SWITCHYARD_ABI_BACKEND");
    if (!v || !*v || !strcmp(v, "switchyard"))
        return;
    const char *path = !strcmp(v, "mpich") ? AFB_MPICH_LIB : v;
    if (path[0] != '/') {
        fprintf(stderr, "libmpi_abi: SWITCHYARD_ABI_BACKEND=%s: expected switchyard, mpich or the absolute "
                "path of an MPICH-ABI library\n", v);
        exit(1);
    }
    void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND);
    if (!lib) {
        fprintf(stderr, "libmpi_abi: cannot load the MPI library %s (SWITCHYARD_ABI_BACKEND=%s): %s\n", path, v,
                dlerror());
        exit(1);
    }
    if (!afb_resolve(lib)) {
        fprintf(stderr, "libmpi_abi: %s (SWITCHYARD_ABI_BACKEND=%s) lacks PMPI_Init or PMPI_Comm_size: "
                "not an MPI library\n", path, v);
        exit(1);
    }
    backend_lib = lib;
    afb_lib_path = path;
    afb_lib_choice = v;
    af_backend = 1;
}
