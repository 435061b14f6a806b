/* backend_closure.c — closures that let a foreign MPI library call the user's standard-ABI
 * callbacks: one libffi closure per (callback type, user function), made on first use. */
#include <ffi.h>
#include <pthread.h>
#include <stdlib.h>

#include "aface.h"

/* One closure. The list grows with the distinct functions a program passes, never with the
 * calls that pass them: 10,000 MPI_Op_create of one function make one closure. A closure is
 * never freed, since the backend may call it for as long as any object made with it lives
 * (an error handler freed by the user stays on its communicators). */
struct afb_closure {
    struct afb_closure *next;
    const ffi_cif *cif;
    void (*fn)(void);
    void (*code)(void);
};

static struct afb_closure *closures;
static pthread_mutex_t closures_lock = PTHREAD_MUTEX_INITIALIZER;

void (*afb_closure(ffi_cif *cif, void (*handler)(ffi_cif *, void *, void **, void *), void (*fn)(void)))(void)
{
    struct afb_closure *c;
    void (*code)(void) = NULL;

    if (!fn)
        return NULL;
    pthread_mutex_lock(&closures_lock);
    for (c = closures; c && !code; c = c->next)
        if (c->cif == cif && c->fn == fn)
            code = c->code;
    if (!code && (c = malloc(sizeof *c))) {
        void *entry = NULL;
        ffi_closure *cl = ffi_closure_alloc(sizeof(ffi_closure), &entry);
        if (cl && ffi_prep_closure_loc(cl, cif, handler, (void *)fn, entry) == FFI_OK) {
            *c = (struct afb_closure){closures, cif, fn, (void (*)(void))entry};
            closures = c;
            code = c->code;
        } else {
            if (cl)
                ffi_closure_free(cl);
            free(c);
        }
    }
    pthread_mutex_unlock(&closures_lock);
    return code;
}
