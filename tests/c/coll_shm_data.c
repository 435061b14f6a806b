/* coll_shm_data.c — MPI_Bcast, MPI_Allreduce, MPI_Reduce, MPI_Reduce_scatter(_block) and
 * MPI_Allgather deliver every byte: sizes around and across chunk boundaries from every root,
 * strided types whose gaps stay untouched, sums checked exactly, MPI_IN_PLACE, a
 * non-commutative user op reduced in rank order, floating-point results bit-identical on every
 * rank, and a long random mix with barriers and late ranks; on MPI_COMM_WORLD, a dup and
 * halves. On Switchyard on one node, checks the collectives ran through the communicator's
 * shared region (unless SWITCHYARD_COLL_SHM=0 or TCP is forced). */
#include "check.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const int sizes[] = {0, 1, 7, 100, 4096, 16383, 16384, 16385, 32785, 65535, 131075, 300001};
enum { NSIZES = sizeof sizes / sizeof sizes[0], MIX = 2000 };

static unsigned char pattern(int root, int size, int i)
{
    return (unsigned char)(root * 31 + size * 7 + i * 13 + (i >> 8));
}

static void bcast_bytes(MPI_Comm comm, int me, int n, const char *what)
{
    unsigned char *buf = malloc(300001);
    for (int root = 0; root < n; root++)
        for (int k = 0; k < NSIZES; k++) {
            int size = sizes[k];
            for (int i = 0; i < size; i++)
                buf[i] = me == root ? pattern(root, size, i) : 0xEE;
            CHECK_SUCCESS(MPI_Bcast(buf, size, MPI_BYTE, root, comm));
            for (int i = 0; i < size; i++)
                CHECK(buf[i] == pattern(root, size, i), "%s: bcast of %d bytes from %d: byte %d is %d on rank %d",
                      what, size, root, i, buf[i], me);
        }
    free(buf);
}

/* count blocks of 3 ints every 5: the 2 ints between blocks are not the type's and stay as
 * they were on every receiver */
static void bcast_strided(MPI_Comm comm, int me, int n, const char *what)
{
    const int count = 4000; /* 48000 bytes of data: several chunks */
    MPI_Datatype vec;
    CHECK_SUCCESS(MPI_Type_vector(count, 3, 5, MPI_INT, &vec));
    CHECK_SUCCESS(MPI_Type_commit(&vec));
    int *buf = malloc(sizeof(int) * 5 * count);
    for (int root = 0; root < n; root++) {
        for (int i = 0; i < 5 * count; i++)
            buf[i] = me == root ? i * 3 + root : -7;
        CHECK_SUCCESS(MPI_Bcast(buf, 1, vec, root, comm));
        for (int i = 0; i < 5 * count; i++) {
            int want = i % 5 < 3 || me == root ? i * 3 + root : -7;
            CHECK(buf[i] == want, "%s: strided bcast from %d: int %d is %d, not %d", what, root, i, buf[i], want);
        }
    }
    free(buf);
    CHECK_SUCCESS(MPI_Type_free(&vec));
}

static void allreduce_sums(MPI_Comm comm, int me, int n, const char *what)
{
    static const int counts[] = {0, 1, 3, 4096, 4097, 12000, 70001};
    for (size_t k = 0; k < sizeof counts / sizeof counts[0]; k++) {
        int count = counts[k];
        long long *in = malloc(sizeof *in * (size_t)(count + 1)), *out = malloc(sizeof *out * (size_t)(count + 1));
        for (int in_place = 0; in_place < 2; in_place++) {
            for (int i = 0; i < count; i++) {
                in[i] = (long long)(me + 1) * (i + 1) + ((long long)me << 40);
                out[i] = in_place ? in[i] : -1;
            }
            CHECK_SUCCESS(MPI_Allreduce(in_place ? MPI_IN_PLACE : in, out, count, MPI_LONG_LONG, MPI_SUM, comm));
            long long ranks = (long long)n * (n + 1) / 2, shifted = ((long long)n * (n - 1) / 2) << 40;
            for (int i = 0; i < count; i++)
                CHECK(out[i] == ranks * (i + 1) + shifted, "%s: allreduce of %d (in place %d): element %d is %lld",
                      what, count, in_place, i, out[i]);
        }
        free(in);
        free(out);
    }
}

/* MPI_Reduce to every root: exact sums at the root (in place or not), the others' receive
 * buffers untouched */
