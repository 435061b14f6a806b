/* thread_level: MPI_Init_thread(MPI_THREAD_MULTIPLE) gives the level EXPECTED names (single,
 * funneled, serialized, multiple): MULTIPLE, or what SWITCHYARD_THREAD_LEVEL lowers it to. */
#include "check.h"

int main(int argc, char **argv)
{
    static const char *const names[] = {"single", "funneled", "serialized", "multiple"};
    const int levels[] = {MPI_THREAD_SINGLE, MPI_THREAD_FUNNELED, MPI_THREAD_SERIALIZED, MPI_THREAD_MULTIPLE};
    const char *e = getenv("EXPECTED");
    int want = -1, provided = -1, queried = -1;
    for (int i = 0; e && i < 4; i++)
        if (strcmp(e, names[i]) == 0)
            want = levels[i];
    CHECK(want >= 0, "EXPECTED=%s is not a thread level", e ? e : "(unset)");
    CHECK_SUCCESS(MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided));
    CHECK(provided == want, "provided = %d, expected %s = %d", provided, e, want);
    CHECK_SUCCESS(MPI_Query_thread(&queried));
    CHECK_EQ_INT(queried, provided);
    CHECK_SUCCESS(MPI_Finalize());
    return 0;
}
