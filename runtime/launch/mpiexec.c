/* mpiexec.c — Switchyard's launcher (also installed as mpirun): starts N ranks of a program
 * (or one program per ':'-separated part) on this machine, serves them PMI-1 and relays their
 * output; see mpiexec --help. */
#define _GNU_SOURCE
#include "mpiexec.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <unistd.h>

/* Descriptors 0-2 must be open, so that nothing mpiexec opens lands there. */
static void ensure_std_fds(void)
{
    for (int fd = 0; fd < 3; fd++)
        if (fcntl(fd, F_GETFD) < 0 && open("/dev/null", O_RDWR) < 0)
            _exit(MX_EXIT_LAUNCH);
}

/* The node map in the job's key/value space, under the key and in the format of MPICH's Hydra
 * (PMI_process_mapping = "(vector,(start node,nodes,ranks per node),...)"), so that ranks
 * need not exchange host names: every rank runs on this machine, node 0. With ranks on other
 * hosts (-bootstrap-exec) there is none: the ranks find their nodes by exchanging host keys. */
static int publish_node_map(struct mx_job *job)
{
    char map[64];
    if (job->opt.host_of)
        return 0;
    snprintf(map, sizeof map, "(vector,(0,1,%d))", job->n);
    return mx_kvs_put(job->kvs, "PMI_process_mapping", map);
}

static int setup(struct mx_job *job, sigset_t *old_mask)
{
    sigset_t block;

    job->ranks = calloc((size_t)job->n, sizeof *job->ranks);
    job->kvs = mx_kvs_new();
    if (!job->ranks || !job->kvs) {
        fprintf(stderr, "mpiexec: out of memory\n");
        return -1;
    }
    for (int i = 0; i < job->n; i++) {
        job->ranks[i].rank = i;
        job->ranks[i].pmi_fd = job->ranks[i].out_fd = job->ranks[i].err_fd = -1;
    }
    job->stdin_fd = job->stdin_pipe = job->sigfd = -1;
    if (mx_random_hex(job->jobid, 8) < 0 || mx_random_hex(job->secret, 16) < 0) {
        fprintf(stderr, "mpiexec: getrandom failed\n");
        return -1;
    }
    snprintf(job->kvsname, sizeof job->kvsname, "kvs_%s", job->jobid);
    if (publish_node_map(job) < 0) {
        fprintf(stderr, "mpiexec: out of memory\n");
        return -1;
    }
    job->devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
    sigemptyset(&block);
    sigaddset(&block, SIGCHLD);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGTERM);
    sigaddset(&block, SIGHUP);
    sigprocmask(SIG_BLOCK, &block, old_mask);
    job->sigfd = signalfd(-1, &block, SFD_CLOEXEC | SFD_NONBLOCK);
    if (job->devnull < 0 || job->sigfd < 0) {
        perror("mpiexec: setup");
        return -1;
    }
    signal(SIGPIPE, SIG_IGN); /* EPIPE instead; the ranks get the default back */
    if (job->opt.timeout > 0)
        job->deadline_ms = mx_now_ms() + (long long)(job->opt.timeout * 1000.0);
    return 0;
}

static void cleanup(struct mx_job *job)
{
    for (int i = 0; job->ranks && i < job->n; i++) {
        mx_buf_free(&job->ranks[i].pmi_out);
        mx_buf_free(&job->ranks[i].out_line);
        mx_buf_free(&job->ranks[i].err_line);
    }
    free(job->ranks);
    mx_kvs_free(job->kvs);
    mx_buf_free(&job->scratch);
    mx_buf_free(&job->stdin_buf);
    mx_buf_free(&job->outq[1]);
    mx_buf_free(&job->outq[2]);
    if (job->sigfd >= 0)
        close(job->sigfd);
    if (job->devnull >= 0)
        close(job->devnull);
    mx_free_opts(&job->opt);
    explicit_bzero(job->secret, sizeof job->secret);
}

int main(int argc, char **argv)
{
    struct mx_job job;
    sigset_t old_mask;
    int rc;

    memset(&job, 0, sizeof job);
    job.devnull = job.sigfd = -1;
    job.blame_rank = -1;
    rc = mx_parse_opts(argc, argv, &job.opt);
    if (rc != 0) {
        mx_free_opts(&job.opt);
        return rc > 0 ? 0 : MX_EXIT_USAGE;
    }
    ensure_std_fds();
    for (int p = 0; p < job.opt.nparts && rc == 0; p++)
        rc = mx_check_program(job.opt.parts[p].argv[0]);
    if (rc == 0 && job.opt.host_of)
        rc = mx_check_program(job.opt.bootstrap);
    if (rc != 0) {
        mx_free_opts(&job.opt);
        return rc;
    }
    job.n = job.opt.nranks;
    if (setup(&job, &old_mask) < 0) {
        cleanup(&job);
        return MX_EXIT_LAUNCH;
    }
    if (mx_spawn(&job, &old_mask) < 0)
        mx_end(&job, MX_EXIT_LAUNCH, SIGTERM, "could not start all %d ranks", job.n);
    mx_run(&job);
    mx_shm_sweep(job.jobid);
    rc = job.ending ? job.exit_code : job.failed ? job.failed_code : 0;
    cleanup(&job);
    return rc;
}
