# abi_pmpi.sh — a profiling library works over every standard-ABI backend (issue 8): pmpi_tool.c,
# built once with mpicc_abi -shared, wraps MPI_Send, MPI_Recv, MPI_Allreduce and MPI_Comm_rank and
# calls PMPI_*; pmpi_prog.c, built once with mpicc_abi, is linked against it (and, built without
# it, runs with it in LD_PRELOAD). On Switchyard's runtime, MPICH and Open MPI the tool's
# MPI_Finalize checks that every process counted exactly the program's calls: the library's own
# calls (inside MPI_Sendrecv, MPI_Bcast, MPI_Init, ..., and the tool's PMPI_ calls) never reach it.
. tests/sh/lib.sh
[ -z "${SWITCHYARD_TEST_PRELOAD:-}" ] || skip "LD_PRELOAD of the tool and RTLD_DEEPBIND (the backends' dlopen) cannot run under the sanitizers"
LIBMPICH=/usr/lib/x86_64-linux-gnu/libmpich.so.12
LIBOMPI=/usr/lib/x86_64-linux-gnu/libmpi.so.40
"$BUILD/bin/mpicc_abi" -shared -fPIC -Wall -Werror -o "$TMP/libpmpitool.so" tests/sh/shim/pmpi_tool.c ||
    fail "mpicc_abi -shared cannot build the tool"
"$BUILD/bin/mpicc_abi" -Wall -Werror -o "$TMP/linked" tests/sh/shim/pmpi_prog.c -L"$TMP" -Wl,-rpath,"$TMP" -lpmpitool ||
    fail "mpicc_abi cannot build the program linked with the tool"
"$BUILD/bin/mpicc_abi" -Wall -Werror -o "$TMP/plain" tests/sh/shim/pmpi_prog.c || fail "mpicc_abi cannot build the program"
export PMPI_TOOL_EXPECT="2 2 1 2"
check() { # backend nprocs output: the tool's line from rank 0
    case $3 in *"pmpi_tool: $2 processes ok: Send $(($2 * 2)) Recv $(($2 * 2)) Allreduce $2 Comm_rank $(($2 * 2)) in all"*) ;;
        *) fail "the tool did not count the program's calls on $1 with $2 processes: $3" ;; esac
}
runall() { # backend launcher...: the linked program and the plain one with the tool preloaded
    b=$1; shift
    for n in 1 3; do
        out=$("$@" -n $n "$TMP/linked" 2>&1 < /dev/null) || fail "the program linked with the tool failed on $b ($n processes): $out"
        check "$b" $n "$out"
    done
    out=$("$@" -n 2 env LD_PRELOAD="$TMP/libpmpitool.so" "$TMP/plain" 2>&1 < /dev/null) ||
        fail "the program with the tool in LD_PRELOAD failed on $b: $out"
    check "$b" 2 "$out"
    # without the tool the program runs and nothing is counted
    out=$("$@" -n 2 "$TMP/plain" 2>&1 < /dev/null) || fail "the program without the tool failed on $b: $out"
    case $out in *pmpi_tool*) fail "the tool ran in a program without it on $b: $out" ;; esac
}
SWITCHYARD_ABI_BACKEND=switchyard runall switchyard timeout 60 "$BUILD/bin/mpiexec"
ran="Switchyard"
if [ -f "$LIBMPICH" ]; then
    SWITCHYARD_ABI_BACKEND=mpich runall MPICH timeout 60 "$BUILD/bin/mpiexec"
    ran="$ran, MPICH"
fi
if [ -f "$LIBOMPI" ] && command -v mpirun.openmpi > /dev/null; then
    OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 SWITCHYARD_ABI_BACKEND=openmpi runall "Open MPI" \
        timeout 60 mpirun.openmpi --oversubscribe --mca btl self,vader -x SWITCHYARD_ABI_BACKEND -x PMPI_TOOL_EXPECT
    ran="$ran, Open MPI"
fi
echo "a PMPI profiling library counted exactly the program's calls on $ran"
