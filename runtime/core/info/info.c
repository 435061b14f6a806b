/* info.c — MPI_Info objects: ordered key/value lists (a simple array), the whole MPI_Info
 * API and the read-only builtin MPI_INFO_ENV. */
#include "info.h"

#include <stdlib.h>

#define INFO_ENV ((rt_info *)rt_builtins[RT_B_INFO_ENV])

/* At load: MPI_INFO_ENV exists, empty and read-only (filled at init). */
void rt__info_builtins_init(void)
{
    INFO_ENV->readonly = 1;
}

/* Frees every entry of an info (o: an rt_info, user or builtin), leaving it empty. */
void rt__info_destroy(rt_obj *o)
{
    rt_info *info = (rt_info *)o;

    for (int i = 0; i < info->n; i++) {
        free(info->ent[i].key);
        free(info->ent[i].val);
    }
    free(info->ent);
    info->ent = NULL;
    info->n = info->cap = 0;
}

static int find(const rt_info *info, const char *key)
{
    for (int i = 0; i < info->n; i++)
        if (strcmp(info->ent[i].key, key) == 0)
            return i;
    return -1;
}

static char *dup_str(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);

    if (d)
        memcpy(d, s, n);
    return d;
}

/* Sets key = val (replacing a value in place, else appending). No checks, ignores
 * read-only. RT_SUCCESS or RT_ERR_NO_MEM (info unchanged). */
int rt__info_put(rt_info *info, const char *key, const char *val)
{
    int i = find(info, key);
    char *v = dup_str(val), *k;

    if (!v)
        return RT_ERR_NO_MEM;
    if (i >= 0) {
        free(info->ent[i].val);
        info->ent[i].val = v;
        return RT_SUCCESS;
    }
    if (info->n == info->cap) {
        int ncap = info->cap ? 2 * info->cap : 8;
        struct rt__info_ent *ne = realloc(info->ent, (size_t)ncap * sizeof *ne);

        if (!ne) {
            free(v);
            return RT_ERR_NO_MEM;
        }
        info->ent = ne;
        info->cap = ncap;
    }
    if (!(k = dup_str(key))) {
        free(v);
        return RT_ERR_NO_MEM;
    }
    info->ent[info->n].key = k;
    info->ent[info->n].val = v;
    info->n++;
    return RT_SUCCESS;
}

/* Argument checks shared by the entry points; each raises and returns the code. */
static int check_info(const char *fn, const rt_info *info)
{
    if (rt_obj_is(info, RT_CLASS_INFO))
        return RT_SUCCESS;
    return rt_raise(NULL, RT_ERR_INFO, fn, "invalid info object 'info'%s",
                    info ? "" : " (MPI_INFO_NULL)");
}

static int check_writable(const char *fn, const rt_info *info)
{
    int err = check_info(fn, info);

    if (err == RT_SUCCESS && info->readonly)
        err = rt_raise(NULL, RT_ERR_INFO, fn, "MPI_INFO_ENV cannot be modified");
    return err;
}

static int check_key(const char *fn, const char *key)
{
    size_t n;

    if (!key)
        return rt_raise(NULL, RT_ERR_INFO_KEY, fn, "invalid key 'key': NULL pointer");
    n = strnlen(key, RT_MAX_INFO_KEY);
    if (n == 0)
        return rt_raise(NULL, RT_ERR_INFO_KEY, fn, "invalid key: the empty string");
    if (n > RT_MAX_INFO_KEY - 1)
        return rt_raise(NULL, RT_ERR_INFO_KEY, fn, "invalid argument 'key' = '%.32s...': %zu characters, more "
                        "than MPI_MAX_INFO_KEY - 1 = %d", key, strlen(key), RT_MAX_INFO_KEY - 1);
    return RT_SUCCESS;
}

/* MPI_Info_create: *info = a new empty info (the caller owns it). */
int rt_Info_create(rt_info **info)
{
    rt_info *n;

    if (!info)
        return rt__null_arg(NULL, __func__, "info");
    n = (rt_info *)rt__obj_new(RT_CLASS_INFO);
    if (!n)
        return RT_ERR(NULL, RT_ERR_NO_MEM, "cannot create another info object");
    *info = n;
    return RT_SUCCESS;
}

