/* info_env_times.c — MPI_Info_create_env gives the same keys and values before MPI_Init,
 * between init and finalize, and after MPI_Finalize; the same as MPI_INFO_ENV after MPI_Init. */
#include <mpi.h>

#include "check.h"

#define MAXKEYS 32

/* The keys and values of an info object. */
struct snap {
    int n;
    char key[MAXKEYS][MPI_MAX_INFO_KEY + 1];
    char val[MAXKEYS][MPI_MAX_INFO_VAL + 1];
};

static void take(MPI_Info info, struct snap *s)
{
    int flag, len;

    CHECK_SUCCESS(MPI_Info_get_nkeys(info, &s->n));
    CHECK(s->n >= 0 && s->n <= MAXKEYS, "%d keys", s->n);
    for (int i = 0; i < s->n; i++) {
        CHECK_SUCCESS(MPI_Info_get_nthkey(info, i, s->key[i]));
        len = MPI_MAX_INFO_VAL + 1;
        CHECK_SUCCESS(MPI_Info_get_string(info, s->key[i], &len, s->val[i], &flag));
        CHECK(flag, "key '%s' listed without a value", s->key[i]);
    }
}

/* MPI_Info_create_env(argc, argv) now. */
static void take_env(int argc, char **argv, struct snap *s)
{
    MPI_Info info = MPI_INFO_NULL;

    CHECK_SUCCESS(MPI_Info_create_env(argc, argv, &info));
    take(info, s);
    CHECK_SUCCESS(MPI_Info_free(&info));
}

/* a and b hold the same keys with the same values (in any order). */
static void same(const struct snap *a, const char *wa, const struct snap *b, const char *wb)
{
    for (int i = 0; i < a->n; i++) {
        int j = 0;

        while (j < b->n && strcmp(a->key[i], b->key[j]) != 0)
            j++;
        CHECK(j < b->n, "key '%s' is in %s, not in %s", a->key[i], wa, wb);
        CHECK(strcmp(a->val[i], b->val[j]) == 0, "key '%s': '%s' in %s, '%s' in %s",
              a->key[i], a->val[i], wa, b->val[j], wb);
    }
    CHECK(a->n == b->n, "%s has %d keys, %s has %d", wa, a->n, wb, b->n);
}

static struct snap before, during, after, env;

int main(int argc, char **argv)
{
    take_env(argc, argv, &before);
    CHECK_SUCCESS(MPI_Init(&argc, &argv));
    take_env(argc, argv, &during);
    take(MPI_INFO_ENV, &env);
    CHECK_SUCCESS(MPI_Finalize());
    take_env(argc, argv, &after);

    same(&before, "the info before MPI_Init", &during, "the info after MPI_Init");
    same(&during, "the info after MPI_Init", &after, "the info after MPI_Finalize");
    /* MPICH 4.0.2's MPI_Info_create_env is empty */
    if (CHECK_SWITCHYARD)
        same(&during, "MPI_Info_create_env", &env, "MPI_INFO_ENV");
    return 0;
}
