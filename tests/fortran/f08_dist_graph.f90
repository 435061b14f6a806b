! f08_dist_graph.f90 — `mpi_f08` distributed graphs with weights (a ring, edge a->b weighing
! 100*a+b+1) read back by MPI_Dist_graph_neighbors; MPI_UNWEIGHTED and MPI_WEIGHTS_EMPTY.
program f08_dist_graph
  use mpi_f08
  implicit none (type, external)
  type(MPI_Comm) :: g
  integer :: ierr, rank, n, left, right, indeg, outdeg
  integer :: src(1), dst(1), sw(1), dw(1), deg(1)
  logical :: weighted

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, n)
  left = mod(rank + n - 1, n)
  right = mod(rank + 1, n)

  ! adjacent, weighted
  call MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, [left], [100*left + rank + 1], 1, [right], &
      [100*rank + right + 1], MPI_INFO_NULL, .false., g, ierr)
  if (ierr /= MPI_SUCCESS) stop 1
  call MPI_Dist_graph_neighbors_count(g, indeg, outdeg, weighted)
  if (indeg /= 1 .or. outdeg /= 1 .or. .not. weighted) stop 2
  sw = -1
  dw = -1
  call MPI_Dist_graph_neighbors(g, 1, src, sw, 1, dst, dw, ierr)
  if (ierr /= MPI_SUCCESS .or. src(1) /= left .or. dst(1) /= right) stop 3
  if (sw(1) /= 100*left + rank + 1 .or. dw(1) /= 100*rank + right + 1) stop 4
  call MPI_Comm_free(g)

  ! general form: each rank gives its outgoing edge; the weights arrive at both ends
  src(1) = rank
  deg(1) = 1
  dst(1) = right
  dw(1) = 100*rank + right + 1
  call MPI_Dist_graph_create(MPI_COMM_WORLD, 1, src, deg, dst, dw, MPI_INFO_NULL, .false., g, ierr)
  if (ierr /= MPI_SUCCESS) stop 5
  call MPI_Dist_graph_neighbors_count(g, indeg, outdeg, weighted)
  if (indeg /= 1 .or. outdeg /= 1 .or. .not. weighted) stop 6
  sw = -1
  dw = -1
  call MPI_Dist_graph_neighbors(g, 1, src, sw, 1, dst, dw)
  if (src(1) /= left .or. dst(1) /= right .or. sw(1) /= 100*left + rank + 1 .or. dw(1) /= 100*rank + right + 1) stop 7
  call MPI_Comm_free(g)

  ! MPI_UNWEIGHTED: no weights; the neighbours' weights are not written
  call MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, [left], MPI_UNWEIGHTED, 1, [right], MPI_UNWEIGHTED, &
      MPI_INFO_NULL, .false., g, ierr)
  if (ierr /= MPI_SUCCESS) stop 8
  call MPI_Dist_graph_neighbors_count(g, indeg, outdeg, weighted)
  if (indeg /= 1 .or. outdeg /= 1 .or. weighted) stop 9
  sw = -7
  dw = -7
  call MPI_Dist_graph_neighbors(g, 1, src, sw, 1, dst, dw)
  if (src(1) /= left .or. dst(1) /= right .or. sw(1) /= -7 .or. dw(1) /= -7) stop 10
  call MPI_Dist_graph_neighbors(g, 1, src, MPI_UNWEIGHTED, 1, dst, dw, ierr)
  if (ierr /= MPI_SUCCESS .or. src(1) /= left .or. dst(1) /= right .or. dw(1) /= -7) stop 11
  call MPI_Comm_free(g)

  ! MPI_WEIGHTS_EMPTY: no neighbours, a weighted graph
  call MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 0, src, MPI_WEIGHTS_EMPTY, 0, dst, MPI_WEIGHTS_EMPTY, &
      MPI_INFO_NULL, .false., g, ierr)
  if (ierr /= MPI_SUCCESS) stop 12
  call MPI_Dist_graph_neighbors_count(g, indeg, outdeg, weighted)
  if (indeg /= 0 .or. outdeg /= 0 .or. .not. weighted) stop 13
  call MPI_Comm_free(g)

  call MPI_Finalize()
end program f08_dist_graph