/* MPI_Info_set: key = a copy of value (replaces an old value, keeps the key's position).
 * Bad/read-only info: RT_ERR_INFO; bad key: RT_ERR_INFO_KEY; value NULL: RT_ERR_ARG;
 * longer than MPI_MAX_INFO_VAL: RT_ERR_INFO_VALUE. */
int rt_Info_set(rt_info *info, const char *key, const char *value)
{
    int err;

    if ((err = check_writable(__func__, info)) || (err = check_key(__func__, key)))
        return err;
    if (!value)
        return rt__null_arg(NULL, __func__, "value");
    if (strnlen(value, RT_MAX_INFO_VAL + 1) > RT_MAX_INFO_VAL)
        return RT_ERR(NULL, RT_ERR_INFO_VALUE, "value of key '%s' is longer than "
                      "MPI_MAX_INFO_VAL = %d characters", key, RT_MAX_INFO_VAL);
    if (rt__info_put(info, key, value) != RT_SUCCESS)
        return RT_ERR(NULL, RT_ERR_NO_MEM, "out of memory setting key '%s'", key);
    return RT_SUCCESS;
}

/* MPI_Info_delete: removes key (later keys move up one place). Missing key:
 * RT_ERR_INFO_NOKEY; bad/read-only info: RT_ERR_INFO; bad key: RT_ERR_INFO_KEY. */
int rt_Info_delete(rt_info *info, const char *key)
{
    int err, i;

    if ((err = check_writable(__func__, info)) || (err = check_key(__func__, key)))
        return err;
    if ((i = find(info, key)) < 0)
        return RT_ERR(NULL, RT_ERR_INFO_NOKEY, "key '%s' is not in the info object", key);
    free(info->ent[i].key);
    free(info->ent[i].val);
    memmove(&info->ent[i], &info->ent[i + 1], (size_t)(info->n - i - 1) * sizeof info->ent[0]);
    info->n--;
    return RT_SUCCESS;
}

/* MPI_Info_get (deprecated): if key is set, *flag = 1 and value (valuelen+1 chars) gets
 * its first valuelen chars plus NUL; else *flag = 0. Negative valuelen: RT_ERR_ARG. */
int rt_Info_get(rt_info *info, const char *key, int valuelen, char *value, int *flag)
{
    int err, i;

    if ((err = check_info(__func__, info)) || (err = check_key(__func__, key)))
        return err;
    if (valuelen < 0)
        return RT_ERR(NULL, RT_ERR_ARG, "invalid argument 'valuelen' = %d", valuelen);
    if (!value)
        return rt__null_arg(NULL, __func__, "value");
    if (!flag)
        return rt__null_arg(NULL, __func__, "flag");
    i = find(info, key);
    *flag = i >= 0;
    if (i >= 0)
        rt__copy_str(value, (size_t)valuelen + 1, info->ent[i].val);
    return RT_SUCCESS;
}

/* MPI_Info_get_valuelen: if key is set, *flag = 1 and *valuelen = its value's length (no
 * NUL); else *flag = 0. */
int rt_Info_get_valuelen(rt_info *info, const char *key, int *valuelen, int *flag)
{
    int err, i;

    if ((err = check_info(__func__, info)) || (err = check_key(__func__, key)))
        return err;
    if (!valuelen)
        return rt__null_arg(NULL, __func__, "valuelen");
    if (!flag)
        return rt__null_arg(NULL, __func__, "flag");
    i = find(info, key);
    *flag = i >= 0;
    if (i >= 0)
        *valuelen = (int)strlen(info->ent[i].val);
    return RT_SUCCESS;
}

/* MPI_Info_get_string: if key is set, *flag = 1, value (*buflen chars on entry) gets the
 * value truncated to *buflen-1 chars plus NUL (nothing written if *buflen is 0), and
 * *buflen = value length + 1. Key not set: *flag = 0, *buflen unchanged. Negative
 * *buflen: RT_ERR_ARG. */
