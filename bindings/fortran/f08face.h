/* f08face.h — internal header of the `mpi_f08` module's C half (generated f08.c): CFI
 * descriptors of choice buffers, and the error for a buffer it cannot take. */
#ifndef F08FACE_H
#define F08FACE_H

#include <ISO_Fortran_binding.h>

#include "fface.h"

/* Whether the descriptor d of a choice buffer describes contiguous memory (a scalar does; an
 * empty array too). CFI_is_contiguous's test, without making libmpifort need libgfortran. */
static inline int ff08_contiguous(const CFI_cdesc_t *d)
{
    CFI_index_t want = (CFI_index_t)d->elem_len;
    for (int r = 0; r < d->rank; r++)
        if (d->dim[r].extent == 0)
            return 1;
    for (int r = 0; r < d->rank; r++) {
        if (d->dim[r].extent != 1 && d->dim[r].sm != want)
            return 0;
        want *= d->dim[r].extent;
    }
    return 1;
}

/* Raises MPI_ERR_BUFFER for the non-contiguous buffer `arg` of procedure fn (its C name) on the
 * communicator *comm (NULL: MPI_COMM_WORLD), with a message naming both; returns the code. */
MPI_Fint ff08_noncontiguous(const char *fn, const char *arg, const MPI_Fint *comm);

#endif
