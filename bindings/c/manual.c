/* manual.c — the C face's procedures that are not argument translation: handle conversion
 * between C and Fortran (the identity here), status conversion, MPI_DUP_FN, the objects
 * MPICH's ABI exports, and MPI_Abi_*. */
#include "conv.h"

/* mpi.h defines the c2f/f2c conversions as macros, as MPICH does; the library exports them too. */
#define HANDLE_CLASSES(X) X(Comm) X(Type) X(Group) X(Info) X(Request) X(Op) X(Errhandler) X(Win) X(Message) X(Session)

#undef MPI_Comm_c2f
#undef MPI_Comm_f2c
#undef MPI_Type_c2f
#undef MPI_Type_f2c
#undef MPI_Group_c2f
#undef MPI_Group_f2c
#undef MPI_Info_c2f
#undef MPI_Info_f2c
#undef MPI_Request_c2f
#undef MPI_Request_f2c
#undef MPI_Op_c2f
#undef MPI_Op_f2c
#undef MPI_Errhandler_c2f
#undef MPI_Errhandler_f2c
#undef MPI_Win_c2f
#undef MPI_Win_f2c
#undef MPI_Message_c2f
#undef MPI_Message_f2c
#undef MPI_Session_c2f
#undef MPI_Session_f2c
#undef PMPI_Comm_c2f
#undef PMPI_Comm_f2c
#undef PMPI_Type_c2f
#undef PMPI_Type_f2c
#undef PMPI_Group_c2f
#undef PMPI_Group_f2c
#undef PMPI_Info_c2f
#undef PMPI_Info_f2c
#undef PMPI_Request_c2f
#undef PMPI_Request_f2c
#undef PMPI_Op_c2f
#undef PMPI_Op_f2c
#undef PMPI_Errhandler_c2f
#undef PMPI_Errhandler_f2c
#undef PMPI_Win_c2f
#undef PMPI_Win_f2c
#undef PMPI_Message_c2f
#undef PMPI_Message_f2c
#undef PMPI_Session_c2f
#undef PMPI_Session_f2c

#define CTYPE_Comm MPI_Comm
#define CTYPE_Type MPI_Datatype
#define CTYPE_Group MPI_Group
#define CTYPE_Info MPI_Info
#define CTYPE_Request MPI_Request
#define CTYPE_Op MPI_Op
#define CTYPE_Errhandler MPI_Errhandler
#define CTYPE_Win MPI_Win
#define CTYPE_Message MPI_Message
#define CTYPE_Session MPI_Session

#define DEFINE_CONVERSIONS(T)                                                                          \
    FACE_API MPI_Fint PMPI_##T##_c2f(CTYPE_##T h) { return (MPI_Fint)h; }                               \
    FACE_API CTYPE_##T PMPI_##T##_f2c(MPI_Fint h) { return (CTYPE_##T)h; }                              \
    FACE_API int PMPI_##T##_toint(CTYPE_##T h) { return (int)h; }                                       \
    FACE_API CTYPE_##T PMPI_##T##_fromint(int h) { return (CTYPE_##T)h; }                               \
    FACE_API MPI_Fint MPI_##T##_c2f(CTYPE_##T h) __attribute__((weak, alias("PMPI_" #T "_c2f")));       \
    FACE_API CTYPE_##T MPI_##T##_f2c(MPI_Fint h) __attribute__((weak, alias("PMPI_" #T "_f2c")));       \
    FACE_API int MPI_##T##_toint(CTYPE_##T h) __attribute__((weak, alias("PMPI_" #T "_toint")));        \
    FACE_API CTYPE_##T MPI_##T##_fromint(int h) __attribute__((weak, alias("PMPI_" #T "_fromint")));
HANDLE_CLASSES(DEFINE_CONVERSIONS)

/* MPI_File is a pointer here; its Fortran integer is the MPICH-style handle of the object. Both
 * read the object tables: under the library's lock (another thread may open or close a file). */