static void reduce_sums(MPI_Comm comm, int me, int n, const char *what)
{
    static const int counts[] = {0, 1, 5, 4097, 12000, 70001};
    for (size_t k = 0; k < sizeof counts / sizeof counts[0]; k++)
        for (int root = 0; root < n; root++) {
            int count = counts[k], in_place = (root + (int)k) % 2 && me == root;
            int *in = malloc(sizeof(int) * (size_t)(count + 1)), *out = malloc(sizeof(int) * (size_t)(count + 1));
            for (int i = 0; i < count; i++) {
                in[i] = (me + 1) * (i % 1000 + 1);
                out[i] = in_place ? in[i] : -5;
            }
            CHECK_SUCCESS(MPI_Reduce(in_place ? MPI_IN_PLACE : in, out, count, MPI_INT, MPI_SUM, root, comm));
            for (int i = 0; i < count; i++) {
                int want = me == root ? n * (n + 1) / 2 * (i % 1000 + 1) : -5;
                CHECK(out[i] == want, "%s: reduce of %d to %d (in place %d): element %d is %d on rank %d, not %d",
                      what, count, root, in_place, i, out[i], me, want);
            }
            free(in);
            free(out);
        }
}

/* MPI_Reduce_scatter_block and MPI_Reduce_scatter (counts differing by rank): exact sums of
 * each rank's block, in place or not */
static void reduce_scatter_sums(MPI_Comm comm, int me, int n, const char *what)
{
    static const int blocks[] = {0, 1, 3, 1000, 5000};
    int *counts = malloc(sizeof(int) * (size_t)n);
    for (size_t k = 0; k < sizeof blocks / sizeof blocks[0]; k++)
        for (int v = 0; v < 2; v++)
            for (int in_place = 0; in_place < 2; in_place++) {
                int total = 0, lo = 0;
                for (int r = 0; r < n; r++) {
                    counts[r] = blocks[k] + (v ? r : 0);
                    if (r == me)
                        lo = total;
                    total += counts[r];
                }
                int *in = malloc(sizeof(int) * (size_t)(total + 1)), *out = malloc(sizeof(int) * (size_t)(total + 1));
                for (int j = 0; j < total; j++)
                    in[j] = (me + 1) * (j % 1000 + 1);
                if (in_place)
                    memcpy(out, in, sizeof(int) * (size_t)total);
                const void *send = in_place ? MPI_IN_PLACE : in;
                if (v)
                    CHECK_SUCCESS(MPI_Reduce_scatter(send, out, counts, MPI_INT, MPI_SUM, comm));
                else
                    CHECK_SUCCESS(MPI_Reduce_scatter_block(send, out, counts[0], MPI_INT, MPI_SUM, comm));
                for (int i = 0; i < counts[me]; i++)
                    CHECK(out[i] == n * (n + 1) / 2 * ((lo + i) % 1000 + 1),
                          "%s: reduce_scatter%s of %d (in place %d): element %d of rank %d is %d", what,
                          v ? "" : "_block", total, in_place, i, me, out[i]);
                free(in);
                free(out);
            }
    free(counts);
}

/* MPI_Allgather of blocks of bytes around and across chunk boundaries, in place or not; then
 * ints received through a strided type whose gaps stay untouched */
static void allgather_blocks(MPI_Comm comm, int me, int n, const char *what)
{
    static const int blocks[] = {0, 1, 40, 41, 1000, 16385, 70000};
    for (size_t k = 0; k < sizeof blocks / sizeof blocks[0]; k++) {
        int size = blocks[k], in_place = (int)k % 2;
        unsigned char *in = malloc((size_t)size + 1), *out = malloc((size_t)size * (size_t)n + 1);
        for (int i = 0; i < size; i++)
            in[i] = pattern(me, size, i);
        memset(out, 0xEE, (size_t)size * (size_t)n);
        if (in_place)
            memcpy(out + (size_t)me * (size_t)size, in, (size_t)size);
        CHECK_SUCCESS(MPI_Allgather(in_place ? MPI_IN_PLACE : in, size, MPI_BYTE, out, size, MPI_BYTE, comm));
        for (int r = 0; r < n; r++)
            for (int i = 0; i < size; i++)
                CHECK(out[(size_t)r * (size_t)size + (size_t)i] == pattern(r, size, i),
                      "%s: allgather of %d bytes (in place %d): byte %d of rank %d's block is %d on rank %d", what,
                      size, in_place, i, r, out[(size_t)r * (size_t)size + (size_t)i], me);
        free(in);
        free(out);
    }
    const int count = 3000; /* ints per block, received every other int */
    MPI_Datatype every_other, block;
    CHECK_SUCCESS(MPI_Type_vector(count, 1, 2, MPI_INT, &every_other));
    CHECK_SUCCESS(MPI_Type_create_resized(every_other, 0, (MPI_Aint)sizeof(int) * 2 * count, &block));
    CHECK_SUCCESS(MPI_Type_commit(&block));
    int *in = malloc(sizeof(int) * count), *out = malloc(sizeof(int) * 2 * count * (size_t)n);
    for (int i = 0; i < count; i++)
        in[i] = me * 100000 + i;
    for (int i = 0; i < 2 * count * n; i++)
        out[i] = -3;
    CHECK_SUCCESS(MPI_Allgather(in, count, MPI_INT, out, 1, block, comm));
    for (int r = 0; r < n; r++)
        for (int i = 0; i < 2 * count; i++) {
            int got = out[r * 2 * count + i], want = i % 2 ? -3 : r * 100000 + i / 2;
            CHECK(got == want, "%s: strided allgather: int %d of rank %d's block is %d, not %d", what, i, r, got, want);
        }
    free(in);
    free(out);
    CHECK_SUCCESS(MPI_Type_free(&block));
    CHECK_SUCCESS(MPI_Type_free(&every_other));
}

