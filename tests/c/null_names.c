/* null_names.c — the null handles that MPI-4.1/5.0 accept: MPI_Comm/Type/Win_get_name give the
 * null handle's name (MPI-4.1), *_set_name still refuses it, and the handle conversions keep it. */
#include "check.h"

#define NAME_IS(call, want)                                                                  \
    do {                                                                                     \
        char name_[MPI_MAX_OBJECT_NAME] = "junk";                                            \
        int len_ = -1;                                                                       \
        CHECK_SUCCESS(call(name_, &len_));                                                   \
        CHECK(strcmp(name_, want) == 0, "%s gave \"%s\", expected \"%s\"", #call, name_, want); \
        CHECK_EQ_INT(len_, (int)strlen(want));                                               \
    } while (0)

#define COMM_NAME(n, l) MPI_Comm_get_name(MPI_COMM_NULL, n, l)
#define TYPE_NAME(n, l) MPI_Type_get_name(MPI_DATATYPE_NULL, n, l)
#define WIN_NAME(n, l) MPI_Win_get_name(MPI_WIN_NULL, n, l)
#define WORLD_NAME(n, l) MPI_Comm_get_name(MPI_COMM_WORLD, n, l)
#define INT_NAME(n, l) MPI_Type_get_name(MPI_INT, n, l)

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);

    NAME_IS(COMM_NAME, "MPI_COMM_NULL");
    NAME_IS(TYPE_NAME, "MPI_DATATYPE_NULL");
    NAME_IS(WIN_NAME, "MPI_WIN_NULL");
    NAME_IS(WORLD_NAME, "MPI_COMM_WORLD");
    NAME_IS(INT_NAME, "MPI_INT");

    /* setting a name on a null handle stays an error */
    CHECK_ERR(MPI_Comm_set_name(MPI_COMM_NULL, "x"), MPI_ERR_COMM, NULL);
    CHECK_ERR(MPI_Type_set_name(MPI_DATATYPE_NULL, "x"), MPI_ERR_TYPE, NULL);
    CHECK_ERR(MPI_Win_set_name(MPI_WIN_NULL, "x"), MPI_ERR_WIN, NULL);
    /* a null output pointer is still caught */
    {
        int len;
        CHECK_ERR(MPI_Comm_get_name(MPI_COMM_NULL, NULL, &len), MPI_ERR_ARG, NULL);
    }

    /* the language and integer conversions map null handles to null handles */
    CHECK(MPI_Comm_f2c(MPI_Comm_c2f(MPI_COMM_NULL)) == MPI_COMM_NULL, "comm c2f/f2c");
    CHECK(MPI_Type_f2c(MPI_Type_c2f(MPI_DATATYPE_NULL)) == MPI_DATATYPE_NULL, "type c2f/f2c");
    CHECK(MPI_Win_f2c(MPI_Win_c2f(MPI_WIN_NULL)) == MPI_WIN_NULL, "win c2f/f2c");
    CHECK(MPI_Group_f2c(MPI_Group_c2f(MPI_GROUP_NULL)) == MPI_GROUP_NULL, "group c2f/f2c");
    CHECK(MPI_Info_f2c(MPI_Info_c2f(MPI_INFO_NULL)) == MPI_INFO_NULL, "info c2f/f2c");
    CHECK(MPI_Op_f2c(MPI_Op_c2f(MPI_OP_NULL)) == MPI_OP_NULL, "op c2f/f2c");
    CHECK(MPI_Request_f2c(MPI_Request_c2f(MPI_REQUEST_NULL)) == MPI_REQUEST_NULL, "request c2f/f2c");
    CHECK(MPI_Errhandler_f2c(MPI_Errhandler_c2f(MPI_ERRHANDLER_NULL)) == MPI_ERRHANDLER_NULL, "errhandler c2f/f2c");
#if MPI_VERSION >= 5
    CHECK(MPI_Comm_fromint(MPI_Comm_toint(MPI_COMM_NULL)) == MPI_COMM_NULL, "comm toint/fromint");
    CHECK(MPI_Type_fromint(MPI_Type_toint(MPI_DATATYPE_NULL)) == MPI_DATATYPE_NULL, "type toint/fromint");
    CHECK(MPI_Win_fromint(MPI_Win_toint(MPI_WIN_NULL)) == MPI_WIN_NULL, "win toint/fromint");
    CHECK(MPI_Group_fromint(MPI_Group_toint(MPI_GROUP_NULL)) == MPI_GROUP_NULL, "group toint/fromint");
#endif

    MPI_Finalize();
    return 0;
}
