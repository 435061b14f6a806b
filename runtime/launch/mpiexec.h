/* mpiexec.h — Switchyard's launcher: the job and rank records and the interfaces between its
 * parts (options, spawning, the PMI-1 server, the key/value store, output relay, faults). */
#ifndef SWITCHYARD_MPIEXEC_H
#define SWITCHYARD_MPIEXEC_H

#include <stddef.h>
#include <sys/types.h>

/* Exit codes of mpiexec (also in --help). Otherwise: 0 when every rank exited 0, the
 * MPI_Abort code (low 8 bits), a failing rank's exit status, or 128+N for a rank killed by
 * signal N or mpiexec itself receiving SIGINT/SIGTERM/SIGHUP (N). */
#define MX_EXIT_PROTOCOL 1   /* a rank broke the PMI protocol, or exited 0 before finalize */
#define MX_EXIT_USAGE 2      /* bad command line */
#define MX_EXIT_TIMEOUT 124  /* --timeout expired */
#define MX_EXIT_LAUNCH 125   /* mpiexec itself failed (fork, pipes, ...) */
#define MX_EXIT_NOEXEC 126   /* the program is not executable */
#define MX_EXIT_NOTFOUND 127 /* the program was not found */

/* -bind-to (or SWITCHYARD_BIND): whether each rank is bound to one CPU. */
enum { MX_BIND_UNSET, MX_BIND_NONE, MX_BIND_CORE };

/* The PMI-1 limits mpiexec serves (buffer sizes with the NUL, as Hydra advertises them). */
#define MX_KVSNAME_MAX 256
#define MX_KEY_MAX 64
#define MX_VALUE_MAX 1024
#define MX_PMI_LINE_MAX 2048        /* longest PMI request line, newline included */
#define MX_KVS_BYTES_MAX (64u << 20) /* total size of the key/value space */
#define MX_PMI_OUT_HIGH 65536       /* a rank this far behind reading replies is broken */

#define MX_MAX_RANKS 4096
#define MX_OUT_LINE_MAX 65536       /* longer output lines are relayed in pieces */
#define MX_STDIN_BUF 65536
#define MX_KILL_GRACE_MS 500        /* SIGTERM, then SIGKILL this much later */
#define MX_EOF_GRACE_MS 250         /* a rank alive this long after closing PMI has failed */
#define MX_DRAIN_MS 1000            /* output relayed this long after the last rank exited */
#define MX_BLAME_MS 1000            /* a rank ending the job for a failed peer: how long we wait
                                     * for that failure to show before reporting the rank */
#define MX_OUT_BUF (1u << 20)       /* our stdout/stderr queue this much, then the ranks' pipes
                                     * are no longer read (back-pressure) */

struct mx_buf {
    char *p;
    size_t len, cap;
};

/* One part of an MPMD command line (parts are separated by ':'); a plain line is one part. */
struct mx_part {
    int nranks;             /* its -n */
    int first;              /* its first rank in MPI_COMM_WORLD */
    char **argv;            /* program and its arguments, NULL-ended (inside main's argv) */
    char **env;             /* NAME=VALUE from its -env, malloc'ed */
    int nenv;
};

struct mx_host {
    char *name;             /* malloc'ed */
    int slots;              /* its NAME:N, 1 without */
};

struct mx_opts {
    int nranks;             /* all parts together */
    int ppn;                /* -ppn: processes per node asked for (0: not given) */
    int env_none;           /* -genvnone: the ranks get only -genv/-x settings and mpiexec's */
    int tag;                /* -l: prefix output lines with "[rank] " */
    int no_cleanup;         /* -disable-auto-cleanup: a failed rank does not end the job */
    int bind;               /* MX_BIND_NONE or MX_BIND_CORE (the default) */
    double timeout;         /* seconds, 0 = none */
    char **env;             /* NAME=VALUE from -genv and -x, malloc'ed */
    int nenv;
    struct mx_part *parts;  /* malloc'ed; rank r runs the part p with first <= r, and its
                             * MPI_APPNUM is p */
    int nparts;
    struct mx_host *hosts;  /* -host/-hosts/-f entries in order, malloc'ed */
    int nhosts;
    const char *bootstrap;  /* -bootstrap-exec: runs `bootstrap HOST PROGRAM ARGS...` for a rank
                             * on another host (it must exec the program keeping descriptors and
                             * environment, as `ip netns exec` does); NULL: none */
    const char **host_of;   /* per rank: its host when not this machine, else NULL; NULL when
                             * every rank runs here (mx_hosts_place) */
};

