/* fface.h — internal header of the Fortran faces: Fortran arguments to C ones. Over the
 * MPICH ABI (libmpifort) Fortran handles are the C face's integers and statuses share MPICH's
 * 5-integer layout; over the standard ABI (FF_ABI, libmpifort_abi, a client of libmpi_abi
 * only) handles go through MPI_X_f2c / MPI_X_c2f and statuses are the ABI's 8 integers. */
#ifndef FFACE_H
#define FFACE_H

#include <stdlib.h>

#ifdef FF_ABI
#include <mpi.h>
#include <mpi_legacy.h>
#define FACE_API __attribute__((visibility("default")))
#else
#include "face_support.h"
#include "mpi.h"
#endif

/* The common blocks of mpif.h (MPICH's names and layout). */
extern struct ff_priv1 { MPI_Fint bottom, in_place, status_ignore[MPI_F_STATUS_SIZE]; } mpipriv1_;
extern struct ff_priv2 { MPI_Fint statuses_ignore[MPI_F_STATUS_SIZE], errcodes_ignore[1]; } mpipriv2_;

/* MPI_BUFFER_AUTOMATIC (common block MPIFCMBA), MPI_UNWEIGHTED, MPI_WEIGHTS_EMPTY of mpif.h. */
extern struct ff_int_block { MPI_Fint v; } mpifcmb5_, mpifcmb9_, mpifcmba_;

/* A choice buffer's address: mpif.h's MPI_BOTTOM, MPI_IN_PLACE, MPI_BUFFER_AUTOMATIC (common
 * blocks) become the C face's. */
static inline void *ff_buf(void *p)
{
    if (p == &mpipriv1_.bottom)
        return MPI_BOTTOM;
    if (p == &mpipriv1_.in_place)
        return MPI_IN_PLACE;
    if (p == (void *)&mpifcmba_)
        return MPI_BUFFER_AUTOMATIC;
    return p;
}
/* A buffer address the C face hands back (a detached buffer's): MPI_BUFFER_AUTOMATIC becomes
 * the address of mpif.h's, so that attaching what was detached attaches it again. */
static inline void *ff_buf_out(void *p)
{
    return p == MPI_BUFFER_AUTOMATIC ? (void *)&mpifcmba_ : p;
}
/* MPI_UNWEIGHTED / MPI_WEIGHTS_EMPTY of mpif.h (common blocks) to the C face's markers. */
static inline int *ff_weights(MPI_Fint *w)
{
    if ((void *)w == (void *)&mpifcmb5_)
        return MPI_UNWEIGHTED;
    if ((void *)w == (void *)&mpifcmb9_)
        return MPI_WEIGHTS_EMPTY;
    return (int *)w;
}
#define ff_status_ignored(s) ((void *)(s) == (void *)mpipriv1_.status_ignore)
#define ff_statuses_ignored(s) ((void *)(s) == (void *)mpipriv2_.statuses_ignore)

/* A NUL-terminated copy of a blank-padded Fortran string (trailing blanks dropped); the
 * caller frees it. NULL only when out of memory. */
char *ff_str_in(const char *s, size_t len);
/* Copies C string c into Fortran string f of length len, blank-padded. */
void ff_str_out(const char *c, char *f, size_t len);
/* A NULL-terminated C argv from a Fortran array of strings of length len ended by a blank
 * one (NULL, C's MPI_ARGV_NULL, for mpif.h's MPI_ARGV_NULL); free it with ff_argv_free. */
char **ff_argv_in(const char *f, size_t len);
/* The n strings of a Fortran CHARACTER*(len) array as a C array of n + 1 (NULL-ended; free it
 * with ff_argv_free; n < 0 counts as 0). */
char **ff_strings_in(const char *f, size_t len, MPI_Fint n);
void ff_argv_free(char **argv);
/* LOGICAL arrays to int arrays and back (n elements); the caller frees the copy. */
int *ff_logicals_in(const MPI_Fint *f, MPI_Fint n);
void ff_logicals_out(const int *c, MPI_Fint *f, MPI_Fint n);
/* Indices into an array argument, counted from 1 in Fortran: *f = c + 1 when the call set c
 * (c >= 0), c (MPI_UNDEFINED) when it succeeded without; the first n of f (none if n is
 * MPI_UNDEFINED) shifted likewise when the call rc succeeded or failed in MPI_ERR_IN_STATUS. */
