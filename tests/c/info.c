/* info: the whole MPI_Info API (create, set, get, get_valuelen, get_string,
 * nkeys, nthkey, delete, dup, free, MPI_INFO_ENV, create_env) and its errors. */
#include "check.h"

static void check_value(MPI_Info info, const char *key, const char *want)
{
    char buf[MPI_MAX_INFO_VAL + 1];
    int flag = 0, buflen = (int)sizeof buf, len = -1;

    CHECK_SUCCESS(MPI_Info_get_string(info, key, &buflen, buf, &flag));
    CHECK(flag, "key '%s' missing", key);
    CHECK(strcmp(buf, want) == 0, "'%s' = '%s', expected '%s'", key, buf, want);
    CHECK_EQ_INT(buflen, strlen(want) + 1);
    CHECK_SUCCESS(MPI_Info_get_valuelen(info, key, &len, &flag));
    CHECK(flag, "get_valuelen: key '%s' missing", key);
    CHECK_EQ_INT(len, strlen(want));
}

static void check_missing(MPI_Info info, const char *key)
{
    char buf[16];
    int flag = 1, buflen = (int)sizeof buf, len;

    CHECK_SUCCESS(MPI_Info_get_string(info, key, &buflen, buf, &flag));
    CHECK_EQ_INT(flag, 0);
    flag = 1;
    CHECK_SUCCESS(MPI_Info_get_valuelen(info, key, &len, &flag));
    CHECK_EQ_INT(flag, 0);
}

static void test_get_string(MPI_Info info)
{
    char buf[8];
    int flag = 0, buflen = 0;

    /* buflen 0: only the needed size (value + NUL) comes back */
    memset(buf, 'x', sizeof buf);
    CHECK_SUCCESS(MPI_Info_get_string(info, "alpha", &buflen, buf, &flag));
    CHECK_EQ_INT(flag, 1);
    CHECK_EQ_INT(buflen, 4);
    CHECK_EQ_INT(buf[0], 'x');
    /* a short buffer gets a truncated, terminated value */
    buflen = 3;
    CHECK_SUCCESS(MPI_Info_get_string(info, "alpha", &buflen, buf, &flag));
    CHECK(strcmp(buf, "un") == 0, "truncated value '%s', expected 'un'", buf);
    CHECK_EQ_INT(buflen, 4);
}

static void test_keys(MPI_Info info)
{
    char key[MPI_MAX_INFO_KEY + 1], val[MPI_MAX_INFO_VAL + 1];
    int n = -1, i, seen_a = 0, seen_b = 0, flag = 0;

    CHECK_SUCCESS(MPI_Info_get_nkeys(info, &n));
    CHECK_EQ_INT(n, 2);
    for (i = 0; i < n; i++) {
        CHECK_SUCCESS(MPI_Info_get_nthkey(info, i, key));
        seen_a += strcmp(key, "alpha") == 0;
        seen_b += strcmp(key, "beta") == 0;
    }
    CHECK(seen_a == 1 && seen_b == 1, "nthkey did not list alpha and beta once");
    /* MPI_Info_get: deprecated in MPI-4.0 but still present */
    CHECK_SUCCESS(MPI_Info_get(info, "beta", MPI_MAX_INFO_VAL, val, &flag));
    CHECK_EQ_INT(flag, 1);
    CHECK(strcmp(val, "two") == 0, "MPI_Info_get: '%s'", val);
    CHECK_SUCCESS(MPI_Info_get(info, "gamma", MPI_MAX_INFO_VAL, val, &flag));
    CHECK_EQ_INT(flag, 0);
}

static void test_errors(MPI_Info info)
{
    char key[MPI_MAX_INFO_KEY + 16], val[MPI_MAX_INFO_VAL + 16];

    CHECK_ERR(MPI_Info_delete(info, "no-such-key"), MPI_ERR_INFO_NOKEY, "MPI_Info_delete");
    memset(key, 'k', sizeof key - 1);
    key[sizeof key - 1] = '\0';
    CHECK_ERR(MPI_Info_set(info, key, "v"), MPI_ERR_INFO_KEY, "MPI_Info_set", "key");
    memset(val, 'v', sizeof val - 1);
    val[sizeof val - 1] = '\0';
    CHECK_ERR(MPI_Info_set(info, "k", val), MPI_ERR_INFO_VALUE, "MPI_Info_set", "value");
    CHECK_ERR(MPI_Info_get_nthkey(info, 99, key), MPI_ERR_ARG, "MPI_Info_get_nthkey");
}

