/* fcallbacks.c — libffi closures calling Fortran procedures given as callbacks whose C call does not
 * suit them (all over the standard ABI): C arguments to Fortran ones. Built into both Fortran faces. */
#define _GNU_SOURCE /* RTLD_DEFAULT */
#include <dlfcn.h>
#include <ffi.h>
#include <pthread.h>
#include <string.h>

#include "fface.h"

typedef void (*ff_proc)(void);
#define ARG(T, i) (*(T *)args[i])

/* MPI_User_function: F(INVEC, INOUTVEC, LEN, DATATYPE) */
static void user_fn(ffi_cif *cif, void *ret, void **args, void *f)
{
    (void)cif, (void)ret;
    MPI_Fint type = PMPI_Type_c2f(*ARG(MPI_Datatype *, 3));
    ((void (*)(void *, void *, int *, MPI_Fint *))f)(ARG(void *, 0), ARG(void *, 1), ARG(int *, 2), &type);
}

/* The error handler functions: F(OBJ, ERROR_CODE) */
#define ERRHANDLER_FN(name, T, c2f)                                                                     \
    static void name(ffi_cif *cif, void *ret, void **args, void *f)                                     \
    {                                                                                                   \
        (void)cif, (void)ret;                                                                           \
        MPI_Fint obj = c2f(*ARG(T *, 0));                                                               \
        ((void (*)(MPI_Fint *, int *))f)(&obj, ARG(int *, 1));                                          \
    }
ERRHANDLER_FN(comm_errh, MPI_Comm, PMPI_Comm_c2f)
ERRHANDLER_FN(win_errh, MPI_Win, PMPI_Win_c2f)
ERRHANDLER_FN(file_errh, MPI_File, PMPI_File_c2f)
ERRHANDLER_FN(session_errh, MPI_Session, PMPI_Session_c2f)

/* Attribute copy functions: F(OLD, KEYVAL, EXTRA_STATE, VALUE_IN, VALUE_OUT, FLAG, IERROR),
 * the values address-sized (V = MPI_Aint) or, for the MPI-1 MPI_Copy_function, INTEGER. */
#define COPY_FN(name, T, c2f, V)                                                                        \
    static void name(ffi_cif *cif, void *ret, void **args, void *f)                                     \
    {                                                                                                   \
        (void)cif;                                                                                      \
        MPI_Fint old = c2f(ARG(T, 0)), keyval = ARG(int, 1), flag = 0, ierr = MPI_SUCCESS;             \
        V extra = (V)(MPI_Aint)ARG(void *, 2), in = (V)(MPI_Aint)ARG(void *, 3), out = 0;              \
        ((void (*)(MPI_Fint *, MPI_Fint *, V *, V *, V *, MPI_Fint *, MPI_Fint *))f)(                   \
            &old, &keyval, &extra, &in, &out, &flag, &ierr);                                            \
        *(void **)ARG(void *, 4) = (void *)(MPI_Aint)out;                                               \
        *ARG(int *, 5) = flag != 0;                                                                     \
        *(ffi_arg *)ret = (ffi_arg)ierr;                                                                \
    }
COPY_FN(comm_copy, MPI_Comm, PMPI_Comm_c2f, MPI_Aint)
COPY_FN(type_copy, MPI_Datatype, PMPI_Type_c2f, MPI_Aint)
COPY_FN(win_copy, MPI_Win, PMPI_Win_c2f, MPI_Aint)
COPY_FN(legacy_copy, MPI_Comm, PMPI_Comm_c2f, MPI_Fint)

/* Attribute delete functions: F(OBJ, KEYVAL, VALUE, EXTRA_STATE, IERROR) */
#define DELETE_FN(name, T, c2f, V)                                                                      \
    static void name(ffi_cif *cif, void *ret, void **args, void *f)                                     \
    {                                                                                                   \
        (void)cif;                                                                                      \
        MPI_Fint obj = c2f(ARG(T, 0)), keyval = ARG(int, 1), ierr = MPI_SUCCESS;                       \
        V value = (V)(MPI_Aint)ARG(void *, 2), extra = (V)(MPI_Aint)ARG(void *, 3);                     \
        ((void (*)(MPI_Fint *, MPI_Fint *, V *, V *, MPI_Fint *))f)(&obj, &keyval, &value, &extra, &ierr); \
        *(ffi_arg *)ret = (ffi_arg)ierr;                                                                \
    }
DELETE_FN(comm_delete, MPI_Comm, PMPI_Comm_c2f, MPI_Aint)
DELETE_FN(type_delete, MPI_Datatype, PMPI_Type_c2f, MPI_Aint)
DELETE_FN(win_delete, MPI_Win, PMPI_Win_c2f, MPI_Aint)
DELETE_FN(legacy_delete, MPI_Comm, PMPI_Comm_c2f, MPI_Fint)

/* Generalized requests: QUERY(EXTRA_STATE, STATUS, IERROR), FREE(EXTRA_STATE, IERROR),
 * CANCEL(EXTRA_STATE, COMPLETE, IERROR); a Fortran status is the ABI's MPI_Status. */