struct mx_rank {
    int rank;
    int appnum;             /* index of its part of the command line (MPI_APPNUM) */
    int cpu;                /* the CPU it is bound to, -1 for none (mx_bind_plan) */
    pid_t pid;
    int pmi_fd;             /* launcher's end of the rank's PMI socket, -1 once closed */
    int out_fd, err_fd;     /* read ends of its stdout/stderr pipes, -1 at EOF */
    char pmi_in[MX_PMI_LINE_MAX];
    size_t pmi_in_len;
    struct mx_buf pmi_out;  /* replies not yet written */
    struct mx_buf out_line, err_line;
    unsigned initialized : 1, finalized : 1, in_barrier : 1, exited : 1, pmi_eof : 1;
    unsigned peer_failed : 1; /* aborted the job because a peer failed (RT_PEER_FAILED_PREFIX) */
    int status;             /* wait status, once exited */
    long long eof_ms;       /* when its PMI socket reached EOF */
};

struct mx_kvs;

struct mx_job {
    struct mx_opts opt;
    int n;
    struct mx_rank *ranks;
    char jobid[17];         /* 64 random bits, hex */
    char secret[33];        /* 128 random bits, hex */
    char kvsname[32];
    struct mx_kvs *kvs;
    int sigfd;              /* signalfd: SIGCHLD, SIGINT, SIGTERM, SIGHUP */
    int devnull;            /* stdin of ranks other than 0 */
    int stdin_fd;           /* our stdin while forwarding it, else -1 */
    int stdin_pipe;         /* write end of rank 0's stdin, -1 once closed */
    struct mx_buf stdin_buf;
    struct mx_buf scratch;  /* assembling tagged output lines */
    int out_dead[3];        /* our fd 1 or 2 gave EPIPE: drop what goes there */
    int in_barrier;         /* ranks waiting in the current barrier */
    int nlive;              /* ranks not yet reaped */
    int any_init;           /* some rank sent cmd=init */
    int ending;             /* the job is being ended (fault, timeout or signal) */
    int exit_code;
    int failed;             /* -disable-auto-cleanup: a rank failed (reported), the job goes on */
    int failed_code;        /* the first such failure's exit code */
    int signals;            /* SIGINT/SIGTERM/SIGHUP received */
    long long term_ms;      /* when the ending began (SIGKILL follows) */
    int killed;             /* SIGKILL sent to all */
    int swept;              /* final SIGKILL sweep done after the last rank exited */
    long long deadline_ms;  /* --timeout, 0 = none */
    long long drain_until;  /* 0 until the last rank exited */
    int blame_rank;         /* first rank that aborted because a peer failed, -1 for none */
    int blame_status;       /* its exit status */
    long long blame_until;  /* then reported at this time unless a real failure shows first */
    char blame_msg[1024];
    struct mx_buf outq[3];  /* what could not yet be written to our fd 1 and 2 */
    long long out_progress_ms; /* when a write to our fd 1 or 2 last took something */
};

/* mpiexec_opts.c: parse the command line into o (MPMD parts separated by ':' each get their
 * own -n, -env and program; the other options apply to every part). Returns 0, 1 when --help
 * was printed, or -1 after printing a usage error naming the part. main's argv is changed:
 * each ':' becomes NULL, ending the part before it. */
int mx_parse_opts(int argc, char **argv, struct mx_opts *o);
/* mpiexec_opts.c: free what mx_parse_opts allocated. */
void mx_free_opts(struct mx_opts *o);
/* mpiexec_usage.c: print the --help text on stdout. */
void mx_usage(void);

