/* fsupport.c — the Fortran face's hand-written parts: mpif.h's common blocks, string and
 * LOGICAL conversion, and the predefined callbacks Fortran names as EXTERNAL. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "fface.h"

FACE_API struct ff_priv1 mpipriv1_;
FACE_API struct ff_priv2 mpipriv2_;
FACE_API struct { char argvs_null[1], argv_null[1]; } mpiprivc_;
FACE_API struct ff_int_block mpifcmb5_, mpifcmb9_, mpifcmba_;

/* The length of a Fortran string without its trailing blanks. */
static size_t ff_str_in_len(const char *s, size_t len)
{
    while (len > 0 && s[len - 1] == ' ')
        len--;
    return len;
}

char *ff_str_in(const char *s, size_t len)
{
    len = ff_str_in_len(s, len);
    char *c = malloc(len + 1);
    if (c) {
        memcpy(c, s, len);
        c[len] = '\0';
    }
    return c;
}

void ff_str_out(const char *c, char *f, size_t len)
{
    size_t n = c ? strlen(c) : 0;
    if (n > len)
        n = len;
    memcpy(f, c, n);
    memset(f + n, ' ', len - n);
}

char **ff_argv_in(const char *f, size_t len)
{
    if (f == mpiprivc_.argv_null)  /* a NUL, no blank: it would be read past */
        return NULL;
    size_t n = 0;
    while (ff_str_in_len(f + n * len, len) > 0)
        n++;
    char **argv = calloc(n + 1, sizeof *argv);
    for (size_t i = 0; argv && i < n; i++)
        argv[i] = ff_str_in(f + i * len, len);
    return argv;
}

char **ff_strings_in(const char *f, size_t len, MPI_Fint n)
{
    size_t count = n > 0 ? (size_t)n : 0;
    char **strs = calloc(count + 1, sizeof *strs);
    for (size_t i = 0; strs && i < count; i++)
        strs[i] = ff_str_in(f + i * len, len);
    return strs;
}

void ff_argv_free(char **argv)
{
    for (size_t i = 0; argv && argv[i]; i++)
        free(argv[i]);
    free(argv);
}

int *ff_logicals_in(const MPI_Fint *f, MPI_Fint n)
{
    int *c = malloc(sizeof *c * (size_t)(n > 0 ? n : 1));
    for (MPI_Fint i = 0; c && i < n; i++)
        c[i] = f[i] != 0;
    return c;
}

void ff_logicals_out(const int *c, MPI_Fint *f, MPI_Fint n)
{
    for (MPI_Fint i = 0; c && i < n; i++)
        f[i] = c[i] ? 1 : 0;
}

void ff_index_out(int rc, int c, MPI_Fint *f)
{
    if (c >= 0)
        *f = c + 1;
    else if (rc == MPI_SUCCESS)
        *f = c;
}

void ff_indices_out(int rc, MPI_Fint *f, MPI_Fint n)
{
    int cls = MPI_SUCCESS;
    if (rc != MPI_SUCCESS && (PMPI_Error_class(rc, &cls) != MPI_SUCCESS || cls != MPI_ERR_IN_STATUS))
        return;
    for (MPI_Fint i = 0; i < n; i++)
        if (f[i] >= 0)
            f[i] += 1;
}

MPI_Aint *ff_aints_in(const MPI_Fint *f, MPI_Fint n)
{
    MPI_Aint *c = malloc(sizeof *c * (size_t)(n > 0 ? n : 1));
    for (MPI_Fint i = 0; c && i < n; i++)
        c[i] = f[i];
    return c;
}

#ifdef FF_ABI
MPI_Aint ff_attr_out(void *c_value, MPI_Fint keyval)
{
    if (keyval == MPI_WIN_BASE) /* C gets the address itself */
        return (MPI_Aint)c_value;
    if (keyval == MPI_WIN_SIZE) /* C gets a pointer to MPI_Aint */
        return c_value ? *(MPI_Aint *)c_value : 0;
    switch (keyval) { /* the other predefined attributes: C gets a pointer to int */
    case MPI_TAG_UB: case MPI_HOST: case MPI_IO: case MPI_WTIME_IS_GLOBAL: case MPI_APPNUM:
    case MPI_LASTUSEDCODE: case MPI_UNIVERSE_SIZE: case MPI_WIN_DISP_UNIT: case MPI_WIN_CREATE_FLAVOR:
    case MPI_WIN_MODEL:
        return c_value ? *(int *)c_value : 0;
    }
    return (MPI_Aint)c_value;
}

