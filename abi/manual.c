/* manual.c — the standard-ABI face's procedures that are not argument translation: handle
 * conversion to Fortran integers (c2f/f2c, toint/fromint), statuses between languages and
 * MPI_Abi_*. */
#include "conv.h"

#define HANDLE_CLASSES(X)                                                                                   \
    X(Comm, MPI_Comm, RT_CLASS_COMM) X(Type, MPI_Datatype, RT_CLASS_DATATYPE) X(Group, MPI_Group, RT_CLASS_GROUP) \
    X(Info, MPI_Info, RT_CLASS_INFO) X(Request, MPI_Request, RT_CLASS_REQUEST) X(Op, MPI_Op, RT_CLASS_OP)       \
    X(Errhandler, MPI_Errhandler, RT_CLASS_ERRHANDLER) X(Win, MPI_Win, RT_CLASS_WIN)                         \
    X(Message, MPI_Message, RT_CLASS_MESSAGE) X(Session, MPI_Session, RT_CLASS_SESSION) X(File, MPI_File, RT_CLASS_FILE)

/* They read the object tables: under the library's lock when a progress thread runs. */
static int to_int(intptr_t h, int cls)
{
    rt_enter();
    int v = af_to_int(h, cls);
    rt_leave();
    return v;
}

static intptr_t from_int(int v, int cls)
{
    rt_enter();
    intptr_t h = af_from_int(v, cls);
    rt_leave();
    return h;
}

#define DEFINE_CONVERSIONS(T, CT, CLS)                                                                  \
    FACE_API MPI_Fint PMPI_##T##_c2f(CT h) { return (MPI_Fint)to_int((intptr_t)h, CLS); }              \
    FACE_API CT PMPI_##T##_f2c(MPI_Fint v) { return (CT)from_int(v, CLS); }                             \
    FACE_API int PMPI_##T##_toint(CT h) { return to_int((intptr_t)h, CLS); }                            \
    FACE_API CT PMPI_##T##_fromint(int v) { return (CT)from_int(v, CLS); }                              \
    FACE_API MPI_Fint MPI_##T##_c2f(CT h) __attribute__((weak, alias("PMPI_" #T "_c2f")));             \
    FACE_API CT MPI_##T##_f2c(MPI_Fint v) __attribute__((weak, alias("PMPI_" #T "_f2c")));              \
    FACE_API int MPI_##T##_toint(CT h) __attribute__((weak, alias("PMPI_" #T "_toint")));               \
    FACE_API CT MPI_##T##_fromint(int v) __attribute__((weak, alias("PMPI_" #T "_fromint")));
HANDLE_CLASSES(DEFINE_CONVERSIONS)

/* Statuses between languages and MPI_Abi_*: the standard ABI this library implements. */
#define FACE_INFO_IN af_info_in
#define FACE_INFO_OUT af_info_out
#define FACE_ERR_OUT af_error_code_out
#define FACE_ABI_MAJOR MPI_ABI_VERSION
#define FACE_ABI_MINOR MPI_ABI_SUBVERSION
#include "shared_procs.inc"
