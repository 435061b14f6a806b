# wrappers.sh — mpicc, mpicxx (mpic++), mpicc_abi, mpifort (+ mpif77, mpif90) and mpifort_abi show and run
# the right commands: include and library paths of their face, no link flags when only
# compiling; MPICH's and Open MPI's query flags and compiler variables work too.
. tests/sh/lib.sh
B=$(cd "$BUILD" && pwd)
s=$("$B/bin/mpicc" -show -o x x.c); case $s in *"-I$B/include "*"-lmpi"*) ;; *) fail "mpicc -show: $s" ;; esac
s=$("$B/bin/mpicc" -show -c x.c); case $s in *-lmpi*) fail "mpicc -c links: $s" ;; esac
s=$("$B/bin/mpicc_abi" -show x.c); case $s in *"-I$B/include/abi "*"-lmpi_abi"*) ;; *) fail "mpicc_abi -show: $s" ;; esac
for f in mpifort mpif77 mpif90; do
    s=$("$B/bin/$f" -show x.f90); case $s in *"-lmpifort"*) ;; *) fail "$f -show: $s" ;; esac
done
s=$("$B/bin/mpifort_abi" -show x.f90); case $s in *"-I$B/include/abi "*"-lmpifort_abi -lmpi_abi"*) ;; *) fail "mpifort_abi -show: $s" ;; esac
"$B/bin/mpicc" -o "$TMP/hello" examples/hello.c || fail "mpicc cannot build examples/hello.c"
"$TMP/hello" | grep -q "rank 0 of 1" || fail "hello built by mpicc does not run"
"$B/bin/mpicc_abi" -o "$TMP/hello_abi" examples/hello.c || fail "mpicc_abi cannot build examples/hello.c"
"$TMP/hello_abi" | grep -q "rank 0 of 1" || fail "hello built by mpicc_abi does not run"
for f in mpicxx mpic++; do
    s=$("$B/bin/$f" -show -o x x.cc); case $s in *"-I$B/include "*"-lmpi"*) ;; *) fail "$f -show: $s" ;; esac
done
s=$("$B/bin/mpicc" -compile_info); case $s in *"-I$B/include"*) ;; *) fail "mpicc -compile_info: $s" ;; esac
case $s in *-lmpi*) fail "mpicc -compile_info links: $s" ;; esac
s=$("$B/bin/mpicc" -link_info); case $s in *"-lmpi"*) ;; *) fail "mpicc -link_info: $s" ;; esac
# SWITCHYARD_WRAPPER_FLAGS (make check-sanitize sets it) comes last in both flag lists
x=$(echo ${SWITCHYARD_WRAPPER_FLAGS:-}); x=${x:+ $x}
s=$("$B/bin/mpicc" --showme:compile); [ "$s" = "-I$B/include$x" ] || fail "mpicc --showme:compile: $s"
s=$("$B/bin/mpicc" --showme:link); case $s in "-L$B/lib "*"-lmpi$x") ;; *) fail "mpicc --showme:link: $s" ;; esac
s=$(SWITCHYARD_WRAPPER_FLAGS="-DSY_A  -DSY_B" "$B/bin/mpicc" --showme:compile)
[ "$s" = "-I$B/include -DSY_A -DSY_B" ] || fail "mpicc --showme:compile with SWITCHYARD_WRAPPER_FLAGS: $s"
s=$(SWITCHYARD_WRAPPER_FLAGS=-DSY_A "$B/bin/mpicc" -show -o x x.c); case $s in *" -DSY_A "*"x.c "*"-lmpi -DSY_A") ;;
*) fail "mpicc -show with SWITCHYARD_WRAPPER_FLAGS: $s" ;; esac
s=$(SWITCHYARD_WRAPPER_FLAGS= "$B/bin/mpicc" --showme:compile); [ "$s" = "-I$B/include" ] || fail "mpicc --showme:compile: $s"
s=$("$B/bin/mpicc" --showme -c x.c); case $s in *-lmpi*) fail "mpicc --showme -c links: $s" ;; esac
"$B/bin/mpifort" --showme:version | grep -q "Switchyard" || fail "mpifort --showme:version"
s=$("$B/bin/mpicc" -v 2>&1); case $s in *"Switchyard "*" wrapper for gcc"*"gcc version"*) ;; *) fail "mpicc -v: $s" ;; esac
# the compiler: SWITCHYARD_CC, else MPICH_CC, else OMPI_CC (likewise CXX and FC)
s=$(MPICH_CC=cc-a OMPI_CC=cc-b "$B/bin/mpicc" -show x.c); case $s in "cc-a "*) ;; *) fail "MPICH_CC: $s" ;; esac
s=$(OMPI_CC=cc-b "$B/bin/mpicc" -show x.c); case $s in "cc-b "*) ;; *) fail "OMPI_CC: $s" ;; esac
s=$(SWITCHYARD_CC=cc-s MPICH_CC=cc-a "$B/bin/mpicc_abi" -show x.c); case $s in "cc-s "*) ;; *) fail "SWITCHYARD_CC: $s" ;; esac
s=$(OMPI_CXX=cxx-b "$B/bin/mpicxx" -show x.cc); case $s in "cxx-b "*) ;; *) fail "OMPI_CXX: $s" ;; esac
s=$(MPICH_FC=fc-a "$B/bin/mpif90" -show x.f90); case $s in "fc-a "*) ;; *) fail "MPICH_FC: $s" ;; esac
# a C++ program builds and runs
cat > "$TMP/hello.cc" <<'CXX'
#include <mpi.h>
#include <iostream>
int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int r;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    std::cout << "C++ rank " << r << std::endl;
    MPI_Finalize();
    return 0;
}
CXX
"$B/bin/mpicxx" -o "$TMP/hellocxx" "$TMP/hello.cc" || fail "mpicxx cannot build a C++ program"
"$TMP/hellocxx" | grep -q "C++ rank 0" || fail "the C++ program does not run"
# switchyard_info tells the version, the prefix and the faces, with every library present
s=$("$B/bin/switchyard_info") || fail "switchyard_info failed"
case $s in "Switchyard "*"prefix:        $B"*"libmpi_abi.so.1"*) ;; *) fail "switchyard_info: $s" ;; esac
case $s in *missing:*) fail "switchyard_info reports a missing library: $s" ;; esac
case $s in *"transports:"*"shm ("*"tcp ("*"mpiexec.hydra"*) ;; *) fail "switchyard_info does not name the transports and launchers: $s" ;; esac
echo "wrappers work"
