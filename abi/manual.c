/* manual.c — the standard-ABI face's procedures that are not argument translation: handle
 * conversion to Fortran integers (c2f/f2c, toint/fromint), statuses between languages and
 * MPI_Abi_*. */
#include "conv.h"

#define HANDLE_CLASSES(X)                                                                                   \
    X(Comm, MPI_Comm, RT_CLASS_COMM) X(Type, MPI_Datatype, RT_CLASS_DATATYPE) X(Group, MPI_Group, RT_CLASS_GROUP) \
    X(Info, MPI_Info, RT_CLASS_INFO) X(Request, MPI_Request, RT_CLASS_REQUEST) X(Op, MPI_Op, RT_CLASS_OP)       \
    X(Errhandler, MPI_Errhandler, RT_CLASS_ERRHANDLER) X(Win, MPI_Win, RT_CLASS_WIN)                         \
    X(Message, MPI_Message, RT_CLASS_MESSAGE) X(Session, MPI_Session, RT_CLASS_SESSION) X(File, MPI_File, RT_CLASS_FILE)

/* They read the object tables: under the library's lock when a progress thread runs. On a
 * foreign backend (af_backend) a predefined handle is the standard's value and a user one goes
 * through the backend's own c2f/f2c where it is a pointer (backend.c), else is its integer. */
static int to_int(intptr_t h, int cls, const char *T)
{
    if (af_backend && (uintptr_t)h < AF_PREDEFINED_LIMIT)
        return (int)h;
    if (af_backend)
        return af_backend == AF_BACKEND_OPENMPI || cls == RT_CLASS_FILE ? afb_c2f(T, (void *)h) : (int)h;
    int locked = rt_enter();
    int v = af_to_int(h, cls);
    rt_leave(locked);
    return v;
}

static intptr_t from_int(int v, int cls, const char *T)
{
    if (af_backend && v >= 0 && v < AF_PREDEFINED_LIMIT)
        return v;
    if (af_backend)
        return af_backend == AF_BACKEND_OPENMPI || cls == RT_CLASS_FILE ? (intptr_t)afb_f2c(T, v) : (intptr_t)(uint32_t)v;
    int locked = rt_enter();
    intptr_t h = af_from_int(v, cls);
    rt_leave(locked);
    return h;
}

#define DEFINE_CONVERSIONS(T, CT, CLS)                                                                  \
    FACE_API MPI_Fint PMPI_##T##_c2f(CT h) { return (MPI_Fint)to_int((intptr_t)h, CLS, #T); }          \
    FACE_API CT PMPI_##T##_f2c(MPI_Fint v) { return (CT)from_int(v, CLS, #T); }                         \
    FACE_API int PMPI_##T##_toint(CT h) { return to_int((intptr_t)h, CLS, #T); }                        \
    FACE_API CT PMPI_##T##_fromint(int v) { return (CT)from_int(v, CLS, #T); }                          \
    FACE_API MPI_Fint MPI_##T##_c2f(CT h) __attribute__((weak, alias("PMPI_" #T "_c2f")));             \
    FACE_API CT MPI_##T##_f2c(MPI_Fint v) __attribute__((weak, alias("PMPI_" #T "_f2c")));              \
    FACE_API int MPI_##T##_toint(CT h) __attribute__((weak, alias("PMPI_" #T "_toint")));               \
    FACE_API CT MPI_##T##_fromint(int v) __attribute__((weak, alias("PMPI_" #T "_fromint")));
HANDLE_CLASSES(DEFINE_CONVERSIONS)

/* The info handle for the runtime's info i (MPI_Abi_get_info and friends); on a foreign backend,
 * a backend info with i's keys and values (i is freed), MPI_INFO_NULL if it cannot be made. */
static MPI_Info info_out_any(rt_info *i)
{
    MPI_Info m = MPI_INFO_NULL;
    int n = 0, flag, len;
    char key[MPI_MAX_INFO_KEY + 1], value[MPI_MAX_INFO_VAL + 1];

    if (!af_backend)
        return af_info_out(i);
    if (PMPI_Info_create(&m) == MPI_SUCCESS && rt_Info_get_nkeys(i, &n) == RT_SUCCESS)
        for (int k = 0; k < n; k++) {
            len = (int)sizeof value;
            if (rt_Info_get_nthkey(i, k, key) == RT_SUCCESS &&
                rt_Info_get_string(i, key, &len, value, &flag) == RT_SUCCESS && flag)
                PMPI_Info_set(m, key, value);
        }
    rt_Info_free(&i);
    return m;
}

/* Statuses between languages and MPI_Abi_*: the standard ABI this library implements. */
#define FACE_INFO_IN af_info_in
#define FACE_INFO_OUT info_out_any
#define FACE_ERR_OUT af_error_code_out
#define FACE_ABI_MAJOR MPI_ABI_VERSION
#define FACE_ABI_MINOR MPI_ABI_SUBVERSION
#include "shared_procs.inc"