/* mpiexec_spawn.c: 0 when prog can be executed, else print why and return 126 or 127. */
int mx_check_program(const char *prog);
/* mpiexec_spawn.c: start every rank (pipes, socket, environment, process group). Returns 0,
 * or -1 after printing why; ranks already started are then in job->ranks. */
int mx_spawn(struct mx_job *job, const void *child_sigmask);

/* mpiexec_bind.c: choose each rank's CPU (job->ranks[i].cpu): with MX_BIND_CORE and at most as
 * many ranks as CPUs in mpiexec's own affinity mask, rank i gets the i-th CPU of that mask;
 * otherwise (or when the mask cannot be read) every rank gets -1 and runs unbound. */
void mx_bind_plan(struct mx_job *job);
/* mpiexec_bind.c: in a rank's process before exec: bind it to cpu (nothing for -1). A failure
 * leaves it on the mask it inherited: binding is a matter of speed, not of correctness. */
void mx_bind_child(int cpu);

/* mpiexec_pmi.c: read and serve what rank r sent; with drain, until nothing is left. */
void mx_pmi_read(struct mx_job *job, struct mx_rank *r, int drain);
/* mpiexec_pmi.c: write queued replies to rank r. */
void mx_pmi_write(struct mx_job *job, struct mx_rank *r);
/* mpiexec_pmi.c: stop serving rank r: close the launcher's end of its PMI socket. */
void mx_pmi_close(struct mx_rank *r);
/* mpiexec_pmi.c: a rank exited with status 0 without cmd=init: a fault if any rank is an MPI
 * process (sent cmd=init). */
void mx_pmi_check_uninit(struct mx_job *job);

/* mpiexec_kvs.c: an empty key/value store, or NULL when out of memory. */
struct mx_kvs *mx_kvs_new(void);
/* mpiexec_kvs.c: store (a copy of) value under key, replacing; -1 when full or out of memory. */
int mx_kvs_put(struct mx_kvs *kvs, const char *key, const char *value);
/* mpiexec_kvs.c: the value stored under key, or NULL. */
const char *mx_kvs_get(const struct mx_kvs *kvs, const char *key);
/* mpiexec_kvs.c: free the store (NULL is fine). */
void mx_kvs_free(struct mx_kvs *kvs);

/* mpiexec_io.c: relay what rank r wrote on stream fd 1 or 2 (whole lines only; the rest at
 * EOF); with drain, until nothing is left. */
void mx_io_read(struct mx_job *job, struct mx_rank *r, int stream, int drain);
/* mpiexec_out.c: make our stdout/stderr non-blocking (unless a terminal) for the run; the
 * flags are restored at exit. */
void mx_out_init(void);
/* mpiexec_out.c: write data to our fd `stream` (1 or 2), queueing what it does not take now
 * (behind what is queued already); dropped once that descriptor failed (EPIPE). */
void mx_out_write(struct mx_job *job, int stream, const char *data, size_t len);
/* mpiexec_out.c: write what is queued for our fd `stream` (1 or 2) as far as it takes it. */
void mx_out_flush(struct mx_job *job, int stream);
/* mpiexec_out.c: 1 when the queue for our fd `stream` is at its bound (MX_OUT_BUF). */
int mx_out_full(const struct mx_job *job, int stream);
/* mpiexec_out.c: 1 when something is queued for our fd 1 or 2 (and it still takes output). */
int mx_out_queued(const struct mx_job *job);
/* mpiexec_out.c: print "mpiexec: <msg>" on our stderr, after what is queued there. */
void mx_say(struct mx_job *job, const char *msg);
/* mpiexec_io.c: read our stdin into the buffer for rank 0. */
void mx_stdin_read(struct mx_job *job);
/* mpiexec_io.c: write the buffered stdin to rank 0. */
void mx_stdin_write(struct mx_job *job);
/* mpiexec_io.c: stop forwarding stdin; close rank 0's end. */
void mx_stdin_close(struct mx_job *job);

