/* backend_preq.c — which persistent requests are active, over a standard-ABI backend (issue 8):
 * MPI_Request_get_status_any/_some must skip inactive ones, which the backend cannot tell apart. */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include "aface.h"

/* A chained hash of the persistent requests the shim saw made and not yet freed, by handle. */
typedef struct preq {
    MPI_Request h;
    int active;
    struct preq *next;
} preq;

int afb_preq_live; /* entries in the table */
static preq **tbl;
static size_t nb;  /* buckets: 0 or a power of two */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static size_t slot(MPI_Request h, size_t n)
{
    uint64_t x = (uint64_t)(uintptr_t)h * 0x9E3779B97F4A7C15ull;
    return (size_t)(x >> 32) & (n - 1);
}

static preq **find(MPI_Request h)
{
    if (!nb)
        return NULL;
    preq **pp = &tbl[slot(h, nb)];
    while (*pp && (*pp)->h != h)
        pp = &(*pp)->next;
    return pp;
}

static void grow(void)
{
    size_t n = nb ? nb * 2 : 64;
    preq **t = calloc(n, sizeof *t);
    if (!t)
        return; /* the chains only grow longer */
    for (size_t i = 0; i < nb; i++)
        for (preq *e = tbl[i], *nx; e; e = nx) {
            nx = e->next;
            e->next = t[slot(e->h, n)];
            t[slot(e->h, n)] = e;
        }
    free(tbl);
    tbl = t;
    nb = n;
}

void afb_preq_new(MPI_Request r)
{
    if (r == MPI_REQUEST_NULL)
        return;
    pthread_mutex_lock(&lock);
    if ((size_t)afb_preq_live >= nb)
        grow();
    preq **pp = find(r);
    if (pp && *pp) {
        (*pp)->active = 0; /* a handle the backend reused */
    } else if (pp) {
        preq *e = malloc(sizeof *e);
        if (e) { /* without memory the request is taken for a non-persistent one */
            *e = (preq){r, 0, NULL};
            *pp = e;
            __atomic_store_n(&afb_preq_live, afb_preq_live + 1, __ATOMIC_RELAXED);
        }
    }
    pthread_mutex_unlock(&lock);
}

void afb_preq_forget(MPI_Request r)
{
    pthread_mutex_lock(&lock);
    preq **pp = find(r);
    if (pp && *pp) {
        preq *e = *pp;
        *pp = e->next;
        free(e);
        __atomic_store_n(&afb_preq_live, afb_preq_live - 1, __ATOMIC_RELAXED);
    }
    pthread_mutex_unlock(&lock);
}

static void set(const MPI_Request *r, const int *idx, int n, const MPI_Status *st, int active)
{
    if (!r || n <= 0)
        return;
    pthread_mutex_lock(&lock);
    for (int i = 0; i < n; i++) {
        int k = idx ? idx[i] : i;
        if (k < 0 || (st && st[k].MPI_ERROR == MPI_ERR_PENDING))
            continue;
        preq **pp = find(r[k]);
        if (pp && *pp)
            (*pp)->active = active;
    }
    pthread_mutex_unlock(&lock);
}

void afb_preq_start(const MPI_Request *r, int n)
{
    set(r, NULL, n, NULL, 1);
}

void afb_preq_done(const MPI_Request *r, int n, const MPI_Status *st)
{
    set(r, NULL, n, st, 0);
}

void afb_preq_done_at(const MPI_Request *r, const int *idx, int n)
{
    set(r, idx, n, NULL, 0);
}

int afb_preq_inactive(MPI_Request r)
{
    if (r == MPI_REQUEST_NULL || !afb_preq_any())
        return 0;
    pthread_mutex_lock(&lock);
    preq **pp = find(r);
    int in = pp && *pp && !(*pp)->active;
    pthread_mutex_unlock(&lock);
    return in;
}
