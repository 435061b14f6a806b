/* mapping.c — prints the launcher's PMI_process_mapping as this rank sees it (PMI client
 * only): "rank R: (vector,...)" or "rank R: absent". */
#include "pmi.h"

#include <stdio.h>

int main(void)
{
    int rank, size, appnum;
    char value[1024];
    if (rt__pmi_init(&rank, &size, &appnum) < 0)
        return 99;
    int found = rt__pmi_get("PMI_process_mapping", value, sizeof value) == 0;
    printf("rank %d: %s\n", rank, found ? value : "absent");
    return rt__pmi_finalize() < 0 ? 98 : 0;
}
