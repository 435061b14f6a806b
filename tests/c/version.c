/* version: MPI_Get_version and MPI_Get_library_version (also before
 * MPI_Init), MPI_Get_processor_name, MPI_Wtime and MPI_Wtick. */
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include "check.h"
#include <time.h>

static void check_versions(void)
{
    int version = -1, subversion = -1, len = -1;
    static char lib[MPI_MAX_LIBRARY_VERSION_STRING];

    CHECK_SUCCESS(MPI_Get_version(&version, &subversion));
    CHECK(version >= 4, "MPI version %d.%d < 4", version, subversion);
    CHECK_EQ_INT(version, MPI_VERSION);
    CHECK_EQ_INT(subversion, MPI_SUBVERSION);

    memset(lib, 'x', sizeof lib);
    CHECK_SUCCESS(MPI_Get_library_version(lib, &len));
    CHECK(len > 0 && len < MPI_MAX_LIBRARY_VERSION_STRING, "library version length %d", len);
    CHECK_EQ_INT(strlen(lib), len);
    if (!strncmp(lib, "Switchyard", 10)) /* it tells every transport and launcher it has */
        CHECK(strstr(lib, "shared memory") && strstr(lib, "TCP") && strstr(lib, "PMI-1") && strstr(lib, "Hydra"),
              "MPI_Get_library_version does not name the transports and launchers: %s", lib);
}

int main(void)
{
    char name[MPI_MAX_PROCESSOR_NAME];
    int len = -1, i;
    double t0, t1, tick;
    struct timespec ten_ms = {0, 10 * 1000 * 1000};

    check_versions(); /* allowed before MPI_Init */
    CHECK_SUCCESS(MPI_Init(NULL, NULL));
    check_versions();

    memset(name, 'x', sizeof name);
    CHECK_SUCCESS(MPI_Get_processor_name(name, &len));
    CHECK(len > 0 && len < MPI_MAX_PROCESSOR_NAME, "processor name length %d", len);
    CHECK_EQ_INT(strlen(name), len);

    tick = MPI_Wtick();
    CHECK(tick > 0.0 && tick < 1.0, "MPI_Wtick() = %g", tick);
    t0 = MPI_Wtime();
    for (i = 0; i < 1000; i++) {
        t1 = MPI_Wtime();
        CHECK(t1 >= t0, "MPI_Wtime went back: %.9f then %.9f", t0, t1);
        t0 = t1;
    }
    nanosleep(&ten_ms, NULL);
    t1 = MPI_Wtime();
    CHECK(t1 - t0 >= 0.009 && t1 - t0 < 5.0, "10 ms sleep measured as %g s", t1 - t0);

    CHECK_SUCCESS(MPI_Finalize());
    check_versions(); /* and after MPI_Finalize */
    return 0;
}
