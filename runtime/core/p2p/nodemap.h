/* nodemap.h — the node of every world rank from the launcher's one PMI value,
 * PMI_process_mapping (Hydra's format; Switchyard's mpiexec serves it too). */
#ifndef SWITCHYARD_NODEMAP_H
#define SWITCHYARD_NODEMAP_H

/* The PMI key under which launchers publish the node map. */
#define RT_NODEMAP_KEY "PMI_process_mapping"

/* Fill node_of[0..size-1] (size >= 1) from value, "(vector,(S,N,P),(S,N,P),...)": each block
 * puts P consecutive ranks on node S, the next P on node S+1, ... up to node S+N-1 (N, P >= 1);
 * the blocks, in order, describe ranks 0, 1, ...; when they describe fewer than size ranks the
 * vector repeats from its first block (Hydra's wrap-around: "(vector,(0,2,1))" on 4 ranks is
 * nodes 0 1 0 1), the last round possibly cut short at size. Spaces may surround the numbers,
 * commas and parentheses. Returns 0, or -1 when value is malformed (other text, a sign,
 * a number over 9 digits, a count of 0, no block), when one round of the vector describes more
 * than size ranks, or when a node number is size or more; node_of is then unspecified. Pure:
 * the same value and size give the same answer on every rank. */
int rt__nodemap_parse(const char *value, int size, int *node_of);

#endif