FACE_API MPI_Fint PMPI_File_c2f(MPI_File f)
{
    const int locked = rt_enter();
    MPI_Fint h = f && rt_obj_is(f, RT_CLASS_FILE) ? (MPI_Fint)fs_user_int_handle((rt_obj *)f) : 0;
    rt_leave(locked);
    return h;
}
FACE_API MPI_File PMPI_File_f2c(MPI_Fint h)
{
    const int locked = rt_enter();
    rt_obj *o;
    MPI_File f = fs_user_from_int(h, RT_CLASS_FILE, &o) == FS_DEC_OK ? (MPI_File)o : MPI_FILE_NULL;
    rt_leave(locked);
    return f;
}
FACE_API int PMPI_File_toint(MPI_File f) { return PMPI_File_c2f(f); }
FACE_API MPI_File PMPI_File_fromint(int h) { return PMPI_File_f2c(h); }
FACE_API MPI_Fint MPI_File_c2f(MPI_File f) __attribute__((weak, alias("PMPI_File_c2f")));
FACE_API MPI_File MPI_File_f2c(MPI_Fint h) __attribute__((weak, alias("PMPI_File_f2c")));
FACE_API int MPI_File_toint(MPI_File f) __attribute__((weak, alias("PMPI_File_toint")));
FACE_API MPI_File MPI_File_fromint(int h) __attribute__((weak, alias("PMPI_File_fromint")));

/* ------------------------------------------------------------ MPICH ABI objects */

/* MPICH's GPU queries (MPIX_GPU_query_support and the older per-vendor calls), which
 * MPICH-built programs call: Switchyard moves host memory only, so no GPU is supported. */
FACE_API int PMPIX_GPU_query_support(int gpu_type, int *is_supported)
{
    const int locked = rt_enter(); /* an error makes an error code and calls an error handler */
    int rc = RT_SUCCESS;

    if (gpu_type != MPIX_GPU_SUPPORT_CUDA && gpu_type != MPIX_GPU_SUPPORT_ZE && gpu_type != MPIX_GPU_SUPPORT_HIP)
        rc = rt_raise(NULL, RT_ERR_ARG, "MPIX_GPU_query_support",
                      "invalid argument 'gpu_type' = %d: not an MPIX_GPU_SUPPORT_* value", gpu_type);
    else if (!is_supported)
        rc = rt_raise(NULL, RT_ERR_ARG, "MPIX_GPU_query_support", "argument 'is_supported' is a null pointer");
    else
        *is_supported = 0;
    rt_leave(locked);
    return rc ? cf_error_code_out(rc) : MPI_SUCCESS;
}
FACE_API int MPIX_GPU_query_support(int, int *) __attribute__((weak, alias("PMPIX_GPU_query_support")));
FACE_API int PMPIX_Query_cuda_support(void) { return 0; }
FACE_API int PMPIX_Query_ze_support(void) { return 0; }
FACE_API int PMPIX_Query_hip_support(void) { return 0; }
FACE_API int MPIX_Query_cuda_support(void) __attribute__((weak, alias("PMPIX_Query_cuda_support")));
FACE_API int MPIX_Query_ze_support(void) __attribute__((weak, alias("PMPIX_Query_ze_support")));
FACE_API int MPIX_Query_hip_support(void) __attribute__((weak, alias("PMPIX_Query_hip_support")));

FACE_API int MPIR_Dup_fn(MPI_Comm oldcomm, int keyval, void *extra_state, void *attribute_val_in,
                         void *attribute_val_out, int *flag)
{
    (void)oldcomm;
    (void)keyval;
    (void)extra_state;
    *(void **)attribute_val_out = attribute_val_in;
    *flag = 1;
    return MPI_SUCCESS;
}

static int unweighted_marker, weights_empty_marker;
static MPI_Fint f_status_ignore[5], f_statuses_ignore[5];
static MPI_F08_status f08_status_ignore, f08_statuses_ignore;
FACE_API int *const MPI_UNWEIGHTED = &unweighted_marker;
FACE_API int *const MPI_WEIGHTS_EMPTY = &weights_empty_marker;
FACE_API MPI_Fint *MPI_F_STATUS_IGNORE = f_status_ignore;
FACE_API MPI_Fint *MPI_F_STATUSES_IGNORE = f_statuses_ignore;
FACE_API MPI_F08_status *MPI_F08_STATUS_IGNORE = &f08_status_ignore;
FACE_API MPI_F08_status *MPI_F08_STATUSES_IGNORE = &f08_statuses_ignore;
FACE_API struct MPIR_T_pvar_handle_s *const MPI_T_PVAR_ALL_HANDLES = (struct MPIR_T_pvar_handle_s *)1;

/* ------------------------------------------------------------ MPI_Abi_* */

/* Statuses between languages and MPI_Abi_*: this library has the MPICH ABI, not the
 * standard ABI, so MPI_Abi_get_version gives -1, as MPI-5.0 asks of such libraries. */
#define FACE_INFO_IN cf_info_in
#define FACE_INFO_OUT cf_info_out
#define FACE_ERR_OUT cf_error_code_out
#define FACE_ABI_MAJOR -1
#define FACE_ABI_MINOR -1
#include "shared_procs.inc"
