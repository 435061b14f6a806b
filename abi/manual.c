/* manual.c — the standard-ABI face's procedures that are not argument translation: handle
 * conversion to Fortran integers (c2f/f2c, toint/fromint), statuses between languages and
 * MPI_Abi_*. */
#include <string.h>

#include "abi_info.h"
#include "conv.h"

#define HANDLE_CLASSES(X)                                                                                   \
    X(Comm, MPI_Comm, RT_CLASS_COMM) X(Type, MPI_Datatype, RT_CLASS_DATATYPE) X(Group, MPI_Group, RT_CLASS_GROUP) \
    X(Info, MPI_Info, RT_CLASS_INFO) X(Request, MPI_Request, RT_CLASS_REQUEST) X(Op, MPI_Op, RT_CLASS_OP)       \
    X(Errhandler, MPI_Errhandler, RT_CLASS_ERRHANDLER) X(Win, MPI_Win, RT_CLASS_WIN)                         \
    X(Message, MPI_Message, RT_CLASS_MESSAGE) X(Session, MPI_Session, RT_CLASS_SESSION) X(File, MPI_File, RT_CLASS_FILE)

#define DEFINE_CONVERSIONS(T, CT, CLS)                                                                  \
    FACE_API MPI_Fint PMPI_##T##_c2f(CT h) { return (MPI_Fint)af_to_int((intptr_t)h, CLS); }           \
    FACE_API CT PMPI_##T##_f2c(MPI_Fint v) { return (CT)af_from_int(v, CLS); }                          \
    FACE_API int PMPI_##T##_toint(CT h) { return af_to_int((intptr_t)h, CLS); }                         \
    FACE_API CT PMPI_##T##_fromint(int v) { return (CT)af_from_int(v, CLS); }                           \
    FACE_API MPI_Fint MPI_##T##_c2f(CT h) __attribute__((weak, alias("PMPI_" #T "_c2f")));             \
    FACE_API CT MPI_##T##_f2c(MPI_Fint v) __attribute__((weak, alias("PMPI_" #T "_f2c")));              \
    FACE_API int MPI_##T##_toint(CT h) __attribute__((weak, alias("PMPI_" #T "_toint")));               \
    FACE_API CT MPI_##T##_fromint(int v) __attribute__((weak, alias("PMPI_" #T "_fromint")));
HANDLE_CLASSES(DEFINE_CONVERSIONS)

/* A Fortran status in this ABI has MPI_F_STATUS_SIZE (8) integers laid out as MPI_Status. */
static int status_copy(const char *fn, const void *from, void *to)
{
    if (!from || !to)
        return af_error_code_out(rt_raise(NULL, RT_ERR_ARG, fn, "a status argument is null or MPI_STATUS_IGNORE"));
    memcpy(to, from, sizeof(MPI_Status));
    return MPI_SUCCESS;
}

#define DEFINE_STATUS_CONV(NAME, FROM, TO)                                                             \
    FACE_API int P##NAME(const FROM *a, TO *b) { return status_copy(#NAME, a, b); }                     \
    FACE_API int NAME(const FROM *a, TO *b) __attribute__((weak, alias("P" #NAME)));
DEFINE_STATUS_CONV(MPI_Status_c2f, MPI_Status, MPI_Fint)
DEFINE_STATUS_CONV(MPI_Status_f2c, MPI_Fint, MPI_Status)
DEFINE_STATUS_CONV(MPI_Status_c2f08, MPI_Status, MPI_F08_status)
DEFINE_STATUS_CONV(MPI_Status_f082c, MPI_F08_status, MPI_Status)
DEFINE_STATUS_CONV(MPI_Status_f2f08, MPI_Fint, MPI_F08_status)
DEFINE_STATUS_CONV(MPI_Status_f082f, MPI_F08_status, MPI_Fint)

FACE_API int PMPI_Abi_get_version(int *abi_major, int *abi_minor)
{
    if (!abi_major || !abi_minor)
        return af_error_code_out(rt_raise(NULL, RT_ERR_ARG, "MPI_Abi_get_version", "an output argument is a null pointer"));
    *abi_major = MPI_ABI_VERSION;
    *abi_minor = MPI_ABI_SUBVERSION;
    return MPI_SUCCESS;
}

FACE_API int PMPI_Abi_get_info(MPI_Info *info)
{
    rt_info *i = NULL;
    int err = info ? fs_abi_info(&i, "MPI_Abi_get_info", (int)sizeof(MPI_Aint), (int)sizeof(MPI_Count), (int)sizeof(MPI_Offset))
                   : rt_raise(NULL, RT_ERR_ARG, "MPI_Abi_get_info", "argument 'info' is a null pointer");
    if (!err)
        *info = af_info_out(i);
    return af_error_code_out(err);
}

FACE_API int PMPI_Abi_get_fortran_info(MPI_Info *info)
{
    rt_info *i = NULL;
    int err = info ? fs_abi_fortran_info(&i, "MPI_Abi_get_fortran_info")
                   : rt_raise(NULL, RT_ERR_ARG, "MPI_Abi_get_fortran_info", "argument 'info' is a null pointer");
    if (!err)
        *info = af_info_out(i);
    return af_error_code_out(err);
}

FACE_API int PMPI_Abi_set_fortran_info(MPI_Info info)
{
    rt_info *i = NULL;
    int err = af_info_in(NULL, "MPI_Abi_set_fortran_info", "info", info, 0, &i);
    return af_error_code_out(err ? err : fs_abi_set_fortran_info(i, "MPI_Abi_set_fortran_info"));
}

FACE_API int PMPI_Abi_get_fortran_booleans(int logical_size, void *logical_true, void *logical_false, int *is_set)
{
    return af_error_code_out(fs_abi_get_fortran_booleans(logical_size, logical_true, logical_false, is_set));
}

FACE_API int PMPI_Abi_set_fortran_booleans(int logical_size, void *logical_true, void *logical_false)
{
    return af_error_code_out(fs_abi_set_fortran_booleans(logical_size, logical_true, logical_false));
}

FACE_API int MPI_Abi_get_version(int *, int *) __attribute__((weak, alias("PMPI_Abi_get_version")));
FACE_API int MPI_Abi_get_info(MPI_Info *) __attribute__((weak, alias("PMPI_Abi_get_info")));
FACE_API int MPI_Abi_get_fortran_info(MPI_Info *) __attribute__((weak, alias("PMPI_Abi_get_fortran_info")));
FACE_API int MPI_Abi_set_fortran_info(MPI_Info) __attribute__((weak, alias("PMPI_Abi_set_fortran_info")));
FACE_API int MPI_Abi_get_fortran_booleans(int, void *, void *, int *) __attribute__((weak, alias("PMPI_Abi_get_fortran_booleans")));
FACE_API int MPI_Abi_set_fortran_booleans(int, void *, void *) __attribute__((weak, alias("PMPI_Abi_set_fortran_booleans")));
