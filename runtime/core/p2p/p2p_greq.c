/* p2p_greq.c — generalized requests (MPI_Grequest_start, MPI_Grequest_complete): requests the
 * program completes itself, whose status, freeing and cancelling its callbacks provide. */
#include "p2p.h"

#include <stdlib.h>

/* The user's side of a generalized request (owned by its request until the free function ran). */
struct rt__greq {
    rt_callback query, free, cancel;
    void *extra_state; /* passed to each callback unchanged */
};

/* Whether face f can call generalized request callbacks. */
static int face_ok(const rt_callback *cb)
{
    return cb->face && cb->face->version >= 5 && cb->face->call_query && cb->face->call_free &&
           cb->face->call_cancel;
}

/* MPI_Grequest_start. */
int rt_Grequest_start(rt_callback query_fn, rt_callback free_fn, rt_callback cancel_fn, void *extra_state,
                      rt_request **request)
{
    static const char *const names[3] = {"query_fn", "free_fn", "cancel_fn"};
    const rt_callback *cbs[3] = {&query_fn, &free_fn, &cancel_fn};
    for (int i = 0; i < 3; i++) {
        if (!cbs[i]->fn)
            return RT_ERR(NULL, RT_ERR_ARG, "argument '%s' is a null function pointer", names[i]);
        if (!face_ok(cbs[i]))
            return RT_ERR(NULL, RT_ERR_INTERN, "the %s face cannot call generalized request callbacks",
                          cbs[i]->face ? cbs[i]->face->name : "(unknown)");
    }
    struct rt__greq *g = malloc(sizeof *g);
    rt_request *r = g ? rt__request_new(RT__REQ_GREQ, NULL, NULL) : NULL;
    if (!r) {
        free(g);
        return RT_ERR(NULL, RT_ERR_NO_MEM, "out of memory for a generalized request");
    }
    *g = (struct rt__greq){query_fn, free_fn, cancel_fn, extra_state};
    r->greq = g;
    r->peer = RT_PROC_NULL;
    r->status = (rt_status){.source = RT_ANY_SOURCE, .tag = RT_ANY_TAG};
    *request = r;
    return RT_SUCCESS;
}

/* MPI_Grequest_complete: r may be waited for from now on (in any thread: the store that marks
 * it complete is a release, rt__request_done's load an acquire). A request the program freed
 * meanwhile (MPI_Request_free) has its free function called now, whose error is returned. */
int rt_Grequest_complete(rt_request *request)
{
    if (!request)
        return RT_ERR(NULL, RT_ERR_REQUEST, "argument 'request' is MPI_REQUEST_NULL");
    if (request->kind != RT__REQ_GREQ)
        return RT_ERR(request->comm, RT_ERR_REQUEST,
                      "argument 'request' is not a generalized request (made by MPI_Grequest_start)");
    if (request->complete)
        return RT_ERR(NULL, RT_ERR_REQUEST,
                      "argument 'request' is a generalized request that MPI_Grequest_complete already completed");
    int err = request->freed ? rt__greq_free(request) : RT_SUCCESS;
    rt__request_complete(request); /* a freed request goes here */
    return err ? RT_ERR(NULL, err, "the free function of the generalized request (freed by MPI_Request_free) "
                                   "returned error code %d", err)
               : RT_SUCCESS;
}

int rt__greq_query(rt_request *r)
{
    struct rt__greq *g = r->greq;
    if (!g) /* its free function ran: the status stays what the query made */
        return r->status.error;
    int took = rt__big_enter(); /* user code runs under the library's lock */
    rt_status st = {.source = RT_ANY_SOURCE, .tag = RT_ANY_TAG};
    int err = g->query.face->call_query(&g->query, g->extra_state, &st);
    st.error = err;
    r->status = st;
    rt__big_leave(took);
    return err;
}

int rt__greq_free(rt_request *r)
{
    struct rt__greq *g = r->greq;
    if (!g)
        return RT_SUCCESS;
    int took = rt__big_enter();
    r->greq = NULL;
    int err = g->free.face->call_free(&g->free, g->extra_state);
    free(g);
    rt__big_leave(took);
    return err;
}

int rt__greq_cancel(rt_request *r)
{
    struct rt__greq *g = r->greq;
    if (!g)
        return RT_SUCCESS;
    int took = rt__big_enter();
    int err = g->cancel.face->call_cancel(&g->cancel, g->extra_state, rt__request_done(r));
    rt__big_leave(took);
    return err;
}
