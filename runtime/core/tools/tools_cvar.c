/* tools_cvar.c — MPI_T control variables (tools_vars.def: one per environment variable that tunes
 * Switchyard, its value the one the runtime takes from the environment) and MPI_T enumerations. */
#include "tools.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ------------------------------------------------------------ enumerations */

struct tools_item {
    int value;
    const char *name;
};
struct tools_enum {
    const char *name;
    int n;
    const struct tools_item *items;
};

static const struct tools_item async_items[] = {{0, "off"}, {1, "always"}, {2, "on_demand"}};
static const struct tools_item thread_items[] = {{0, "single"}, {1, "funneled"}, {2, "serialized"}, {3, "multiple"}};
static const struct tools_enum enums[] = {
    {"switchyard_async_progress", 3, async_items},
    {"switchyard_thread_level", 4, thread_items},
};
enum { ENUM_NONE = -1, ENUM_ASYNC = 0, ENUM_THREAD = 1 };

/* The enumeration behind handle h, or NULL when h is not one. */
static const struct tools_enum *enum_of(const void *h)
{
    for (size_t i = 0; i < sizeof enums / sizeof enums[0]; i++)
        if (h == &enums[i])
            return &enums[i];
    return NULL;
}

int rt_T_enum_get_info(void *enumtype, int *num, char *name, int *name_len)
{
    const struct tools_enum *e = enum_of(enumtype);
    int rc = rt__tools_ready();

    if (rc)
        return rc;
    if (!e)
        return RT_T_ERR_INVALID_HANDLE;
    if (!num)
        return RT_T_ERR_INVALID;
    *num = e->n;
    rt__tools_str(name, name_len, e->name);
    return RT_SUCCESS;
}

int rt_T_enum_get_item(void *enumtype, int index, int *value, char *name, int *name_len)
{
    const struct tools_enum *e = enum_of(enumtype);
    int rc = rt__tools_ready();

    if (rc)
        return rc;
    if (!e)
        return RT_T_ERR_INVALID_HANDLE;
    if (index < 0 || index >= e->n)
        return RT_T_ERR_INVALID_ITEM;
    if (!value)
        return RT_T_ERR_INVALID;
    *value = e->items[index].value;
    rt__tools_str(name, name_len, e->items[index].name);
    return RT_SUCCESS;
}

/* ------------------------------------------------------------ the variables */

enum kind { K_OFF0, K_ON1, K_YES, K_NO, K_INT, K_DOUBLE, K_ENUM, K_STR };

struct tools_cvar {
    const char *env;  /* the environment variable; the cvar's name is it in lower case */
    enum kind kind;
    int en;           /* ENUM_*: the enumeration of a K_ENUM */
    int verbosity, cat;
    const char *desc;
};

