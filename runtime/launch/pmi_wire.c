/* pmi_wire.c — parsing and checking PMI-1 wire lines (cmd=<name> key=value ...), shared by
 * the runtime's PMI client and mpiexec's PMI server; never trusts its input. */
#include "pmi_wire.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int printable(unsigned char c)
{
    return c >= 0x20 && c <= 0x7e;
}

static int is_rest_key(const char *key, const char *const *rest_keys)
{
    for (; rest_keys && *rest_keys; rest_keys++)
        if (strcmp(key, *rest_keys) == 0)
            return 1;
    return 0;
}

int rt__pmiw_parse(char *line, struct rt__pmiw_msg *m, const char *const *rest_keys,
                   const char **why)
{
    char *p = line;

    m->n = 0;
    for (const char *q = line; *q; q++) {
        if (!printable((unsigned char)*q)) {
            *why = "non-printable byte";
            return -1;
        }
    }
    for (;;) {
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        char *key = p, *eq = NULL;
        while (*p && *p != ' ') {
            if (*p == '=' && !eq)
                eq = p;
            p++;
        }
        if (!eq || eq == key) {
            *why = eq ? "field without a key" : "field without '='";
            return -1;
        }
        if (m->n == RT__PMIW_MAX_FIELDS) {
            *why = "too many fields";
            return -1;
        }
        *eq = '\0';
        int rest = is_rest_key(key, rest_keys);
        if (!rest && *p)
            *p++ = '\0';
        for (int i = 0; i < m->n; i++) {
            if (strcmp(m->f[i].key, key) == 0) {
                *why = "duplicate field";
                return -1;
            }
        }
        m->f[m->n].key = key;
        m->f[m->n].value = eq + 1;
        m->n++;
        if (rest)
            break; /* the value runs to the end of the line */
    }
    if (m->n == 0 || strcmp(m->f[0].key, "cmd") != 0) {
        *why = "does not start with cmd=";
        return -1;
    }
    if (!m->f[0].value[0]) {
        *why = "empty command name";
        return -1;
    }
    return 0;
}

const char *rt__pmiw_get(const struct rt__pmiw_msg *m, const char *key)
{
    for (int i = 0; i < m->n; i++)
        if (strcmp(m->f[i].key, key) == 0)
            return m->f[i].value;
    return NULL;
}

int rt__pmiw_int(const char *value, long lo, long hi, int *out)
{
    char *end;
    long v;

    if (!value || !*value)
        return -1;
    errno = 0;
    v = strtol(value, &end, 10);
    if (errno || *end || v < lo || v > hi)
        return -1;
    *out = (int)v;
    return 0;
}

int rt__pmiw_valid_value(const char *s, size_t max_len)
{
    size_t n = 0;

    for (; s[n]; n++)
        if (n >= max_len || !printable((unsigned char)s[n]) || s[n] == ' ')
            return 0;
    return 1;
}

int rt__pmiw_valid_key(const char *s, size_t max_len)
{
    return s[0] && !strchr(s, '=') && rt__pmiw_valid_value(s, max_len);
}

char *rt__pmiw_escape(const char *in, size_t len, char *out, size_t outsz)
{
    size_t o = 0;

    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)in[i];
        char tmp[5];
        size_t k;
        if (c == '\\' || c == '"') {
            tmp[0] = '\\';
            tmp[1] = (char)c;
            k = 2;
        } else if (printable(c)) {
            tmp[0] = (char)c;
            k = 1;
        } else {
            snprintf(tmp, sizeof tmp, "\\x%02x", c);
            k = 4;
        }
        if (o + k + 4 > outsz) { /* room for "..." and the NUL */
            memcpy(out + o, "...", 3);
            o += 3;
            break;
        }
        memcpy(out + o, tmp, k);
        o += k;
    }
    out[o] = '\0';
    return out;
}
