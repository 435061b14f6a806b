/* backend_emu.c — MPI-4.1 procedures a standard-ABI backend may lack (MPICH 4.0.2 and Open MPI
 * 4.1.4 lack all of these), emulated where the emulation is exact: afb_hand_<Name> is called by
 * the generated forwarding function (build/gen/abi/backend_<name>.c) when dlsym finds no
 * PMPI_<Name> in the backend. They are written with the standard ABI's own PMPI_ calls, which
 * forward to the backend, so one emulation serves every backend (and a profiling library's
 * MPI_ wrappers never see them). Procedures with no exact emulation have none here and stay
 * MPI_ERR_UNSUPPORTED_OPERATION naming the procedure and the library:
 *  - MPI_Remove_error_class/_code/_string, the buffer calls of MPI-4.1 (MPI_Comm_attach_buffer,
 *    MPI_Buffer_flush, ...), MPI_Get_hw_resource_info: the backend has nothing to build them on. */
#include "aface.h"
#include "afb_procs.h"

/* An error of class cls in an emulated procedure: through the backend's MPI_COMM_WORLD handler
 * once MPI_Init has run (before it, or after MPI_Finalize, the class alone, as the backends do). */
static int emu_error(int cls)
{
    int init = 0, fin = 0;
    PMPI_Initialized(&init);
    PMPI_Finalized(&fin);
    if (init && !fin)
        PMPI_Comm_call_errhandler(MPI_COMM_WORLD, cls);
    return cls;
}

/* MPI_Status_get/set_source, _tag, _error: the standard's status has these three fields. */
int afb_hand_Status_get_source(const MPI_Status *status, int *source)
{
    if (!status || !source)
        return emu_error(MPI_ERR_ARG);
    *source = status->MPI_SOURCE;
    return MPI_SUCCESS;
}

int afb_hand_Status_get_tag(const MPI_Status *status, int *tag)
{
    if (!status || !tag)
        return emu_error(MPI_ERR_ARG);
    *tag = status->MPI_TAG;
    return MPI_SUCCESS;
}

int afb_hand_Status_get_error(const MPI_Status *status, int *error)
{
    if (!status || !error)
        return emu_error(MPI_ERR_ARG);
    *error = status->MPI_ERROR;
    return MPI_SUCCESS;
}

int afb_hand_Status_set_source(MPI_Status *status, int source)
{
    if (!status)
        return emu_error(MPI_ERR_ARG);
    status->MPI_SOURCE = source;
    return MPI_SUCCESS;
}

int afb_hand_Status_set_tag(MPI_Status *status, int tag)
{
    if (!status)
        return emu_error(MPI_ERR_ARG);
    status->MPI_TAG = tag;
    return MPI_SUCCESS;
}

int afb_hand_Status_set_error(MPI_Status *status, int error)
{
    if (!status)
        return emu_error(MPI_ERR_ARG);
    status->MPI_ERROR = error;
    return MPI_SUCCESS;
}

/* MPI_Request_get_status_all: flag is true when every request is complete, null or inactive
 * (MPI_Request_get_status gives each an empty status, as MPI_Testall would); only then are the
 * statuses written, none of the requests freed. A request once complete stays complete until
 * it is waited for, so the requests seen complete one after the other are all complete at the
 * end: the answer is the one a single look would give. */
int afb_hand_Request_get_status_all(int count, const MPI_Request array_of_requests[], int *flag,
                                    MPI_Status array_of_statuses[])
{
    int rc, f = 0;

    if (count < 0)
        return emu_error(MPI_ERR_COUNT);
    if ((count > 0 && !array_of_requests) || !flag)
        return emu_error(MPI_ERR_ARG);
    *flag = 0;
    for (int i = 0; i < count; i++) {
        if ((rc = PMPI_Request_get_status(array_of_requests[i], &f, MPI_STATUS_IGNORE)) != MPI_SUCCESS)
            return rc;
        if (!f)
            return MPI_SUCCESS;
    }
    for (int i = 0; array_of_statuses != MPI_STATUSES_IGNORE && i < count; i++)
        if ((rc = PMPI_Request_get_status(array_of_requests[i], &f, &array_of_statuses[i])) != MPI_SUCCESS)
            return rc;
    *flag = 1;
    return MPI_SUCCESS;
}

/* An empty status (MPI_ANY_SOURCE, MPI_ANY_TAG, count 0), as the backend makes one. */
static int empty_status(MPI_Status *st)
{
    int f = 0;
    return st == MPI_STATUS_IGNORE ? MPI_SUCCESS : PMPI_Request_get_status(MPI_REQUEST_NULL, &f, st);
}

