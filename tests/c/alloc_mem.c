/* alloc_mem: MPI_Alloc_mem/MPI_Free_mem give usable memory aligned to at
 * least 16 bytes, with or without an info; size 0 is allowed. */
#include "check.h"
#include <stdint.h>

static void try_size(MPI_Aint size, MPI_Info info)
{
    unsigned char *p = NULL;
    MPI_Aint i;

    CHECK_SUCCESS(MPI_Alloc_mem(size, info, &p));
    if (size == 0) {
        CHECK_SUCCESS(MPI_Free_mem(p)); /* p may be NULL or not */
        return;
    }
    CHECK(p != NULL, "MPI_Alloc_mem(%ld) gave NULL", (long)size);
    CHECK((uintptr_t)p % 16 == 0, "MPI_Alloc_mem(%ld) gave %p, not 16-aligned",
          (long)size, (void *)p);
    for (i = 0; i < size; i++)
        p[i] = (unsigned char)(i * 7);
    for (i = 0; i < size; i++)
        CHECK(p[i] == (unsigned char)(i * 7), "byte %ld of %ld changed", (long)i, (long)size);
    CHECK_SUCCESS(MPI_Free_mem(p));
}

int main(void)
{
    static const MPI_Aint sizes[] = {0, 1, 3, 16, 100, 4096, 1 << 20};
    void *ptrs[8];
    MPI_Info info;
    unsigned i, j;

    CHECK_SUCCESS(MPI_Init(NULL, NULL));
    CHECK_SUCCESS(MPI_Info_create(&info));
    CHECK_SUCCESS(MPI_Info_set(info, "mpi_minimum_memory_alignment", "64"));
    for (i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        try_size(sizes[i], MPI_INFO_NULL);
        try_size(sizes[i], info);
    }
    /* several blocks alive at once are distinct */
    for (i = 0; i < 8; i++)
        CHECK_SUCCESS(MPI_Alloc_mem(24, MPI_INFO_NULL, &ptrs[i]));
    for (i = 0; i < 8; i++)
        for (j = 0; j < i; j++)
            CHECK(ptrs[i] != ptrs[j], "live blocks %u and %u share an address", j, i);
    for (i = 0; i < 8; i++)
        CHECK_SUCCESS(MPI_Free_mem(ptrs[i]));
    CHECK_SUCCESS(MPI_Info_free(&info));
    CHECK_SUCCESS(MPI_Finalize());
    return 0;
}
