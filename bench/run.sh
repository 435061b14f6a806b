#!/bin/sh
# run.sh — `make bench`: builds each benchmark (bench/p2p.c, bench/types.c) against
# Switchyard, Debian MPICH and Debian Open MPI, runs each on 2 ranks of this node with its
# own launcher, one after the other in one run, and prints side-by-side tables with ratios
# (bench/report.py) and PNG plots.
set -e
B=${BUILD:-build}
out=$B/bench
mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,vader
for bench in p2p types; do
    "$B/bin/mpicc" -O2 -Wno-stringop-overflow -o "$out/${bench}_switchyard" bench/$bench.c
    mpicc.mpich -O2 -Wno-stringop-overflow -o "$out/${bench}_mpich" bench/$bench.c
    mpicc.openmpi -O2 -o "$out/${bench}_openmpi" bench/$bench.c
    "$B/bin/mpiexec" -n 2 "$out/${bench}_switchyard" > "$out/$bench.switchyard.txt"
    mpiexec.hydra -n 2 "$out/${bench}_mpich" > "$out/$bench.mpich.txt"
    mpirun.openmpi --oversubscribe -n 2 "$out/${bench}_openmpi" > "$out/$bench.openmpi.txt"
    echo "== $bench"
    python3 bench/report.py "$out" $bench switchyard mpich openmpi
done
