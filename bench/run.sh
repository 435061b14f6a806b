#!/bin/sh
# run.sh — `make bench`: builds bench/p2p.c against Switchyard, Debian MPICH and Debian
# Open MPI, runs each on 2 ranks of this node with its own launcher, one after the other in
# one run, and prints the side-by-side table with ratios (bench/report.py) and a PNG plot.
set -e
B=${BUILD:-build}
out=$B/bench
mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,vader
"$B/bin/mpicc" -O2 -Wno-stringop-overflow -o "$out/p2p_switchyard" bench/p2p.c
mpicc.mpich -O2 -Wno-stringop-overflow -o "$out/p2p_mpich" bench/p2p.c
mpicc.openmpi -O2 -o "$out/p2p_openmpi" bench/p2p.c
"$B/bin/mpiexec" -n 2 "$out/p2p_switchyard" > "$out/switchyard.txt"
mpiexec.hydra -n 2 "$out/p2p_mpich" > "$out/mpich.txt"
mpirun.openmpi --oversubscribe -n 2 "$out/p2p_openmpi" > "$out/openmpi.txt"
python3 bench/report.py "$out" switchyard mpich openmpi