/* 2x2 integer matrices modulo 251, multiplied in rank order: not commutative */
static void matmul(void *invec, void *inoutvec, int *len, MPI_Datatype *type)
{
    (void)type;
    const int *a = invec;
    int *b = inoutvec;
    for (int e = 0; e < *len; e++, a += 4, b += 4) {
        int c[4] = {(a[0] * b[0] + a[1] * b[2]) % 251, (a[0] * b[1] + a[1] * b[3]) % 251,
                    (a[2] * b[0] + a[3] * b[2]) % 251, (a[2] * b[1] + a[3] * b[3]) % 251};
        memcpy(b, c, sizeof c);
    }
}

static void matrix_of(int rank, int e, int m[4])
{
    m[0] = 1 + (rank * 3 + e) % 7;
    m[1] = (rank + 2 * e) % 5;
    m[2] = (rank * e + 1) % 3;
    m[3] = 1 + (e + rank) % 4;
}

static void reduce_ordered(MPI_Comm comm, int me, int n, const char *what)
{
    const int count = 3000; /* 48000 bytes: several chunks */
    MPI_Datatype mat;
    MPI_Op op;
    CHECK_SUCCESS(MPI_Type_contiguous(4, MPI_INT, &mat));
    CHECK_SUCCESS(MPI_Type_commit(&mat));
    CHECK_SUCCESS(MPI_Op_create(matmul, 0, &op));
    int *in = malloc(sizeof(int) * 4 * count), *out = malloc(sizeof(int) * 4 * count);
    for (int e = 0; e < count; e++)
        matrix_of(me, e, in + 4 * e);
    for (int reduce = 0; reduce < 2; reduce++) { /* MPI_Allreduce, then MPI_Reduce to the last rank */
        int root = n - 1;
        memset(out, 0, sizeof(int) * 4 * count);
        if (reduce)
            CHECK_SUCCESS(MPI_Reduce(in, out, count, mat, op, root, comm));
        else
            CHECK_SUCCESS(MPI_Allreduce(in, out, count, mat, op, comm));
        for (int e = 0; e < count && (!reduce || me == root); e++) {
            int want[4], m[4], one = 1;
            matrix_of(0, e, want);
            for (int r = 1; r < n; r++) { /* want = want * M(r) */
                matrix_of(r, e, m);
                matmul(want, m, &one, &mat);
                memcpy(want, m, sizeof m);
            }
            CHECK(memcmp(want, out + 4 * e, sizeof want) == 0,
                  "%s: non-commutative %s: element %d is not the product in rank order on rank %d", what,
                  reduce ? "reduce" : "allreduce", e, me);
        }
    }
    free(in);
    free(out);
    CHECK_SUCCESS(MPI_Op_free(&op));
    CHECK_SUCCESS(MPI_Type_free(&mat));
}

