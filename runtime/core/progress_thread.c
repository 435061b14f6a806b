/* progress_thread.c — asynchronous progress: with SWITCHYARD_ASYNC_PROGRESS=1, a thread
 * started by MPI_Init advances the engine whenever the program is not inside the library. */
#include "p2p.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>

int rt_async_progress;

static pthread_mutex_t big;
static pthread_t thread;
static atomic_int stop, running;

/* Reads the switch when the library loads, before any call can enter it. */
__attribute__((constructor)) static void async_setup(void)
{
    const char *e = getenv("SWITCHYARD_ASYNC_PROGRESS");
    if (!e || !(e[0] == '1' || e[0] == 'y' || e[0] == 't'))
        return;
    pthread_mutexattr_t a;
    pthread_mutexattr_init(&a);
    pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&big, &a);
    pthread_mutexattr_destroy(&a);
    rt_async_progress = 1;
}

void rt__big_lock(void)
{
    pthread_mutex_lock(&big);
}

void rt__big_unlock(void)
{
    pthread_mutex_unlock(&big);
}

/* Every 50 us (1 ms after a long quiet spell) take the lock if the program is not in the
 * library, and progress; never block on the lock, so stopping cannot deadlock. */
static void *loop(void *arg)
{
    (void)arg;
    unsigned quiet = 0;
    while (!atomic_load(&stop)) {
        if (pthread_mutex_trylock(&big) == 0) {
            quiet = rt__progress() > 0 ? 0 : quiet + 1;
            pthread_mutex_unlock(&big);
        }
        struct timespec ts = {0, quiet < 2000 ? 50000 : 1000000};
        nanosleep(&ts, NULL);
    }
    return NULL;
}

void rt__progress_thread_start(void)
{
    if (!rt_async_progress || atomic_load(&running))
        return;
    atomic_store(&stop, 0);
    if (pthread_create(&thread, NULL, loop, NULL) == 0)
        atomic_store(&running, 1);
}

void rt__progress_thread_stop(void)
{
    if (!atomic_load(&running))
        return;
    atomic_store(&stop, 1);
    pthread_join(thread, NULL);
    atomic_store(&running, 0);
}

void rt__progress_yield(void)
{
    if (rt_async_progress) { /* let the progress thread (and others) in between passes */
        rt__big_unlock();
        rt__big_lock();
    }
}
