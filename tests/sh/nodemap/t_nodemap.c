/* t_nodemap.c — unit test of rt__nodemap_parse (runtime/core/p2p/nodemap.c): valid node maps in
 * Hydra's PMI_process_mapping format, wrap-around, and malformed values refused. */
#include "nodemap.h"

#include <stdio.h>
#include <string.h>

static int fails;

/* value on size ranks must give the nodes in want ("0 0 1 1"), or be refused (want NULL). */
static void t(const char *value, int size, const char *want)
{
    int node_of[65];
    char got[400] = "", *g = got;
    for (int i = 0; i < 65; i++)
        node_of[i] = -7;
    int rc = rt__nodemap_parse(value, size, node_of);
    if (rc == 0)
        for (int r = 0; r < size; r++)
            g += sprintf(g, r ? " %d" : "%d", node_of[r]);
    if (node_of[size] != -7) {
        printf("FAIL '%s' on %d ranks: wrote past the end\n", value ? value : "(null)", size);
        fails++;
    } else if (want ? rc != 0 || strcmp(got, want) != 0 : rc != -1) {
        printf("FAIL '%s' on %d ranks: rc %d, nodes '%s', want %s\n", value ? value : "(null)",
               size, rc, got, want ? want : "refused");
        fails++;
    }
}

int main(void)
{
    /* one node; several; blocks of different shapes; spaces */
    t("(vector,(0,1,4))", 4, "0 0 0 0");
    t("(vector,(0,1,1))", 1, "0");
    t("(vector,(0,2,2))", 4, "0 0 1 1");
    t("(vector,(0,3,2))", 6, "0 0 1 1 2 2");
    t("(vector,(0,1,2),(1,2,1))", 4, "0 0 1 2");
    t("(vector,(1,1,1),(0,2,2))", 5, "1 0 0 1 1");
    t("(vector,(0,1,2),(0,1,2))", 4, "0 0 0 0");
    t(" ( vector , ( 0 , 2 , 2 ) ) ", 4, "0 0 1 1");
    t("(vector, (0,1,1), (1,5,3), (6,2,5))", 26,
      "0 1 1 1 2 2 2 3 3 3 4 4 4 5 5 5 6 6 6 6 6 7 7 7 7 7");
    /* wrap-around: the vector repeats until every rank has a node (Hydra's round robin) */
    t("(vector,(0,2,1))", 4, "0 1 0 1");
    t("(vector,(0,2,1))", 3, "0 1 0");
    t("(vector,(0,1,1))", 5, "0 0 0 0 0");
    t("(vector,(0,2,2))", 6, "0 0 1 1 0 0");
    t("(vector,(0,3,1))", 7, "0 1 2 0 1 2 0");
    /* malformed */
    const char *bad[] = {
        "", "(", "()", "(vector)", "(vector,)", "(vector,())", "(vector,(0,1,4)",
        "(vector,(0,1,4)))", "(vector,(0,1,4))x", "(vector,(0,1,4),)", "(vector,(0,1,4)(1,1,4))",
        "(vektor,(0,1,4))", "vector,(0,1,4))", "(vector(0,1,4))", "(hybrid,(0,1,4))",
        "(VECTOR,(0,1,4))", "(vector,(0,1))", "(vector,(0,1,4,5))", "(vector,(0,0,4))",
        "(vector,(0,1,0))", "(vector,(-1,1,4))", "(vector,(0,1,+4))", "(vector,(0,1,1.5))",
        "(vector,(0,1,0x4))", "(vector,(0,1,9999999999))", "(vector,(0,1,4 4))",
        "(vector,(a,1,4))", "(vector,(0,1,4))\n", "(vector,\t(0,1,4))\r",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        t(bad[i], 4, NULL);
    t(NULL, 4, NULL);
    t("(vector,(0,1,4))", 0, NULL);
    /* does not describe the job: one round longer than it, or a node number out of range */
    t("(vector,(0,1,4))", 3, NULL);
    t("(vector,(0,2,2))", 3, NULL);
    t("(vector,(0,1,2),(1,1,2))", 2, NULL);
    t("(vector,(5,1,1))", 4, NULL);
    t("(vector,(0,1,1),(4,1,1))", 4, NULL);
    t("(vector,(0,999999999,999999999))", 64, NULL);
    /* every proper prefix of a valid value is refused */
    const char *full = "(vector,(0,2,2),(2,1,1))";
    char cut[64];
    for (size_t n = 0; n < strlen(full); n++) {
        memcpy(cut, full, n);
        cut[n] = '\0';
        t(cut, 5, NULL);
    }
    t(full, 5, "0 0 1 1 2");
    if (fails)
        return 1;
    printf("nodemap parser: all cases pass\n");
    return 0;
}
