/* abi_handles: the standard ABI's layout of MPI_Status and the values of its
 * predefined handles and constants, checked at compile and at run time. */
#include "check.h"
#include <stddef.h>
#include <stdint.h>

#define VALUE(h, v) CHECK_EQ_INT((intptr_t)(h), v)

int main(void)
{
    CHECK_EQ_INT(sizeof(MPI_Status), 8 * sizeof(int));
    CHECK_EQ_INT(offsetof(MPI_Status, MPI_SOURCE), 0);
    CHECK_EQ_INT(offsetof(MPI_Status, MPI_TAG), 4);
    CHECK_EQ_INT(offsetof(MPI_Status, MPI_ERROR), 8);
    CHECK_EQ_INT(MPI_F_STATUS_SIZE, 8);
    CHECK_EQ_INT(MPI_F_SOURCE, 0);
    CHECK_EQ_INT(MPI_F_TAG, 1);
    CHECK_EQ_INT(MPI_F_ERROR, 2);
    CHECK_EQ_INT(sizeof(MPI_Comm), sizeof(void *));
    CHECK_EQ_INT(sizeof(MPI_Aint), sizeof(intptr_t));
    CHECK_EQ_INT(sizeof(MPI_Fint), sizeof(int));

    VALUE(MPI_OP_NULL, 0x20);
    VALUE(MPI_SUM, 0x21);
    VALUE(MPI_COMM_NULL, 0x100);
    VALUE(MPI_COMM_WORLD, 257);
    VALUE(MPI_COMM_SELF, 0x102);
    VALUE(MPI_GROUP_NULL, 0x108);
    VALUE(MPI_GROUP_EMPTY, 0x109);
    VALUE(MPI_WIN_NULL, 0x110);
    VALUE(MPI_FILE_NULL, 0x118);
    VALUE(MPI_SESSION_NULL, 0x120);
    VALUE(MPI_MESSAGE_NULL, 0x128);
    VALUE(MPI_MESSAGE_NO_PROC, 0x129);
    VALUE(MPI_INFO_NULL, 0x130);
    VALUE(MPI_INFO_ENV, 0x131);
    VALUE(MPI_ERRHANDLER_NULL, 0x140);
    VALUE(MPI_ERRORS_ARE_FATAL, 0x141);
    VALUE(MPI_ERRORS_ABORT, 0x142);
    VALUE(MPI_ERRORS_RETURN, 0x143);
    VALUE(MPI_REQUEST_NULL, 0x180);
    VALUE(MPI_DATATYPE_NULL, 0x200);
    VALUE(MPI_INT, 0x209);
    VALUE(MPI_DOUBLE, 0x214);
    VALUE(MPI_BYTE, 0x247);
    CHECK_EQ_INT(MPI_ERR_COMM, 5);
    CHECK_EQ_INT(MPI_ERR_ARG, 13);
    CHECK_EQ_INT(MPI_ERR_LASTCODE, 0x3fff);

    /* the library agrees with the header */
    CHECK_SUCCESS(MPI_Init(NULL, NULL));
    CHECK_EQ_INT(MPI_Comm_toint(MPI_COMM_WORLD), 257);
    CHECK_EQ_INT(MPI_Type_toint(MPI_INT), 0x209);
    CHECK_SUCCESS(MPI_Finalize());
    return 0;
}
