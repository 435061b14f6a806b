/* abort: MPI_Abort(MPI_COMM_WORLD, 7) in a singleton ends the process with
 * exit status 7. */
#include "check.h"

int main(void)
{
    CHECK_SUCCESS(MPI_Init(NULL, NULL));
    MPI_Abort(MPI_COMM_WORLD, 7);
    fprintf(stderr, "abort: MPI_Abort returned\n");
    return 2;
}
