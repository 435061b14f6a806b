# wrappers.sh — mpicc, mpicc_abi and mpifort (+ mpif77, mpif90) show and run the right
# commands: include and library paths of their face, no link flags when only compiling.
. tests/sh/lib.sh
B=$(cd "$BUILD" && pwd)
s=$("$B/bin/mpicc" -show -o x x.c); case $s in *"-I$B/include "*"-lmpi"*) ;; *) fail "mpicc -show: $s" ;; esac
s=$("$B/bin/mpicc" -show -c x.c); case $s in *-lmpi*) fail "mpicc -c links: $s" ;; esac
s=$("$B/bin/mpicc_abi" -show x.c); case $s in *"-I$B/include/abi "*"-lmpi_abi"*) ;; *) fail "mpicc_abi -show: $s" ;; esac
for f in mpifort mpif77 mpif90; do
    s=$("$B/bin/$f" -show x.f90); case $s in *"-lmpifort"*) ;; *) fail "$f -show: $s" ;; esac
done
"$B/bin/mpicc" -o "$TMP/hello" examples/hello.c || fail "mpicc cannot build examples/hello.c"
"$TMP/hello" | grep -q "rank 0 of 1" || fail "hello built by mpicc does not run"
"$B/bin/mpicc_abi" -o "$TMP/hello_abi" examples/hello.c || fail "mpicc_abi cannot build examples/hello.c"
"$TMP/hello_abi" | grep -q "rank 0 of 1" || fail "hello built by mpicc_abi does not run"
echo "wrappers work"
