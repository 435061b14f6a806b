# constants_abi.sh — every constant of include/abi/mpi.h has the MPI-5.0 standard ABI's value
# (as the spec records it), and MPI_Status has the standard's layout.
. tests/sh/lib.sh
gcc -w -I"$BUILD/include/abi" -o "$TMP/abi" "$BUILD/gen/tests/print_constants_abi.c" || fail "does not build"
"$TMP/abi" > "$TMP/out.txt" || fail "printer failed"
{ cat "$BUILD/gen/tests/constants_abi.expected"
  printf 'sizeof(MPI_Status) 32\noffsetof(MPI_SOURCE) 0\noffsetof(MPI_TAG) 4\noffsetof(MPI_ERROR) 8\n'
  printf 'sizeof(MPI_Aint) 8\nsizeof(MPI_Count) 8\nsizeof(MPI_Offset) 8\n'; } > "$TMP/expected.txt"
diff "$TMP/expected.txt" "$TMP/out.txt" >&2 || fail "values differ (< standard ABI, > include/abi/mpi.h)"
echo "$(wc -l < "$TMP/out.txt") values as in the standard ABI"
