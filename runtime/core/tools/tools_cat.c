/* tools_cat.c — MPI_T categories (tools_vars.def): the root "switchyard" holds one category per
 * area, each area its control variables. No performance variables or events exist yet. */
#include "tools.h"

#include <string.h>

struct tools_cat {
    const char *name, *desc;
};

static const struct tools_cat cats[RT__TOOLS_NCAT] = {
#define TOOLS_CAT(id, name, desc) {name, desc},
#define TOOLS_CVAR(env, kind, en, verb, cat, desc)
#include "tools_vars.def"
#undef TOOLS_CAT
#undef TOOLS_CVAR
};

/* RT_SUCCESS when MPI_T is set up and c a category index, else the MPI_T error. */
static int cat_check(int c)
{
    int rc = rt__tools_ready();

    if (rc)
        return rc;
    return c >= 0 && c < RT__TOOLS_NCAT ? RT_SUCCESS : RT_T_ERR_INVALID_INDEX;
}

/* The control variables of category c, their indices into out (up to len of them, out may be
 * NULL when len is 0); returns how many it has. */
static int cvars_of(int c, int len, int *out)
{
    int n = 0;

    for (int i = 0; i < RT__TOOLS_NCVAR; i++)
        if (rt__tools_cvar_cat(i) == c) {
            if (n < len)
                out[n] = i;
            n++;
        }
    return n;
}

/* The subcategories of c into out likewise: the root holds every other one. */
static int cats_of(int c, int len, int *out)
{
    int n = 0;

    if (c != RT__TOOLS_CAT_ROOT)
        return 0;
    for (int i = 0; i < RT__TOOLS_NCAT; i++)
        if (i != RT__TOOLS_CAT_ROOT) {
            if (n < len)
                out[n] = i;
            n++;
        }
    return n;
}

int rt_T_category_get_num(int *num_cat)
{
    int rc = rt__tools_ready();

    if (rc)
        return rc;
    *num_cat = RT__TOOLS_NCAT;
    return RT_SUCCESS;
}

int rt_T_category_get_info(int cat_index, char *name, int *name_len, char *desc, int *desc_len,
                           int *num_cvars, int *num_pvars, int *num_categories)
{
    int rc = cat_check(cat_index);

    if (rc)
        return rc;
    rt__tools_str(name, name_len, cats[cat_index].name);
    rt__tools_str(desc, desc_len, cats[cat_index].desc);
    *num_cvars = cvars_of(cat_index, 0, NULL);
    *num_pvars = 0;
    *num_categories = cats_of(cat_index, 0, NULL);
    return RT_SUCCESS;
}

int rt_T_category_get_index(const char *name, int *cat_index)
{
    int rc = rt__tools_ready();

    if (rc)
        return rc;
    for (int i = 0; i < RT__TOOLS_NCAT; i++)
        if (strcmp(cats[i].name, name) == 0) {
            *cat_index = i;
            return RT_SUCCESS;
        }
    return RT_T_ERR_INVALID_NAME;
}

int rt_T_category_get_cvars(int cat_index, int len, int *indices)
{
    int rc = cat_check(cat_index);

    if (rc)
        return rc;
    cvars_of(cat_index, len, indices);
    return RT_SUCCESS;
}

int rt_T_category_get_categories(int cat_index, int len, int *indices)
{
    int rc = cat_check(cat_index);

    if (rc)
        return rc;
    cats_of(cat_index, len, indices);
    return RT_SUCCESS;
}

/* No performance variables yet: every category lists none. */
int rt_T_category_get_pvars(int cat_index, int len, int *indices)
{
    (void)len;
    (void)indices;
    return cat_check(cat_index);
}

/* No events yet: every category lists none. */
int rt_T_category_get_num_events(int cat_index, int *num_events)
{
    int rc = cat_check(cat_index);

    if (rc)
        return rc;
    *num_events = 0;
    return RT_SUCCESS;
}

int rt_T_category_get_events(int cat_index, int len, int *indices)
{
    (void)len;
    (void)indices;
    return cat_check(cat_index);
}

/* The categories never change while the program runs: their update number stays 0. */
int rt_T_category_changed(int *update_number)
{
    int rc = rt__tools_ready();

    if (rc)
        return rc;
    *update_number = 0;
    return RT_SUCCESS;
}
