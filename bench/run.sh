#!/bin/sh
# run.sh — `make bench`: builds each benchmark (bench/p2p.c, bench/types.c, bench/coll.c,
# bench/attr.c) against Switchyard, Debian MPICH and Debian Open MPI, runs each on 2 ranks of
# this node (coll: 2 and 4; attr: 1) with its own launcher, one after the other in one run,
# and prints side-by-side tables with ratios (bench/report.py) and PNG plots.
set -e
B=${BUILD:-build}
out=$B/bench
mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,vader
for bench in ${BENCHES:-p2p types coll attr}; do
    "$B/bin/mpicc" -O2 -Wno-stringop-overflow -o "$out/${bench}_switchyard" bench/$bench.c
    mpicc.mpich -O2 -Wno-stringop-overflow -o "$out/${bench}_mpich" bench/$bench.c
    mpicc.openmpi -O2 -o "$out/${bench}_openmpi" bench/$bench.c
    ranks=2
    [ $bench = coll ] && ranks="2 4"
    [ $bench = attr ] && ranks=1
    : > "$out/$bench.switchyard.txt"; : > "$out/$bench.mpich.txt"; : > "$out/$bench.openmpi.txt"
    for n in $ranks; do
        "$B/bin/mpiexec" -n $n "$out/${bench}_switchyard" >> "$out/$bench.switchyard.txt"
        mpiexec.hydra -n $n "$out/${bench}_mpich" >> "$out/$bench.mpich.txt"
        mpirun.openmpi --oversubscribe -n $n "$out/${bench}_openmpi" >> "$out/$bench.openmpi.txt"
    done
    echo "== $bench"
    python3 bench/report.py "$out" $bench switchyard mpich openmpi
done
