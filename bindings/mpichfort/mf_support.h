/* mf_support.h — internal header of libmpichfort.so.12: MPICH's f08 sentinel objects and their
 * translation into the Fortran face's (fface.h) before the mpi_f08 module's C functions run. */
#ifndef MF_SUPPORT_H
#define MF_SUPPORT_H

#include <ISO_Fortran_binding.h>

#include "fface.h"

/* MPICH's mpi_f08 module binds MPI_IN_PLACE, MPI_BOTTOM, MPI_STATUS_IGNORE and
 * MPI_STATUSES_IGNORE to these C names; a program that uses one defines its own copy, which
 * takes the place of ours (mf_sentinels.c), so compare addresses only. */
extern MPI_Fint MPIR_F08_MPI_IN_PLACE, MPIR_F08_MPI_BOTTOM;
extern MPI_Fint MPIR_F08_MPI_STATUS_IGNORE_OBJ[5], MPIR_F08_MPI_STATUSES_IGNORE_OBJ[5];

/* MPICH's mpi_f08 module has MPI_UNWEIGHTED and MPI_WEIGHTS_EMPTY as variables of its module
 * mpi_f08_link_constants (gfortran's names for them here; defined in mf_sentinels.c). */
extern MPI_Fint mf_unweighted __asm__("__mpi_f08_link_constants_MOD_mpi_unweighted");
extern MPI_Fint mf_weights_empty __asm__("__mpi_f08_link_constants_MOD_mpi_weights_empty");

/* A weights argument w, MPICH's MPI_UNWEIGHTED / MPI_WEIGHTS_EMPTY made the Fortran face's. */
static inline MPI_Fint *mf_weights(MPI_Fint *w)
{
    return w == &mf_unweighted ? &mpifcmb5_.v : w == &mf_weights_empty ? &mpifcmb9_.v : w;
}

/* The descriptor to pass for choice buffer d: d, or when d is MPICH's MPI_IN_PLACE or
 * MPI_BOTTOM (a scalar), *tmp made a copy of it addressing the Fortran face's one. */
static inline CFI_cdesc_t *mf_buffer(CFI_cdesc_t *d, CFI_cdesc_t *tmp)
{
    void *ours = d->base_addr == (void *)&MPIR_F08_MPI_IN_PLACE ? (void *)&mpipriv1_.in_place
        : d->base_addr == (void *)&MPIR_F08_MPI_BOTTOM ? (void *)&mpipriv1_.bottom : NULL;
    if (!ours || d->rank != 0)
        return d;
    *tmp = *d;
    tmp->base_addr = ours;
    return tmp;
}

/* A status argument s, MPICH's MPI_STATUS_IGNORE made the Fortran face's. */
static inline MPI_Fint *mf_status(MPI_Fint *s)
{
    return s == MPIR_F08_MPI_STATUS_IGNORE_OBJ ? mpipriv1_.status_ignore : s;
}

/* A status array argument s, MPICH's MPI_STATUSES_IGNORE made the Fortran face's. */
static inline MPI_Fint *mf_statuses(MPI_Fint *s)
{
    return s == MPIR_F08_MPI_STATUSES_IGNORE_OBJ ? mpipriv2_.statuses_ignore : s;
}

#endif