static void greq_query(ffi_cif *cif, void *ret, void **args, void *f)
{
    (void)cif;
    MPI_Aint extra = (MPI_Aint)ARG(void *, 0);
    MPI_Fint ierr = MPI_SUCCESS;
    ((void (*)(MPI_Aint *, MPI_Status *, MPI_Fint *))f)(&extra, ARG(MPI_Status *, 1), &ierr);
    *(ffi_arg *)ret = (ffi_arg)ierr;
}

static void greq_free(ffi_cif *cif, void *ret, void **args, void *f)
{
    (void)cif;
    MPI_Aint extra = (MPI_Aint)ARG(void *, 0);
    MPI_Fint ierr = MPI_SUCCESS;
    ((void (*)(MPI_Aint *, MPI_Fint *))f)(&extra, &ierr);
    *(ffi_arg *)ret = (ffi_arg)ierr;
}

static void greq_cancel(ffi_cif *cif, void *ret, void **args, void *f)
{
    (void)cif;
    MPI_Aint extra = (MPI_Aint)ARG(void *, 0);
    MPI_Fint complete = ARG(int, 1) != 0, ierr = MPI_SUCCESS;
    ((void (*)(MPI_Aint *, MPI_Fint *, MPI_Fint *))f)(&extra, &complete, &ierr);
    *(ffi_arg *)ret = (ffi_arg)ierr;
}

/* Data representations: CONVERSION(USERBUF, DATATYPE, COUNT, FILEBUF, POSITION, EXTRA_STATE,
 * IERROR), POSITION an INTEGER(MPI_OFFSET_KIND), COUNT an INTEGER (N = MPI_Fint) or, for the
 * large-count MPI_Datarep_conversion_function_c of mpi_f08, an INTEGER(MPI_COUNT_KIND);
 * EXTENT(DATATYPE, EXTENT, EXTRA_STATE, IERROR). */
#define CONVERSION_FN(name, N, CN)                                                                      \
    static void name(ffi_cif *cif, void *ret, void **args, void *f)                                     \
    {                                                                                                   \
        (void)cif;                                                                                      \
        MPI_Fint type = PMPI_Type_c2f(ARG(MPI_Datatype, 1)), ierr = MPI_SUCCESS;                       \
        N count = (N)ARG(CN, 2);                                                                        \
        MPI_Offset position = ARG(MPI_Offset, 4);                                                       \
        MPI_Aint extra = (MPI_Aint)ARG(void *, 5);                                                      \
        ((void (*)(void *, MPI_Fint *, N *, void *, MPI_Offset *, MPI_Aint *, MPI_Fint *))f)(           \
            ARG(void *, 0), &type, &count, ARG(void *, 3), &position, &extra, &ierr);                   \
        *(ffi_arg *)ret = (ffi_arg)ierr;                                                                \
    }
CONVERSION_FN(datarep_conversion, MPI_Fint, int)
CONVERSION_FN(datarep_conversion_c, MPI_Count, MPI_Count)

static void datarep_extent(ffi_cif *cif, void *ret, void **args, void *f)
{
    (void)cif;
    MPI_Fint type = PMPI_Type_c2f(ARG(MPI_Datatype, 0)), ierr = MPI_SUCCESS;
    MPI_Aint extra = (MPI_Aint)ARG(void *, 2);
    ((void (*)(MPI_Fint *, MPI_Aint *, MPI_Aint *, MPI_Fint *))f)(&type, ARG(MPI_Aint *, 1), &extra, &ierr);
    *(ffi_arg *)ret = (ffi_arg)ierr;
}

/* The C signature of each callback type and its handler. Argument types: a pointer (P), a
 * handle by value (H: a pointer over the standard ABI, an int over MPICH's; never a file), an
 * int (I), a 64-bit integer (O: MPI_Offset, MPI_Count). */
