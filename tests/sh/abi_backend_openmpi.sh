# abi_backend_openmpi.sh — standard-ABI programs built once with mpicc_abi run on Debian Open MPI's
# libmpi.so.40 with SWITCHYARD_ABI_BACKEND=openmpi, under Open MPI's mpirun (issue 8).
. tests/sh/lib.sh
LIBOMPI=/usr/lib/x86_64-linux-gnu/libmpi.so.40
[ -f "$LIBOMPI" ] && command -v mpirun.openmpi > /dev/null || skip "Debian's Open MPI is not installed ($LIBOMPI)"
[ -z "${SWITCHYARD_TEST_PRELOAD:-}" ] || skip "RTLD_DEEPBIND (the backend's dlopen) cannot run under the sanitizers"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 SWITCHYARD_ABI_BACKEND=openmpi
# osc/pt2pt: Open MPI's default one-sided component needs network hardware this machine lacks
ompirun() { timeout 60 mpirun.openmpi --oversubscribe --mca osc pt2pt --mca btl self,vader -x SWITCHYARD_ABI_BACKEND "$@"; }
run() { # nprocs program: runs it on Open MPI through the shim
    ompirun -n "$1" "$2" < /dev/null || fail "$2 on $1 ranks failed on Open MPI"
}
"$BUILD/bin/mpicc_abi" -o "$TMP/libver" tests/sh/shim/libver.c || fail "mpicc_abi cannot build the version program"
out=$(ompirun -n 3 "$TMP/libver" < /dev/null) || fail "the version program failed on Open MPI: $out"
case $out in *"library: Switchyard "*" standard-ABI shim over: Open MPI v4"*) ;;
    *) fail "MPI_Get_library_version does not name the shim and Open MPI: $out" ;; esac
# a procedure Open MPI 4.1 lacks: MPI_ERR_UNSUPPORTED_OPERATION naming it and the library
"$BUILD/bin/mpicc_abi" -o "$TMP/missing" tests/sh/shim/missing.c || fail "mpicc_abi cannot build the missing-procedure program"
out=$(ompirun -n 1 "$TMP/missing" return < /dev/null 2>&1) || fail "a missing procedure with MPI_ERRORS_RETURN ended the job: $out"
case $out in *"class unsupported: MPI_Remove_error_class: not implemented by the backend library $LIBOMPI"*) ;;
    *) fail "a missing procedure's error does not name it and the library: $out" ;; esac
# standard-ABI test programs, built once, on Open MPI: point-to-point, statuses, user callbacks
# (ops, error handlers, attribute and generalized-request callbacks), MPI-1 attributes
run 2 "$BUILD/tests/abi/p2p_ring"
run 4 "$BUILD/tests/abi/p2p_ring"
run 1 "$BUILD/tests/abi/shim_callbacks"
run 3 "$BUILD/tests/abi/shim_callbacks"
run 1 "$BUILD/tests/abi/attr_legacy"
echo "standard-ABI programs ran on Open MPI through SWITCHYARD_ABI_BACKEND=openmpi"
