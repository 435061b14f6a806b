/* rt_internal.h — what every part of runtime/core above the first two needs: objects
 * (obj/obj.h) and errors (err/err.h). Each part's own contract is PART/PART.h. */
#ifndef RT_INTERNAL_H
#define RT_INTERNAL_H

#include "obj/obj.h"
#include "err/err.h"

#endif
