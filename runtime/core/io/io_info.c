/* io_info.c — a file's hints: the keys this library knows (ROMIO's collective-buffering names,
 * striping, access style), their defaults (SWITCHYARD_IO_HINTS may change them), the valid values
 * a program gives; others ignored. */
#include "io.h"
#include "comm/comm.h"
#include "info/info.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int positive(const char *v)
{
    char *end;
    long long n = strtoll(v, &end, 10);
    return *v && !*end && n > 0;
}

static int tristate(const char *v)
{
    return strcmp(v, "enable") == 0 || strcmp(v, "disable") == 0 || strcmp(v, "automatic") == 0;
}

static int boolean(const char *v)
{
    return strcmp(v, "true") == 0 || strcmp(v, "false") == 0;
}

static int any(const char *v)
{
    return v[0] != '\0';
}

/* A hint: its default (NULL: none unless given) and what values are valid. */
static const struct hint {
    const char *key, *dflt;
    int (*valid)(const char *v);
} hints[] = {
    {"cb_buffer_size", "16777216", positive},
    {"cb_nodes", NULL, positive}, /* default: the file's nodes (nodes_of) */
    {"romio_cb_read", "automatic", tristate},
    {"romio_cb_write", "automatic", tristate},
    {"romio_no_indep_rw", "false", boolean},
    {"striping_factor", NULL, positive},
    {"striping_unit", NULL, positive},
    {"access_style", NULL, any},
    {"collective_buffering", "true", boolean},
    {"romio_ds_read", "automatic", tristate},
    {"ind_rd_buffer_size", "4194304", positive},
};

/* The value of key in info (NULL: none), or NULL. */
static const char *value_of(const rt_info *info, const char *key)
{
    for (int i = 0; info && i < info->n; i++)
        if (strcmp(info->ent[i].key, key) == 0)
            return info->ent[i].val;
    return NULL;
}

/* How many nodes the file's processes run on. */
static int nodes_of(rt_comm *comm)
{
    int n = 0;
    for (int r = 0; r < comm->size; r++) {
        int node = rt__node_of(rt__comm_world_rank(comm, r)), seen = 0;
        for (int q = 0; q < r && !seen; q++)
            seen = rt__node_of(rt__comm_world_rank(comm, q)) == node;
        n += !seen;
    }
    return n;
}

/* romio_cb_read/write's value: 0 disable, 1 enable, 2 automatic. */
static int cb_state(const char *v)
{
    return strcmp(v, "disable") == 0 ? 0 : strcmp(v, "enable") == 0 ? 1 : 2;
}

/* The value SWITCHYARD_IO_HINTS ("key=value,key=value") gives key, copied into buf, or NULL. */
static const char *env_hint(const char *key, char *buf, size_t n)
{
    const char *e = getenv("SWITCHYARD_IO_HINTS");
    size_t k = strlen(key);
    for (const char *p = e; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL) {
        if (strncmp(p, key, k) == 0 && p[k] == '=') {
            size_t len = strcspn(p + k + 1, ",");
            if (len >= n)
                return NULL;
            memcpy(buf, p + k + 1, len);
            buf[len] = '\0';
            return buf;
        }
    }
    return NULL;
}

int rt__io_hints(rt_file *fh, rt_info *info)
{
    rt_info *in = fh->info ? fh->info : NULL;
    rt_info *out = rt__info_copy(NULL);
    char env[RT_MAX_INFO_VAL];
    if (!out)
        return RT_ERR_NO_MEM;
    for (size_t i = 0; i < sizeof hints / sizeof *hints; i++) {
        const struct hint *h = &hints[i];
        const char *v = value_of(info, h->key);
        if (!(v && h->valid(v)))
            v = value_of(in, h->key); /* MPI_File_set_info keeps what it does not change */
        if (!v && (v = env_hint(h->key, env, sizeof env)) && !h->valid(v))
            v = NULL;
        if (!v)
            v = h->dflt;
        if (v && rt__info_put(out, h->key, v) != RT_SUCCESS) {
            rt__obj_release(&out->obj);
            return RT_ERR_NO_MEM;
        }
    }
    if (!value_of(out, "cb_nodes") && fh->comm) {
        char n[16];
        snprintf(n, sizeof n, "%d", nodes_of(fh->comm));
        if (rt__info_put(out, "cb_nodes", n) != RT_SUCCESS) {
            rt__obj_release(&out->obj);
            return RT_ERR_NO_MEM;
        }
    }
    if (fh->info)
        rt__obj_release(&fh->info->obj);
    fh->info = out;
    fh->cb_buffer = strtoll(value_of(out, "cb_buffer_size"), NULL, 10);
    fh->cb_nodes = value_of(out, "cb_nodes") ? atoi(value_of(out, "cb_nodes")) : 1;
    fh->cb_read = cb_state(value_of(out, "romio_cb_read"));
    fh->cb_write = cb_state(value_of(out, "romio_cb_write"));
    fh->ds_read = cb_state(value_of(out, "romio_ds_read")) != 0;
    fh->ds_buffer = strtoll(value_of(out, "ind_rd_buffer_size"), NULL, 10);
    return RT_SUCCESS;
}

/* MPI_File_set_info: collective; the valid values of the known hints in info replace those in
 * force; other keys are ignored, as the standard allows. */
int rt_File_set_info(rt_file *fh, rt_info *info)
{
    return rt__io_hints(fh, info) ? RT_ERR(fh, RT_ERR_NO_MEM, "out of memory") : RT_SUCCESS;
}

/* MPI_File_get_info: a new info object with the hints in force. */
int rt_File_get_info(rt_file *fh, rt_info **info_used)
{
    rt_info *info = rt__info_copy(fh->info);
    if (!info)
        return RT_ERR(fh, RT_ERR_NO_MEM, "out of memory");
    *info_used = info;
    return RT_SUCCESS;
}
