/* type.h — the datatype part's contract to the parts above it: reduction operations (op.c),
 * the predefined ops on the types the standard allows, user ops called through their face. */
#ifndef RT_TYPE_H
#define RT_TYPE_H

#include "rt_internal.h"

/* Checks that op may be applied to elements of type in a reduction (predefined ops: only to
 * the basic types the standard allows, also inside derived types made of one such basic type
 * or of a MINLOC/MAXLOC pair type; MPI_REPLACE and MPI_NO_OP, which are for accumulate
 * operations only, never; user ops: any type). On failure raises RT_ERR_OP on eo (NULL:
 * no object), naming fn, the op and the type, and returns the error code. */
int rt__op_check(rt_op *op, rt_type *type, rt_obj *eo, const char *fn);

/* inout[i] = in[i] op inout[i] for count elements of type, both buffers laid out as type
 * describes (the user's layout, elements `extent` apart). For a user op this calls the
 * user's function through the face that created it (invec = in, inoutvec = inout). MPI_REPLACE
 * and MPI_NO_OP apply too (for accumulate operations).
 * Assumes rt__op_check passed. Returns RT_SUCCESS or RT_ERR_NO_MEM. */
int rt__op_apply(rt_op *op, const void *in, void *inout, rt_count count, rt_type *type);

/* 1 if op is commutative (every predefined op is). */
int rt__op_commutative(const rt_op *op);

#endif
