/* info_key_len.c — info keys are at most MPI_MAX_INFO_KEY - 1 characters (they fit with
 * their NUL in a buffer of MPI_MAX_INFO_KEY characters) on both C faces: 255 on the standard
 * ABI, 254 on the MPICH ABI; a longer key is MPI_ERR_INFO_KEY in every call taking a key. */
#include "check.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
#if defined(MPI_ABI_VERSION)
    CHECK_EQ_INT(MPI_MAX_INFO_KEY, 256); /* MPI-5.0's standard ABI */
#endif
    char key[MPI_MAX_INFO_KEY + 2], back[MPI_MAX_INFO_KEY], val[8];
    memset(key, 'k', sizeof key);
    key[MPI_MAX_INFO_KEY - 1] = '\0'; /* the longest key */
    MPI_Info info;
    MPI_Info_create(&info);
    CHECK_SUCCESS(MPI_Info_set(info, key, "v"));
    int nkeys = 0, flag = 0, vlen = 0;
    MPI_Info_get_nkeys(info, &nkeys);
    CHECK_EQ_INT(nkeys, 1);
    memset(back, 'X', sizeof back);
    CHECK_SUCCESS(MPI_Info_get_nthkey(info, 0, back)); /* fills the buffer exactly */
    CHECK(memchr(back, '\0', sizeof back) != NULL, "MPI_Info_get_nthkey wrote no NUL into %d characters",
          MPI_MAX_INFO_KEY);
    CHECK_EQ_INT((long long)strlen(back), MPI_MAX_INFO_KEY - 1);
    CHECK(strcmp(back, key) == 0, "MPI_Info_get_nthkey gave another key");
    CHECK_SUCCESS(MPI_Info_get_valuelen(info, key, &vlen, &flag));
    CHECK(flag && vlen == 1, "MPI_Info_get_valuelen: flag %d, length %d", flag, vlen);
    CHECK_SUCCESS(MPI_Info_get(info, key, sizeof val - 1, val, &flag));
    CHECK(flag && strcmp(val, "v") == 0, "MPI_Info_get: flag %d", flag);
    CHECK_SUCCESS(MPI_Info_delete(info, key));

    /* one character more */
    key[MPI_MAX_INFO_KEY - 1] = 'k';
    key[MPI_MAX_INFO_KEY] = '\0';
    char more[64];
    snprintf(more, sizeof more, "%d characters, more than MPI_MAX_INFO_KEY - 1 = %d", MPI_MAX_INFO_KEY,
             MPI_MAX_INFO_KEY - 1);
    CHECK_ERR(MPI_Info_set(info, key, "v"), MPI_ERR_INFO_KEY, "MPI_Info_set", "invalid argument 'key'", more);
    CHECK_ERR(MPI_Info_get(info, key, sizeof val - 1, val, &flag), MPI_ERR_INFO_KEY, "MPI_Info_get", more);
    CHECK_ERR(MPI_Info_get_valuelen(info, key, &vlen, &flag), MPI_ERR_INFO_KEY, "MPI_Info_get_valuelen", more);
    CHECK_ERR(MPI_Info_delete(info, key), MPI_ERR_INFO_KEY, "MPI_Info_delete", more);
    MPI_Info_get_nkeys(info, &nkeys);
    CHECK_EQ_INT(nkeys, 0);
    MPI_Info_free(&info);
    MPI_Finalize();
    return 0;
}
