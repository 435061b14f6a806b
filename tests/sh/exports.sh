# exports.sh — every procedure of the spec is exported as MPI_ and PMPI_ from the C and
# standard-ABI libraries, and in four manglings (MPI_ and PMPI_) from the Fortran library.
. tests/sh/lib.sh
check() { # library expected-list
    nm -D --defined-only "$BUILD/lib/$1" | awk '{print $NF}' | sort -u > "$TMP/have"
    sort -u "$BUILD/gen/tests/$2" > "$TMP/want"
    comm -23 "$TMP/want" "$TMP/have" > "$TMP/missing"
    [ -s "$TMP/missing" ] && { head -20 "$TMP/missing" >&2; fail "$1 lacks $(wc -l < "$TMP/missing") symbols"; }
    # Nothing but the MPI names (and MPICH's documented extras, MPIX_ GPU queries included, and the
    # procedures of the mpi_f08 and mpi modules, __mpi_f08_MOD_* and __mpi_MOD_*) may leak out.
    grep -vE '^(P?MPI_|p?mpi_|MPIR_(Dup_fn|Keyval_set_fortran_cb|Attr_next_kind|Err_unsupported|Err_raise)$|P?MPIX_(GPU_query_support|Query_(cuda|ze|hip)_support)$|mpipriv|mpifcmb|__mpi(_f08)?_MOD_|_init$|_fini$|_edata$|_end$|__bss_start$|__odr_asan\.|__asan|__ubsan|__sanitizer)' "$TMP/have" > "$TMP/extra"
    [ -s "$TMP/extra" ] && { head "$TMP/extra" >&2; fail "$1 exports internal symbols"; }
    echo "$1: $(wc -l < "$TMP/want") symbols present"
}
check libmpi.so.12 exports_c.txt
check libmpi_abi.so.1 exports_abi.txt
check libmpifort.so.12 exports_fortran.txt