void ff_index_out(int rc, int c, MPI_Fint *f);
void ff_indices_out(int rc, MPI_Fint *f, MPI_Fint n);
/* INTEGER addresses (MPI-1 calls) widened to MPI_Aint; the caller frees the copy. */
MPI_Aint *ff_aints_in(const MPI_Fint *f, MPI_Fint n);
/* The value Fortran sees for an attribute read through C: predefined keys (integer
 * handles of the builtin kind) hold pointers to int in C (MPI_WIN_SIZE: to MPI_Aint;
 * MPI_WIN_BASE: the address itself) and plain values in Fortran. */
MPI_Aint ff_attr_out(void *c_value, MPI_Fint keyval);

/* Sets *code to the C function to give the library for Fortran procedure fn passed where the C
 * binding takes a `type` (its name in the spec, e.g. "MPI_User_function"; over the MPICH ABI only
 * the types whose C call does not suit the procedure, emit_fortran.direct_callback): a closure
 * calling fn, or NULL when fn is the Fortran marker of the type's C null procedure
 * (MPI_CONVERSION_FN_NULL). Returns 0, or -1 (*code NULL) when that callback type cannot be
 * converted or memory runs out (fcallbacks.c). */
typedef void (*ff_proc)(void);
int ff_callback(const char *type, ff_proc fn, ff_proc *code);
/* MPI_CONVERSION_FN_NULL of the Fortran faces (fsupport.c) and mpi_f08's MPI_CONVERSION_FN_NULL_C
 * (f08support.c, libmpifort only): markers, never called. */
FACE_API void mpi_conversion_fn_null_(void);
#ifndef FF_ABI
FACE_API void mpi_conversion_fn_null_c_(void);
#endif

/* Over the standard ABI: the length of a '*'-long array argument of a collective on comm, by
 * the spec's extent: its peers (the remote group of an inter-communicator, else the group),
 * its local group, or its topology's sources (in-degree) or destinations (out-degree). */
enum { FF_EXTENT_PEERS, FF_EXTENT_LOCAL, FF_EXTENT_SOURCES, FF_EXTENT_DESTINATIONS };
MPI_Fint ff_extent(MPI_Comm comm, int extent);

#ifdef FF_ABI
/* Over the standard ABI (fkept.c): memory that the operation started with `request` may read
 * until it completes (the C copies of a nonblocking or persistent collective's handle arrays).
 * ff_keep hands mem (malloc'd) over; the wrappers of the procedures that complete or free
 * requests free it when its request comes back MPI_REQUEST_NULL: ff_detach takes the records
 * of requests[0..n-1] before the call, ff_settle frees those whose request is now null and
 * keeps the others. A request completed through the C library keeps its memory for good. */
struct ff_kept;
extern int ff_kept_count; /* records kept: the inline checks below cost a load when 0 */
void ff_keep(MPI_Request request, void *mem);
struct ff_kept *ff_detach_slow(const MPI_Request *requests, MPI_Fint n);
void ff_settle_slow(struct ff_kept *detached, const MPI_Request *requests);
static inline struct ff_kept *ff_detach(const MPI_Request *requests, MPI_Fint n)
{
    return __atomic_load_n(&ff_kept_count, __ATOMIC_RELAXED) ? ff_detach_slow(requests, n) : NULL;
}
static inline void ff_settle(struct ff_kept *detached, const MPI_Request *requests)
{
    if (detached)
        ff_settle_slow(detached, requests);
}
#endif

/* Raises MPI_ERR_UNSUPPORTED_OPERATION on MPI_COMM_WORLD with a message naming the procedure
 * (upper case) and why; returns the error code. */
MPI_Fint ff_unsupported(const char *name, const char *why);

#ifndef FF_ABI
/* The C face's extra (bindings/c/handles.c): marks the callbacks of the keyval just made by a
 * Fortran *_CREATE_KEYVAL / MPI_KEYVAL_CREATE as Fortran ones (RT_CB_FORTRAN, RT_CB_FINT). */
int MPIR_Keyval_set_fortran_cb(int keyval, unsigned flags);

/* The C face's extra (bindings/c/handles.c): the thread's next attribute set/get through it
 * is of an integer of that RT_ATTR_* kind (see rt.h); RT_ATTR_PTR resets it. */
void MPIR_Attr_next_kind(int kind);
#endif

#define FF_ALIAS(target, name) extern __typeof__(target) name __attribute__((weak, alias(#target), visibility("default")));
/* mpi_x_ mpi_x__ mpi_x MPI_X and the same with PMPI, all aliases of pmpi_x_. */
#define FF_ALIASES(target, lower, upper)                                                            \
    FF_ALIAS(target, lower##_) FF_ALIAS(target, lower##__) FF_ALIAS(target, lower)                   \
    FF_ALIAS(target, upper) FF_ALIAS(target, p##lower##__) FF_ALIAS(target, p##lower)               \
    FF_ALIAS(target, P##upper)

#endif
