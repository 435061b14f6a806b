/* mf_sentinels.c — libmpichfort.so.12's definitions of MPICH's f08 sentinel objects, for the
 * programs that do not define their own (which then take their place: default visibility). */
#include "face_support.h"
#include "mf_support.h"

FACE_API MPI_Fint MPIR_F08_MPI_IN_PLACE, MPIR_F08_MPI_BOTTOM;
FACE_API MPI_Fint MPIR_F08_MPI_STATUS_IGNORE_OBJ[5], MPIR_F08_MPI_STATUSES_IGNORE_OBJ[5];
FACE_API MPI_Fint mf_unweighted, mf_weights_empty;
