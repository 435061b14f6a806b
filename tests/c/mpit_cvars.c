/* mpit_cvars: the tools interface's setup, control variables, enumerations and categories:
 * every variable and category enumerated, metadata consistent, values from the environment. */
#include "check.h"

#define NAMELEN 256

/* rc must be MPI_T error code want (MPI_T calls return them, no error handler runs). */
#define CHECK_T(call, want)                                                                 \
    do {                                                                                    \
        int rc_ = (call);                                                                   \
        CHECK(rc_ == (want), "%s returned %d, expected %s = %d", #call, rc_, #want, (want)); \
    } while (0)

/* The items of enumeration e: their names unique, (Switchyard) a bad index refused. */
static void check_enum(MPI_T_enum e)
{
    int num = -1, len = NAMELEN;
    char name[NAMELEN], seen[64][NAMELEN];

    CHECK_SUCCESS(MPI_T_enum_get_info(e, &num, name, &len));
    CHECK(num >= 1 && num <= 64, "enum %s has %d items", name, num);
    CHECK_EQ_INT(len, (int)strlen(name) + 1);
    for (int i = 0; i < num; i++) {
        int value, ilen = NAMELEN;
        CHECK_SUCCESS(MPI_T_enum_get_item(e, i, &value, seen[i], &ilen));
        for (int j = 0; j < i; j++)
            CHECK(strcmp(seen[i], seen[j]) != 0, "enum %s: item %s twice", name, seen[i]);
    }
    if (CHECK_SWITCHYARD) {
        int value;
        CHECK_T(MPI_T_enum_get_item(e, num, &value, NULL, NULL), MPI_T_ERR_INVALID_ITEM);
        CHECK_T(MPI_T_enum_get_item(e, -1, &value, NULL, NULL), MPI_T_ERR_INVALID_ITEM);
    }
}

/* Control variable name's value read through a handle (an int one), or the text of a string one. */
static int read_int(const char *name)
{
    int idx, count, v = -12345;
    MPI_T_cvar_handle h;

    CHECK_SUCCESS(MPI_T_cvar_get_index(name, &idx));
    CHECK_SUCCESS(MPI_T_cvar_handle_alloc(idx, NULL, &h, &count));
    CHECK_EQ_INT(count, 1);
    CHECK_SUCCESS(MPI_T_cvar_read(h, &v));
    CHECK_SUCCESS(MPI_T_cvar_handle_free(&h));
    return v;
}

static void read_str(const char *name, char *buf, int n)
{
    int idx, count;
    MPI_T_cvar_handle h;

    CHECK_SUCCESS(MPI_T_cvar_get_index(name, &idx));
    CHECK_SUCCESS(MPI_T_cvar_handle_alloc(idx, NULL, &h, &count));
    CHECK(count >= 1 && count <= n, "%s: count %d", name, count);
    CHECK_SUCCESS(MPI_T_cvar_read(h, buf));
    CHECK_SUCCESS(MPI_T_cvar_handle_free(&h));
}

/* Every variable: info, name unique, index round trip, a read (handles of unbound ones). */
static int check_cvars(void)
{
    int num = -1;

    CHECK_SUCCESS(MPI_T_cvar_get_num(&num));
    CHECK(num >= 0 && num < 100000, "%d control variables", num);
    char (*names)[NAMELEN] = calloc((size_t)num + 1, NAMELEN);
    for (int i = 0; i < num; i++) {
        int len = 0, dlen = 0, verb, bind, scope, idx = -1, count = -1;
        MPI_Datatype dt;
        MPI_T_enum e;
        char desc[1024];

        /* lengths first: name NULL or a length 0 asks for it */
        CHECK_SUCCESS(MPI_T_cvar_get_info(i, NULL, &len, &verb, &dt, &e, NULL, &dlen, &bind, &scope));
        CHECK(len >= 2 && len <= NAMELEN, "cvar %d: name length %d", i, len);
        int want = len, dwant = dlen;
        len = NAMELEN, dlen = sizeof desc;
        CHECK_SUCCESS(MPI_T_cvar_get_info(i, names[i], &len, &verb, &dt, &e, desc, &dlen, &bind, &scope));
        CHECK_EQ_INT(len, want);
        CHECK_EQ_INT(len, (int)strlen(names[i]) + 1);
        CHECK(dlen == dwant || dwant > (int)sizeof desc, "cvar %s: desc length %d then %d", names[i], dwant, dlen);
        for (int j = 0; j < i; j++)
            CHECK(strcmp(names[i], names[j]) != 0, "cvar %s twice (%d and %d)", names[i], j, i);
        CHECK_SUCCESS(MPI_T_cvar_get_index(names[i], &idx));
        CHECK_EQ_INT(idx, i);
        if (e != MPI_T_ENUM_NULL)
            check_enum(e);
        if (CHECK_SWITCHYARD) {
            CHECK(strncmp(names[i], "switchyard_", 11) == 0, "cvar %s", names[i]);
            CHECK(dlen > 1, "cvar %s has no description", names[i]);
            CHECK(scope == MPI_T_SCOPE_READONLY, "cvar %s: scope %d", names[i], scope);
            CHECK(dt == MPI_INT || dt == MPI_DOUBLE || dt == MPI_CHAR, "cvar %s: its type", names[i]);
            CHECK((e != MPI_T_ENUM_NULL) <= (dt == MPI_INT), "cvar %s: an enum not of int", names[i]);
        }
        if (bind != MPI_T_BIND_NO_OBJECT)
            continue;
        MPI_T_cvar_handle h = MPI_T_CVAR_HANDLE_NULL;
        CHECK_SUCCESS(MPI_T_cvar_handle_alloc(i, NULL, &h, &count));
        CHECK(count >= 1 && count <= 4096, "cvar %s: count %d", names[i], count);
        char *buf = calloc((size_t)count, 16);
        CHECK_SUCCESS(MPI_T_cvar_read(h, buf));
        if (dt == MPI_CHAR)
            CHECK(memchr(buf, '\0', (size_t)count) != NULL, "cvar %s: no NUL in %d chars", names[i], count);
        if (CHECK_SWITCHYARD) /* every one is read once, from the environment */
            CHECK_T(MPI_T_cvar_write(h, buf), MPI_T_ERR_CVAR_SET_NEVER);
        free(buf);
        CHECK_SUCCESS(MPI_T_cvar_handle_free(&h));
        CHECK(h == MPI_T_CVAR_HANDLE_NULL, "cvar %s: the handle was not set to MPI_T_CVAR_HANDLE_NULL", names[i]);
    }
    free(names);
    return num;
}

/* Every category: info, name unique, index round trip, its cvars and subcategories valid;
 * (Switchyard) every cvar in exactly one category. */
static void check_categories(int ncvar)
{
    int num = -1, stamp = -1, stamp2 = -1;
    int *owner = malloc(sizeof(int) * ((size_t)ncvar + 1));

    for (int i = 0; i < ncvar; i++)
        owner[i] = -1;
    CHECK_SUCCESS(MPI_T_category_changed(&stamp));
    CHECK_SUCCESS(MPI_T_category_get_num(&num));
    CHECK(num >= 0 && num < 100000, "%d categories", num);
    char (*names)[NAMELEN] = calloc((size_t)num + 1, NAMELEN);
    for (int c = 0; c < num; c++) {
        int len = NAMELEN, dlen = 0, nc, np, ncat, idx = -1;
        CHECK_SUCCESS(MPI_T_category_get_info(c, names[c], &len, NULL, &dlen, &nc, &np, &ncat));
        CHECK_EQ_INT(len, (int)strlen(names[c]) + 1);
        CHECK(nc >= 0 && nc <= ncvar && np >= 0 && ncat >= 0 && ncat < num, "category %s: %d cvars, %d pvars, %d categories",
              names[c], nc, np, ncat);
        for (int j = 0; j < c; j++)
            CHECK(strcmp(names[c], names[j]) != 0, "category %s twice", names[c]);
        CHECK_SUCCESS(MPI_T_category_get_index(names[c], &idx));
        CHECK_EQ_INT(idx, c);
        int *ix = malloc(sizeof(int) * ((size_t)(nc > ncat ? nc : ncat) + 1));
        CHECK_SUCCESS(MPI_T_category_get_cvars(c, nc, ix));
        for (int k = 0; k < nc; k++) {
            CHECK(ix[k] >= 0 && ix[k] < ncvar, "category %s: cvar index %d", names[c], ix[k]);
            if (CHECK_SWITCHYARD)
                CHECK(owner[ix[k]] < 0, "cvar %d in categories %d and %d", ix[k], owner[ix[k]], c);
            owner[ix[k]] = c;
        }
        CHECK_SUCCESS(MPI_T_category_get_categories(c, ncat, ix));
        for (int k = 0; k < ncat; k++)
            CHECK(ix[k] >= 0 && ix[k] < num && ix[k] != c, "category %s: subcategory %d", names[c], ix[k]);
        free(ix);
        if (CHECK_SWITCHYARD) {
            CHECK_EQ_INT(np, 0); /* no performance variables yet */
            CHECK(dlen > 1, "category %s has no description", names[c]);
            CHECK(nc > 0 || ncat > 0, "category %s is empty", names[c]);
        }
    }
    if (CHECK_SWITCHYARD)
        for (int i = 0; i < ncvar; i++)
            CHECK(owner[i] >= 0, "cvar %d in no category", i);
    CHECK_SUCCESS(MPI_T_category_changed(&stamp2));
    CHECK_EQ_INT(stamp2, stamp);
    free(names);
    free(owner);
}

/* Values the testlist line's environment sets (or the defaults), and the string rules. */
static void check_values(void)
{
    const char *shm = getenv("SWITCHYARD_COLL_SHM"), *hints = getenv("SWITCHYARD_IO_HINTS");
    const char *bruck = getenv("SWITCHYARD_COLL_BRUCK_MIN"), *cma = getenv("SWITCHYARD_RMA_CMA_MIN");
    char buf[256];

    CHECK_EQ_INT(read_int("switchyard_coll_shm"), shm && !strcmp(shm, "0") ? 0 : 1);
    CHECK_EQ_INT(read_int("switchyard_coll_bruck_min"), bruck ? atoi(bruck) : 16);
    CHECK_EQ_INT(read_int("switchyard_rma_cma_min"), cma ? atoi(cma) : 16384);
    read_str("switchyard_io_hints", buf, sizeof buf);
    CHECK(strcmp(buf, hints ? hints : "") == 0, "switchyard_io_hints = \"%s\"", buf);

    /* thread level: an enum item whose name is the environment's level */
    const char *lvl = getenv("SWITCHYARD_THREAD_LEVEL");
    int idx, v = read_int("switchyard_thread_level"), value, len = sizeof buf, dlen = 0, verb, bind, scope;
    MPI_Datatype dt;
    MPI_T_enum e;
    CHECK_SUCCESS(MPI_T_cvar_get_index("switchyard_thread_level", &idx));
    CHECK_SUCCESS(MPI_T_cvar_get_info(idx, NULL, NULL, &verb, &dt, &e, NULL, &dlen, &bind, &scope));
    CHECK(e != MPI_T_ENUM_NULL && dt == MPI_INT, "switchyard_thread_level is no enum");
    CHECK_SUCCESS(MPI_T_enum_get_item(e, v, &value, buf, &len));
    CHECK_EQ_INT(value, v);
    CHECK(strcmp(buf, lvl ? lvl : "multiple") == 0, "switchyard_thread_level = %s", buf);

    /* truncation: 4 characters and the NUL, len says 5 */
    char name[8] = "xxxxxxx";
    len = 5;
    CHECK_SUCCESS(MPI_T_cvar_get_info(idx, name, &len, &verb, &dt, &e, NULL, NULL, &bind, &scope));
    CHECK_EQ_INT(len, 5);
    CHECK(strcmp(name, "swit") == 0 && name[5] == 'x', "truncated name \"%s\"", name);
    len = 5;
    CHECK_SUCCESS(MPI_T_category_get_info(0, name, &len, NULL, NULL, &v, &v, &v));
    CHECK_EQ_INT(len, 5);
    CHECK(strcmp(name, "swit") == 0, "truncated category name \"%s\"", name);
}

/* Indices, names and handles that do not exist. */
static void check_bad_input(int ncvar)
{
    int ncat, idx, count, v, verb, bind, scope, len = 0;
    MPI_Datatype dt;
    MPI_T_enum e;
    MPI_T_cvar_handle h;

    CHECK_SUCCESS(MPI_T_category_get_num(&ncat));
    CHECK_T(MPI_T_cvar_get_info(ncvar, NULL, &len, &verb, &dt, &e, NULL, &len, &bind, &scope), MPI_T_ERR_INVALID_INDEX);
    CHECK_T(MPI_T_cvar_get_info(-1, NULL, &len, &verb, &dt, &e, NULL, &len, &bind, &scope), MPI_T_ERR_INVALID_INDEX);
    CHECK_T(MPI_T_cvar_handle_alloc(ncvar, NULL, &h, &count), MPI_T_ERR_INVALID_INDEX);
    CHECK_T(MPI_T_category_get_info(ncat, NULL, &len, NULL, &len, &v, &v, &v), MPI_T_ERR_INVALID_INDEX);
    CHECK_T(MPI_T_category_get_cvars(ncat, 0, NULL), MPI_T_ERR_INVALID_INDEX);
    CHECK_T(MPI_T_category_get_categories(-1, 0, NULL), MPI_T_ERR_INVALID_INDEX);
    CHECK_T(MPI_T_cvar_get_index("switchyard_no_such_variable", &idx), MPI_T_ERR_INVALID_NAME);
    CHECK_T(MPI_T_category_get_index("switchyard_no_such_category", &idx), MPI_T_ERR_INVALID_NAME);
    if (!CHECK_SWITCHYARD)
        return;
    CHECK_T(MPI_T_category_get_num_events(ncat, &v), MPI_T_ERR_INVALID_INDEX);
    CHECK_T(MPI_T_category_get_pvars(ncat, 0, NULL), MPI_T_ERR_INVALID_INDEX);
    CHECK_SUCCESS(MPI_T_category_get_num_events(0, &v));
    CHECK_EQ_INT(v, 0);
    CHECK_T(MPI_T_cvar_read(MPI_T_CVAR_HANDLE_NULL, &v), MPI_T_ERR_INVALID_HANDLE);
    CHECK_T(MPI_T_cvar_write(MPI_T_CVAR_HANDLE_NULL, &v), MPI_T_ERR_INVALID_HANDLE);
    CHECK_T(MPI_T_enum_get_info(MPI_T_ENUM_NULL, &v, NULL, NULL), MPI_T_ERR_INVALID_HANDLE);
    CHECK_T(MPI_T_enum_get_info((MPI_T_enum)&v, &v, NULL, NULL), MPI_T_ERR_INVALID_HANDLE);
    CHECK_SUCCESS(MPI_T_cvar_handle_alloc(0, NULL, &h, &count));
    MPI_T_cvar_handle old = h;
    CHECK_SUCCESS(MPI_T_cvar_handle_free(&h));
    CHECK_T(MPI_T_cvar_read(old, &v), MPI_T_ERR_INVALID_HANDLE); /* freed */
    CHECK_T(MPI_T_cvar_handle_free(&old), MPI_T_ERR_INVALID_HANDLE);
    CHECK_T(MPI_T_cvar_handle_free(&h), MPI_T_ERR_INVALID_HANDLE); /* MPI_T_CVAR_HANDLE_NULL */
}

int main(int argc, char **argv)
{
    int provided = -1, num, flag;

    /* nothing works before MPI_T_init_thread */
    CHECK_T(MPI_T_cvar_get_num(&num), MPI_T_ERR_NOT_INITIALIZED);
    CHECK_T(MPI_T_category_get_num(&num), MPI_T_ERR_NOT_INITIALIZED);
    CHECK_T(MPI_T_cvar_get_index("switchyard_coll_shm", &num), MPI_T_ERR_NOT_INITIALIZED);
    CHECK_T(MPI_T_finalize(), MPI_T_ERR_NOT_INITIALIZED);

    /* before MPI_Init, nested twice */
    CHECK_SUCCESS(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided));
    CHECK_EQ_INT(provided, MPI_THREAD_SINGLE);
    CHECK_SUCCESS(MPI_T_init_thread(MPI_THREAD_MULTIPLE, &provided));
    CHECK(provided == MPI_THREAD_SINGLE || provided == MPI_THREAD_FUNNELED || provided == MPI_THREAD_SERIALIZED ||
          provided == MPI_THREAD_MULTIPLE, "provided %d", provided);
    CHECK_SUCCESS(MPI_Initialized(&flag));
    CHECK_EQ_INT(flag, 0);
    int ncvar = check_cvars();
    check_categories(ncvar);
    if (CHECK_SWITCHYARD) {
        check_values();
        check_bad_input(ncvar);
    }
    CHECK_SUCCESS(MPI_T_finalize()); /* one left */

    /* with MPI initialized */
    CHECK_SUCCESS(MPI_Init(&argc, &argv));
    CHECK_SUCCESS(MPI_T_cvar_get_num(&num));
    CHECK_EQ_INT(num, ncvar);
    check_categories(ncvar);
    if (CHECK_SWITCHYARD)
        check_values();
    check_bad_input(ncvar);
    CHECK_SUCCESS(MPI_Finalize());

    /* after MPI_Finalize: the last MPI_T_finalize, then nothing, then again */
    if (CHECK_SWITCHYARD) {
        CHECK_EQ_INT(check_cvars(), ncvar);
        check_values();
    }
    CHECK_SUCCESS(MPI_T_finalize());
    CHECK_T(MPI_T_cvar_get_num(&num), MPI_T_ERR_NOT_INITIALIZED);
    CHECK_T(MPI_T_finalize(), MPI_T_ERR_NOT_INITIALIZED);
    if (CHECK_SWITCHYARD) {
        CHECK_SUCCESS(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided));
        CHECK_EQ_INT(check_cvars(), ncvar);
        CHECK_SUCCESS(MPI_T_finalize());
    }
    printf("mpit_cvars: %d control variables\n", ncvar);
    return 0;
}