MPI_Fint ff_extent(MPI_Comm comm, int extent)
{
    int n = 0, inter = 0, topo = MPI_UNDEFINED, me = 0, in = 0, out = 0, weighted = 0;
    if (extent == FF_EXTENT_PEERS || extent == FF_EXTENT_LOCAL) {
        if (extent == FF_EXTENT_PEERS)
            PMPI_Comm_test_inter(comm, &inter);
        (inter ? PMPI_Comm_remote_size : PMPI_Comm_size)(comm, &n);
        return n;
    }
    PMPI_Topo_test(comm, &topo);
    if (topo == MPI_CART) { /* two neighbours per dimension, both ways */
        PMPI_Cartdim_get(comm, &n);
        return 2 * n;
    }
    if (topo == MPI_GRAPH) {
        PMPI_Comm_rank(comm, &me);
        PMPI_Graph_neighbors_count(comm, me, &n);
        return n;
    }
    if (topo == MPI_DIST_GRAPH) {
        PMPI_Dist_graph_neighbors_count(comm, &in, &out, &weighted);
        return extent == FF_EXTENT_SOURCES ? in : out;
    }
    return 0; /* no topology: the call fails, reading no element */
}

/* ff_unsupported's codes, one per procedure (threads over a foreign MPI share it without any
 * library lock): read and added under ff_made_lock, a leaf (the code is made outside it, as
 * PMPI_Add_error_code takes the library's lock, which a callback calling MPI already holds). */
static struct { const char *name; int code; } ff_made[64];
static int ff_nmade;
static pthread_mutex_t ff_made_lock = PTHREAD_MUTEX_INITIALIZER;

/* The code kept for name, or 0 (none yet; MPI_ERR_UNSUPPORTED_OPERATION if the table is full). */
static int ff_made_find(const char *name)
{
    int code = 0;
    pthread_mutex_lock(&ff_made_lock);
    for (int i = 0; i < ff_nmade && !code; i++)
        if (ff_made[i].name == name)
            code = ff_made[i].code;
    if (!code && ff_nmade == 64)
        code = MPI_ERR_UNSUPPORTED_OPERATION;
    pthread_mutex_unlock(&ff_made_lock);
    return code;
}

/* Keeps code for name unless another thread kept one first (then returns that one). */
static int ff_made_keep(const char *name, int code)
{
    pthread_mutex_lock(&ff_made_lock);
    int i = 0;
    while (i < ff_nmade && ff_made[i].name != name)
        i++;
    if (i < ff_nmade)
        code = ff_made[i].code;
    else if (ff_nmade < 64) {
        ff_made[ff_nmade].name = name;
        ff_made[ff_nmade++].code = code;
    }
    pthread_mutex_unlock(&ff_made_lock);
    return code;
}

MPI_Fint ff_unsupported(const char *name, const char *why)
{
    int code = ff_made_find(name);
    if (!code) {
        /* two threads at once each make one; the first kept wins, the other stays unused */
        if (PMPI_Add_error_code(MPI_ERR_UNSUPPORTED_OPERATION, &code) == MPI_SUCCESS) {
            char text[MPI_MAX_ERROR_STRING];
            snprintf(text, sizeof text, "%s: %s", name, why);
            PMPI_Add_error_string(code, text);
            code = ff_made_keep(name, code);
        } else
            code = MPI_ERR_UNSUPPORTED_OPERATION;
    }
    PMPI_Comm_call_errhandler(MPI_COMM_WORLD, code);
    return code;
}
#else
/* libmpi's extra (bindings/c/handles.c): raises errclass on comm's error handler with the
 * message "<name>: <text>"; returns the error code. */
int MPIR_Err_raise(MPI_Comm comm, int errclass, const char *name, const char *text);

MPI_Fint ff_unsupported(const char *name, const char *why)
{
    return MPIR_Err_raise(MPI_COMM_WORLD, MPI_ERR_UNSUPPORTED_OPERATION, name, why);
}

MPI_Aint ff_attr_out(void *c_value, MPI_Fint keyval)
{
    /* mpif.h's predefined keyvals are the C ones + 1 (MPICH's numbering); C accepts both */
    if (keyval == MPI_WIN_BASE || keyval == MPI_WIN_BASE + 1) /* C gets the address itself */
        return (MPI_Aint)c_value;
    if (keyval == MPI_WIN_SIZE || keyval == MPI_WIN_SIZE + 1) /* C gets a pointer to MPI_Aint */
        return c_value ? *(MPI_Aint *)c_value : 0;
    if (((uint32_t)keyval >> 30) == 1u) /* any other predefined attribute: C gets a pointer to int */
        return c_value ? *(int *)c_value : 0;
    return (MPI_Aint)c_value;
}
#endif

/* ------------------------------------------------------------ predefined callbacks */
/* Fortran calls these by reference with INTEGER (MPI-1 names) or address-sized values
 * (MPI-2 names); registered by the Fortran face, they run as any Fortran callback. */
