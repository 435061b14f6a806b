/* p2p_alltoall_stress.c — every rank sends every other rank one message a round, sizes cycling
 * 0 B to 4 MiB, nonblocking (Irecv all, Isend all, Waitall), each carrying a checksum checked.
 * Usage: p2p_alltoall_stress [ROUNDS [NAME]]; with NAME, rank 0 prints "NAME NP SECONDS". */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Cycled by (round + sender + 3 * receiver): empty, tiny, eager, the rendezvous boundary and
 * odd sizes up to 4 MiB, so that every pair sees every kind over the rounds. */
static const int sizes[] = {0, 1, 1000, 32768, 65536 + 3, 262144, 1 << 20, (2 << 20) + 5,
                            3 << 20, 4 << 20};
#define NSIZES (int)(sizeof sizes / sizeof sizes[0])
#define MAXSIZE (4 << 20)

static int size_of(int round, int src, int dst)
{
    return sizes[(round + src + 3 * dst) % NSIZES];
}

/* Fills buf with n bytes from a generator seeded by (round, src, dst); a message of 16 bytes
 * or more carries in its first 8 the FNV-style checksum of the rest. */
static uint64_t checksum(const unsigned char *p, size_t n)
{
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 1099511628211ULL;
    return h;
}

static void fill(unsigned char *buf, int n, int round, int src, int dst)
{
    uint64_t s = ((uint64_t)round << 40) ^ ((uint64_t)src << 20) ^ (uint64_t)dst ^
                 0x9e3779b97f4a7c15ULL;
    for (int i = 0; i < n; i++) {
        if (i % 8 == 0) {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
        }
        buf[i] = (unsigned char)(s >> (8 * (i % 8)));
    }
    if (n >= 16) {
        uint64_t h = checksum(buf + 8, (size_t)n - 8);
        memcpy(buf, &h, 8);
    }
}

static int verify(const unsigned char *buf, int n, int got, int round, int src, int me)
{
    if (got != n) {
        fprintf(stderr, "round %d: %d bytes from rank %d, expected %d\n", round, got, src, n);
        return 1;
    }
    uint64_t h;
    if (n >= 16) {
        memcpy(&h, buf, 8);
        if (h != checksum(buf + 8, (size_t)n - 8)) {
            fprintf(stderr, "round %d: bad checksum of %d bytes from rank %d\n", round, n, src);
            return 1;
        }
    } else if (n > 0) { /* too short for a checksum: compared with the bytes sent */
        unsigned char want[16];
        fill(want, n, round, src, me);
        if (memcmp(want, buf, (size_t)n) != 0) {
            fprintf(stderr, "round %d: wrong %d bytes from rank %d\n", round, n, src);
            return 1;
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    int me, np, bad = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    int rounds = argc > 1 ? atoi(argv[1]) : 10;
    unsigned char **sbuf = malloc((size_t)np * sizeof *sbuf);
    unsigned char **rbuf = malloc((size_t)np * sizeof *rbuf);
    MPI_Request *req = malloc(2 * (size_t)np * sizeof *req);
    MPI_Status *st = malloc(2 * (size_t)np * sizeof *st);
    for (int p = 0; p < np; p++) {
        sbuf[p] = malloc(MAXSIZE);
        rbuf[p] = malloc(MAXSIZE);
        memset(rbuf[p], 0xa5, MAXSIZE);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (int r = 0; r < rounds; r++) {
        int nreq = 0;
        for (int i = 1; i < np; i++) {
            int src = (me - i + np) % np;
            MPI_Irecv(rbuf[src], MAXSIZE, MPI_BYTE, src, r, MPI_COMM_WORLD, &req[nreq++]);
        }
        for (int i = 1; i < np; i++) {
            int dst = (me + i) % np;
            fill(sbuf[dst], size_of(r, me, dst), r, me, dst);
            MPI_Isend(sbuf[dst], size_of(r, me, dst), MPI_BYTE, dst, r, MPI_COMM_WORLD,
                      &req[nreq++]);
        }
        MPI_Waitall(nreq, req, st);
        for (int i = 1; i < np; i++) {
            int src = (me - i + np) % np, got;
            MPI_Get_count(&st[i - 1], MPI_BYTE, &got);
            bad += verify(rbuf[src], size_of(r, src, me), got, r, src, me);
            if (st[i - 1].MPI_SOURCE != src || st[i - 1].MPI_TAG != r) {
                fprintf(stderr, "round %d: status says rank %d tag %d, expected %d %d\n", r,
                        st[i - 1].MPI_SOURCE, st[i - 1].MPI_TAG, src, r);
                bad++;
            }
        }
    }
    double t = MPI_Wtime() - t0, tmax;
    int allbad;
    MPI_Reduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    MPI_Allreduce(&bad, &allbad, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (me == 0 && argc > 2)
        printf("%s %d %.3f\n", argv[2], np, tmax);
    if (me == 0 && allbad)
        fprintf(stderr, "p2p_alltoall_stress: %d bad messages\n", allbad);
    for (int p = 0; p < np; p++) {
        free(sbuf[p]);
        free(rbuf[p]);
    }
    free(sbuf);
    free(rbuf);
    free(req);
    free(st);
    MPI_Finalize();
    return allbad != 0;
}
