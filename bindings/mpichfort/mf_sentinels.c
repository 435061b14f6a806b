/* mf_sentinels.c — libmpichfort.so.12's definitions of MPICH's f08 sentinel objects, for the
 * programs that do not define their own (which then take their place: default visibility). */
#include "face_support.h"
#include "mf_support.h"

FACE_API MPI_Fint MPIR_F08_MPI_IN_PLACE, MPIR_F08_MPI_BOTTOM;
FACE_API MPI_Fint MPIR_F08_MPI_STATUS_IGNORE_OBJ[5], MPIR_F08_MPI_STATUSES_IGNORE_OBJ[5];
FACE_API MPI_Fint mf_unweighted, mf_weights_empty;
/* The rest of MPICH's module mpi_f08_link_constants (gfortran's names): MPI_ARGV_NULL,
 * MPI_ARGVS_NULL (a CHARACTER(1) each) and MPI_ERRCODES_IGNORE (an INTEGER). */
FACE_API char mf_argv_null __asm__("__mpi_f08_link_constants_MOD_mpi_argv_null");
FACE_API char mf_argvs_null __asm__("__mpi_f08_link_constants_MOD_mpi_argvs_null");
FACE_API MPI_Fint mf_errcodes_ignore __asm__("__mpi_f08_link_constants_MOD_mpi_errcodes_ignore");
