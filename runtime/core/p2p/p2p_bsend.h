/* p2p_bsend.h — buffered sends' links with the parts above (p2p_bsend.c): the session a
 * communicator derives from (its buffer serves the communicator's MPI_Bsend), and cleanup. */
#ifndef RT_P2P_BSEND_H
#define RT_P2P_BSEND_H

#include "p2p.h"

/* New communicator c derives from session s (NULL: from none; then nothing is done): c's
 * buffered sends use s's buffer when c has none. Holds a reference to s. RT_SUCCESS or
 * RT_ERR_NO_MEM (raises nothing). */
int rt__bsend_comm_set_session(rt_comm *c, rt_session *s);
/* The session communicator c derives from (no new reference), or NULL. */
rt_session *rt__bsend_comm_session(const rt_comm *c);
/* Communicator c is being destroyed (no buffered send of it is pending then, since each holds
 * a reference to c): frees its buffer attachment and drops its session reference. */
void rt__bsend_comm_gone(rt_comm *c);
/* Why a buffered send on comm found no room (RT_ERR_BUFFER), naming the buffer it used: the
 * communicator's, its session's, the process's, MPI_BUFFER_AUTOMATIC (out of memory), or none. */
const char *rt__bsend_no_room(const rt_comm *comm);
/* Session s is finalized: waits for the messages buffered in its buffer, then detaches it. */
void rt__bsend_session_gone(rt_session *s);

#endif
