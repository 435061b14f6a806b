/* fkept.c — over the standard ABI (FF_ABI): memory a started operation may still read, such as
 * the C datatype arrays of MPI_IALLTOALLW, kept until its request comes back MPI_REQUEST_NULL. */
#ifdef FF_ABI
#include <pthread.h>

#include "fface.h"

/* One piece of memory kept for a request; a request may have several. */
struct ff_kept {
    struct ff_kept *next;
    MPI_Request request;
    MPI_Fint slot; /* while detached: the request's index in the array given to ff_detach */
    void *mem;
};

int ff_kept_count;
static struct ff_kept *kept; /* attached records, most recent first */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

void ff_keep(MPI_Request request, void *mem)
{
    struct ff_kept *k = malloc(sizeof *k);
    if (!k)
        return; /* mem stays allocated: never freed while the operation may read it */
    *k = (struct ff_kept){.request = request, .mem = mem};
    pthread_mutex_lock(&lock);
    k->next = kept;
    kept = k;
    __atomic_add_fetch(&ff_kept_count, 1, __ATOMIC_RELAXED);
    pthread_mutex_unlock(&lock);
}

struct ff_kept *ff_detach_slow(const MPI_Request *requests, MPI_Fint n)
{
    struct ff_kept *out = NULL;
    pthread_mutex_lock(&lock);
    for (struct ff_kept **p = &kept; *p;) {
        struct ff_kept *k = *p;
        MPI_Fint i = 0;
        while (i < n && requests[i] != k->request)
            i++;
        if (i == n) {
            p = &k->next;
            continue;
        }
        *p = k->next;
        k->slot = i;
        k->next = out;
        out = k;
    }
    pthread_mutex_unlock(&lock);
    return out;
}

void ff_settle_slow(struct ff_kept *detached, const MPI_Request *requests)
{
    struct ff_kept *back = NULL, *last = NULL;
    int freed = 0;
    for (struct ff_kept *k = detached, *next; k; k = next) {
        next = k->next;
        if (requests[k->slot] == MPI_REQUEST_NULL) {
            free(k->mem);
            free(k);
            freed++;
            continue;
        }
        k->next = back;
        back = k;
        if (!last)
            last = k;
    }
    pthread_mutex_lock(&lock);
    if (back) {
        last->next = kept;
        kept = back;
    }
    __atomic_sub_fetch(&ff_kept_count, freed, __ATOMIC_RELAXED);
    pthread_mutex_unlock(&lock);
}
#endif