/* sums whose rounding depends on the order: every rank must hold the same bits */
static void allreduce_same_bits(MPI_Comm comm, int me, const char *what)
{
    const int count = 5000;
    double *in = malloc(sizeof(double) * count), *out = malloc(sizeof(double) * count);
    double *first = malloc(sizeof(double) * count);
    for (int i = 0; i < count; i++)
        in[i] = (me % 2 ? 1e16 : 1.0) * (1 + (i % 13)) / (3.0 + me);
    CHECK_SUCCESS(MPI_Allreduce(in, out, count, MPI_DOUBLE, MPI_SUM, comm));
    memcpy(first, out, sizeof(double) * count);
    CHECK_SUCCESS(MPI_Bcast(first, count, MPI_DOUBLE, 0, comm));
    CHECK(memcmp(first, out, sizeof(double) * count) == 0, "%s: rank %d's double sums differ from rank 0's", what, me);
    free(in);
    free(out);
    free(first);
}

/* a random sequence (the same on every rank) of barriers, small bcasts and allreduces */
static void mix(MPI_Comm comm, int me, int n, const char *what)
{
    unsigned seed = 12345, late = (unsigned)me * 7 + 1;
    for (int round = 0; round < MIX; round++) {
        if (rand_r(&late) % 97 == 0)
            nanosleep(&(struct timespec){0, 10000 + rand_r(&late) % 50000}, NULL);
        unsigned pick = rand_r(&seed);
        int root = (int)(pick / 3 % (unsigned)n), len = 1 + (int)(pick / 7 % 40);
        int v[40];
        switch (pick % 4) {
        case 0:
            CHECK_SUCCESS(MPI_Barrier(comm));
            break;
        case 1:
            for (int i = 0; i < len; i++)
                v[i] = me == root ? round * 41 + i : -1;
            CHECK_SUCCESS(MPI_Bcast(v, len, MPI_INT, root, comm));
            for (int i = 0; i < len; i++)
                CHECK(v[i] == round * 41 + i, "%s: round %d bcast from %d: int %d is %d", what, round, root, i, v[i]);
            break;
        case 2: {
            int in[40];
            for (int i = 0; i < len; i++) {
                in[i] = round + i + me;
                v[i] = -1;
            }
            CHECK_SUCCESS(MPI_Reduce(in, v, len, MPI_INT, MPI_MIN, root, comm));
            for (int i = 0; me == root && i < len; i++)
                CHECK(v[i] == round + i, "%s: round %d reduce to %d: int %d is %d", what, round, root, i, v[i]);
            break;
        }
        default: {
            int in[40];
            for (int i = 0; i < len; i++)
                in[i] = round + i * me;
            CHECK_SUCCESS(MPI_Allreduce(in, v, len, MPI_INT, MPI_MAX, comm));
            for (int i = 0; i < len; i++)
                CHECK(v[i] == round + i * (n - 1), "%s: round %d allreduce: int %d is %d", what, round, i, v[i]);
        }
        }
    }
}

/* whether this process maps a collective region of Switchyard's (its segment is unlinked, so
 * only /proc/self/maps shows it) */
static int maps_region(void)
{
    FILE *f = fopen("/proc/self/maps", "r");
    char line[512];
    int found = 0;
    while (f && fgets(line, sizeof line, f))
        found |= strstr(line, "/switchyard-") && strstr(line, "-coll-");
    if (f)
        fclose(f);
    return found;
}

static void all(MPI_Comm comm, const char *what)
{
    int me, n;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &n);
    bcast_bytes(comm, me, n, what);
    bcast_strided(comm, me, n, what);
    allreduce_sums(comm, me, n, what);
    reduce_sums(comm, me, n, what);
    reduce_scatter_sums(comm, me, n, what);
    allgather_blocks(comm, me, n, what);
    reduce_ordered(comm, me, n, what);
    allreduce_same_bits(comm, me, what);
    mix(comm, me, n, what);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int me, np;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    all(MPI_COMM_WORLD, "MPI_COMM_WORLD");
    const char *off = getenv("SWITCHYARD_COLL_SHM"), *transport = getenv("SWITCHYARD_TRANSPORT");
    int expect = CHECK_SWITCHYARD && np > 1 && !(off && strcmp(off, "0") == 0) &&
                 !(transport && strcmp(transport, "tcp") == 0);
    if (expect)
        CHECK(maps_region(), "rank %d: the collectives did not run through a shared region", me);
    MPI_Comm dup, half;
    CHECK_SUCCESS(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    all(dup, "a dup");
    CHECK_SUCCESS(MPI_Comm_split(MPI_COMM_WORLD, me % 2, me, &half));
    all(half, "a half");
    CHECK_SUCCESS(MPI_Comm_free(&half));
    CHECK_SUCCESS(MPI_Comm_free(&dup));
    if (me == 0)
        printf("coll_shm_data: %d ranks, 5 collectives on 3 communicators\n", np);
    MPI_Finalize();
    return 0;
}