static const struct tools_cvar cvars[RT__TOOLS_NCVAR] = {
#define TOOLS_CAT(id, name, desc)
#define TOOLS_CVAR(env, kind, en, verb, cat, desc) \
    {#env, K_##kind, ENUM_##en, RT_T_VERBOSITY_##verb, RT__TOOLS_CAT_##cat, desc},
#include "tools_vars.def"
#undef TOOLS_CAT
#undef TOOLS_CVAR
};

int rt__tools_cvar_cat(int i)
{
    return cvars[i].cat;
}

/* The integer rules of K_INT variables, as the runtime reads each (e: the environment's
 * value, NULL when unset). */
static int int_value(int i, const char *e)
{
    char *end;
    long n;

    switch (i) {
    case RT__TOOLS_CVAR_SWITCHYARD_TCP_SOCKBUF: /* tcp_ops.c */
        return e && atoi(e) > 0 ? atoi(e) : 0;
    case RT__TOOLS_CVAR_SWITCHYARD_CHANNELS: /* p2p_engine.c, channels_wanted: unset 0 (automatic), bad 1 */
        if (!e || !*e)
            return 0;
        n = strtol(e, &end, 10);
        return *end || n < 1 || n > 8 || (n & (n - 1)) ? 1 : (int)n;
    case RT__TOOLS_CVAR_SWITCHYARD_COLL_BRUCK_MIN: /* coll_algo.c */
        return e && atoi(e) >= 2 ? atoi(e) : 16;
    case RT__TOOLS_CVAR_SWITCHYARD_RMA_CMA_MIN: /* win_direct.c */
        n = e && *e ? atoi(e) : 16384;
        return n < 0 ? 0 : (int)n;
    }
    return 0;
}

/* The value of a K_ENUM variable: its item's value. */
static int enum_value(int i, const char *e)
{
    static const char *const levels[] = {"single", "funneled", "serialized", "multiple"};

    if (i == RT__TOOLS_CVAR_SWITCHYARD_ASYNC_PROGRESS) /* progress_thread.c */
        return e && (e[0] == '0' || e[0] == 'n' || e[0] == 'f') ? 0 : e && (e[0] == '1' || e[0] == 'y' || e[0] == 't') ? 1 : 2;
    if (!e || !*e) /* SWITCHYARD_THREAD_LEVEL, state.c: unset or not a level, multiple */
        return 3;
    const char *name = strncasecmp(e, "MPI_THREAD_", 11) == 0 ? e + 11 : e;
    for (int l = 0; l < 4; l++)
        if (strcasecmp(name, levels[l]) == 0)
            return l;
    return 3;
}

/* The seconds of SWITCHYARD_TCP_HANDSHAKE_TIMEOUT (tcp_ops.c): 1 when unset or not a number in (0, 1e6]. */
static double double_value(const char *e)
{
    char *end;
    double s;

    if (!e || !*e)
        return 1.0;
    s = strtod(e, &end);
    return *end || !(s > 0) || s > 1e6 ? 1.0 : s;
}

/* The value of variable i into buf (count elements of its type; count counts the NUL of a
 * string, which is cut to fit). */
static void read_value(int i, void *buf, int count)
{
    const char *e = getenv(cvars[i].env);
    int v = 0;

    switch (cvars[i].kind) {
    case K_OFF0: v = !(e && strcmp(e, "0") == 0); break;
    case K_ON1: v = e && strcmp(e, "1") == 0; break;
    case K_YES: v = e && (e[0] == '1' || e[0] == 'y' || e[0] == 't'); break;
    case K_NO: v = !(e && (e[0] == '0' || e[0] == 'n' || e[0] == 'f')); break;
    case K_INT: v = int_value(i, e); break;
    case K_ENUM: v = enum_value(i, e); break;
    case K_DOUBLE:
        *(double *)buf = double_value(e);
        return;
    case K_STR:
        rt__tools_str(buf, &count, e ? e : "");
        return;
    }
    *(int *)buf = v;
}

static int cvar_ok(int i)
{
    return i >= 0 && i < RT__TOOLS_NCVAR;
}

int rt_T_cvar_get_num(int *num_cvar)
{
    int rc = rt__tools_ready();

    if (rc)
        return rc;
    *num_cvar = RT__TOOLS_NCVAR;
    return RT_SUCCESS;
}

/* The cvar's name: its environment variable in lower case, into name (n bytes). */
static void lower_name(int i, char *name, size_t n)
{
    size_t k = 0;

    for (; cvars[i].env[k] && k + 1 < n; k++)
        name[k] = (char)(cvars[i].env[k] >= 'A' && cvars[i].env[k] <= 'Z' ? cvars[i].env[k] - 'A' + 'a' : cvars[i].env[k]);
    name[k] = '\0';
}

int rt_T_cvar_get_info(int cvar_index, char *name, int *name_len, int *verbosity, rt_type **datatype,
                       void **enumtype, char *desc, int *desc_len, int *bind, int *scope)
{
    char lower[64];
    int rc = rt__tools_ready();

    if (rc)
        return rc;
    if (!cvar_ok(cvar_index))
        return RT_T_ERR_INVALID_INDEX;
    const struct tools_cvar *c = &cvars[cvar_index];
    lower_name(cvar_index, lower, sizeof lower);
    rt__tools_str(name, name_len, lower);
    rt__tools_str(desc, desc_len, c->desc);
    *verbosity = c->verbosity;
    *datatype = (rt_type *)rt_builtins[c->kind == K_DOUBLE ? RT_B_DOUBLE : c->kind == K_STR ? RT_B_CHAR : RT_B_INT];
    if (enumtype)
        *enumtype = c->kind == K_ENUM ? (void *)&enums[c->en] : NULL;
    *bind = RT_T_BIND_NO_OBJECT;
    *scope = RT_T_SCOPE_READONLY;
    return RT_SUCCESS;
}

int rt_T_cvar_get_index(const char *name, int *cvar_index)
{
    char lower[64];
    int rc = rt__tools_ready();

    if (rc)
        return rc;
    for (int i = 0; i < RT__TOOLS_NCVAR; i++) {
        lower_name(i, lower, sizeof lower);
        if (strcmp(lower, name) == 0) {
            *cvar_index = i;
            return RT_SUCCESS;
        }
    }
    return RT_T_ERR_INVALID_NAME;
}

/* ------------------------------------------------------------ handles */

struct tools_handle {
    struct tools_handle *next; /* the live handles (library lock) */
    int index, count;
};
static struct tools_handle *live;

/* The live handle h, or NULL when h is not one. */
static struct tools_handle *handle_of(const void *h)
{
    for (struct tools_handle *p = live; p; p = p->next)
        if (p == h)
            return p;
    return NULL;
}

int rt_T_cvar_handle_alloc(int cvar_index, void *obj_handle, void **handle, int *count)
{
    int rc = rt__tools_ready();
    struct tools_handle *h;

    (void)obj_handle; /* every variable binds no object */
    if (rc)
        return rc;
    if (!cvar_ok(cvar_index))
        return RT_T_ERR_INVALID_INDEX;
    if (!handle)
        return RT_T_ERR_INVALID;
    if (!(h = calloc(1, sizeof *h)))
        return RT_T_ERR_MEMORY;
    h->index = cvar_index;
    if (cvars[cvar_index].kind == K_STR) { /* the text now, with its NUL */
        const char *e = getenv(cvars[cvar_index].env);
        h->count = (int)strlen(e ? e : "") + 1;
    } else {
        h->count = 1;
    }
    h->next = live;
    live = h;
    *handle = h;
    *count = h->count;
    return RT_SUCCESS;
}

int rt_T_cvar_handle_free(void **handle)
{
    int rc = rt__tools_ready();
    struct tools_handle **pp;

    if (rc)
        return rc;
    if (!handle)
        return RT_T_ERR_INVALID_HANDLE;
    for (pp = &live; *pp && *pp != *handle; pp = &(*pp)->next)
        ;
    if (!*pp)
        return RT_T_ERR_INVALID_HANDLE;
    *pp = (*pp)->next;
    free(*handle);
    *handle = NULL; /* MPI_T_CVAR_HANDLE_NULL */
    return RT_SUCCESS;
}

void rt__tools_cvar_handles_free(void)
{
    while (live) {
        struct tools_handle *h = live;
        live = h->next;
        free(h);
    }
}

int rt_T_cvar_read(void *handle, void *buf)
{
    int rc = rt__tools_ready();
    const struct tools_handle *h = handle_of(handle);

    if (rc)
        return rc;
    if (!h)
        return RT_T_ERR_INVALID_HANDLE;
    if (!buf)
        return RT_T_ERR_INVALID;
    read_value(h->index, buf, h->count);
    return RT_SUCCESS;
}

/* Every variable is read by the runtime once, from the environment: none can be written. */
int rt_T_cvar_write(void *handle, const void *buf)
{
    int rc = rt__tools_ready();

    (void)buf;
    if (rc)
        return rc;
    if (!handle_of(handle))
        return RT_T_ERR_INVALID_HANDLE;
    return RT_T_ERR_CVAR_SET_NEVER;
}
