/* mf_init.c — MPICH's C-side Fortran glue that libmpichfort.so.12 exports: the addresses of the
 * Fortran sentinels (MPIR_F_*, MPI_F_ARGV_NULL...), mpirinitc_/mpirinitf_, pmpi_conversion_fn_null. */
#include "face_support.h"
#include "mf_support.h"

/* mpif.h's character sentinels (its common block MPIPRIVC). */
extern struct { char argvs_null, argv_null; } mpiprivc_;

/* The addresses of the Fortran face's sentinels as MPICH's libmpichfort publishes them: the
 * C names of mpif.h's MPI_BOTTOM, MPI_IN_PLACE, MPI_UNWEIGHTED, MPI_WEIGHTS_EMPTY,
 * MPI_ARGV(S)_NULL, MPI_ERRCODES_IGNORE, and MPI_UNWEIGHTED / MPI_WEIGHTS_EMPTY of C. */
FACE_API void *MPIR_F_MPI_BOTTOM = &mpipriv1_.bottom;
FACE_API void *MPIR_F_MPI_IN_PLACE = &mpipriv1_.in_place;
FACE_API void *MPIR_F_MPI_UNWEIGHTED = &mpifcmb5_;
FACE_API void *MPIR_F_MPI_WEIGHTS_EMPTY = &mpifcmb9_;
FACE_API void *MPI_F_ARGV_NULL = &mpiprivc_.argv_null;
FACE_API void *MPI_F_ARGVS_NULL = &mpiprivc_.argvs_null;
FACE_API void *MPI_F_ERRCODES_IGNORE = mpipriv2_.errcodes_ignore;
FACE_API int *MPIR_C_MPI_UNWEIGHTED, *MPIR_C_MPI_WEIGHTS_EMPTY;
/* Whether mpirinitf_ still has to run (MPICH's flag; 0 once the addresses above are set). */
FACE_API int MPIR_F_NeedInit = 1;

/* mpirinitc_: records the addresses of a Fortran copy of the sentinels (status and statuses
 * ignore, bottom, in place, unweighted, weights empty, argv null, argvs null, errcodes ignore),
 * as MPICH's Fortran initialisation hands them over. The status ones stay the face's. */
FACE_API void mpirinitc_(void *si, void *ssi, void *bt, void *ip, void *uw, void *we, void *av, void *avs,
                         void *ec)
{
    (void)si;
    (void)ssi;
    MPIR_F_MPI_BOTTOM = bt;
    MPIR_F_MPI_IN_PLACE = ip;
    MPIR_F_MPI_UNWEIGHTED = uw;
    MPIR_F_MPI_WEIGHTS_EMPTY = we;
    MPI_F_ARGV_NULL = av;
    MPI_F_ARGVS_NULL = avs;
    MPI_F_ERRCODES_IGNORE = ec;
    MPIR_F_NeedInit = 0;
}

/* mpirinitf_: mpirinitc_ with the Fortran face's own sentinels (those of mpif.h). */
FACE_API void mpirinitf_(void)
{
    mpirinitc_(mpipriv1_.status_ignore, mpipriv2_.statuses_ignore, &mpipriv1_.bottom, &mpipriv1_.in_place,
               &mpifcmb5_, &mpifcmb9_, &mpiprivc_.argv_null, &mpiprivc_.argvs_null, mpipriv2_.errcodes_ignore);
    MPIR_C_MPI_UNWEIGHTED = MPI_UNWEIGHTED;
    MPIR_C_MPI_WEIGHTS_EMPTY = MPI_WEIGHTS_EMPTY;
}

/* The profiling names of MPI_CONVERSION_FN_NULL (mpif.h's EXTERNAL): a conversion that
 * converts nothing and succeeds. */
FACE_API void pmpi_conversion_fn_null_(void *userbuf, MPI_Fint *datatype, MPI_Fint *count, void *filebuf,
                                       MPI_Offset *position, MPI_Aint *extra_state, MPI_Fint *ierror)
{
    (void)userbuf;
    (void)datatype;
    (void)count;
    (void)filebuf;
    (void)position;
    (void)extra_state;
    *ierror = MPI_SUCCESS;
}
FACE_API void pmpi_conversion_fn_null(void *, MPI_Fint *, MPI_Fint *, void *, MPI_Offset *, MPI_Aint *, MPI_Fint *)
    __attribute__((alias("pmpi_conversion_fn_null_")));
FACE_API void pmpi_conversion_fn_null__(void *, MPI_Fint *, MPI_Fint *, void *, MPI_Offset *, MPI_Aint *, MPI_Fint *)
    __attribute__((alias("pmpi_conversion_fn_null_")));
FACE_API void PMPI_CONVERSION_FN_NULL(void *, MPI_Fint *, MPI_Fint *, void *, MPI_Offset *, MPI_Aint *, MPI_Fint *)
    __attribute__((alias("pmpi_conversion_fn_null_")));
