/* nodemap.c — parse PMI_process_mapping ("(vector,(start,nodes,ranks_per_node),...)") into
 * the node of every rank, strictly: anything unexpected is refused, never guessed. */
#include "nodemap.h"

#include <string.h>

#define NUM_DIGITS_MAX 9 /* keeps every product below 2^62 */

struct block {
    long start, nodes, ppn;
};

static void skip_space(const char **p)
{
    while (**p == ' ' || **p == '\t')
        (*p)++;
}

/* Consume c (after spaces); 0, or -1 when the next character is something else. */
static int expect(const char **p, char c)
{
    skip_space(p);
    if (**p != c)
        return -1;
    (*p)++;
    return 0;
}

/* Consume an unsigned decimal number of 1 to NUM_DIGITS_MAX digits (after spaces). */
static int number(const char **p, long *out)
{
    skip_space(p);
    long v = 0;
    int digits = 0;
    while (**p >= '0' && **p <= '9') {
        if (++digits > NUM_DIGITS_MAX)
            return -1;
        v = v * 10 + (**p - '0');
        (*p)++;
    }
    *out = v;
    return digits ? 0 : -1;
}

/* The next block at *p (just after "(vector" or a block): 1 with *b filled, 0 after the
 * closing ')' that ends the value, -1 when malformed. */
static int next_block(const char **p, struct block *b)
{
    skip_space(p);
    if (**p == ')') {
        (*p)++;
        skip_space(p);
        return **p ? -1 : 0;
    }
    if (expect(p, ',') || expect(p, '(') || number(p, &b->start) || expect(p, ',') ||
        number(p, &b->nodes) || expect(p, ',') || number(p, &b->ppn) || expect(p, ')'))
        return -1;
    return b->nodes >= 1 && b->ppn >= 1 ? 1 : -1;
}

/* After "(vector" at the start of value: the body, or NULL. */
static const char *body(const char *value)
{
    const char *p = value;
    if (expect(&p, '('))
        return NULL;
    skip_space(&p);
    if (strncmp(p, "vector", 6) != 0)
        return NULL;
    return p + 6;
}

int rt__nodemap_parse(const char *value, int size, int *node_of)
{
    const char *start = value ? body(value) : NULL;
    if (!start || size < 1)
        return -1;
    long round = 0; /* ranks one round of the vector describes */
    struct block b;
    int more;
    for (const char *p = start; (more = next_block(&p, &b)) == 1;) {
        if (b.start + b.nodes > size)
            return -1;
        round += b.nodes * b.ppn;
        if (round > size)
            return -1;
    }
    if (more < 0 || round == 0)
        return -1;
    for (int rank = 0; rank < size;) { /* every round, until size ranks have a node */
        for (const char *p = start; rank < size && next_block(&p, &b) == 1;)
            for (long node = b.start; rank < size && node < b.start + b.nodes; node++)
                for (long k = 0; rank < size && k < b.ppn; k++)
                    node_of[rank++] = (int)node;
    }
    return 0;
}
