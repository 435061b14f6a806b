/* pmi.h — the runtime's PMI-1 client: rank, size and a job-wide key/value space with
 * barriers, from Switchyard's mpiexec or MPICH's Hydra (PMI_FD), or a singleton without. */
#ifndef SWITCHYARD_PMI_H
#define SWITCHYARD_PMI_H

#include <stddef.h>

/* None of these functions is thread-safe: the caller serializes them. Functions returning
 * int return 0 on success and -1 on failure, with a description in rt__pmi_error(). */

/* Connect to the process manager named by PMI_FD, PMI_RANK and PMI_SIZE and do the PMI-1
 * handshake (init, get_maxes, get_appnum, get_my_kvsname). Without PMI_FD the process is a
 * singleton: rank 0, size 1, appnum 0, a local key/value space; rt__pmi_singleton() is then
 * 1. Fails when already initialized, when PMI_PORT is set without PMI_FD (PMI over TCP is
 * not supported), or on any malformed environment or response. */
int rt__pmi_init(int *rank, int *size, int *appnum);

/* The number of processes in the job as the process manager announced it (PMI_SIZE next to
 * PMI_FD), read from the environment without connecting: usable before rt__pmi_init and after
 * rt__pmi_finalize. 1 without PMI_FD, or when PMI_SIZE is missing or invalid (rt__pmi_init
 * fails then). */
int rt__pmi_env_size(void);

/* 1 when rt__pmi_init found no process manager (singleton), else 0. */
int rt__pmi_singleton(void);

/* The longest key and value (in bytes, without the NUL) rt__pmi_put accepts; both are
 * taken from the process manager's get_maxes answer (63 and 1023 under mpiexec and Hydra).
 * Valid after rt__pmi_init. */
void rt__pmi_limits(size_t *key_max, size_t *value_max);

/* Store value under key in the job's key/value space. Keys: printable ASCII without space
 * or '='; values: printable ASCII without space (encode binary data first). A put becomes
 * visible to every rank after the next rt__pmi_barrier(); putting a key again replaces it. */
int rt__pmi_put(const char *key, const char *value);

/* Copy the value stored under key (by any rank) into buf of len bytes, NUL-terminated.
 * Fails when the key is absent or the value does not fit. */
int rt__pmi_get(const char *key, char *buf, size_t len);

/* Block until every rank of the job entered the barrier. */
int rt__pmi_barrier(void);

/* Flush stdio, then ask the process manager to end the whole job with exit code code,
 * reporting msg (may be NULL; non-printable bytes become '?', cut at 900 bytes). Never
 * returns: the process manager kills the job; if it has not after 5 s, or in singleton mode
 * (where msg is printed on stderr as "rank 0 called MPI_Abort with code N: msg"), the
 * process calls _exit(code). */
_Noreturn void rt__pmi_abort(int code, const char *msg);

/* Tell the process manager this rank is done (cmd=finalize), close the connection and free
 * everything; after it rt__pmi_init may be called again only in singleton mode. A rank that
 * exits without it is reported as failed by mpiexec. */
int rt__pmi_finalize(void);

/* The description of the last failure (empty string when none). */
const char *rt__pmi_error(void);

#endif
