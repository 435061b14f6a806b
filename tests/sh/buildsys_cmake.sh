# buildsys_cmake.sh — CMake's find_package(MPI COMPONENTS C CXX Fortran) picks Switchyard's
# compilers and mpiexec with its bin/ first on PATH, and with MPI_HOME naming an installed tree,
# and finds Switchyard's three Fortran interfaces, mpif.h, `use mpi` and `use mpi_f08` (MPI_Fortran_HAVE_*).
. tests/sh/buildsys_common.sh
# make check-sanitize's SWITCHYARD_WRAPPER_FLAGS (the sanitizer flags) stays out: CMake's FindMPI keeps only
# -L/-l/-Wl words of the wrappers' link flags, so its programs would be compiled instrumented and
# linked without the sanitizer runtime. The wrappers are tested as installed; run2 preloads the runtime.
unset SWITCHYARD_WRAPPER_FLAGS
command -v cmake >/dev/null || skip "cmake is not installed (tools/deps.sh installs it)"
# configure DIR ROOT ARGS...: configures the project in DIR and checks that FindMPI's picks
# (MPIEXEC_EXECUTABLE, MPI_<lang>_COMPILER) all live in ROOT/bin.
configure() {
    dir=$1; root=$2; shift 2
    cmake -S "$PROJ" -B "$dir" "$@" > "$dir.log" 2>&1 || { cat "$dir.log" >&2; fail "cmake configure failed ($*)"; }
    for v in MPIEXEC_EXECUTABLE MPI_C_COMPILER MPI_CXX_COMPILER MPI_Fortran_COMPILER; do
        p=$(sed -n "s/^-- picked $v=//p" "$dir.log")
        case $p in "$root/bin/"*) ;; *) fail "FindMPI picked $v='$p', not one in $root/bin ($*)" ;; esac
    done
    grep -q "Found MPI: TRUE.*found components: C CXX Fortran" "$dir.log" || fail "FindMPI did not find all three ($*)"
    # FindMPI's Fortran checks: mpif.h, `use mpi` (it needs MPI_INTEGER_KIND) and `use mpi_f08`.
    for v in MPI_Fortran_FOUND MPI_Fortran_HAVE_F77_HEADER MPI_Fortran_HAVE_F90_MODULE MPI_Fortran_HAVE_F08_MODULE; do
        grep -q "^-- picked $v=TRUE\$" "$dir.log" || fail "FindMPI says $(grep "^-- picked $v=" "$dir.log") ($*)"
    done
    cmake --build "$dir" -j2 > "$dir.build.log" 2>&1 || { cat "$dir.build.log" >&2; fail "cmake build failed ($*)"; }
    mpiexec=$(sed -n "s/^-- picked MPIEXEC_EXECUTABLE=//p" "$dir.log")
    run2 "${mpiexec%/bin/*}" "$dir/sum_c" "$WANT_C"
    run2 "${mpiexec%/bin/*}" "$dir/sum_cxx" "$WANT_CXX"
    run2 "${mpiexec%/bin/*}" "$dir/sum_f" "$WANT_F"
}
# 1. The build tree's bin/ first on PATH (Debian's MPICH and Open MPI are in /usr/bin too).
PATH="$B/bin:$PATH" configure "$TMP/path" "$B"
# 2. An installed tree named by MPI_HOME, not on PATH.
make --no-print-directory -s -f install.mk BUILD="$B" PREFIX="$TMP/sy" >/dev/null || fail "make install failed"
configure "$TMP/home" "$TMP/sy" -DMPI_HOME="$TMP/sy"
readelf -d "$TMP/home/sum_c" | grep -q "PATH.*$TMP/sy/lib" || fail "sum_c does not run with $TMP/sy/lib"
echo "CMake's FindMPI picks Switchyard by PATH and by MPI_HOME (Fortran: mpif.h, use mpi and use mpi_f08 found)"
