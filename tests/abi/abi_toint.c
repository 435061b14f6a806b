/* abi_toint: MPI_<Class>_toint/fromint round trips for predefined, null and
 * user handles; toint of a predefined handle is its standard value and c2f. */
#include "check.h"
#include <stdint.h>

#define ROUND_TRIP(Class, h)                                                 \
    do {                                                                     \
        int i_ = MPI_##Class##_toint(h);                                     \
        CHECK(MPI_##Class##_fromint(i_) == (h), "MPI_" #Class "_fromint("    \
              "toint(%s)) is not %s (int %d)", #h, #h, i_);                  \
    } while (0)

int main(void)
{
    MPI_Info info;

    CHECK_SUCCESS(MPI_Init(NULL, NULL));
    ROUND_TRIP(Comm, MPI_COMM_WORLD);
    ROUND_TRIP(Comm, MPI_COMM_SELF);
    ROUND_TRIP(Comm, MPI_COMM_NULL);
    CHECK_EQ_INT(MPI_Comm_toint(MPI_COMM_WORLD), (intptr_t)MPI_COMM_WORLD);
    CHECK_EQ_INT(MPI_Comm_toint(MPI_COMM_WORLD), MPI_Comm_c2f(MPI_COMM_WORLD));
    CHECK_EQ_INT(MPI_Comm_toint(MPI_COMM_SELF), MPI_Comm_c2f(MPI_COMM_SELF));
    CHECK_EQ_INT(MPI_Comm_toint(MPI_COMM_NULL), MPI_Comm_c2f(MPI_COMM_NULL));

    CHECK_SUCCESS(MPI_Info_create(&info));
    ROUND_TRIP(Info, info);
    ROUND_TRIP(Info, MPI_INFO_NULL);
    ROUND_TRIP(Info, MPI_INFO_ENV);
    CHECK(MPI_Info_toint(info) != MPI_Info_toint(MPI_INFO_ENV),
          "a user info has the int of MPI_INFO_ENV");
    CHECK_EQ_INT(MPI_Info_toint(info), MPI_Info_c2f(info));
    CHECK_SUCCESS(MPI_Info_free(&info));

    ROUND_TRIP(Type, MPI_INT);
    ROUND_TRIP(Errhandler, MPI_ERRORS_RETURN);
    ROUND_TRIP(Group, MPI_GROUP_EMPTY);
    ROUND_TRIP(Op, MPI_SUM);
    ROUND_TRIP(Request, MPI_REQUEST_NULL);
    ROUND_TRIP(Win, MPI_WIN_NULL);
    ROUND_TRIP(Message, MPI_MESSAGE_NULL);
    CHECK_SUCCESS(MPI_Finalize());
    return 0;
}
