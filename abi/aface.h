/* aface.h — internal header of the MPI-5.0 standard-ABI face: handles are the standard's
 * small integers for predefined objects and runtime object addresses for user objects. */
#ifndef AFACE_H
#define AFACE_H

#include <ffi.h>

#include "face_support.h"
#include "mpi.h"
#include "mpi_legacy.h"
#include "rt.h"

/* Predefined handles are below this value in the standard ABI; user objects never are. */
#define AF_PREDEFINED_LIMIT 1024

extern const rt_face af_face;

/* Set (once, when the library loads) when SWITCHYARD_ABI_BACKEND names a foreign library: every
 * generated entry point then forwards to afbm_<Name>() (MPICH's ABI) or afbo_<Name>() (Open MPI's),
 * backend.c and build/gen/abi/backend_<name>.c. */
enum { AF_BACKEND_NONE, AF_BACKEND_MPICH, AF_BACKEND_OPENMPI };
extern int af_backend;
/* The code address of a libffi closure that calls handler(cif, ret, args, fn) (backend_closure.c):
 * the same one for the same cif and fn; NULL if fn is NULL or memory is short. */
void (*afb_closure(ffi_cif *cif, void (*handler)(ffi_cif *, void *, void **, void *), void (*fn)(void)))(void);
/* The backend library's path and SWITCHYARD_ABI_BACKEND's value (backend.c). */
extern const char *afb_lib_path, *afb_lib_choice;
/* Open MPI loaded as lib: its plugins that call MPI by name (mca_osc_pt2pt.so: PMPI_Op_f2c)
 * are loaded now, bound to it, before it loads them (backend_components.c). */
void afb_bind_components(void *lib);
/* A user handle of class T ("Comm", "Type", ...) to an int and back through the backend's own
 * MPI_<T>_c2f / _f2c, offset past the standard's predefined values (backend.c). */
int afb_c2f(const char *T, void *h);
void *afb_f2c(const char *T, int v);

/* Persistent requests over a backend (backend_preq.c): the shim records which ones are active,
 * from the spec's request effects (generated calls after the backend's *_init, MPI_Start*,
 * completion and MPI_Request_free calls), since a backend's MPI_Request_get_status says of an
 * inactive one what it says of a complete one. afb_preq_any(): some are recorded (the fast path
 * of the completion calls when none is). */
extern int afb_preq_live;
static inline int afb_preq_any(void) { return __atomic_load_n(&afb_preq_live, __ATOMIC_RELAXED) != 0; }
void afb_preq_new(MPI_Request r);                                      /* made, inactive */
void afb_preq_forget(MPI_Request r);                                   /* freed */
void afb_preq_start(const MPI_Request *r, int n);                      /* the recorded ones: active */
/* r[0..n) completed (inactive), but those whose st[i].MPI_ERROR is MPI_ERR_PENDING (st: NULL, none) */
void afb_preq_done(const MPI_Request *r, int n, const MPI_Status *st);
void afb_preq_done_at(const MPI_Request *r, const int *idx, int n);    /* r[idx[0..n)] completed */
int afb_preq_inactive(MPI_Request r);  /* a recorded persistent request that is not active */

/* Generated (build/gen/abi/tables.c): predefined handle values <-> rt_builtin_id. */
/* af_builtin_id(v): handles other than keyvals; -1 if none (inline, conv.h) */
int af_builtin_keyval_id(intptr_t v); /* predefined keyvals (attribute keys); -1 if none */
extern const intptr_t af_builtin_value[RT_NBUILTINS];
extern const intptr_t af_null_value[RT_CLASS_COUNT];

/* Decodes handle h of runtime class cls: FS_DEC_OK with *out set, FS_DEC_NULL, or why not. */
int af_decode(intptr_t h, int cls, rt_obj **out);
/* The face's handle for o (NULL: the class's null handle). */
intptr_t af_encode(const rt_obj *o, int cls);
int af_bad_handle(rt_obj *eo, const char *fn, const char *arg, intptr_t h, int cls, int status, int errcls);
#define af_array_alloc(p, n, eo, fn) fs_array_alloc((p), (long)(n), (eo), (fn))
#define af_check_rank fs_check_rank
#define af_check_win_rank fs_check_win_rank
#define af_check_tag fs_check_tag

static inline void *af_buffer_in(const void *p)
{
    if (p == MPI_IN_PLACE)
        return RT_IN_PLACE;
    if (p == MPI_BUFFER_AUTOMATIC)
        return RT_BUFFER_AUTOMATIC;
    return (void *)p;
}

/* A buffer address the runtime hands back (a detached buffer's): its sentinels become the face's. */
static inline void *af_buffer_out(void *p)
{
    if (p == RT_IN_PLACE)
        return MPI_IN_PLACE;
    if (p == RT_BUFFER_AUTOMATIC)
        return MPI_BUFFER_AUTOMATIC;
    return p;
}

/* MPI_UNWEIGHTED / MPI_WEIGHTS_EMPTY are (int *)10 and 11, as the runtime's. */
#define af_weights_in(w) ((int *)(w))

/* MPI_STATUS_IGNORE is NULL in the standard ABI. */
#define af_status_ignored(s) ((s) == MPI_STATUS_IGNORE)
#define af_statuses_ignored(s) ((s) == MPI_STATUSES_IGNORE)
/* Face status <-> runtime status. status_in reads MPI_ERROR and status_out writes it only when
 * with_error is set: MPI-5.0 3.2.5, only a multiple-completion call that returns
 * MPI_ERR_IN_STATUS updates it, and MPI_Status_get_error/set_error (spec: status_error) read or
 * set it; every other call leaves it as it was, even unset or holding no error code, but for
 * the empty status of a null or inactive request (r->empty), whose error is MPI_SUCCESS
 * (MPI-5.0 3.7.3). */
void af_status_in(const MPI_Status *s, rt_status *r, int with_error);
void af_status_out(const rt_status *r, MPI_Status *s, int with_error);

/* The integer (Fortran) handle of a standard-ABI handle, and back: predefined handles keep
 * their standard values, user objects get their MPICH-style integer. */
int af_to_int(intptr_t h, int cls);
intptr_t af_from_int(int v, int cls);

#endif
