/* pmi_wire.h — the PMI-1 wire format shared by the client (pmi.c) and mpiexec's server:
 * one line per message, space-separated key=value fields, the first one cmd=<name>. */
#ifndef SWITCHYARD_PMI_WIRE_H
#define SWITCHYARD_PMI_WIRE_H

#include <stddef.h>

#define RT__PMIW_MAX_FIELDS 16

/* The start of a cmd=abort message that says the process ended the job on a fatal error
 * (an error handler, a runtime failure), not by calling MPI_Abort. */
#define RT_FATAL_PREFIX "fatal error: "
/* The start of a cmd=abort message that says the process ended the job because a peer
 * process failed (its error was fatal): the launcher then looks for that failure first. */
#define RT_PEER_FAILED_PREFIX "peer failed: "

struct rt__pmiw_field {
    const char *key;
    const char *value;
};

/* A parsed line: f[0] is always cmd=<name>. Points into the line it was parsed from. */
struct rt__pmiw_msg {
    int n;
    struct rt__pmiw_field f[RT__PMIW_MAX_FIELDS];
};

/* Split line (NUL-terminated, newline removed) in place into fields. Every byte must be
 * printable ASCII (0x20-0x7e); fields are key=value separated by spaces, keys unique, the
 * first cmd=. A field whose key is listed in rest_keys (NULL-terminated, may be NULL) takes
 * the rest of the line as its value, spaces included. Returns 0, or -1 with *why set to a
 * static description of the fault. */
int rt__pmiw_parse(char *line, struct rt__pmiw_msg *m, const char *const *rest_keys,
                   const char **why);

/* The value of field key in m, or NULL when absent. */
const char *rt__pmiw_get(const struct rt__pmiw_msg *m, const char *key);

/* Parse value as a decimal int in [lo, hi] (whole string). Returns 0 and sets *out, or -1. */
int rt__pmiw_int(const char *value, long lo, long hi, int *out);

/* 1 when s is a valid key: 1..max_len printable non-space ASCII bytes without '='. */
int rt__pmiw_valid_key(const char *s, size_t max_len);

/* 1 when s is a valid value: 0..max_len printable non-space ASCII bytes. */
int rt__pmiw_valid_value(const char *s, size_t max_len);

/* Write a printable rendering of in[0..len) into out (size outsz >= 8, always
 * NUL-terminated): '\\' and '"' escaped, other non-printable bytes as \xNN, cut with "..."
 * when it does not fit. Returns out. */
char *rt__pmiw_escape(const char *in, size_t len, char *out, size_t outsz);

#endif
