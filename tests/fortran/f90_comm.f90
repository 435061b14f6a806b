! f90_comm.f90 — groups, communicators and topologies from Fortran (use mpi): groups, dup,
! compare, split, create, inter-communicators and merge, Cartesian shifts, graphs, error classes.
program f90_comm
    use mpi
    implicit none
    integer :: ierr, me, np, res, n, r, i, cls, other, sreq
    integer :: wgroup, g, g2, g3, dup, split, cart, graph, local, inter, merged, newcomm
    integer :: dims(2), coords(2), src, dst, topo, nnodes, nedges
    integer, allocatable :: ranks(:), out(:), idx(:), edges(:)
    logical :: periods(2), flag

    call MPI_INIT(ierr)
    call MPI_COMM_SET_ERRHANDLER(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
    call MPI_COMM_SET_ERRHANDLER(MPI_COMM_SELF, MPI_ERRORS_RETURN, ierr)
    call MPI_COMM_RANK(MPI_COMM_WORLD, me, ierr)
    call MPI_COMM_SIZE(MPI_COMM_WORLD, np, ierr)
    allocate (ranks(np), out(max(np, 2)), idx(np), edges(2 * np))

    ! groups: the reversed world, translation, comparison, set operations
    call MPI_COMM_GROUP(MPI_COMM_WORLD, wgroup, ierr)
    call check(ierr == MPI_SUCCESS, 'MPI_COMM_GROUP')
    do i = 1, np
        ranks(i) = np - i
    end do
    call MPI_GROUP_INCL(wgroup, np, ranks, g, ierr)
    call MPI_GROUP_RANK(g, r, ierr)
    call check(r == np - 1 - me, 'MPI_GROUP_RANK of the reversed world')
    call MPI_GROUP_TRANSLATE_RANKS(wgroup, np, ranks, g, out, ierr)
    do i = 1, np
        call check(out(i) == i - 1, 'MPI_GROUP_TRANSLATE_RANKS')
    end do
    call MPI_GROUP_COMPARE(wgroup, g, res, ierr)
    if (np > 1) then
        call check(res == MPI_SIMILAR, 'MPI_GROUP_COMPARE similar')
    else
        call check(res == MPI_IDENT, 'MPI_GROUP_COMPARE ident')
    end if
    call MPI_GROUP_INCL(wgroup, 1, [0], g2, ierr)          ! just rank 0
    call MPI_GROUP_TRANSLATE_RANKS(wgroup, 2, [me, MPI_PROC_NULL], g2, out, ierr)
    if (me == 0) then
        call check(out(1) == 0, 'translate of a member')
    else
        call check(out(1) == MPI_UNDEFINED, 'translate of a non-member')
    end if
    call check(out(2) == MPI_PROC_NULL, 'translate of MPI_PROC_NULL')
    call MPI_GROUP_FREE(g, ierr)
    call MPI_GROUP_DIFFERENCE(wgroup, g2, g, ierr)
    call MPI_GROUP_SIZE(g, n, ierr)
    call check(n == np - 1, 'MPI_GROUP_DIFFERENCE')
    call MPI_GROUP_FREE(g, ierr)
    call check(g == MPI_GROUP_NULL, 'MPI_GROUP_FREE sets MPI_GROUP_NULL')
    call MPI_GROUP_INTERSECTION(wgroup, MPI_GROUP_EMPTY, g, ierr)
    call MPI_GROUP_SIZE(g, n, ierr)
    call check(n == 0, 'MPI_GROUP_INTERSECTION with MPI_GROUP_EMPTY')
    call MPI_GROUP_FREE(g, ierr)
    call MPI_GROUP_RANGE_INCL(wgroup, 1, reshape([0, np - 1, 2], [3, 1]), g, ierr)
    call MPI_GROUP_SIZE(g, n, ierr)
    call check(n == (np + 1) / 2, 'MPI_GROUP_RANGE_INCL')
    call MPI_GROUP_UNION(g, g2, g3, ierr)                   ! the evens already hold 0
    call MPI_GROUP_COMPARE(g, g3, res, ierr)
    call check(res == MPI_IDENT, 'MPI_GROUP_UNION')
    call MPI_GROUP_FREE(g, ierr)
    call MPI_GROUP_FREE(g2, ierr)
    call MPI_GROUP_FREE(g3, ierr)

    ! bad input: the class through MPI_ERROR_CLASS
    call MPI_GROUP_INCL(wgroup, 1, [np], g2, ierr)
    call MPI_ERROR_CLASS(ierr, cls, i)
    call check(cls == MPI_ERR_RANK, 'MPI_GROUP_INCL with a bad rank')

    ! dup and the compare table; traffic on the dup is not seen on the parent
    call MPI_COMM_DUP(MPI_COMM_WORLD, dup, ierr)
    call MPI_COMM_COMPARE(MPI_COMM_WORLD, dup, res, ierr)
    call check(res == MPI_CONGRUENT, 'MPI_COMM_COMPARE congruent')
    call MPI_COMM_COMPARE(dup, dup, res, ierr)
    call check(res == MPI_IDENT, 'MPI_COMM_COMPARE ident')
    call MPI_ISEND(me, 1, MPI_INTEGER, mod(me + 1, np), 1, dup, sreq, ierr)
    call MPI_IPROBE(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, flag, MPI_STATUS_IGNORE, ierr)
    call check(.not. flag, 'a message on the dup seen on the parent')
    call MPI_RECV(other, 1, MPI_INTEGER, MPI_ANY_SOURCE, 1, dup, MPI_STATUS_IGNORE, ierr)
    call check(other == mod(me + np - 1, np), 'message on the dup')
    call MPI_WAIT(sreq, MPI_STATUS_IGNORE, ierr)

    ! split: color = rank mod 2, key = -rank; the last process opts out
    if (np > 1 .and. me == np - 1) then
        call MPI_COMM_SPLIT(dup, MPI_UNDEFINED, 0, split, ierr)
        call check(split == MPI_COMM_NULL, 'MPI_COMM_SPLIT with MPI_UNDEFINED')
    else
        call MPI_COMM_SPLIT(dup, mod(me, 2), -me, split, ierr)
        call MPI_COMM_SIZE(split, n, ierr)
        call MPI_COMM_RANK(split, r, ierr)
        call check(r == n - 1 - me / 2, 'MPI_COMM_SPLIT ordered by key')
        call MPI_COMM_COMPARE(split, dup, res, ierr)
        if (np > 1) call check(res == MPI_UNEQUAL, 'MPI_COMM_COMPARE unequal')
        call MPI_COMM_FREE(split, ierr)
        call check(split == MPI_COMM_NULL, 'MPI_COMM_FREE')
    end if

    ! create with the group of rank 0
    call MPI_GROUP_INCL(wgroup, 1, [0], g2, ierr)
    call MPI_COMM_CREATE(MPI_COMM_WORLD, g2, newcomm, ierr)
    if (me == 0) then
        call MPI_COMM_COMPARE(newcomm, MPI_COMM_SELF, res, ierr)
        call check(res == MPI_CONGRUENT, 'MPI_COMM_CREATE')
        call MPI_COMM_FREE(newcomm, ierr)
    else
        call check(newcomm == MPI_COMM_NULL, 'MPI_COMM_CREATE non-member')
    end if
    call MPI_GROUP_FREE(g2, ierr)

    ! inter-communicator between the halves, merged both ways
    if (np >= 2) then
        call MPI_COMM_SPLIT(MPI_COMM_WORLD, merge(0, 1, me < np / 2), me, local, ierr)
        call MPI_INTERCOMM_CREATE(local, 0, MPI_COMM_WORLD, merge(np / 2, 0, me < np / 2), 9, inter, ierr)
        call check(ierr == MPI_SUCCESS, 'MPI_INTERCOMM_CREATE')
        call MPI_COMM_TEST_INTER(inter, flag, ierr)
        call check(flag, 'MPI_COMM_TEST_INTER')
        call MPI_COMM_REMOTE_SIZE(inter, n, ierr)
        call check(n == merge(np - np / 2, np / 2, me < np / 2), 'MPI_COMM_REMOTE_SIZE')
        call MPI_INTERCOMM_MERGE(inter, me >= np / 2, merged, ierr)
        call MPI_COMM_RANK(merged, r, ierr)
        call check(r == me, 'MPI_INTERCOMM_MERGE low first')
        call MPI_COMM_FREE(merged, ierr)
        call MPI_INTERCOMM_MERGE(inter, me < np / 2, merged, ierr)
        call MPI_COMM_RANK(merged, r, ierr)
        call check(r == merge(me + np - np / 2, me - np / 2, me < np / 2), 'MPI_INTERCOMM_MERGE high first')
        call MPI_COMM_FREE(merged, ierr)
        call MPI_CART_CREATE(inter, 1, [1], [.false.], .false., newcomm, ierr)
        call MPI_ERROR_CLASS(ierr, cls, i)
        call check(cls == MPI_ERR_COMM, 'MPI_CART_CREATE on an inter-communicator')
        call MPI_COMM_FREE(inter, ierr)
        call MPI_COMM_FREE(local, ierr)
    end if

    ! Cartesian: dimension 1 periodic, dimension 2 not
    dims = 0
    call MPI_DIMS_CREATE(np, 2, dims, ierr)
    call check(dims(1) * dims(2) == np .and. dims(1) >= dims(2), 'MPI_DIMS_CREATE')
    periods = [.true., .false.]
    call MPI_CART_CREATE(MPI_COMM_WORLD, 2, dims, periods, .false., cart, ierr)
    call MPI_TOPO_TEST(cart, topo, ierr)
    call check(topo == MPI_CART, 'MPI_TOPO_TEST cart')
    call MPI_CART_COORDS(cart, me, 2, coords, ierr)
    call check(coords(1) == me / dims(2) .and. coords(2) == mod(me, dims(2)), 'MPI_CART_COORDS')
    call MPI_CART_SHIFT(cart, 0, 1, src, dst, ierr)
    call check(dst == mod(coords(1) + 1, dims(1)) * dims(2) + coords(2), 'MPI_CART_SHIFT periodic')
    call MPI_CART_SHIFT(cart, 1, 1, src, dst, ierr)
    if (coords(2) == 0) then
        call check(src == MPI_PROC_NULL, 'MPI_CART_SHIFT at the lower edge')
    else
        call check(src == me - 1, 'MPI_CART_SHIFT source')
    end if
    if (coords(2) == dims(2) - 1) then
        call check(dst == MPI_PROC_NULL, 'MPI_CART_SHIFT at the upper edge')
    else
        call check(dst == me + 1, 'MPI_CART_SHIFT dest')
    end if
    call MPI_CART_RANK(cart, coords, r, ierr)
    call check(r == me, 'MPI_CART_RANK')
    call MPI_CART_SHIFT(MPI_COMM_WORLD, 0, 1, src, dst, ierr)
    call MPI_ERROR_CLASS(ierr, cls, i)
    call check(cls == MPI_ERR_TOPOLOGY, 'MPI_CART_SHIFT without a topology')
    call MPI_COMM_FREE(cart, ierr)

    ! graph: a ring
    do i = 1, np
        idx(i) = 2 * i
        edges(2 * i - 1) = mod(i - 2 + np, np)
        edges(2 * i) = mod(i, np)
    end do
    call MPI_GRAPH_CREATE(MPI_COMM_WORLD, np, idx, edges, .false., graph, ierr)
    call MPI_GRAPHDIMS_GET(graph, nnodes, nedges, ierr)
    call check(nnodes == np .and. nedges == 2 * np, 'MPI_GRAPHDIMS_GET')
    call MPI_GRAPH_NEIGHBORS(graph, me, 2, out, ierr)
    call check(out(1) == mod(me - 1 + np, np) .and. out(2) == mod(me + 1, np), 'MPI_GRAPH_NEIGHBORS')
    call MPI_TOPO_TEST(graph, topo, ierr)
    call check(topo == MPI_GRAPH, 'MPI_TOPO_TEST graph')
    call MPI_COMM_FREE(graph, ierr)

    ! distributed graph, unweighted: in from the left, out to the right
    call MPI_DIST_GRAPH_CREATE_ADJACENT(MPI_COMM_WORLD, 1, [mod(me + np - 1, np)], MPI_UNWEIGHTED, &
                                        1, [mod(me + 1, np)], MPI_UNWEIGHTED, MPI_INFO_NULL, .false., graph, ierr)
    call check(ierr == MPI_SUCCESS, 'MPI_DIST_GRAPH_CREATE_ADJACENT')
    call MPI_DIST_GRAPH_NEIGHBORS_COUNT(graph, src, dst, flag, ierr)
    call check(src == 1 .and. dst == 1 .and. .not. flag, 'MPI_DIST_GRAPH_NEIGHBORS_COUNT unweighted')
    call MPI_DIST_GRAPH_NEIGHBORS(graph, 1, out, MPI_UNWEIGHTED, 1, idx, MPI_UNWEIGHTED, ierr)
    call check(out(1) == mod(me + np - 1, np) .and. idx(1) == mod(me + 1, np), 'MPI_DIST_GRAPH_NEIGHBORS')
    call MPI_COMM_FREE(graph, ierr)

    call MPI_GROUP_FREE(wgroup, ierr)
    call MPI_COMM_FREE(dup, ierr)
    deallocate (ranks, out, idx, edges)
    call MPI_FINALIZE(ierr)

contains

    subroutine check(ok, what)
        use, intrinsic :: iso_fortran_env, only: error_unit
        logical, intent(in) :: ok
        character(len=*), intent(in) :: what
        if (.not. ok) then
            write (error_unit, '(a)') 'f90_comm: check failed: '//what
            stop 1
        end if
    end subroutine check
end program f90_comm