int rt_Info_get_string(rt_info *info, const char *key, int *buflen, char *value, int *flag)
{
    int err, i;

    if ((err = check_info(__func__, info)) || (err = check_key(__func__, key)))
        return err;
    if (!buflen)
        return rt__null_arg(NULL, __func__, "buflen");
    if (*buflen < 0)
        return RT_ERR(NULL, RT_ERR_ARG, "invalid argument '*buflen' = %d", *buflen);
    if (!value && *buflen > 0)
        return rt__null_arg(NULL, __func__, "value");
    if (!flag)
        return rt__null_arg(NULL, __func__, "flag");
    i = find(info, key);
    *flag = i >= 0;
    if (i < 0)
        return RT_SUCCESS;
    if (*buflen > 0)
        rt__copy_str(value, (size_t)*buflen, info->ent[i].val);
    *buflen = (int)strlen(info->ent[i].val) + 1;
    return RT_SUCCESS;
}

/* MPI_Info_get_nkeys: *nkeys = number of keys set. */
int rt_Info_get_nkeys(rt_info *info, int *nkeys)
{
    int err;

    if ((err = check_info(__func__, info)))
        return err;
    if (!nkeys)
        return rt__null_arg(NULL, __func__, "nkeys");
    *nkeys = info->n;
    return RT_SUCCESS;
}

/* MPI_Info_get_nthkey: key (MPI_MAX_INFO_KEY chars) = the n-th key (0-based, insertion
 * order). n outside [0, nkeys): RT_ERR_ARG. */
int rt_Info_get_nthkey(rt_info *info, int n, char *key)
{
    int err;

    if ((err = check_info(__func__, info)))
        return err;
    if (n < 0 || n >= info->n)
        return RT_ERR(NULL, RT_ERR_ARG, "invalid argument 'n' = %d: the info object has %d "
                      "key%s", n, info->n, info->n == 1 ? "" : "s");
    if (!key)
        return rt__null_arg(NULL, __func__, "key");
    rt__copy_str(key, RT_MAX_INFO_KEY, info->ent[n].key);
    return RT_SUCCESS;
}

/* MPI_Info_dup: *newinfo = a new info with the same keys, values and order (also of
 * MPI_INFO_ENV; the copy is writable). Out of memory: RT_ERR_NO_MEM. */
int rt_Info_dup(rt_info *info, rt_info **newinfo)
{
    rt_info *n;
    int err;

    if ((err = check_info(__func__, info)))
        return err;
    if (!newinfo)
        return rt__null_arg(NULL, __func__, "newinfo");
    n = (rt_info *)rt__obj_new(RT_CLASS_INFO);
    if (!n)
        return RT_ERR(NULL, RT_ERR_NO_MEM, "cannot create another info object");
    for (int i = 0; i < info->n; i++) {
        if (rt__info_put(n, info->ent[i].key, info->ent[i].val) != RT_SUCCESS) {
            rt__obj_release(&n->obj);
            return RT_ERR(NULL, RT_ERR_NO_MEM, "out of memory copying the info object");
        }
    }
    *newinfo = n;
    return RT_SUCCESS;
}

/* MPI_Info_free: frees *info (the user's reference) and sets *info = NULL. MPI_INFO_ENV or
 * not an info: RT_ERR_INFO. */
int rt_Info_free(rt_info **info)
{
    int err;

    if (!info)
        return rt__null_arg(NULL, __func__, "info");
    if ((err = check_writable(__func__, *info)))
        return err;
    rt__obj_release(&(*info)->obj);
    *info = NULL;
    return RT_SUCCESS;
}

/* MPI_Info_create_env: *info = a new info with the keys and values MPI_INFO_ENV gets from
 * MPI_Init with this argc/argv (argv may be NULL): "thread_level" is MPI_Init's level,
 * MPI_THREAD_SINGLE. The same before MPI_Init, after it and after MPI_Finalize. */
int rt_Info_create_env(int argc, char **argv, rt_info **info)
{
    rt_info *n;

    if (!info)
        return rt__null_arg(NULL, __func__, "info");
    n = (rt_info *)rt__obj_new(RT_CLASS_INFO);
    if (!n)
        return RT_ERR(NULL, RT_ERR_NO_MEM, "cannot create another info object");
    rt__info_fill_env(n, argc, argv, RT_THREAD_SINGLE);
    *info = n;
    return RT_SUCCESS;
}

/* At init: MPI_INFO_ENV is emptied and filled for this command line. */
void rt__info_env_init(int argc, char **argv, int thread_level)
{
    rt__info_destroy(&INFO_ENV->obj);
    rt__info_fill_env(INFO_ENV, argc, argv, thread_level);
}