enum { P = 1, H, I, O };
_Static_assert(sizeof(MPI_Offset) == 8 && sizeof(MPI_Count) == 8, "O arguments are 64-bit");
static const struct kind {
    const char *type;
    void (*handler)(ffi_cif *, void *, void **, void *);
    int ret_int, nargs;
    unsigned char args[6];
} kinds[] = {
    {"MPI_User_function", user_fn, 0, 4, {P, P, P, P}},
    {"MPI_Comm_errhandler_function", comm_errh, 0, 2, {P, P}},
    {"MPI_Handler_function", comm_errh, 0, 2, {P, P}},
    {"MPI_Win_errhandler_function", win_errh, 0, 2, {P, P}},
    {"MPI_File_errhandler_function", file_errh, 0, 2, {P, P}},
    {"MPI_Session_errhandler_function", session_errh, 0, 2, {P, P}},
    {"MPI_Comm_copy_attr_function", comm_copy, 1, 6, {H, I, P, P, P, P}},
    {"MPI_Type_copy_attr_function", type_copy, 1, 6, {H, I, P, P, P, P}},
    {"MPI_Win_copy_attr_function", win_copy, 1, 6, {H, I, P, P, P, P}},
    {"MPI_Copy_function", legacy_copy, 1, 6, {H, I, P, P, P, P}},
    {"MPI_Comm_delete_attr_function", comm_delete, 1, 4, {H, I, P, P}},
    {"MPI_Type_delete_attr_function", type_delete, 1, 4, {H, I, P, P}},
    {"MPI_Win_delete_attr_function", win_delete, 1, 4, {H, I, P, P}},
    {"MPI_Delete_function", legacy_delete, 1, 4, {H, I, P, P}},
    {"MPI_Grequest_query_function", greq_query, 1, 2, {P, P}},
    {"MPI_Grequest_free_function", greq_free, 1, 1, {P}},
    {"MPI_Grequest_cancel_function", greq_cancel, 1, 2, {P, I}},
    {"MPI_Datarep_conversion_function", datarep_conversion, 1, 6, {P, H, I, P, O, P}},
    {"MPI_Datarep_conversion_function_c", datarep_conversion_c, 1, 6, {P, H, O, P, O, P}},
    {"MPI_Datarep_extent_function", datarep_extent, 1, 3, {H, P, P}},
};
enum { NKINDS = sizeof kinds / sizeof kinds[0] };

/* The Fortran marker procedures that stand for a callback type's C null procedure: the library
 * gets NULL for them, never a closure. `module` names the same marker in MPICH's mpi_f08 module
 * (libmpichfort.so.12's mpi_f08_callbacks: what programs built by MPICH's mpifort pass), looked
 * up where it is loaded. */
static const struct {
    const char *type;
    ff_proc marker;
    const char *module;
} nulls[] = {
    {"MPI_Datarep_conversion_function", mpi_conversion_fn_null_, "__mpi_f08_callbacks_MOD_mpi_conversion_fn_null"},
#ifndef FF_ABI /* the standard-ABI library has no mpi_f08 */
    {"MPI_Datarep_conversion_function_c", mpi_conversion_fn_null_c_,
     "__mpi_f08_callbacks_MOD_mpi_conversion_fn_null_c"},
#endif
};

/* Whether fn is the marker of type's null procedure. */
static int is_null_marker(const char *type, ff_proc fn)
{
    for (size_t i = 0; i < sizeof nulls / sizeof nulls[0]; i++)
        if (strcmp(nulls[i].type, type) == 0 &&
            (fn == nulls[i].marker || (void *)fn == dlsym(RTLD_DEFAULT, nulls[i].module)))
            return 1;
    return 0;
}

/* One closure per (kind, Fortran procedure), made on first use and never freed: the library
 * may call it for as long as any object made with it lives. */
struct closure {
    struct closure *next;
    int kind;
    ff_proc fn, code;
};
static struct closure *closures;
static ffi_cif cifs[NKINDS];
static ffi_type *cif_args[NKINDS][6];
static int cif_ready[NKINDS];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static ff_proc make(int k, ff_proc fn)
{
    if (!cif_ready[k]) {
        for (int i = 0; i < kinds[k].nargs; i++)
            cif_args[k][i] = kinds[k].args[i] == I   ? &ffi_type_sint
                             : kinds[k].args[i] == O ? &ffi_type_sint64
                             : kinds[k].args[i] == H && sizeof(MPI_Datatype) == sizeof(int) ? &ffi_type_sint
                                                     : &ffi_type_pointer;
        if (ffi_prep_cif(&cifs[k], FFI_DEFAULT_ABI, (unsigned)kinds[k].nargs,
                         kinds[k].ret_int ? &ffi_type_sint : &ffi_type_void, cif_args[k]) != FFI_OK)
            return NULL;
        cif_ready[k] = 1;
    }
    void *entry = NULL;
    ffi_closure *cl = ffi_closure_alloc(sizeof(ffi_closure), &entry);
    struct closure *c = malloc(sizeof *c);
    if (!cl || !c || ffi_prep_closure_loc(cl, &cifs[k], kinds[k].handler, (void *)fn, entry) != FFI_OK) {
        if (cl)
            ffi_closure_free(cl);
        free(c);
        return NULL;
    }
    *c = (struct closure){closures, k, fn, (ff_proc)entry};
    closures = c;
    return c->code;
}

int ff_callback(const char *type, ff_proc fn, ff_proc *out)
{
    int k = 0;
    while (k < NKINDS && strcmp(kinds[k].type, type) != 0)
        k++;
    *out = NULL;
    if (k == NKINDS || !fn)
        return -1;
    if (is_null_marker(type, fn))
        return 0;
    ff_proc code = NULL;
    pthread_mutex_lock(&lock);
    for (struct closure *c = closures; c && !code; c = c->next)
        if (c->kind == k && c->fn == fn)
            code = c->code;
    if (!code)
        code = make(k, fn);
    pthread_mutex_unlock(&lock);
    *out = code;
    return code ? 0 : -1;
}
