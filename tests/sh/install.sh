# install.sh — `make install` with PREFIX and DESTDIR puts bin/, lib/ (sonames, links, pkgconfig/)
# and include/ in place; the tree, moved elsewhere, still compiles every face and runs 2 ranks.
. tests/sh/buildsys_common.sh
make --no-print-directory -s -f install.mk BUILD="$B" PREFIX=/opt/sy DESTDIR="$TMP/dest" >/dev/null ||
    fail "make install failed"
P=$TMP/dest/opt/sy
for f in bin/.mpiwrap bin/mpicc bin/mpicxx bin/mpic++ bin/mpiCC bin/mpicc_abi bin/mpifort bin/mpif77 \
    bin/mpif90 bin/mpiexec bin/mpirun bin/switchyard_info include/mpi.h include/mpif.h include/mpi.mod \
    include/abi/mpi.h include/abi/mpi_legacy.h lib/libmpi.so.12 lib/libmpich.so.12 lib/libmpi.so \
    lib/libmpifort.so.12 lib/libmpifort.so lib/libmpi_abi.so.1 lib/libmpi_abi.so bin/mpifort_abi \
    lib/libmpifort_abi.so.1 lib/libmpifort_abi.so include/abi/mpif.h include/abi/mpi.mod include/mpi_f08.mod; do
    [ -e "$P/$f" ] || fail "make install did not install $f"
done
for pc in switchyard mpi mpi-c mpi-cxx mpi-fort mpi-abi ompi-c ompi-cxx ompi-fort; do
    [ -f "$P/lib/pkgconfig/$pc.pc" ] || fail "make install did not install lib/pkgconfig/$pc.pc"
done
for l in libmpich.so.12:libmpi.so.12 libmpi.so:libmpi.so.12 libmpifort.so:libmpifort.so.12 \
    libmpi_abi.so:libmpi_abi.so.1; do
    [ "$(readlink "$P/lib/${l%:*}")" = "${l#*:}" ] || fail "lib/${l%:*} is not a link to ${l#*:}"
done
for so in libmpi.so.12 libmpifort.so.12 libmpi_abi.so.1; do
    readelf -d "$P/lib/$so" | grep -q "SONAME.*\[$so\]" || fail "lib/$so has not the soname $so"
done
[ -x "$P/bin/mpicc" ] && [ -x "$P/bin/.mpiwrap" ] || fail "installed wrappers are not executable"
s=$(grep -l "$B" "$P"/bin/mpic* "$P"/bin/mpif* "$P"/bin/.mpiwrap "$P"/bin/switchyard_info "$P"/lib/pkgconfig/*.pc)
[ -z "$s" ] || fail "installed files name the build tree: $s"
# Move the tree: the wrappers, mpiexec and switchyard_info work from the new place.
mv "$P" "$TMP/moved"; M=$TMP/moved
"$M/bin/mpicc" -o "$TMP/c" "$PROJ/sum.c" || fail "moved mpicc cannot build sum.c"
readelf -d "$TMP/c" | grep -q "PATH.*\[$M/lib\]" || fail "moved mpicc did not set the run path to $M/lib"
run2 "$M" "$TMP/c" "$WANT_C"
"$M/bin/mpicxx" -o "$TMP/cxx" "$PROJ/sum.cc" || fail "moved mpicxx cannot build sum.cc"
run2 "$M" "$TMP/cxx" "$WANT_CXX"
(cd "$TMP" && "$M/bin/mpif90" -o "$TMP/f" "$PROJ/sum.f90") || fail "moved mpif90 cannot build sum.f90"
run2 "$M" "$TMP/f" "$WANT_F"
"$M/bin/mpicc_abi" -o "$TMP/abi" "$PROJ/sum.c" || fail "moved mpicc_abi cannot build sum.c"
run2 "$M" "$TMP/abi" "$WANT_C"
ldd "$TMP/abi" | grep -q "$M/lib/libmpi_abi.so.1" ||
    fail "the standard-ABI program does not load the moved libmpi_abi.so.1"
"$M/bin/switchyard_info" | grep -q "^prefix: *$M\$" || fail "switchyard_info does not name the moved prefix"
# A wrapper reached through a symlink elsewhere (as /usr/local/bin/mpicc would be) finds its tree.
mkdir "$TMP/links" && ln -s "$M/bin/mpicc" "$TMP/links/mpicc"
s=$("$TMP/links/mpicc" -show x.c); case $s in *"-I$M/include "*"-L$M/lib "*) ;; *) fail "symlinked mpicc -show: $s" ;; esac
echo "install works, and the moved tree too"
