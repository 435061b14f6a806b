/* lacon_est.c — preloaded under Debian's ScaLAPACK 2.2.1 test drivers: P?LACON starts with
 * ESTWORK(1) = EST before it sets EST, so its caller's uninitialised EST (a stack slot holding
 * whatever an earlier call left there) steers the iteration, each process column its own way,
 * and the columns stop meeting in the same collectives. ScaLAPACK fixed it upstream (commit
 * aed609a, v2.2.3: "EST = ZERO" on entry); this does the same, then calls the real routine. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

typedef int fint; /* ScaLAPACK's Fortran INTEGER in Debian's build (LP64) */

static void *real(const char *name)
{
    void *f = dlsym(RTLD_NEXT, name);
    if (!f) {
        fprintf(stderr, "lacon_est: %s not found after the preload\n", name);
        abort();
    }
    return f;
}

/* PSLACON / PDLACON (N, V, IV, JV, DESCV, X, IX, JX, DESCX, ISGN, EST, KASE) */
#define REAL_LACON(NAME, EST_T)                                                                          \
    void NAME(fint *n, void *v, fint *iv, fint *jv, fint *descv, void *x, fint *ix, fint *jx, fint *descx, \
              fint *isgn, EST_T *est, fint *kase)                                                          \
    {                                                                                                      \
        static void (*f)(fint *, void *, fint *, fint *, fint *, void *, fint *, fint *, fint *, fint *,   \
                         EST_T *, fint *);                                                                 \
        if (!f)                                                                                            \
            *(void **)&f = real(#NAME);                                                                    \
        *est = 0;                                                                                          \
        f(n, v, iv, jv, descv, x, ix, jx, descx, isgn, est, kase);                                         \
    }
/* PCLACON / PZLACON (N, V, IV, JV, DESCV, X, IX, JX, DESCX, EST, KASE) */
#define COMPLEX_LACON(NAME, EST_T)                                                                       \
    void NAME(fint *n, void *v, fint *iv, fint *jv, fint *descv, void *x, fint *ix, fint *jx, fint *descx, \
              EST_T *est, fint *kase)                                                                      \
    {                                                                                                      \
        static void (*f)(fint *, void *, fint *, fint *, fint *, void *, fint *, fint *, fint *, EST_T *,  \
                         fint *);                                                                          \
        if (!f)                                                                                            \
            *(void **)&f = real(#NAME);                                                                    \
        *est = 0;                                                                                          \
        f(n, v, iv, jv, descv, x, ix, jx, descx, est, kase);                                               \
    }

REAL_LACON(pslacon_, float)
REAL_LACON(pdlacon_, double)
COMPLEX_LACON(pclacon_, float)
COMPLEX_LACON(pzlacon_, double)
