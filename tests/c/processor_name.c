/* processor_name.c — MPI_Get_processor_name writes at most the face's MPI_MAX_PROCESSOR_NAME
 * characters (MPICH's is 128, the runtime's 256) with resultlen telling how many were written.
 * Linux host names stop at 64 characters, so this program defines gethostname itself (the
 * library's call binds to it) and answers a 200-character name. */
#include "check.h"

#include <unistd.h>

#define LONG_NAME 200
#define GUARD 300 /* bytes after the name buffer that must stay untouched */

static int calls;

/* The host name: 'a'..'z' repeated, LONG_NAME characters. */
static char fake_char(int i)
{
    return (char)('a' + i % 26);
}

int gethostname(char *name, size_t len)
{
    calls++;
    size_t i = 0;
    for (; i < LONG_NAME && i + 1 < len; i++)
        name[i] = fake_char((int)i);
    if (len > 0)
        name[i] = '\0';
    return 0;
}

int main(int argc, char **argv)
{
    static char buf[MPI_MAX_PROCESSOR_NAME + GUARD];
    MPI_Init(&argc, &argv);
    memset(buf, '#', sizeof buf);
    int len = -1;
    CHECK_SUCCESS(MPI_Get_processor_name(buf, &len));
    for (int i = MPI_MAX_PROCESSOR_NAME; i < (int)sizeof buf; i++)
        CHECK(buf[i] == '#', "byte %d past MPI_MAX_PROCESSOR_NAME = %d was written (resultlen %d)\n", i,
              MPI_MAX_PROCESSOR_NAME, len);
    CHECK(len >= 0 && len < MPI_MAX_PROCESSOR_NAME, "resultlen %d, MPI_MAX_PROCESSOR_NAME %d\n", len,
          MPI_MAX_PROCESSOR_NAME);
    CHECK(buf[len] == '\0' && (int)strlen(buf) == len, "strlen %zu, resultlen %d\n", strnlen(buf, sizeof buf), len);
    if (CHECK_SWITCHYARD) { /* the name is the host name cut to the face's limit */
        int want = LONG_NAME < MPI_MAX_PROCESSOR_NAME - 1 ? LONG_NAME : MPI_MAX_PROCESSOR_NAME - 1;
        CHECK(calls > 0, "the library did not call this program's gethostname\n");
        CHECK(len == want, "resultlen %d, expected %d (MPI_MAX_PROCESSOR_NAME %d)\n", len, want,
              MPI_MAX_PROCESSOR_NAME);
        for (int i = 0; i < len; i++)
            CHECK(buf[i] == fake_char(i), "character %d is '%c', expected '%c'\n", i, buf[i], fake_char(i));
    }
    printf("MPI_MAX_PROCESSOR_NAME %d, resultlen %d\n", MPI_MAX_PROCESSOR_NAME, len);
    MPI_Finalize();
    return 0;
}
