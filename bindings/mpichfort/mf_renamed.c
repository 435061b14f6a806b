/* mf_renamed.c — MPICH 4.0's f08 entry points for procedures the standard later named otherwise:
 * its MPIX_Delete_error_class/_code/_string are MPI-4.1's MPI_Remove_error_*, same arguments. */
#include "mf_support.h"

/* The mpi_f08 module's C functions (libmpifort, generated f08.c): ierror may be NULL (absent). */
void MPI_Remove_error_class_f08(MPI_Fint *errorclass, MPI_Fint *ierror);
void MPI_Remove_error_code_f08(MPI_Fint *errorcode, MPI_Fint *ierror);
void MPI_Remove_error_string_f08(MPI_Fint *errorcode, MPI_Fint *ierror);

/* MPICH's entry point NAME (mpi_<x>_f08_) and its profiling twin TWIN (pmpir_<x>_f08_), both
 * calling OURS with the handle or code and the optional ierror MPICH's module passes. */
#define MF_RENAMED(name, twin, ours)                                                              \
    static void mf_##name(MPI_Fint *arg, MPI_Fint *ierror)                                        \
    {                                                                                             \
        ours(arg, ierror);                                                                        \
    }                                                                                             \
    FACE_API void name(MPI_Fint *, MPI_Fint *) __attribute__((alias("mf_" #name)));               \
    FACE_API void twin(MPI_Fint *, MPI_Fint *) __attribute__((alias("mf_" #name)));

MF_RENAMED(mpi_delete_error_class_f08_, pmpir_delete_error_class_f08_, MPI_Remove_error_class_f08)
MF_RENAMED(mpi_delete_error_code_f08_, pmpir_delete_error_code_f08_, MPI_Remove_error_code_f08)
MF_RENAMED(mpi_delete_error_string_f08_, pmpir_delete_error_string_f08_, MPI_Remove_error_string_f08)
