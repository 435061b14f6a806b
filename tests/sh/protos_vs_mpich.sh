# protos_vs_mpich.sh — every prototype of Switchyard's C face has the parameter and return
# types of MPICH's (compiled together: a difference is a "conflicting types" error).
# const on pointed-to types is not part of the ABI and MPICH omits it in places: stripped.
. tests/sh/lib.sh
need_mpich_headers
sed -e 's/\bconst //g' "$BUILD/gen/tests/protos_vs_mpich.c" > "$TMP/p.c"
mkdir "$TMP/inc" && for h in mpi.h mpi_proto.h mpio.h; do sed -e 's/\bconst //g' "$MPICH_INC/$h" > "$TMP/inc/$h"; done
gcc -fsyntax-only -Werror -I"$TMP/inc" "$TMP/p.c" || fail "prototypes differ from MPICH's"
echo "$(grep -c '^[a-zA-Z].*MPI_.*);$' "$TMP/p.c") prototypes agree with MPICH's"
