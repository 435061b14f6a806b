/* p2p_copy_offsets: messages of 2 KiB to 40 KiB received into buffers 0 to 63 bytes past a page
 * boundary (where the library copies backward to dodge 4 KiB aliasing, type.h's rt__copy), and
 * one-sided gets into the same: every byte arrives, and nothing around the buffer is written. */
#include "check.h"

#include <stdint.h>

#define MAX (40 * 1024)
#define GUARD 64

static unsigned char expected(int size, int i)
{
    return (unsigned char)(size * 7 + i * 13 + (i >> 8));
}

/* Checks buf[0..size) and the GUARD bytes on each side (0xA5). */
static void check_buffer(const unsigned char *buf, int size, int off, const char *what)
{
    for (int i = -GUARD; i < size + GUARD; i++) {
        unsigned char want = i < 0 || i >= size ? 0xA5 : expected(size, i);
        CHECK(buf[i] == want, "%s: size %d, offset %d: byte %d is %d, not %d", what, size, off, i, buf[i], want);
    }
}

int main(int argc, char **argv)
{
    int rank, size;
    CHECK_SUCCESS(MPI_Init(&argc, &argv));
    CHECK_SUCCESS(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_SUCCESS(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK(size == 2, "needs 2 ranks, got %d", size);
    unsigned char *area = malloc(MAX + 3 * 4096), *src = malloc(MAX);
    CHECK(area && src, "out of memory");
    unsigned char *page = (unsigned char *)(((uintptr_t)area + 4095) & ~(uintptr_t)4095) + 4096;
    static const int offsets[] = {0, 1, 8, 16, 31, 48, 63};
    static const int sizes[] = {2048, 2049, 4096, 4111, 8192, 16384 + 60, 32768, MAX};
    unsigned char *wmem;
    MPI_Win w;
    CHECK_SUCCESS(MPI_Win_allocate(MAX, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &wmem, &w));
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
        int n = sizes[s];
        for (int i = 0; i < n; i++)
            src[i] = expected(n, i);
        CHECK_SUCCESS(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, w));
        memcpy(wmem, src, (size_t)n);
        CHECK_SUCCESS(MPI_Win_unlock(rank, w));
        CHECK_SUCCESS(MPI_Barrier(MPI_COMM_WORLD));
        for (size_t o = 0; o < sizeof offsets / sizeof *offsets; o++) {
            int off = offsets[o];
            unsigned char *buf = page + off;
            memset(buf - GUARD, 0xA5, (size_t)(n + 2 * GUARD));
            if (rank == 0) {
                CHECK_SUCCESS(MPI_Send(src, n, MPI_BYTE, 1, 0, MPI_COMM_WORLD));
            } else {
                CHECK_SUCCESS(MPI_Recv(buf, n, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
                check_buffer(buf, n, off, "MPI_Recv");
            }
            memset(buf - GUARD, 0xA5, (size_t)(n + 2 * GUARD));
            CHECK_SUCCESS(MPI_Win_lock(MPI_LOCK_SHARED, 1 - rank, 0, w));
            CHECK_SUCCESS(MPI_Get(buf, n, MPI_BYTE, 1 - rank, 0, n, MPI_BYTE, w));
            CHECK_SUCCESS(MPI_Win_unlock(1 - rank, w));
            check_buffer(buf, n, off, "MPI_Get");
        }
        CHECK_SUCCESS(MPI_Barrier(MPI_COMM_WORLD));
    }
    CHECK_SUCCESS(MPI_Win_free(&w));
    free(area);
    free(src);
    if (rank == 0)
        printf("p2p_copy_offsets: all checks passed\n");
    CHECK_SUCCESS(MPI_Finalize());
    return 0;
}
