# buildsys_pkgconfig.sh — Switchyard's pkg-config files (switchyard, mpi, mpi-c, mpi-cxx, mpi-fort,
# mpi-abi) give flags that build and link; a plain Makefile using them builds programs that run on 2 ranks.
. tests/sh/buildsys_common.sh
command -v pkg-config >/dev/null || skip "pkg-config is not installed (tools/deps.sh installs it)"
# An installed tree, moved: the files find their prefix from their own place (${pcfiledir}).
make --no-print-directory -s -f install.mk BUILD="$B" PREFIX=/sy DESTDIR="$TMP/dest" >/dev/null || fail "make install failed"
mv "$TMP/dest/sy" "$TMP/sy"; M=$TMP/sy
export PKG_CONFIG_PATH="$M/lib/pkgconfig"
pc() { r=$(pkg-config "$@") || fail "pkg-config $* failed"; echo $r; }
for n in switchyard mpi mpi-c mpi-cxx ompi-c ompi-cxx; do
    s=$(pc --cflags --libs "$n")
    case $s in "-I$M/lib/pkgconfig/../../include -L$M/lib/pkgconfig/../../lib "*" -lmpi") ;;
    *) fail "pkg-config --cflags --libs $n: $s" ;; esac
    [ "$(pc --modversion "$n")" = 0.1 ] || fail "pkg-config --modversion $n"
done
s=$(pc --cflags --libs mpi-fort); case $s in *"-I$M/lib/pkgconfig/../../include "*"-lmpifort -lmpi") ;; *) fail "mpi-fort: $s" ;; esac
s=$(pc --cflags --libs mpi-abi); case $s in "-I$M/lib/pkgconfig/../../include/abi "*"-lmpi_abi") ;; *) fail "mpi-abi: $s" ;; esac
# The plain Makefile: C (mpi-c), the standard ABI (mpi-abi) and Fortran (mpi-fort).
make --no-print-directory -s -f "$PROJ/Makefile" SRC="$PROJ" OUT="$TMP" > "$TMP/make.log" 2>&1 ||
    { cat "$TMP/make.log" >&2; fail "the pkg-config Makefile failed"; }
run2 "$M" "$TMP/sum_c" "$WANT_C"
run2 "$M" "$TMP/sum_abi" "$WANT_C"
run2 "$M" "$TMP/sum_f" "$WANT_F"
ldd "$TMP/sum_abi" | grep -q "$M/lib/pkgconfig/../../lib/libmpi_abi.so.1" || fail "sum_abi does not load $M's libmpi_abi"
# C++ through mpi-cxx
g++ -o "$TMP/sum_cxx" "$PROJ/sum.cc" $(pc --cflags --libs mpi-cxx) || fail "g++ with mpi-cxx failed"
run2 "$M" "$TMP/sum_cxx" "$WANT_CXX"
echo "pkg-config files build and link every face"
