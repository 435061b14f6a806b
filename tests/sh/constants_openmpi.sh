# constants_openmpi.sh — the spec's Open MPI 4.1 values (the standard-ABI shim translates
# through them) equal what Debian Open MPI's mpi.h and libmpi say: integers by value,
# predefined handles and callback functions as the addresses of the symbols the spec names.
. tests/sh/lib.sh
command -v mpicc.openmpi > /dev/null || skip "Debian's Open MPI (libopenmpi-dev) is not installed"
src=$BUILD/gen/tests/print_constants_openmpi.c
mpicc.openmpi -w -o "$TMP/ompi" "$src" || fail "does not build against Open MPI's mpi.h"
"$TMP/ompi" > "$TMP/ompi.txt" || fail "the printer failed"
diff "$BUILD/gen/tests/constants_openmpi.expected" "$TMP/ompi.txt" > "$TMP/diff" ||
    { cat "$TMP/diff" >&2; fail "values differ (< spec, > Open MPI)"; }
echo "$(grep -c ' [-0-9]' "$TMP/ompi.txt") values and $(grep -c ' &' "$TMP/ompi.txt") symbols as the spec says"
