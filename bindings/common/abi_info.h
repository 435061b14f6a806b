/* abi_info.h — MPI_Abi_get_info and the Fortran ABI settings (MPI-5.0 ABI chapter), shared
 * by both C faces: what the library's types look like, and Fortran LOGICAL values. */
#ifndef ABI_INFO_H
#define ABI_INFO_H

#include "rt.h"

/* A new info describing the C types: the sizes of MPI_Aint, MPI_Count and MPI_Offset. */
int fs_abi_info(rt_info **info, const char *fn, int aint_size, int count_size, int offset_size);
/* A new info describing the Fortran types of the Fortran face (gfortran defaults, or what
 * fs_abi_set_fortran_info recorded). */
int fs_abi_fortran_info(rt_info **info, const char *fn);
/* Records the Fortran type sizes given by a user (keys as in fs_abi_fortran_info). */
int fs_abi_set_fortran_info(rt_info *info, const char *fn);
/* The values of .TRUE. and .FALSE. for LOGICAL of logical_size bytes (1, 2, 4 or 8). */
int fs_abi_get_fortran_booleans(int logical_size, void *logical_true, void *logical_false, int *is_set);
int fs_abi_set_fortran_booleans(int logical_size, const void *logical_true, const void *logical_false);

#endif