/* mpiexec_fault.c: rank r exited with wait status: serve what it left, decide if it failed. */
void mx_rank_exited(struct mx_job *job, struct mx_rank *r, int status);
/* mpiexec_fault.c: end the job (first call only prints msg and sets the exit code): send sig
 * to every rank's process group now, SIGKILL MX_KILL_GRACE_MS later. */
void mx_end(struct mx_job *job, int code, int sig, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* mpiexec_fault.c: a rank failed (msg names it): as mx_end, but with -disable-auto-cleanup
 * only reported; the first failure's code is mpiexec's exit code once the others ended. */
void mx_rank_failed(struct mx_job *job, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* mpiexec_pmi.c: with -disable-auto-cleanup, a rank that failed no longer holds the others
 * in a PMI barrier: completes it when every live rank is in. */
void mx_pmi_barrier_check(struct mx_job *job);
/* mpiexec_fault.c: rank r broke the PMI protocol: end the job quoting (escaped) line. */
void mx_protocol_fault(struct mx_job *job, struct mx_rank *r, const char *why, const char *line,
                       size_t len);
/* mpiexec_fault.c: send sig to every rank's process group. */
void mx_kill_all(struct mx_job *job, int sig);
/* mpiexec_fault.c: act on what time brought (timeout, SIGKILL escalation, closed PMI
 * connections); returns the milliseconds until the next deadline, or -1 for none. */
int mx_timers(struct mx_job *job);

/* mpiexec_loop.c: serve the job until every rank exited and its output is relayed. */
void mx_run(struct mx_job *job);

/* mpiexec_shm.c: remove every /dev/shm entry whose name contains jobid. */
void mx_shm_sweep(const char *jobid);

/* mpiexec_hosts.c: appends the hosts of a -host/-hosts list (NAME[:N], separated by commas
 * or blanks; N slots, default 1) to o->hosts: 0, or -1 after a message naming `what`. */
int mx_hosts_add(struct mx_opts *o, const char *list, const char *what);
/* mpiexec_hosts.c: the same for each line of a host file (# starts a comment). */
int mx_hosts_add_file(struct mx_opts *o, const char *path);
/* mpiexec_hosts.c: once the options are read, places the ranks as Hydra does (each host's
 * slots, or -ppn ranks, in turn, cycling through the list) and fills o->host_of. A host that is
 * not this machine needs -bootstrap-exec: 0, or -1 after a message naming the host. */
int mx_hosts_place(struct mx_opts *o);
/* mpiexec_hosts.c: the command that starts `rank` running argv: argv itself on this machine,
 * else a malloc'ed {bootstrap, host, argv...} (free it, not its strings). */
char **mx_hosts_argv(const struct mx_opts *o, int rank, char **argv);
/* mpiexec_hosts.c: frees what the functions above allocated in o. */
void mx_hosts_free(struct mx_opts *o);

/* mpiexec_util.c: monotonic milliseconds. */
long long mx_now_ms(void);
/* mpiexec_util.c: fill out with 2*nbytes hex digits of getrandom() randomness, NUL-ended;
 * -1 on failure. */
int mx_random_hex(char *out, size_t nbytes);
/* mpiexec_util.c: append len bytes to b, growing it; aborts mpiexec when out of memory. */
void mx_buf_add(struct mx_buf *b, const void *data, size_t len);
/* mpiexec_util.c: drop the first n bytes of b. */
void mx_buf_drop(struct mx_buf *b, size_t n);
/* mpiexec_util.c: free b's memory and empty it. */
void mx_buf_free(struct mx_buf *b);
/* mpiexec_util.c: write all of data to fd, retrying on EINTR and waiting out EAGAIN; -1 on
 * error. */
int mx_write_all(int fd, const void *data, size_t len);
/* mpiexec_util.c: malloc that aborts mpiexec (exit MX_EXIT_LAUNCH) when out of memory. */
void *mx_xmalloc(size_t n);
/* mpiexec_util.c: realloc that aborts mpiexec (exit MX_EXIT_LAUNCH) when out of memory. */
void *mx_xrealloc(void *p, size_t n);
/* mpiexec_util.c: set O_NONBLOCK on fd; -1 on error. */
int mx_nonblock(int fd);

#endif
