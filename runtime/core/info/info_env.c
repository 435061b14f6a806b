/* info_env.c — the contents of MPI_INFO_ENV and MPI_Info_create_env: command, argv,
 * maxprocs, wdir, host, arch and thread_level, found from argc/argv and the system. */
#include "info.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "pmi.h"

/* "MPI_THREAD_SINGLE" ... for a runtime thread level, NULL if it is not one. */
const char *rt__thread_level_name(int level)
{
    switch (level) {
    case RT_THREAD_SINGLE: return "MPI_THREAD_SINGLE";
    case RT_THREAD_FUNNELED: return "MPI_THREAD_FUNNELED";
    case RT_THREAD_SERIALIZED: return "MPI_THREAD_SERIALIZED";
    case RT_THREAD_MULTIPLE: return "MPI_THREAD_MULTIPLE";
    default: return NULL;
    }
}

/* Appends s to buf (size RT_MAX_INFO_VAL+1, holding len chars), space-separated,
 * truncating at MPI_MAX_INFO_VAL; returns the new length. */
static size_t append_word(char *buf, size_t len, const char *s)
{
    size_t room;

    if (len > 0 && len < RT_MAX_INFO_VAL)
        buf[len++] = ' ';
    room = RT_MAX_INFO_VAL - len;
    for (; *s && room > 0; s++, room--)
        buf[len++] = *s;
    buf[len] = '\0';
    return len;
}

/* The command line of this process from /proc/self/cmdline (Linux) when the caller gave
 * no argv: "command" = first word, "argv" = the others. */
static void put_cmdline_from_proc(rt_info *info)
{
    char raw[8192], args[RT_MAX_INFO_VAL + 1];
    size_t n, len = 0, i;
    FILE *f = fopen("/proc/self/cmdline", "r");

    if (!f)
        return;
    n = fread(raw, 1, sizeof raw - 1, f);
    fclose(f);
    if (n == 0)
        return;
    raw[n] = '\0';
    args[0] = '\0';
    append_word(args, 0, raw);
    rt__info_put(info, "command", args);
    args[0] = '\0';
    for (i = strlen(raw) + 1; i < n; i += strlen(raw + i) + 1)
        len = append_word(args, len, raw + i);
    rt__info_put(info, "argv", args);
}

/* The number of processes in the job: the world's size once MPI was initialized, before
 * that what the launcher announced, so that it reads the same at every time. */
static int job_size(void)
{
    return rt__g.life.state == RT_STATE_PRE_INIT ? rt__pmi_env_size() : rt__g.world.size;
}

/* Fills info (best effort, no errors raised) with: command, argv (space-separated, may
 * be cut at MPI_MAX_INFO_VAL), maxprocs (the job's size, also before init), wdir, host,
 * arch and, if thread_level >= 0, thread_level. argv NULL or empty: taken from
 * /proc/self/cmdline. */
void rt__info_fill_env(rt_info *info, int argc, char **argv, int thread_level)
{
    char buf[RT_MAX_INFO_VAL + 1];
    struct utsname un;
    const char *lvl;

    if (argv && argc > 0 && argv[0]) {
        size_t len = 0;

        buf[0] = '\0';
        append_word(buf, 0, argv[0]);
        rt__info_put(info, "command", buf);
        buf[0] = '\0';
        for (int i = 1; i < argc && argv[i]; i++)
            len = append_word(buf, len, argv[i]);
        rt__info_put(info, "argv", buf);
    } else {
        put_cmdline_from_proc(info);
    }
    snprintf(buf, sizeof buf, "%d", job_size());
    rt__info_put(info, "maxprocs", buf);
    if (getcwd(buf, sizeof buf))
        rt__info_put(info, "wdir", buf);
    if (gethostname(buf, sizeof buf) == 0) {
        buf[sizeof buf - 1] = '\0';
        rt__info_put(info, "host", buf);
    }
    if (uname(&un) == 0)
        rt__info_put(info, "arch", un.machine);
    if (thread_level >= 0 && (lvl = rt__thread_level_name(thread_level)) != NULL)
        rt__info_put(info, "thread_level", lvl);
}
