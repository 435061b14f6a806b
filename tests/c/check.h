/* check.h: tiny assertion helpers shared by the C tests.
 * A failed check prints file:line and a message to stderr and exits 1. */
#ifndef CHECK_H
#define CHECK_H

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Checks of Switchyard's own choices (error texts, ...) that other MPIs,
 * such as the MPICH these tests are also run against, make differently.
 * Built for the standard ABI, a program may run on another MPI through the
 * shim (SWITCHYARD_ABI_BACKEND): the library's version string tells. */
#if defined(MPI_ABI_VERSION)
static inline int check_switchyard_(void)
{
    static int known = -1;
    if (known < 0) {
        char v[MPI_MAX_LIBRARY_VERSION_STRING];
        int len = 0;
        v[0] = '\0';
        MPI_Get_library_version(v, &len);
        known = strncmp(v, "Switchyard", 10) == 0 && !strstr(v, "shim over:");
    }
    return known;
}
#define CHECK_SWITCHYARD check_switchyard_()
#elif defined(SWITCHYARD_VERSION) || !defined(MPICH_VERSION)
#define CHECK_SWITCHYARD 1
#else
#define CHECK_SWITCHYARD 0
#endif

#define CHECK(cond, ...)                                                     \
    do {                                                                     \
        if (!(cond)) {                                                       \
            fprintf(stderr, "%s:%d: CHECK(%s) failed: ", __FILE__, __LINE__, \
                    #cond);                                                  \
            fprintf(stderr, __VA_ARGS__);                                    \
            fputc('\n', stderr);                                             \
            exit(1);                                                         \
        }                                                                    \
    } while (0)

#define CHECK_EQ_INT(a, b)                                                   \
    do {                                                                     \
        long long a_ = (a), b_ = (b);                                        \
        CHECK(a_ == b_, "%s = %lld, expected %s = %lld", #a, a_, #b, b_);    \
    } while (0)

/* CHECK_SUCCESS(MPI_Foo(...)): the call must return MPI_SUCCESS. */
#define CHECK_SUCCESS(call) check_err_(__FILE__, __LINE__, #call, (call), MPI_SUCCESS, NULL)

/* CHECK_ERR(code, MPI_ERR_X, "sub1", "sub2", ...): code must be of class
 * MPI_ERR_X and (when CHECK_SWITCHYARD) its error string must contain every
 * substring.  Pass NULL alone to check the class only. */
#define CHECK_ERR(code, cls, ...)                                            \
    check_err_(__FILE__, __LINE__, #code, (code), (cls),                     \
               (const char *[]){__VA_ARGS__, NULL})

/* the class of an error code, or -1 if MPI_Error_class rejects it */
static inline int error_class(int code)
{
    int cls = -1;
    return MPI_Error_class(code, &cls) == MPI_SUCCESS ? cls : -1;
}

static inline void check_err_(const char *file, int line, const char *what,
                              int code, int want, const char *const *subs)
{
    if (code == MPI_SUCCESS && want == MPI_SUCCESS)
        return; /* also after MPI_Finalize, where Open MPI refuses MPI_Error_class */
    int cls = error_class(code), len = 0;
    char msg[MPI_MAX_ERROR_STRING];

    msg[0] = '\0';
    MPI_Error_string(code, msg, &len);
    if (cls != want) {
        fprintf(stderr, "%s:%d: %s: got code %d (class %d, \"%s\"), expected class %d\n",
                file, line, what, code, cls, msg, want);
        exit(1);
    }
    for (; CHECK_SWITCHYARD && subs && *subs; subs++) {
        if (!strstr(msg, *subs)) {
            fprintf(stderr, "%s:%d: %s: error string \"%s\" lacks \"%s\"\n",
                    file, line, what, msg, *subs);
            exit(1);
        }
    }
}

#endif
