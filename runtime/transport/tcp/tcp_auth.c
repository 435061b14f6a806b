/* tcp_auth.c — the job's secret (from the launcher's environment, or drawn by rank 0 and shared
 * through the key-value space) and the HMAC-SHA256 that proves a connection belongs to the job. */
#define _GNU_SOURCE
#include "tcp.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include "rt_consts.h"

#define SECRET_KEY "swy.tcp.secret"
#define SECRET_MIN 32 /* hex digits: 128 bits */

int tcp_random(void *buf, size_t n)
{
    size_t got = 0;

    while (got < n) {
        ssize_t r = getrandom((unsigned char *)buf + got, n - got, 0);

        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return -1;
        got += (size_t)r;
    }
    return 0;
}

long long tcp_now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Whether s is hex text of SECRET_MIN..TCP_SECRET_MAX digits. */
static int good_secret(const char *s)
{
    size_t n = s ? strlen(s) : 0;

    if (n < SECRET_MIN || n > TCP_SECRET_MAX)
        return 0;
    return strspn(s, "0123456789abcdefABCDEF") == n;
}

static void take(const char *s)
{
    tcp_g.secret_len = strlen(s);
    memcpy(tcp_g.secret, s, tcp_g.secret_len);
}

int tcp_secret_init(const rt_tp_env *env)
{
    const char *s = getenv("SWITCHYARD_JOB_SECRET");
    unsigned char raw[32];
    char hex[2 * sizeof raw + 1];
    size_t i;

    tcp_g.secret_len = 0;
    if (good_secret(s)) {
        take(s);
        return 0;
    }
    if (env->world_rank != 0)
        return 0; /* tcp_secret_fetch, after the barrier */
    if (tcp_random(raw, sizeof raw) < 0)
        return RT_ERR_OTHER;
    for (i = 0; i < sizeof raw; i++)
        snprintf(hex + 2 * i, 3, "%02x", raw[i]);
    explicit_bzero(raw, sizeof raw);
    take(hex);
    explicit_bzero(hex, sizeof hex);
    return env->kvs_put(SECRET_KEY, (const char *)tcp_g.secret) < 0 ? RT_ERR_OTHER : 0;
}

int tcp_secret_fetch(const rt_tp_env *env)
{
    char val[TCP_SECRET_MAX + 1];

    if (tcp_g.secret_len)
        return 0;
    if (env->kvs_get(SECRET_KEY, val, sizeof val) < 0 || !good_secret(val))
        return RT_ERR_OTHER;
    take(val);
    explicit_bzero(val, sizeof val);
    return 0;
}

int tcp_mac(const unsigned char *nonce, int from, int to, unsigned char *out)
{
    static const char label[] = "switchyard-tcp-v1";
    unsigned char msg[sizeof label - 1 + TCP_NONCE + 8];
    unsigned len = TCP_MAC;
    size_t k = sizeof label - 1;
    int i;

    memcpy(msg, label, k);
    memcpy(msg + k, nonce, TCP_NONCE);
    k += TCP_NONCE;
    for (i = 3; i >= 0; i--)
        msg[k++] = (unsigned char)((uint32_t)from >> (8 * i));
    for (i = 3; i >= 0; i--)
        msg[k++] = (unsigned char)((uint32_t)to >> (8 * i));
    if (!tcp_g.secret_len || !HMAC(EVP_sha256(), tcp_g.secret, (int)tcp_g.secret_len, msg, k, out, &len) ||
        len != TCP_MAC)
        return -1;
    return 0;
}
