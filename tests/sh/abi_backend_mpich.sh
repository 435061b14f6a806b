# abi_backend_mpich.sh — standard-ABI programs built once with mpicc_abi run on Debian MPICH's
# libmpich.so.12 with SWITCHYARD_ABI_BACKEND=mpich, under Switchyard's mpiexec (issue 8).
. tests/sh/lib.sh
LIBMPICH=/usr/lib/x86_64-linux-gnu/libmpich.so.12
[ -f "$LIBMPICH" ] || skip "Debian's MPICH library is not installed ($LIBMPICH)"
[ -z "${SWITCHYARD_TEST_PRELOAD:-}" ] || skip "RTLD_DEEPBIND (the backend's dlopen) cannot run under the sanitizers"
run() { # nprocs program: runs it on MPICH through the shim
    SWITCHYARD_ABI_BACKEND=mpich timeout 60 "$BUILD/bin/mpiexec" -n "$1" "$2" || fail "$2 on $1 ranks failed on MPICH"
}
# the run really goes through MPICH: the library version names it, the default names Switchyard
"$BUILD/bin/mpicc_abi" -o "$TMP/libver" tests/sh/shim/libver.c || fail "mpicc_abi cannot build the version program"
out=$(SWITCHYARD_ABI_BACKEND=mpich timeout 60 "$BUILD/bin/mpiexec" -n 2 "$TMP/libver") || fail "the version program failed on MPICH: $out"
case $out in *"library: Switchyard "*" standard-ABI shim over: MPICH Version:"*) ;;
    *) fail "MPI_Get_library_version does not name the shim and MPICH: $out" ;; esac
out=$(timeout 60 "$BUILD/bin/mpiexec" -n 2 "$TMP/libver") || fail "the version program failed on Switchyard: $out"
case $out in *"shim over"*) fail "the default backend ran a foreign MPI: $out" ;; esac
# a library that cannot load: a clear message and exit status 1
SWITCHYARD_ABI_BACKEND=/nonexistent/libmpich.so.12 "$TMP/libver" 2> "$TMP/err" && fail "a missing backend library was accepted"
grep -q "/nonexistent/libmpich.so.12" "$TMP/err" || fail "the message does not name the library: $(cat "$TMP/err")"
# a procedure MPICH 4.0.2 lacks: MPI_ERR_UNSUPPORTED_OPERATION through the error handler, with a
# message naming the procedure and the library; fatal under the default handler
"$BUILD/bin/mpicc_abi" -o "$TMP/missing" tests/sh/shim/missing.c || fail "mpicc_abi cannot build the missing-procedure program"
out=$(SWITCHYARD_ABI_BACKEND=mpich timeout 60 "$BUILD/bin/mpiexec" -n 1 "$TMP/missing" return 2>&1) ||
    fail "a missing procedure with MPI_ERRORS_RETURN ended the job: $out"
case $out in *"class unsupported: MPI_Remove_error_class: not implemented by the backend library $LIBMPICH"*) ;;
    *) fail "a missing procedure's error does not name it and the library: $out" ;; esac
SWITCHYARD_ABI_BACKEND=mpich timeout 60 "$BUILD/bin/mpiexec" -n 1 "$TMP/missing" > "$TMP/out" 2>&1 &&
    fail "a missing procedure under MPI_ERRORS_ARE_FATAL did not end the job: $(cat "$TMP/out")"
grep -q "MPI_Remove_error_class: not implemented" "$TMP/out" || fail "the fatal message does not name the procedure: $(cat "$TMP/out")"
# existing standard-ABI test programs, built once, on MPICH
run 1 "$BUILD/tests/abi/init_finalize"
run 1 "$BUILD/tests/abi/init_thread"
run 1 "$BUILD/tests/abi/info"
run 1 "$BUILD/tests/abi/p2p_complete_once"
run 2 "$BUILD/tests/abi/p2p_ring"
run 4 "$BUILD/tests/abi/p2p_ring"
# user callbacks through libffi closures: ops, error handlers, attribute and grequest callbacks
run 1 "$BUILD/tests/abi/shim_callbacks"
run 3 "$BUILD/tests/abi/shim_callbacks"
run 1 "$BUILD/tests/abi/attr_legacy"
echo "standard-ABI programs ran on MPICH through SWITCHYARD_ABI_BACKEND=mpich"
