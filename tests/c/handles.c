/* handles: MPI_<Class>_c2f/f2c round trips for predefined, null and user
 * handles of every class, and distinct Fortran values for distinct handles. */
#include "check.h"

#define ROUND_TRIP(Class, h)                                                 \
    do {                                                                     \
        MPI_Fint f_ = MPI_##Class##_c2f(h);                                  \
        CHECK(MPI_##Class##_f2c(f_) == (h), "MPI_" #Class "_f2c(c2f(%s)) "   \
              "is not %s (Fortran value %d)", #h, #h, (int)f_);              \
    } while (0)

#define DISTINCT(Class, a, b)                                                \
    CHECK(MPI_##Class##_c2f(a) != MPI_##Class##_c2f(b),                      \
          "%s and %s have the same Fortran value", #a, #b)

int main(void)
{
    MPI_Info info;
    MPI_Errhandler eh;

    CHECK_SUCCESS(MPI_Init(NULL, NULL));

    ROUND_TRIP(Comm, MPI_COMM_WORLD);
    ROUND_TRIP(Comm, MPI_COMM_SELF);
    ROUND_TRIP(Comm, MPI_COMM_NULL);
    DISTINCT(Comm, MPI_COMM_WORLD, MPI_COMM_SELF);
    DISTINCT(Comm, MPI_COMM_WORLD, MPI_COMM_NULL);

    ROUND_TRIP(Type, MPI_INT);
    ROUND_TRIP(Type, MPI_DOUBLE);
    ROUND_TRIP(Type, MPI_DATATYPE_NULL);
    DISTINCT(Type, MPI_INT, MPI_DOUBLE);

    CHECK_SUCCESS(MPI_Info_create(&info));
    ROUND_TRIP(Info, info);
    ROUND_TRIP(Info, MPI_INFO_NULL);
    ROUND_TRIP(Info, MPI_INFO_ENV);
    DISTINCT(Info, info, MPI_INFO_ENV);
    CHECK_SUCCESS(MPI_Info_free(&info));

    CHECK_SUCCESS(MPI_Comm_get_errhandler(MPI_COMM_WORLD, &eh));
    ROUND_TRIP(Errhandler, eh);
    CHECK_SUCCESS(MPI_Errhandler_free(&eh));
    ROUND_TRIP(Errhandler, MPI_ERRORS_ARE_FATAL);
    ROUND_TRIP(Errhandler, MPI_ERRORS_RETURN);
    ROUND_TRIP(Errhandler, MPI_ERRHANDLER_NULL);
    DISTINCT(Errhandler, MPI_ERRORS_ARE_FATAL, MPI_ERRORS_RETURN);

    ROUND_TRIP(Group, MPI_GROUP_EMPTY);
    ROUND_TRIP(Group, MPI_GROUP_NULL);
    ROUND_TRIP(Op, MPI_SUM);
    ROUND_TRIP(Op, MPI_MAX);
    ROUND_TRIP(Op, MPI_OP_NULL);
    DISTINCT(Op, MPI_SUM, MPI_MAX);
    ROUND_TRIP(Request, MPI_REQUEST_NULL);
    ROUND_TRIP(Win, MPI_WIN_NULL);
    ROUND_TRIP(Message, MPI_MESSAGE_NULL);
    ROUND_TRIP(Message, MPI_MESSAGE_NO_PROC);

    CHECK_SUCCESS(MPI_Finalize());
    return 0;
}
