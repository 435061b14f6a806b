/* coll_algo.h — the schedule builders of every collective (coll_algo.c, coll_reduce.c,
 * coll_inter.c, coll_neighbor.c) and the helpers they share. */
#ifndef RT_COLL_ALGO_H
#define RT_COLL_ALGO_H

#include "coll.h"

/* Element i of a buffer of type t (i extents from buf). */
void *rt__coll_at(const void *buf, rt_count i, const rt_type *t);
/* The n datatypes of handle array h, decoded and checked (committed, not null): a malloc'd
 * array, or NULL with *err set (raised, naming fn and arg). */
rt_type **rt__coll_types(rt_comm *comm, rt_handle_array h, int n, const char *fn, const char *arg, int *err);
/* Binomial broadcast of count elements of type at buf among n ranks of comm's collective view
 * (me among them), from root. */
int rt__bcast_tree(rt__sched *s, int n, int me, void *buf, rt_count count, rt_type *type, int root);
/* Binomial reduction of count elements of type over the ranks of this process's group (of
 * comm) to rank root (result in res there, res unused elsewhere), combined in rank order;
 * in = this rank's operand. */
int rt__reduce_tree(rt__sched *s, rt_comm *comm, const void *in, void *res, rt_count count, rt_type *type,
                    rt_op *op, int root);
/* The builder for inter-communicators that does what intra-communicator builder b does, or
 * NULL if there is none (coll_inter.c). */
rt__coll_build_fn rt__coll_inter_builder(rt__coll_build_fn b);

/* Builders (rt__coll_build_fn). Each reads the fields of rt__coll_args its procedure has;
 * a v-variant is recognised by its count arrays (rcounts.p / scounts.p non-NULL). */
int rt__build_barrier(rt__sched *s, rt_comm *comm, const rt__coll_args *a, const char *fn);
int rt__build_bcast(rt__sched *s, rt_comm *comm, const rt__coll_args *a, const char *fn);
int rt__build_gather(rt__sched *s, rt_comm *comm, const rt__coll_args *a, const char *fn);
int rt__build_scatter(rt__sched *s, rt_comm *comm, const rt__coll_args *a, const char *fn);
int rt__build_allgather(rt__sched *s, rt_comm *comm, const rt__coll_args *a, const char *fn);
int rt__build_alltoall(rt__sched *s, rt_comm *comm, const rt__coll_args *a, const char *fn);
int rt__build_reduce(rt__sched *s, rt_comm *comm, const rt__coll_args *a, const char *fn);
int rt__build_allreduce(rt__sched *s, rt_comm *comm, const rt__coll_args *a, const char *fn);
int rt__build_reduce_scatter(rt__sched *s, rt_comm *comm, const rt__coll_args *a, const char *fn);
int rt__build_scan(rt__sched *s, rt_comm *comm, const rt__coll_args *a, const char *fn);
int rt__build_exscan(rt__sched *s, rt_comm *comm, const rt__coll_args *a, const char *fn);

#endif