/* The requests MPI_Request_get_status_any/_some look at: not null, and not a persistent request
 * the shim knows inactive (backend_preq.c: the backend says of it what it says of a complete
 * request with an empty status). */
static int active(MPI_Request r)
{
    return r != MPI_REQUEST_NULL && !afb_preq_inactive(r);
}

/* MPI_Request_get_status_any: the first active request that is complete (index, flag true, its
 * status), else flag false and index MPI_UNDEFINED; with no active request flag true, index
 * MPI_UNDEFINED and an empty status. No request is completed or freed. */
int afb_hand_Request_get_status_any(int count, const MPI_Request array_of_requests[], int *index, int *flag,
                                    MPI_Status *status)
{
    int rc, f = 0, any = 0;

    if (count < 0)
        return emu_error(MPI_ERR_COUNT);
    if ((count > 0 && !array_of_requests) || !index || !flag)
        return emu_error(MPI_ERR_ARG);
    *flag = 0;
    *index = MPI_UNDEFINED;
    for (int i = 0; i < count; i++) {
        if (!active(array_of_requests[i]))
            continue;
        any = 1;
        if ((rc = PMPI_Request_get_status(array_of_requests[i], &f, status)) != MPI_SUCCESS)
            return rc;
        if (f) {
            *flag = 1;
            *index = i;
            return MPI_SUCCESS;
        }
    }
    if (any)
        return MPI_SUCCESS;
    *flag = 1;
    return empty_status(status);
}

/* MPI_Request_get_status_some: the indices and statuses of the active requests that are complete
 * (outcount 0 if none is), outcount MPI_UNDEFINED when no request is active. */
int afb_hand_Request_get_status_some(int incount, const MPI_Request array_of_requests[], int *outcount,
                                     int array_of_indices[], MPI_Status array_of_statuses[])
{
    int rc, f = 0, any = 0, n = 0;

    if (incount < 0)
        return emu_error(MPI_ERR_COUNT);
    if ((incount > 0 && (!array_of_requests || !array_of_indices)) || !outcount)
        return emu_error(MPI_ERR_ARG);
    for (int i = 0; i < incount; i++) {
        if (!active(array_of_requests[i]))
            continue;
        any = 1;
        MPI_Status *st = array_of_statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &array_of_statuses[n];
        if ((rc = PMPI_Request_get_status(array_of_requests[i], &f, st)) != MPI_SUCCESS)
            return rc;
        if (f)
            array_of_indices[n++] = i;
    }
    *outcount = any ? n : MPI_UNDEFINED;
    return MPI_SUCCESS;
}

/* MPI_Type_get_value_index: the predefined value-index pair type (MPI_MINLOC/MAXLOC) of two
 * predefined types, MPI_DATATYPE_NULL for any other pair (derived types too, even duplicates of
 * predefined ones). Both types are first checked by the backend (MPI_Type_get_envelope). */
int afb_hand_Type_get_value_index(MPI_Datatype value_type, MPI_Datatype index_type, MPI_Datatype *pair_type)
{
    static const struct { MPI_Datatype value, index, pair; } pairs[] = {
        {MPI_FLOAT, MPI_INT, MPI_FLOAT_INT}, {MPI_DOUBLE, MPI_INT, MPI_DOUBLE_INT},
        {MPI_LONG, MPI_INT, MPI_LONG_INT}, {MPI_SHORT, MPI_INT, MPI_SHORT_INT},
        {MPI_LONG_DOUBLE, MPI_INT, MPI_LONG_DOUBLE_INT}, {MPI_INT, MPI_INT, MPI_2INT},
        {MPI_REAL, MPI_REAL, MPI_2REAL}, {MPI_DOUBLE_PRECISION, MPI_DOUBLE_PRECISION, MPI_2DOUBLE_PRECISION},
        {MPI_INTEGER, MPI_INTEGER, MPI_2INTEGER},
    };
    int ni, na, nd, combiner, rc;

    if (value_type == MPI_DATATYPE_NULL || index_type == MPI_DATATYPE_NULL)
        return emu_error(MPI_ERR_TYPE);
    if (!pair_type)
        return emu_error(MPI_ERR_ARG);
    if ((rc = PMPI_Type_get_envelope(value_type, &ni, &na, &nd, &combiner)) != MPI_SUCCESS ||
        (rc = PMPI_Type_get_envelope(index_type, &ni, &na, &nd, &combiner)) != MPI_SUCCESS)
        return rc;
    *pair_type = MPI_DATATYPE_NULL;
    for (size_t i = 0; i < sizeof pairs / sizeof *pairs; i++)
        if (value_type == pairs[i].value && index_type == pairs[i].index)
            *pair_type = pairs[i].pair;
    return MPI_SUCCESS;
}
