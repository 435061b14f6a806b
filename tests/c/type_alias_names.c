/* type_alias_names.c — a predefined datatype with two names is called by the one the standard
 * names it (its synonym is the other): MPI_LONG_LONG_INT and MPI_C_COMPLEX, as MPICH and Open MPI
 * answer; and the synonyms are one handle. */
#include "check.h"

static void named(MPI_Datatype t, const char *what, const char *want)
{
    char name[MPI_MAX_OBJECT_NAME];
    int len = -1;
    CHECK_SUCCESS(MPI_Type_get_name(t, name, &len));
    CHECK(strcmp(name, want) == 0 && len == (int)strlen(want), "MPI_Type_get_name(%s) = '%s' (%d), not %s", what,
          name, len, want);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    CHECK(MPI_LONG_LONG == MPI_LONG_LONG_INT, "MPI_LONG_LONG and MPI_LONG_LONG_INT differ");
    CHECK(MPI_C_FLOAT_COMPLEX == MPI_C_COMPLEX, "MPI_C_FLOAT_COMPLEX and MPI_C_COMPLEX differ");
    named(MPI_LONG_LONG_INT, "MPI_LONG_LONG_INT", "MPI_LONG_LONG_INT");
    named(MPI_LONG_LONG, "MPI_LONG_LONG", "MPI_LONG_LONG_INT");
    named(MPI_C_COMPLEX, "MPI_C_COMPLEX", "MPI_C_COMPLEX");
    named(MPI_C_FLOAT_COMPLEX, "MPI_C_FLOAT_COMPLEX", "MPI_C_COMPLEX");
    named(MPI_UNSIGNED_LONG_LONG, "MPI_UNSIGNED_LONG_LONG", "MPI_UNSIGNED_LONG_LONG");
    MPI_Finalize();
    return 0;
}
