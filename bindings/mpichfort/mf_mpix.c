/* mf_mpix.c — MPICH's MPIX procedures in Fortran (mpif.h's four manglings, PMPIX_ twins, f08):
 * the GPU queries call the C face's; the ULFM ones, which Switchyard lacks, raise an error. */
#include "face_support.h"
#include "mf_support.h"

/* libmpi's extra (bindings/c/handles.c): raises MPI_ERR_UNSUPPORTED_OPERATION on comm's error
 * handler, its message naming procedure name, without making an error code (MPI_LASTUSEDCODE
 * stays); returns the error code. */
int MPIR_Err_unsupported(MPI_Comm comm, const char *name);

/* The four mpif.h manglings (NAME, name, name_, name__) and the PMPIX ones of one procedure,
 * all aliases of its definition FN. */
#define MF_ALIASES(FN, UP, PUP, low, plow, ...)                                                   \
    FACE_API void UP(__VA_ARGS__) __attribute__((alias(#FN)));                                   \
    FACE_API void PUP(__VA_ARGS__) __attribute__((alias(#FN)));                                  \
    FACE_API void low(__VA_ARGS__) __attribute__((alias(#FN)));                                  \
    FACE_API void low##_(__VA_ARGS__) __attribute__((alias(#FN)));                               \
    FACE_API void low##__(__VA_ARGS__) __attribute__((alias(#FN)));                              \
    FACE_API void plow(__VA_ARGS__) __attribute__((alias(#FN)));                                 \
    FACE_API void plow##_(__VA_ARGS__) __attribute__((alias(#FN)));                              \
    FACE_API void plow##__(__VA_ARGS__) __attribute__((alias(#FN)));

/* A ULFM procedure NAME(comm, out...) Switchyard does not implement, in mpif.h's manglings
 * (ierr last) and f08's (mpix_<name>_f08_ and its twin pmpixr_<name>_f08_: ierror optional). */
#define MF_ULFM(NAME, UP, PUP, low, plow, twin, ...)                                                    \
    static void mf_##low(MPI_Fint *comm, __VA_ARGS__ MPI_Fint *ierr)                             \
    {                                                                                            \
        int err = MPIR_Err_unsupported(MPI_Comm_f2c(*comm), NAME);                               \
        if (ierr)                                                                                \
            *ierr = err;                                                                         \
    }                                                                                            \
    MF_ALIASES(mf_##low, UP, PUP, low, plow, MPI_Fint *, __VA_ARGS__ MPI_Fint *)                 \
    FACE_API void low##_f08_(MPI_Fint *, __VA_ARGS__ MPI_Fint *) __attribute__((alias("mf_" #low))); \
    FACE_API void twin(MPI_Fint *, __VA_ARGS__ MPI_Fint *) __attribute__((alias("mf_" #low)));

/* The procedure names below are MPICH's (its extensions; the MPI standard has none of them). */
MF_ULFM("MPIX_Comm_revoke", MPIX_COMM_REVOKE, PMPIX_COMM_REVOKE, mpix_comm_revoke, pmpix_comm_revoke, pmpixr_comm_revoke_f08_, )
MF_ULFM("MPIX_Comm_failure_ack", MPIX_COMM_FAILURE_ACK, PMPIX_COMM_FAILURE_ACK, mpix_comm_failure_ack,
        pmpix_comm_failure_ack, pmpixr_comm_failure_ack_f08_, )
MF_ULFM("MPIX_Comm_shrink", MPIX_COMM_SHRINK, PMPIX_COMM_SHRINK, mpix_comm_shrink, pmpix_comm_shrink, pmpixr_comm_shrink_f08_,
        MPI_Fint *newcomm __attribute__((unused)), )
MF_ULFM("MPIX_Comm_failure_get_acked", MPIX_COMM_FAILURE_GET_ACKED, PMPIX_COMM_FAILURE_GET_ACKED,
        mpix_comm_failure_get_acked, pmpix_comm_failure_get_acked, pmpixr_comm_failure_get_acked_f08_, MPI_Fint *group __attribute__((unused)), )
MF_ULFM("MPIX_Comm_agree", MPIX_COMM_AGREE, PMPIX_COMM_AGREE, mpix_comm_agree, pmpix_comm_agree, pmpixr_comm_agree_f08_,
        MPI_Fint *flag __attribute__((unused)), )

/* MPIX_Query_<gpu>_support: its answer stored in the one argument (as MPICH's do; f08's
 * optional). */
#define MF_QUERY(FN, UP, PUP, low, plow, twin)                                                          \
    static void mf_##low(MPI_Fint *r)                                                            \
    {                                                                                            \
        int v = FN();                                                                            \
        if (r)                                                                                   \
            *r = v;                                                                              \
    }                                                                                            \
    MF_ALIASES(mf_##low, UP, PUP, low, plow, MPI_Fint *)                                         \
    FACE_API void low##_f08_(MPI_Fint *) __attribute__((alias("mf_" #low)));                    \
    FACE_API void twin(MPI_Fint *) __attribute__((alias("mf_" #low)));

MF_QUERY(MPIX_Query_cuda_support, MPIX_QUERY_CUDA_SUPPORT, PMPIX_QUERY_CUDA_SUPPORT, mpix_query_cuda_support,
         pmpix_query_cuda_support, pmpixr_query_cuda_support_f08_)
MF_QUERY(MPIX_Query_ze_support, MPIX_QUERY_ZE_SUPPORT, PMPIX_QUERY_ZE_SUPPORT, mpix_query_ze_support,
         pmpix_query_ze_support, pmpixr_query_ze_support_f08_)
MF_QUERY(MPIX_Query_hip_support, MPIX_QUERY_HIP_SUPPORT, PMPIX_QUERY_HIP_SUPPORT, mpix_query_hip_support,
         pmpix_query_hip_support, pmpixr_query_hip_support_f08_)

/* MPIX_GPU_query_support(gpu_type, is_supported): a LOGICAL answer (gfortran's .TRUE. is 1). */
static void mf_gpu_query_support(MPI_Fint *gpu_type, MPI_Fint *is_supported, MPI_Fint *ierr)
{
    int v = 0, err = MPIX_GPU_query_support(*gpu_type, &v);
    *is_supported = v != 0;
    if (ierr)
        *ierr = err;
}
MF_ALIASES(mf_gpu_query_support, MPIX_GPU_QUERY_SUPPORT, PMPIX_GPU_QUERY_SUPPORT, mpix_gpu_query_support,
           pmpix_gpu_query_support, MPI_Fint *, MPI_Fint *, MPI_Fint *)
FACE_API void mpix_gpu_query_support_f08_(MPI_Fint *, MPI_Fint *, MPI_Fint *)
    __attribute__((alias("mf_gpu_query_support")));
FACE_API void pmpixr_gpu_query_support_f08_(MPI_Fint *, MPI_Fint *, MPI_Fint *)
    __attribute__((alias("mf_gpu_query_support")));
