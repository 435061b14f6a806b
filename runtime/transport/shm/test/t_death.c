/* t_death.c — test of peer death: rank 1 SIGKILLs itself holding a large send of rank 0, a
 * full ring from rank 2, and a record it reserved in rank 0's ring and never committed; they
 * must see send_done with an error and peer_failed(1) once, and rank 0 still gets rank 2's
 * message queued behind that reservation. */

/* usage: t_death RESULT_DIR. Each survivor writes RESULT_DIR/ok.<rank>; mpiexec then reports
 * rank 1's signal and kills the rest, which ignore SIGTERM long enough. Hydra SIGKILLs them at
 * once, so this test needs Switchyard's mpiexec. */
#define _GNU_SOURCE
#include "tenv.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pmi.h"
#include "rt_consts.h"
#include "shm.h"

#define CTX 9
#define BIG (1u << 20)

static int failed_calls, failed_rank = -1, send_err, send_dones, got;

static void on_incoming(int src, const rt_msg_hdr *h, const void *data, uint64_t token)
{
    (void)src;
    (void)h;
    (void)data;
    (void)token;
    got++;
}

static void on_send_done(void *sreq, int err)
{
    (void)sreq;
    send_dones++;
    send_err = err;
}

static void on_recv_done(void *rreq, int err)
{
    (void)rreq;
    (void)err;
}

static void on_peer_failed(int rank)
{
    failed_calls++;
    failed_rank = rank;
}

int main(int argc, char **argv)
{
    rt_msg_hdr h = { CTX, 0, 0, 0, 0, 0 };
    static unsigned char big[BIG], small[1024];
    char path[4096];
    long long t0;
    int rc, r, full = 0;
    FILE *f;

    if (argc < 2)
        return 2;
    signal(SIGTERM, SIG_IGN); /* survive mpiexec's first kill until we wrote the result */
    tenv_init(1, on_incoming, on_send_done, on_recv_done, on_peer_failed);
    TCHECK(T.size >= 2, "needs 2 ranks or more");
    h.src = T.rank;
    h.len = 8;
    /* Everyone says hello to everyone: the rings work before the death. */
    for (r = 0; r < T.size; r++)
        if (r != T.rank)
            tenv_send(r, &h, small, 8, NULL);
    while (got < T.size - 1)
        tenv_step();
    if (T.rank == 1) /* dies before committing it: rank 0 must skip it */
        TCHECK(shm_ring_reserve(&shm_g.ch[0].link[0].out, SHM_LINE, SHM_EAGER) != NULL, "reserve");
    TCHECK(rt__pmi_barrier() == 0, "barrier");
    if (T.rank == 1) {
        usleep(100000); /* let rank 0's RTS and rank 2's flood arrive unread */
        raise(SIGKILL);
    }
    if (T.rank == 0) {
        h.len = BIG;
        rc = rt_tp_shm.send(1, &h, big, BIG, big);
        TCHECK(rc == RT_TP_PENDING, "large send: %d", rc);
    } else if (T.rank == 2) {
        h.len = sizeof small;
        while ((rc = rt_tp_shm.send(1, &h, small, sizeof small, NULL)) == 0)
            full++;
        TCHECK(rc == RT_TP_AGAIN && full > 0, "flood: %d after %d", rc, full);
        h.len = 8;
        tenv_send(0, &h, small, 8, NULL); /* behind rank 1's dead reservation */
    }
    t0 = tenv_now_ns();
    while (failed_calls == 0 && tenv_now_ns() - t0 < 5000000000LL)
        tenv_step();
    for (r = 0; r < 20; r++) /* a repeated report would show up here */
        tenv_step();
    TCHECK(failed_calls == 1 && failed_rank == 1, "peer_failed: %d calls, rank %d", failed_calls,
           failed_rank);
    if (T.rank == 0) {
        TCHECK(send_dones == 1 && send_err == RT_ERR_PROC_ABORTED, "send_done: %d, err %d",
               send_dones, send_err);
        while (T.size > 2 && got < T.size && tenv_now_ns() - t0 < 5000000000LL)
            tenv_step();
        TCHECK(T.size == 2 || got == T.size, "rank 2's message behind rank 1's reservation: %d "
               "messages of %d", got, T.size);
    }
    h.len = 8;
    rc = rt_tp_shm.send(1, &h, small, 8, NULL);
    TCHECK(rc == RT_ERR_PROC_ABORTED, "send to the dead rank: %d", rc);
    TCHECK(tenv_shm_leftovers() == 0, "/dev/shm holds the job's region");
    snprintf(path, sizeof path, "%s/ok.%d", argv[1], T.rank);
    f = fopen(path, "w");
    TCHECK(f != NULL, "cannot write %s", path);
    fprintf(f, "peer_failed(1) after %.0f ms\n", (double)(tenv_now_ns() - t0) / 1e6);
    fclose(f);
    /* Stay until the launcher kills us: a survivor leaving early would look dead to others. */
    for (r = 0; r < 100; r++)
        usleep(100000);
    _exit(0);
}
