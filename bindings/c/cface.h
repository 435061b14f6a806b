/* cface.h — internal header of the C face with the MPICH ABI: integer handles in MPICH's
 * encoding, MPICH's MPI_Status layout, and the helpers the generated entry points call. */
#ifndef CFACE_H
#define CFACE_H

#include "face_support.h"
#include "mpi.h"
#include "rt.h"

/* MPICH handle encoding: bits 30-31 kind (user objects: see fs_user_int_handle). */
#define CF_KIND_INDIRECT 3u

extern const rt_face cf_face;

/* Generated (build/gen/c/tables.c): predefined handle values <-> rt_builtin_id. */
/* cf_builtin_id(v): handles other than keyvals; -1 if none (inline, conv.h) */
int cf_builtin_keyval_id(intptr_t v); /* predefined keyvals (attribute keys); -1 if none */
extern const intptr_t cf_builtin_value[RT_NBUILTINS];
extern const intptr_t cf_null_value[RT_CLASS_COUNT];

/* Decodes face handle h of runtime class cls: FS_DEC_OK with *out set (a predefined or
 * live user object), FS_DEC_NULL for the class's null handle, or why it is not valid. */
int cf_decode(intptr_t h, int cls, rt_obj **out);
/* The face's handle for o (NULL: the class's null handle). */
intptr_t cf_encode(const rt_obj *o, int cls);
/* The runtime class a handle value claims to be (RT_CLASS_NONE if none): for messages. */
int cf_class_of(intptr_t h);

int cf_bad_handle(rt_obj *eo, const char *fn, const char *arg, intptr_t h, int cls, int status, int errcls);
#define cf_array_alloc(p, n, eo, fn) fs_array_alloc((p), (long)(n), (eo), (fn))
#define cf_check_rank fs_check_rank
#define cf_check_win_rank fs_check_win_rank
#define cf_check_tag fs_check_tag

/* MPI_BOTTOM, MPI_IN_PLACE and MPI_BUFFER_AUTOMATIC have the runtime's values in this ABI. */
#define cf_buffer_in(p) (p)
#define cf_buffer_out(p) (p)

/* MPI_UNWEIGHTED / MPI_WEIGHTS_EMPTY are exported objects in this ABI. */
static inline int *cf_weights_in(const int *w)
{
    if (w == MPI_UNWEIGHTED)
        return RT_UNWEIGHTED;
    if (w == MPI_WEIGHTS_EMPTY)
        return RT_WEIGHTS_EMPTY;
    return (int *)w;
}

#define cf_status_ignored(s) ((s) == MPI_STATUS_IGNORE)
#define cf_statuses_ignored(s) ((s) == MPI_STATUSES_IGNORE)
/* Face status <-> runtime status. status_in reads MPI_ERROR and status_out writes it only when
 * with_error is set: MPI-5.0 3.2.5, only a multiple-completion call that returns
 * MPI_ERR_IN_STATUS updates it, and MPI_Status_get_error/set_error (spec: status_error) read or
 * set it; every other call leaves it as it was, even unset or holding no error code, but for
 * the empty status of a null or inactive request (r->empty), whose error is MPI_SUCCESS
 * (MPI-5.0 3.7.3). */
void cf_status_in(const MPI_Status *s, rt_status *r, int with_error);
void cf_status_out(const rt_status *r, MPI_Status *s, int with_error);

#endif
