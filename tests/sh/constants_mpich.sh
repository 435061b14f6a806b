# constants_mpich.sh — every constant of Switchyard's mpi.h equals Debian MPICH 4.0.2's, the
# MPI_Status layout too, and every MPI_ name MPICH's mpi.h defines exists in ours.
. tests/sh/lib.sh
need_mpich_headers
src=$BUILD/gen/tests/print_constants_mpich.c
gcc -w -I"$BUILD/include" -o "$TMP/ours" "$src" || fail "does not build against Switchyard's mpi.h"
gcc -w -I"$MPICH_INC" -o "$TMP/mpich" "$src" || fail "does not build against MPICH's mpi.h"
"$TMP/ours" > "$TMP/ours.txt" && "$TMP/mpich" > "$TMP/mpich.txt" || fail "a printer failed"
diff "$TMP/mpich.txt" "$TMP/ours.txt" > "$TMP/diff" || { cat "$TMP/diff" >&2; fail "values differ (< MPICH, > Switchyard)"; }
n=$(wc -l < "$TMP/ours.txt")
# Every name MPICH's mpi.h defines (macros and enumerators) must exist in ours.
grep -ohE '^#[[:space:]]*define[[:space:]]+MPI_[A-Z0-9_]+\b[^(]' "$MPICH_INC/mpi.h" | awk '{print $2}' | sort -u > "$TMP/names"
grep -oE '\bMPI_[A-Z0-9_]+[[:space:]]*(=|,)' "$MPICH_INC/mpi.h" | grep -oE 'MPI_[A-Z0-9_]+' | sort -u >> "$TMP/names"
sort -u "$TMP/names" | grep -vE '^MPI_(INCLUDED|AINT_FMT_DEC_SPEC|AINT_FMT_HEX_SPEC)$' > "$TMP/names.u"
{ echo '#include <mpi.h>'; while read -r m; do printf '#ifndef %s\n#error missing %s\n#endif\n' "$m" "$m"; done < "$TMP/names.u"; } > "$TMP/names.c"
# Enumerators are not macros in MPICH but are in ours; both are checked by value above.
gcc -fsyntax-only -I"$BUILD/include" "$TMP/names.c" 2> "$TMP/missing" || { grep -o 'missing MPI_[A-Z0-9_]*' "$TMP/missing" >&2; fail "names MPICH defines are missing"; }
echo "$n values identical, $(wc -l < "$TMP/names.u") MPICH names present; not compared: $(cut -d' ' -f1 "$BUILD/gen/tests/not_compared.txt" | tr '\n' ' ')"