/* mpi.h defines the C names of these as macros; here they are Fortran symbols. */
#undef MPI_NULL_COPY_FN
#undef MPI_DUP_FN
#undef MPI_NULL_DELETE_FN
#undef MPI_COMM_NULL_COPY_FN
#undef MPI_COMM_DUP_FN
#undef MPI_COMM_NULL_DELETE_FN
#undef MPI_TYPE_NULL_COPY_FN
#undef MPI_TYPE_DUP_FN
#undef MPI_TYPE_NULL_DELETE_FN
#undef MPI_WIN_NULL_COPY_FN
#undef MPI_WIN_DUP_FN
#undef MPI_WIN_NULL_DELETE_FN
#undef MPI_CONVERSION_FN_NULL

/* The names MPICH's libmpifort exports for them: mpi_x_ mpi_x__ mpi_x MPI_X, and the PMPI ones. */
#define FF_CB_ALIASES(lower, upper)                                                                      \
    FF_ALIAS(lower##_, lower##__) FF_ALIAS(lower##_, lower) FF_ALIAS(lower##_, upper)                    \
    FF_ALIAS(lower##_, p##lower##_) FF_ALIAS(lower##_, p##lower##__) FF_ALIAS(lower##_, p##lower)        \
    FF_ALIAS(lower##_, P##upper)
#define FF_COPY_FN(lower, upper, T, DUP)                                                                 \
    FACE_API void lower##_(MPI_Fint *oldobj, MPI_Fint *keyval, T *extra_state, T *in, T *out,            \
                           MPI_Fint *flag, MPI_Fint *ierr)                                               \
    {                                                                                                    \
        (void)oldobj;                                                                                    \
        (void)keyval;                                                                                    \
        (void)extra_state;                                                                               \
        if (DUP)                                                                                         \
            *out = *in;                                                                                  \
        *flag = DUP;                                                                                     \
        *ierr = MPI_SUCCESS;                                                                             \
    }                                                                                                    \
    FF_CB_ALIASES(lower, upper)
#define FF_DELETE_FN(lower, upper, T)                                                                    \
    FACE_API void lower##_(MPI_Fint *obj, MPI_Fint *keyval, T *value, T *extra_state, MPI_Fint *ierr)    \
    {                                                                                                    \
        (void)obj;                                                                                       \
        (void)keyval;                                                                                    \
        (void)value;                                                                                     \
        (void)extra_state;                                                                               \
        *ierr = MPI_SUCCESS;                                                                             \
    }                                                                                                    \
    FF_CB_ALIASES(lower, upper)

FF_COPY_FN(mpi_null_copy_fn, MPI_NULL_COPY_FN, MPI_Fint, 0)
FF_COPY_FN(mpi_dup_fn, MPI_DUP_FN, MPI_Fint, 1)
FF_DELETE_FN(mpi_null_delete_fn, MPI_NULL_DELETE_FN, MPI_Fint)
FF_COPY_FN(mpi_comm_null_copy_fn, MPI_COMM_NULL_COPY_FN, MPI_Aint, 0)
FF_COPY_FN(mpi_comm_dup_fn, MPI_COMM_DUP_FN, MPI_Aint, 1)
FF_DELETE_FN(mpi_comm_null_delete_fn, MPI_COMM_NULL_DELETE_FN, MPI_Aint)
FF_COPY_FN(mpi_type_null_copy_fn, MPI_TYPE_NULL_COPY_FN, MPI_Aint, 0)
FF_COPY_FN(mpi_type_dup_fn, MPI_TYPE_DUP_FN, MPI_Aint, 1)
FF_DELETE_FN(mpi_type_null_delete_fn, MPI_TYPE_NULL_DELETE_FN, MPI_Aint)
FF_COPY_FN(mpi_win_null_copy_fn, MPI_WIN_NULL_COPY_FN, MPI_Aint, 0)
FF_COPY_FN(mpi_win_dup_fn, MPI_WIN_DUP_FN, MPI_Aint, 1)
FF_DELETE_FN(mpi_win_null_delete_fn, MPI_WIN_NULL_DELETE_FN, MPI_Aint)

/* MPI_CONVERSION_FN_NULL is a marker for MPI_Register_datarep: it is never called. */
FACE_API void mpi_conversion_fn_null_(void) {}
FF_ALIAS(mpi_conversion_fn_null_, mpi_conversion_fn_null__)
FF_ALIAS(mpi_conversion_fn_null_, mpi_conversion_fn_null)
FF_ALIAS(mpi_conversion_fn_null_, MPI_CONVERSION_FN_NULL)

/* MPI_F_SYNC_REG(BUF): makes the compiler treat BUF as read and written here, which is
 * all it is for; there is nothing to do at run time. */
FACE_API void pmpi_f_sync_reg_(void *buf)
{
    __asm__ __volatile__("" : : "r"(buf) : "memory");
}
FF_ALIASES(pmpi_f_sync_reg_, mpi_f_sync_reg, MPI_F_SYNC_REG)