static void test_env(int argc, char **argv)
{
    char key[MPI_MAX_INFO_KEY + 1], val[MPI_MAX_INFO_VAL + 1];
    int n = -1, i, flag, buflen;
    MPI_Info env = MPI_INFO_NULL;

    CHECK_SUCCESS(MPI_Info_get_nkeys(MPI_INFO_ENV, &n));
    CHECK(n >= 0, "MPI_INFO_ENV has %d keys", n);
    for (i = 0; i < n; i++) {
        CHECK_SUCCESS(MPI_Info_get_nthkey(MPI_INFO_ENV, i, key));
        buflen = (int)sizeof val;
        CHECK_SUCCESS(MPI_Info_get_string(MPI_INFO_ENV, key, &buflen, val, &flag));
        CHECK(flag, "MPI_INFO_ENV lists '%s' but has no value for it", key);
    }
    CHECK_SUCCESS(MPI_Info_create_env(argc, argv, &env));
    CHECK(env != MPI_INFO_NULL, "MPI_Info_create_env gave MPI_INFO_NULL");
    CHECK_SUCCESS(MPI_Info_get_nkeys(env, &n));
    CHECK(n >= 0, "MPI_Info_create_env info has %d keys", n);
    CHECK_SUCCESS(MPI_Info_free(&env));
}

/* MPI-4: the info procedures work before MPI_Init too */
static void test_before_init(int argc, char **argv)
{
    MPI_Info info = MPI_INFO_NULL;

    CHECK_SUCCESS(MPI_Info_create(&info));
    CHECK_SUCCESS(MPI_Info_set(info, "alpha", "early"));
    check_value(info, "alpha", "early");
    CHECK_SUCCESS(MPI_Info_free(&info));
    CHECK_SUCCESS(MPI_Info_create_env(argc, argv, &info));
    CHECK_SUCCESS(MPI_Info_free(&info));
    CHECK(info == MPI_INFO_NULL, "MPI_Info_free did not set MPI_INFO_NULL");
}

int main(int argc, char **argv)
{
    MPI_Info info = MPI_INFO_NULL, dup = MPI_INFO_NULL;
    int n = -1;

    test_before_init(argc, argv);
    CHECK_SUCCESS(MPI_Init(&argc, &argv));
    CHECK_SUCCESS(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_SUCCESS(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));

    CHECK_SUCCESS(MPI_Info_create(&info));
    CHECK(info != MPI_INFO_NULL, "MPI_Info_create gave MPI_INFO_NULL");
    CHECK_SUCCESS(MPI_Info_get_nkeys(info, &n));
    CHECK_EQ_INT(n, 0);
    CHECK_SUCCESS(MPI_Info_set(info, "alpha", "one"));
    CHECK_SUCCESS(MPI_Info_set(info, "beta", "two"));
    CHECK_SUCCESS(MPI_Info_set(info, "alpha", "uno")); /* replaces */
    check_value(info, "alpha", "uno");
    check_value(info, "beta", "two");
    check_missing(info, "gamma");
    test_get_string(info);
    test_keys(info);

    CHECK_SUCCESS(MPI_Info_dup(info, &dup));
    CHECK(dup != info && dup != MPI_INFO_NULL, "MPI_Info_dup gave a bad handle");
    CHECK_SUCCESS(MPI_Info_delete(dup, "beta"));
    check_missing(dup, "beta");
    check_value(dup, "alpha", "uno");
    check_value(info, "beta", "two"); /* the original is untouched */
    CHECK_SUCCESS(MPI_Info_get_nkeys(dup, &n));
    CHECK_EQ_INT(n, 1);

    test_errors(info);
    CHECK_SUCCESS(MPI_Info_free(&dup));
    CHECK(dup == MPI_INFO_NULL, "MPI_Info_free did not set MPI_INFO_NULL");
    CHECK_SUCCESS(MPI_Info_free(&info));
    CHECK(info == MPI_INFO_NULL, "MPI_Info_free did not set MPI_INFO_NULL");

    test_env(argc, argv);
    CHECK_SUCCESS(MPI_Finalize());
    return 0;
}
