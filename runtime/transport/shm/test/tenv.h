/* tenv.h — test harness of the shm transport without the engine: a tiny rt_tp_env over the
 * PMI client, byte patterns, a clock, failure reporting and the /dev/shm leftover check. */
#ifndef SHM_TENV_H
#define SHM_TENV_H

#include <stddef.h>
#include <stdint.h>

#include "transport.h"

struct tenv {
    int rank, size;
    char jobid[80];
    int *node_of;
    rt_tp_env env;
};
extern struct tenv T;

/* Fails the job: prints "[rank] FAIL: ..." and aborts every rank through PMI. */
_Noreturn void tfail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
#define TCHECK(cond, ...) do { if (!(cond)) tfail(__VA_ARGS__); } while (0)

/* PMI init, the job id (TENV_JOBID, SWITCHYARD_JOBID, else one made by rank 0), node_of with
 * `nodes` simulated nodes (rank r on node r * nodes / size), then rt_tp_shm.init with the
 * given callbacks. Fails the job on error. */
void tenv_init(int nodes, void (*incoming)(int, const rt_msg_hdr *, const void *, uint64_t),
               void (*send_done)(void *, int), void (*recv_done)(void *, int),
               void (*peer_failed)(int));
/* rt_tp_shm.finalize, checks that /dev/shm holds nothing of the job, PMI finalize. */
void tenv_finalize(void);
/* Entries of /dev/shm whose name contains the job id, except those there before init. */
int tenv_shm_leftovers(void);

/* Fills / checks n bytes of the pattern named by seed starting at byte 0. tenv_check returns
 * the first differing offset, or -1. */
void tenv_fill(void *buf, size_t n, uint64_t seed);
long tenv_check(const void *buf, size_t n, uint64_t seed);
/* splitmix64 step. */
uint64_t tenv_rand(uint64_t *state);
long long tenv_now_ns(void);
/* One progress() call, and a wait of 1 ms when it had nothing to do. Returns the events. */
int tenv_step(void);
/* Sends, calling progress while the transport says RT_TP_AGAIN; returns 0 or RT_TP_PENDING. */
int tenv_send(int dst, const rt_msg_hdr *h, const void *data, size_t n, void *sreq);

#endif
