/* mpiexec_usage.c — mpiexec --help: the command line, what the ranks get, and the exit
 * codes. */
#include "mpiexec.h"

#include <stdio.h>

void mx_usage(void)
{
    printf(
        "usage: mpiexec [options] program [arguments]   (mpirun is the same command)\n"
        "       mpiexec [options] program [arguments] : [options] program [arguments] ...\n"
        "\n"
        "Runs N copies (ranks) of program on this machine as one MPI job. With ':' (MPMD),\n"
        "each part runs its own program with its own -n and -env; MPI_COMM_WORLD holds the\n"
        "parts' ranks in order, and MPI_APPNUM is the part's index (0, 1, ...). The other\n"
        "options apply to every part.\n"
        "\n"
        "options:\n"
        "  -n N, -np N            number of ranks (default 1, at most %d in all)\n"
        "  -env NAME VALUE        set NAME=VALUE in this part's ranks' environment\n"
        "  -genv NAME VALUE       set NAME=VALUE in every rank's environment\n"
        "  -x NAME[=VALUE]        the same; -x NAME passes NAME on (all of the environment\n"
        "                         is passed on anyway)\n"
        "  -l, --tag-output       prefix each line of output with \"[rank] \"\n"
        "  -host/-hosts LIST, -f FILE   hosts (NAME[:N]); only this machine's names are accepted\n"
        "  -ppn N                 processes per node (must cover -n: there is one node)\n"
        "  -genvall, -genvnone    pass the whole environment (the default), or none of it\n"
        "  --oversubscribe        accepted (never needed)\n"
        "  --version              the version\n"
        "  --timeout SECONDS      kill the job when it runs longer (exit code 124); the\n"
        "                         environment variable MPIEXEC_TIMEOUT sets it too\n"
        "  -disable-auto-cleanup  a failing rank (non-zero exit, a signal, an exit without\n"
        "                         finalizing) does not end the job: it is reported at once,\n"
        "                         the other ranks keep running (their communication with it\n"
        "                         fails: MPIX_ERR_PROC_FAILED), and mpiexec exits with the\n"
        "                         first failure's status once they ended (MPI_Abort, a PMI\n"
        "                         protocol error, a timeout still end the job)\n"
        "  -h, --help             this text\n"
        "  --                     ends the options\n"
        "\n"
        "Each rank gets PMI_FD, PMI_RANK, PMI_SIZE (PMI-1 on a socket), SWITCHYARD_JOBID and\n"
        "SWITCHYARD_JOB_SECRET; stdin goes to rank 0 only. When a rank fails (non-zero exit,\n"
        "a signal, an exit without finalizing, MPI_Abort, a PMI protocol error) all ranks are\n"
        "killed (but see -disable-auto-cleanup): SIGTERM, then SIGKILL 0.5 s later. At the\n"
        "end, /dev/shm entries whose name contains the job id are removed.\n"
        "\n"
        "exit status:\n"
        "  0        every rank exited with status 0\n"
        "  N        a rank called MPI_Abort with code N (its low 8 bits; 1 when those are 0\n"
        "           and N is not), or a rank exited\n"
        "           with status N != 0\n"
        "  128+N    a rank was killed by signal N, or mpiexec got signal N (INT, TERM, HUP)\n"
        "  %-3d      a rank broke the PMI protocol or exited 0 before finalizing\n"
        "  %-3d      bad command line\n"
        "  %-3d      --timeout expired\n"
        "  %-3d      mpiexec failed to start the job\n"
        "  %-3d/%-3d  program not executable / not found\n",
        MX_MAX_RANKS, MX_EXIT_PROTOCOL, MX_EXIT_USAGE, MX_EXIT_TIMEOUT, MX_EXIT_LAUNCH,
        MX_EXIT_NOEXEC, MX_EXIT_NOTFOUND);
}
