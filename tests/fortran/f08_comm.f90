! f08_comm.f90 — groups and communicators through `use mpi_f08`: group set operations and rank
! translation, MPI_Comm_create / split / split_type / idup / compare, names, an
! inter-communicator and its merge, Cartesian and graph topologies; every value is checked.
program f08_comm
  use mpi_f08
  implicit none
  integer :: me, np, i, res, sz, rk, half, src, dst, lr, nnb, ndims, nedges
  integer :: ranks(64), tr(64), dims(2), coords(2), nb(4)
  logical :: periods(2), flag
  character(len=MPI_MAX_OBJECT_NAME) :: name
  type(MPI_Group) :: world, evens, odds, both, none, inter_g
  type(MPI_Comm) :: ce, split, shared, dup, local, inter, merged, cart, graph
  type(MPI_Request) :: req

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, me)
  call MPI_Comm_size(MPI_COMM_WORLD, np)
  call MPI_Comm_group(MPI_COMM_WORLD, world)

  ! groups: evens and odds, their union is the world again, their intersection empty
  half = (np + 1) / 2
  ranks(1:half) = [(2 * i, i = 0, half - 1)]
  call MPI_Group_incl(world, half, ranks, evens)
  call MPI_Group_excl(world, half, ranks, odds)
  call MPI_Group_size(evens, sz)
  if (sz /= half) stop 1
  call MPI_Group_union(evens, odds, both)
  call MPI_Group_compare(both, world, res)
  if (res /= merge(MPI_IDENT, MPI_SIMILAR, np <= 2)) stop 2 ! evens first
  call MPI_Group_intersection(evens, odds, none)
  call MPI_Group_size(none, sz)
  if (sz /= 0) stop 3
  ranks(1:np) = [(i, i = 0, np - 1)]
  call MPI_Group_translate_ranks(world, np, ranks, evens, tr)
  do i = 0, np - 1
    if (tr(i + 1) /= merge(i / 2, MPI_UNDEFINED, mod(i, 2) == 0)) stop 4
  end do
  call MPI_Group_rank(evens, rk)
  if (rk /= merge(me / 2, MPI_UNDEFINED, mod(me, 2) == 0)) stop 5

  ! MPI_Comm_create from the evens: MPI_COMM_NULL on the odds
  call MPI_Comm_create(MPI_COMM_WORLD, evens, ce)
  if (mod(me, 2) == 0) then
    call MPI_Comm_rank(ce, rk)
    call MPI_Comm_size(ce, sz)
    if (rk /= me / 2 .or. sz /= half) stop 6
    call MPI_Comm_free(ce)
  else if (ce /= MPI_COMM_NULL) then
    stop 7
  end if

  ! split by parity, reversed order; split_type shared is the whole world on one node
  call MPI_Comm_split(MPI_COMM_WORLD, mod(me, 2), -me, split)
  call MPI_Comm_size(split, sz)
  call MPI_Comm_rank(split, rk)
  if (sz /= merge(half, np - half, mod(me, 2) == 0) .or. rk /= sz - 1 - me / 2) stop 8
  call MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, shared)
  call MPI_Comm_compare(shared, MPI_COMM_WORLD, res)
  if (res /= MPI_CONGRUENT) stop 9

  ! idup keeps the group; names
  call MPI_Comm_idup(MPI_COMM_WORLD, dup, req)
  call MPI_Wait(req, MPI_STATUS_IGNORE)
  call MPI_Comm_compare(dup, MPI_COMM_WORLD, res)
  if (res /= MPI_CONGRUENT .or. dup == MPI_COMM_WORLD) stop 10
  call MPI_Comm_set_name(dup, "f08 duplicate")
  call MPI_Comm_get_name(dup, name, sz)
  if (name /= "f08 duplicate" .or. sz /= 13) stop 11

  ! inter-communicator between the halves, then merged with the upper half first
  if (np >= 2) then
    lr = merge(0, 1, me < np / 2)
    call MPI_Comm_split(MPI_COMM_WORLD, lr, me, local)
    call MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, merge(np / 2, 0, lr == 0), 5, inter)
    call MPI_Comm_test_inter(inter, flag)
    call MPI_Comm_remote_size(inter, sz)
    if (.not. flag .or. sz /= merge(np - np / 2, np / 2, lr == 0)) stop 12
    call MPI_Comm_remote_group(inter, inter_g)
    call MPI_Group_size(inter_g, sz)
    if (sz /= merge(np - np / 2, np / 2, lr == 0)) stop 13
    call MPI_Group_free(inter_g)
    call MPI_Intercomm_merge(inter, lr == 0, merged)
    call MPI_Comm_rank(merged, rk)
    if (rk /= merge(me + np - np / 2, me - np / 2, lr == 0)) stop 14
    call MPI_Comm_free(merged)
    call MPI_Comm_free(inter)
    call MPI_Comm_free(local)
  end if

  ! a periodic 2-D Cartesian grid
  dims = 0
  call MPI_Dims_create(np, 2, dims)
  if (dims(1) * dims(2) /= np .or. dims(1) < dims(2)) stop 15
  periods = .true.
  call MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, .false., cart)
  call MPI_Topo_test(cart, res)
  if (res /= MPI_CART) stop 16
  call MPI_Cartdim_get(cart, ndims)
  call MPI_Cart_coords(cart, me, 2, coords)
  call MPI_Cart_rank(cart, coords, rk)
  if (ndims /= 2 .or. rk /= me .or. coords(1) /= me / dims(2) .or. coords(2) /= mod(me, dims(2))) stop 17
  call MPI_Cart_shift(cart, 1, 1, src, dst)
  if (dst /= coords(1) * dims(2) + mod(coords(2) + 1, dims(2)) .or. &
      src /= coords(1) * dims(2) + mod(coords(2) + dims(2) - 1, dims(2))) stop 18
  call MPI_Comm_free(cart)

  ! a ring as a graph
  if (np >= 3) then
    ranks(1:np) = [(2 * i, i = 1, np)]
    tr(1:2 * np) = [(mod(i / 2 + np - 1 + 2 * mod(i, 2), np), i = 0, 2 * np - 1)]
    call MPI_Graph_create(MPI_COMM_WORLD, np, ranks, tr, .false., graph)
    call MPI_Graphdims_get(graph, sz, nedges)
    call MPI_Graph_neighbors_count(graph, me, nnb)
    call MPI_Graph_neighbors(graph, me, 4, nb)
    if (sz /= np .or. nedges /= 2 * np .or. nnb /= 2) stop 19
    if (nb(1) /= mod(me + np - 1, np) .or. nb(2) /= mod(me + 1, np)) stop 20
    call MPI_Comm_free(graph)
  end if

  call MPI_Comm_free(dup)
  call MPI_Comm_free(shared)
  call MPI_Comm_free(split)
  if (split /= MPI_COMM_NULL) stop 21
  if (none /= MPI_GROUP_EMPTY) call MPI_Group_free(none)
  call MPI_Group_free(both)
  call MPI_Group_free(odds)
  call MPI_Group_free(evens)
  call MPI_Group_free(world)
  if (world /= MPI_GROUP_NULL) stop 22
  call MPI_Finalize()
end program f08_comm
