/* progress_thread.c — asynchronous progress: while nonblocking work is outstanding, a thread
 * advances the engine whenever the program is not inside the library (rt.h, rt_enter: the
 * library's lock, big_lock.c); under MPI_THREAD_MULTIPLE the lock stays on for every thread. */
#include "p2p.h"

#include <pthread.h>
#include <stdlib.h>
#include <time.h>

enum { ASYNC_OFF, ASYNC_AUTO, ASYNC_ALWAYS };

int rt__lock_on, rt__depth, rt__async_want;

static int mode = ASYNC_AUTO;
static int allowed;           /* between MPI_Init and MPI_Finalize */
static pthread_t thread;
static int running, stop;     /* the thread exists; it must end (atomic) */
static pthread_mutex_t idle_mx = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t idle_cv = PTHREAD_COND_INITIALIZER;
static int sleeping;          /* the thread waits on idle_cv (atomic) */
static int multiple;          /* MPI_THREAD_MULTIPLE: the lock stays on from MPI_Init on (atomic) */
static int busy;              /* MPI_THREAD_MULTIPLE: nonblocking work is outstanding (atomic) */

/* fork() while the thread runs (a window keeps it for its whole life): the parent's locks are
 * taken around the fork, so that the thread holds neither at that moment; the child, where
 * only the forking thread lives on, gets new ones and no progress thread. */
static void fork_prepare(void)
{
    rt__big_fork_prepare();
    pthread_mutex_lock(&idle_mx);
}

static void fork_parent(void)
{
    pthread_mutex_unlock(&idle_mx);
    rt__big_fork_parent();
}

static void fork_child(void)
{
    rt__big_fork_child();
    pthread_mutex_init(&idle_mx, NULL);
    pthread_cond_init(&idle_cv, NULL);
    running = sleeping = 0;
}

/* Reads the switch when the library loads, before any call can enter it. */
__attribute__((constructor)) static void async_setup(void)
{
    pthread_atfork(fork_prepare, fork_parent, fork_child);
    const char *e = getenv("SWITCHYARD_ASYNC_PROGRESS");
    if (e && (e[0] == '0' || e[0] == 'n' || e[0] == 'f'))
        mode = ASYNC_OFF;
    else if (e && (e[0] == '1' || e[0] == 'y' || e[0] == 't')) {
        mode = ASYNC_ALWAYS; /* every entry locks, from the first call on */
        rt__async_want = rt__lock_on = 1;
    }
}

static int load(int *v)
{
    return __atomic_load_n(v, __ATOMIC_SEQ_CST);
}

static void store(int *v, int x)
{
    __atomic_store_n(v, x, __ATOMIC_SEQ_CST);
}

static int ensure_thread(void);
static void wake(void);

unsigned rt__needs; /* RT__NEED_* bits (under the lock, or before other threads) */

void rt__async_need(unsigned who, int on)
{
    rt__needs = on ? rt__needs | who : rt__needs & ~who;
    if (who & (RT__NEED_WIN | RT__NEED_IO))
        return; /* no thread for them */
    int now = (rt__needs & (RT__NEED_COLL | RT__NEED_RMA)) != 0;
    if (mode != ASYNC_AUTO)
        return;
    if (!load(&multiple)) {
        rt__async_want = now;
        return;
    }
    store(&busy, now); /* the lock stays on: only the thread's work comes and goes */
    if (now && allowed && ensure_thread())
        wake();
}

void rt__threads_multiple(void)
{
    store(&multiple, 1);
    rt__chan_locks_on();
    rt__big_bias_here();
    rt__async_want = 1; /* = the lock's state: rt_leave never switches it off */
    store(&rt__lock_on, 1);
}

int rt__big_pause(void)
{
    return load(&multiple) ? rt__big_release() : 0;
}

/* Whether the thread has work: the lock is on and, under MPI_THREAD_MULTIPLE (where it always
 * is), nonblocking work is outstanding or the thread was asked for always. */
static int active(void)
{
    return load(&rt__lock_on) && (!load(&multiple) || mode == ASYNC_ALWAYS || load(&busy));
}

/* While the lock is on, take it if the program is not in the library and progress; wait 50 us
 * after a pass that did something, doubling up to 1 ms after each that did not (a program
 * busy in its own MPI calls makes the thread rare). Never block on the lock, so stopping
 * cannot deadlock. While the lock is off, look every 1 ms; after 1 s, sleep until
 * rt__async_switch wakes the thread. */
static void *loop(void *arg)
{
    (void)arg;
    unsigned idle = 0, off = 0;
    while (!load(&stop)) {
        if (active()) {
            off = 0;
            int n = 0;
            if (rt__big_trylock()) {
                if (active()) /* not switched off meanwhile: nobody else is inside */
                    n = rt__progress();
                rt__big_unlock();
            }
            idle = n > 0 ? 0 : idle + (idle < 5);
        } else if (idle = 5, ++off >= 1000) {
            off = 0;
            pthread_mutex_lock(&idle_mx);
            store(&sleeping, 1);
            while (!active() && !load(&stop))
                pthread_cond_wait(&idle_cv, &idle_mx);
            store(&sleeping, 0);
            pthread_mutex_unlock(&idle_mx);
            continue;
        }
        long us = idle < 5 ? 50L << idle : 1000;
        struct timespec ts = {0, us * 1000};
        nanosleep(&ts, NULL);
    }
    return NULL;
}

static void wake(void)
{
    if (load(&sleeping) || load(&stop)) {
        pthread_mutex_lock(&idle_mx);
        pthread_cond_broadcast(&idle_cv);
        pthread_mutex_unlock(&idle_mx);
    }
}

/* Starts the thread if needed; 0 if it cannot run. */
static int ensure_thread(void)
{
    if (running)
        return 1;
    store(&stop, 0);
    if (pthread_create(&thread, NULL, loop, NULL) != 0)
        return 0;
    running = 1;
    return 1;
}

void rt__async_switch(int locked)
{
    if (load(&multiple)) /* the lock stays on (the end of MPI_Init_thread comes here once) */
        return;
    if (locked) { /* the work is done: the holder of the lock turns it off */
        store(&rt__lock_on, 0);
        return;
    }
    /* nobody is inside the library: entries take the lock from now on */
    if (!allowed || !ensure_thread()) {
        rt__async_want = 0;
        return;
    }
    store(&rt__lock_on, 1);
    wake();
}

void rt__progress_thread_start(void)
{
    allowed = mode != ASYNC_OFF;
    if (load(&rt__lock_on) && !ensure_thread())
        rt__async_want = 0; /* no thread: the lock goes off when this call ends */
}

/* Called inside the library (MPI_Finalize): the caller holds the lock if it is on. */
void rt__progress_thread_stop(void)
{
    allowed = 0;
    if (!running)
        return;
    store(&stop, 1);
    wake();
    pthread_join(thread, NULL);
    running = 0;
}
