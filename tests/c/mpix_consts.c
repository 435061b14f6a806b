/* mpix_consts.c — the MPIX_ constants of Debian MPICH 4.0.2's mpi.h that MPICH-built programs
 * pass work on the MPICH face: MPIX_C_FLOAT16 (a 2-byte floating type: sends, reductions),
 * the MPIX_ERR_* classes, MPIX_GPU_SUPPORT_* with MPIX_GPU_query_support (no GPU here). */
#include "check.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
#ifdef MPIX_GPU_SUPPORT_CUDA /* MPICH's ABI only */
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    int size = 0;
    CHECK_SUCCESS(MPI_Type_size(MPIX_C_FLOAT16, &size));
    CHECK_EQ_INT(size, 2);
    _Float16 a[3] = {1.5f16, -2.0f16, 0.25f16}, b[3] = {0}, c[3] = {0.5f16, 1.0f16, 0.25f16};
    CHECK_SUCCESS(MPI_Sendrecv(a, 3, MPIX_C_FLOAT16, 0, 1, b, 3, MPIX_C_FLOAT16, 0, 1, MPI_COMM_SELF,
                               MPI_STATUS_IGNORE));
    CHECK(b[0] == a[0] && b[1] == a[1] && b[2] == a[2], "MPIX_C_FLOAT16 values changed in a send");
    CHECK_SUCCESS(MPI_Reduce_local(a, c, 3, MPIX_C_FLOAT16, MPI_SUM));
    CHECK(c[0] == 2.0f16 && c[1] == -1.0f16 && c[2] == 0.5f16, "MPIX_C_FLOAT16 sum");
    CHECK_ERR(MPI_Reduce_local(a, c, 3, MPIX_C_FLOAT16, MPI_BAND), MPI_ERR_OP, "MPI_BAND");
    const int cls[] = {MPIX_ERR_PROC_FAILED, MPIX_ERR_PROC_FAILED_PENDING, MPIX_ERR_REVOKED, MPIX_ERR_EAGAIN,
                       MPIX_ERR_NOREQ};
    for (int i = 0; i < 5; i++) {
        int k = -1, len = 0;
        char msg[MPI_MAX_ERROR_STRING];
        CHECK_SUCCESS(MPI_Error_class(cls[i], &k));
        CHECK_EQ_INT(k, cls[i]);
        CHECK_SUCCESS(MPI_Error_string(cls[i], msg, &len));
        CHECK(len > 0, "no text for MPIX class %d", cls[i]);
    }
    const int gpus[] = {MPIX_GPU_SUPPORT_CUDA, MPIX_GPU_SUPPORT_ZE, MPIX_GPU_SUPPORT_HIP};
    for (int i = 0; i < 3; i++) {
        int s = -1;
        CHECK_SUCCESS(MPIX_GPU_query_support(gpus[i], &s));
        CHECK_EQ_INT(s, 0);
    }
    int s = -1;
    CHECK_ERR(MPIX_GPU_query_support(77, &s), MPI_ERR_ARG, "gpu_type");
#endif
    MPI_Finalize();
    return 0;
}
