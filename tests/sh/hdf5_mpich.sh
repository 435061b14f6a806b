# hdf5_mpich.sh — parallel HDF5 runs on Switchyard's MPI-IO: a program built by Debian's HDF5 for
# MPICH (h5pcc.mpich, package libhdf5-mpich-dev; HDF5 linked in, MPI through libmpich.so.12) runs
# unchanged on Switchyard's libmpich.so.12.
#
# tests/sh/hdf5/phdf5_rw.c writes, over MPI-IO, datasets of rows per rank, strided columns
# (non-contiguous file views), chunks and independently written strided rows, and attributes, then
# reopens the file read-only and checks every value, whole and per rank, collectively. It runs on
# 1, 2 and 4 ranks, on 3 over TCP, and on 4 with HDF5's collective metadata reads and writes; serial
# h5dump (hdf5-tools, when installed) then reads the last file's layout and attribute, without MPI.
. tests/sh/lib.sh
H5PCC=h5pcc.mpich
command -v "$H5PCC" > /dev/null || skip "Debian's libhdf5-mpich-dev ($H5PCC) is not installed"
"$H5PCC" -O2 -o "$TMP/phdf5_rw" tests/sh/hdf5/phdf5_rw.c 2> "$TMP/cc.err" ||
    { cat "$TMP/cc.err"; fail "$H5PCC cannot build tests/sh/hdf5/phdf5_rw.c"; }

# The program must load Switchyard's libmpich.so.12, not Debian MPICH's.
loaded=$(LD_LIBRARY_PATH="$BUILD/lib" ldd "$TMP/phdf5_rw" | awk '$1 == "libmpich.so.12" { print $3 }')
[ "$loaded" = "$BUILD/lib/libmpich.so.12" ] || fail "the program loads libmpich.so.12 from '$loaded', not $BUILD/lib"

# run NP [ARG] [ENV=VALUE...]: the program on NP ranks, writing $TMP/NP.h5.
run() {
    np=$1 arg=$2
    shift 2
    (cd "$TMP" && env "$@" LD_PRELOAD="${SWITCHYARD_TEST_PRELOAD:-}" LD_LIBRARY_PATH="$BUILD/lib" \
        timeout 60 "$BUILD/bin/mpiexec" -n "$np" ./phdf5_rw "$np.h5" $arg) > "$TMP/out" 2>&1
    rc=$?
    cat "$TMP/out"
    [ $rc = 0 ] || fail "phdf5_rw on $np ranks $arg $* exited $rc"
    grep -q "^phdf5_rw: $np ranks.*all values read back right; MPI library: Switchyard" "$TMP/out" ||
        fail "phdf5_rw on $np ranks $arg $*: no success line from Switchyard's library"
}
run 1 ""
run 2 ""
run 4 ""
run 3 "" SWITCHYARD_TRANSPORT=tcp
run 4 collective-metadata

# Cross-check with serial HDF5: the 4-rank file's datasets (12 rows by 8 columns) and attributes.
if command -v h5dump > /dev/null; then
    h5dump -H "$TMP/4.h5" > "$TMP/header" || fail "h5dump cannot read the file written on 4 ranks"
    for d in rows strided chunked indep; do
        grep -A2 "DATASET \"$d\"" "$TMP/header" | grep -q "SIMPLE { ( 12, 8 ) / ( 12, 8 ) }" ||
            { cat "$TMP/header"; fail "h5dump: dataset $d is missing or not 12 x 8"; }
    done
    grep -q 'ATTRIBUTE "scale"' "$TMP/header" || fail "h5dump: attribute scale is missing"
    h5dump -a /shape "$TMP/4.h5" | grep -q "(0): 4, 3, 2" || fail "h5dump: attribute /shape is not 4, 3, 2"
    echo "h5dump reads the 4-rank file: 4 datasets of 12 x 8, attributes scale and shape = 4, 3, 2"
else
    echo "h5dump (hdf5-tools) not installed: no serial cross-check"
fi
