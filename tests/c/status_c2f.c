/* status_c2f: MPI_Status_c2f/f2c round trip keeps the public fields (at
 * MPI_F_SOURCE/TAG/ERROR) and the hidden count and cancelled flag. */
#include "check.h"

int main(void)
{
    MPI_Status s, back;
    MPI_Fint f[MPI_F_STATUS_SIZE];
    int count = -1, flag = -1;

    CHECK_SUCCESS(MPI_Init(NULL, NULL));
    memset(&s, 0, sizeof s);
    s.MPI_SOURCE = 3;
    s.MPI_TAG = 42;
    s.MPI_ERROR = MPI_ERR_TAG;
    CHECK_SUCCESS(MPI_Status_set_elements(&s, MPI_INT, 5));
    CHECK_SUCCESS(MPI_Status_set_cancelled(&s, 1));

    CHECK_SUCCESS(MPI_Status_c2f(&s, f));
    CHECK_EQ_INT(f[MPI_F_SOURCE], 3);
    CHECK_EQ_INT(f[MPI_F_TAG], 42);
    CHECK_EQ_INT(f[MPI_F_ERROR], MPI_ERR_TAG);

    memset(&back, 0xff, sizeof back);
    CHECK_SUCCESS(MPI_Status_f2c(f, &back));
    CHECK_EQ_INT(back.MPI_SOURCE, 3);
    CHECK_EQ_INT(back.MPI_TAG, 42);
    CHECK_EQ_INT(back.MPI_ERROR, MPI_ERR_TAG);
    CHECK_SUCCESS(MPI_Get_count(&back, MPI_INT, &count));
    CHECK_EQ_INT(count, 5);
    CHECK_SUCCESS(MPI_Test_cancelled(&back, &flag));
    CHECK_EQ_INT(flag, 1);

    CHECK_SUCCESS(MPI_Finalize());
    return 0;
}
