#!/bin/sh
# run.sh — `make bench`: builds each benchmark (bench/p2p.c, bench/types.c, bench/coll.c,
# bench/attr.c) against Switchyard, Debian MPICH and Debian Open MPI, runs each on 2 ranks of
# this node (coll: 2, 4 and 8; attr: 1) with its own launcher, and prints side-by-side tables with
# ratios (bench/report.py) and PNG plots. bench/shim.c is built once with mpicc_abi and run on
# MPICH and on Open MPI through the shim, beside each of them built natively and beside the
# same binary on Switchyard.
# Every figure is measured REPEAT times (default 5), the implementations alternating, their
# order rotating from run to run (the p2p-style benchmarks), so that a machine's slow spell, or
# the teardown of the previous job, hits them all;
# run r of implementation I goes to OUT/<bench>.<I>.<r>.txt and the report gives the median
# and the spread of the runs. BENCHES="p2p attr ..." picks benchmarks (default: all but
# footprint). BENCHES=footprint (bench/footprint.c, run by bench/footprint.py) measures start-up
# time and shared-memory and resident footprint of a tiny program on FOOTPRINT_NP ranks
# (default "8 64 256"); it is not in the default list because Open MPI needs over a minute for
# 256 ranks on 2 cores (about 10 minutes at REPEAT=5, 2 at REPEAT=1). BENCH_LOCK=FILE makes it
# hold flock(FILE) around each implementation's batch of runs. A job of the p2p-style
# benchmarks, OSU or IMB is stopped after BENCH_LIMIT seconds (default 120).
# In the default list too: percall (bench/percall.c, bench/percall.f90: ns per MPI_Comm_rank,
# MPI_Comm_size, MPI_Type_size and MPI_Wtime on one rank, on Switchyard's C, standard-ABI and
# Fortran faces beside MPICH's and Open MPI's C and Fortran: three tables) and mbw_mr
# (bench/mbw_mr.c: osu_mbw_mr's message rate, windows of 64, 8 B to 4 KiB, the windowed
# bandwidth of 64 KiB to 4 MiB, every pair ping-ponging at once, 0 to 256 B, and a halo
# exchange on a ring of all ranks, 8 B, on 1, 2 and 4 pairs: 2, 4 and 8 ranks, the last
# oversubscribed on 2 cores; each figure the mean of 5 rounds of about 20 ms, sized by a
# warm-up round) and tcp (bench/p2p.c on 2 ranks over TCP on loopback:
# SWITCHYARD_TRANSPORT=tcp, MPICH with UCX_TLS=tcp, Open MPI with its ob1 pml and tcp btl, beside
# bench/tcp_raw.c, the same ping-pong over one plain socket: the limit).
# In the default list too: mt (bench/mt.c, 2 ranks: per-call cost and 8 B latency of one thread
# at MPI_THREAD_SINGLE and at MULTIPLE, latency of 1, 2 and 4 threads per rank ping-ponging at
# once, message rate of 1 and 2 threads per rank each on its own communicator; Switchyard also
# with SWITCHYARD_CHANNELS=1, as switchyard_ch1) and stress
# (tests/c/p2p_alltoall_stress.c: every rank sends every other
# rank one checksummed message a round, 0 B to 4 MiB, nonblocking; STRESS_ROUNDS rounds, default
# 20 on 8 ranks and 10 on 16, both oversubscribed on 2 cores): its wall time in seconds, on
# shared memory and on TCP (SWITCHYARD_TRANSPORT=tcp; MPICH with UCX_TLS=tcp, Open MPI with the
# ob1 pml and tcp btl).
# In the default list too: rma (bench/rma.c, compiled with -Wall -Wextra -Werror: one-sided latency
# of MPI_Put, MPI_Get, MPI_Accumulate 8 B to 4 KiB, MPI_Fetch_and_op and MPI_Compare_and_swap 8 B, each
# under lock/unlock, lock_all + flush and fence per operation, and put/get bandwidth 8 B to 4 MiB with
# 64 operations per flush, on MPI_Win_allocate windows; ranks 2k -> 2k+1 all at once, on 2 and 8 ranks,
# the latter oversubscribed on 2 cores, where Debian's MPICH, busy-polling, crawls: its job is stopped
# at BENCH_LIMIT and keeps the figures it printed; the program checks its results and aborts on a
# wrong one). Open MPI runs it with OMPI_MCA_osc=sm: its default osc rdma segfaults (MPI_Compare_and_swap
# under MPI_Win_lock, 2 ranks).
# In the default list too: io (bench/io.c: MPI-IO MB/s on 2 and 8 ranks, 64 and 256 MiB: collective
# write and read of a block-distributed 3-D array through subarray views, independent contiguous
# writes of each rank's block, and the raw limit, rank 0 alone with pwrite in 8 MiB pieces; files in
# BENCH_IO_DIR, default /tmp, of BENCH_IO_MIB MiB, default "64 256"; Switchyard's two-phase I/O against
# MPICH's ROMIO and Open MPI's OMPIO).
# BENCHES=none runs none of these (with OSU or IMB).
# OSU=DIR runs the OSU micro-benchmarks built by the user against each MPI: DIR/switchyard,
# DIR/mpich and DIR/openmpi each hold (at any depth) the osu_* binaries built with that MPI's
# compiler; OSU_TESTS (default osu_latency osu_bw osu_mbw_mr; the one-sided ones work too:
# osu_put_latency osu_get_latency osu_put_bw osu_get_bw osu_acc_latency osu_fop_latency
# osu_cas_latency, with e.g. OSU_ARGS="-w allocate -s flush") picks them, each run once on
# OSU_NP ranks (default 2) with OSU_ARGS (default none) and that MPI's launcher, its output
# printed under a header (their own figures: not REPEATed, no ratios).
# IMB=DIR does the same for DIR/<impl>/IMB-MPI1 with IMB_ARGS (default PingPong Sendrecv
# Allreduce) on IMB_NP ranks (default 2).
set -e
B=${BUILD:-build}
REPEAT=${REPEAT:-5}
out=$B/bench
mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,vader
BENCH_LIMIT=${BENCH_LIMIT:-120}
launch() { # launch IMPL ARG...: run ARG... with IMPL's own launcher, for BENCH_LIMIT s at most
    impl=$1
    shift
    case $impl in
    switchyard) set -- "$B/bin/mpiexec" "$@" ;;
    switchyard_ch1) set -- env SWITCHYARD_CHANNELS=1 "$B/bin/mpiexec" "$@" ;;
    mpich) set -- mpiexec.hydra "$@" ;;
    openmpi) set -- mpirun.openmpi --oversubscribe "$@" ;;
    esac
    timeout -k 5 "$BENCH_LIMIT" "$@"
}
rotation() { # rotation R: the three MPIs in the order of run R (why: the generic case below)
    case $(($1 % 3)) in
    1) echo "switchyard mpich openmpi" ;;
    2) echo "mpich openmpi switchyard" ;;
    0) echo "openmpi switchyard mpich" ;;
    esac
}
for bench in ${BENCHES:-p2p types coll attr shim percall mbw_mr tcp stress mt rma io}; do
    [ $bench = none ] && continue
    if [ $bench = stress ]; then # all-to-all of 0-4 MiB on 8 and 16 ranks: wall seconds
        "$B/bin/mpicc" -O2 -o "$out/stress_switchyard" tests/c/p2p_alltoall_stress.c
        mpicc.mpich -O2 -o "$out/stress_mpich" tests/c/p2p_alltoall_stress.c
        mpicc.openmpi -O2 -o "$out/stress_openmpi" tests/c/p2p_alltoall_stress.c
        rm -f "$out"/stress.*.txt
        r=1
        while [ $r -le $REPEAT ]; do
            order=$(rotation $r)
            for n in 8 16; do
                rounds=${STRESS_ROUNDS:-$((160 / n))}
                for impl in $order; do
                    launch $impl -n $n "$out/stress_$impl" $rounds stress_shm_s >> "$out/stress.$impl.$r.txt" ||
                        echo "stress: $impl on $n ranks (shm) failed or passed ${BENCH_LIMIT}s (run $r)" >&2
                    (export SWITCHYARD_TRANSPORT=tcp UCX_TLS=tcp OMPI_MCA_btl=self,tcp OMPI_MCA_pml=ob1
                        launch $impl -n $n "$out/stress_$impl" $rounds stress_tcp_s >> "$out/stress.$impl.$r.txt") ||
                        echo "stress: $impl on $n ranks (tcp) failed or passed ${BENCH_LIMIT}s (run $r)" >&2
                done
            done
            r=$((r + 1))
        done
        echo "== stress, $REPEAT runs: wall seconds of p2p_alltoall_stress (size: ranks, on 2 cores)"
        python3 bench/report.py "$out" stress switchyard mpich openmpi
        continue
    fi
    if [ $bench = percall ]; then # ns per call: each face of Switchyard vs MPICH and Open MPI
        "$B/bin/mpicc" -O2 -o "$out/percall_switchyard" bench/percall.c
        "$B/bin/mpicc_abi" -O2 -o "$out/percall_abi" bench/percall.c
        "$B/bin/mpifort" -O2 -o "$out/percall_f_switchyard" bench/percall.f90
        mpicc.mpich -O2 -o "$out/percall_mpich" bench/percall.c
        mpifort.mpich -O2 -o "$out/percall_f_mpich" bench/percall.f90
        mpicc.openmpi -O2 -o "$out/percall_openmpi" bench/percall.c
        mpifort.openmpi -O2 -o "$out/percall_f_openmpi" bench/percall.f90
        rm -f "$out"/percall.*.txt "$out"/percall_abi.*.txt "$out"/percall_fortran.*.txt
        r=1
        while [ $r -le $REPEAT ]; do
            "$B/bin/mpiexec" -n 1 "$out/percall_switchyard" > "$out/percall.switchyard.$r.txt"
            mpiexec.hydra -n 1 "$out/percall_mpich" > "$out/percall.mpich.$r.txt"
            mpirun.openmpi -n 1 "$out/percall_openmpi" > "$out/percall.openmpi.$r.txt"
            "$B/bin/mpiexec" -n 1 "$out/percall_abi" > "$out/percall_abi.switchyard_abi.$r.txt"
            "$B/bin/mpiexec" -n 1 "$out/percall_f_switchyard" > "$out/percall_fortran.switchyard_f.$r.txt"
            mpiexec.hydra -n 1 "$out/percall_f_mpich" > "$out/percall_fortran.mpich_f.$r.txt"
            mpirun.openmpi -n 1 "$out/percall_f_openmpi" > "$out/percall_fortran.openmpi_f.$r.txt"
            cp "$out/percall.mpich.$r.txt" "$out/percall_abi.mpich.$r.txt"
            cp "$out/percall.openmpi.$r.txt" "$out/percall_abi.openmpi.$r.txt"
            r=$((r + 1))
        done
        echo "== percall, $REPEAT runs: C face (mpicc) vs MPICH and Open MPI (C)"
        python3 bench/report.py "$out" percall switchyard mpich openmpi
        echo "== percall_abi: standard-ABI face (mpicc_abi, Switchyard's runtime) vs the same MPICH and Open MPI runs"
        python3 bench/report.py "$out" percall_abi switchyard_abi mpich openmpi
        echo "== percall_fortran: Fortran face (mpifort, use mpi) vs MPICH and Open MPI (Fortran)"
        python3 bench/report.py "$out" percall_fortran switchyard_f mpich_f openmpi_f
        continue
    fi
    if [ $bench = mt ]; then # threads: each MPI at MPI_THREAD_SINGLE and at MPI_THREAD_MULTIPLE
        "$B/bin/mpicc" -O2 -o "$out/mt_switchyard" bench/mt.c
        cp "$out/mt_switchyard" "$out/mt_switchyard_ch1" # the same on 1 channel (SWITCHYARD_CHANNELS=1)
        mpicc.mpich -O2 -Wno-stringop-overflow -o "$out/mt_mpich" bench/mt.c
        mpicc.openmpi -O2 -o "$out/mt_openmpi" bench/mt.c
        rm -f "$out"/mt.*.txt
        r=1
        while [ $r -le $REPEAT ]; do
            order=$(rotation $r)
            if [ $((r % 2)) = 1 ]; then order="switchyard_ch1 $order"; else order="$order switchyard_ch1"; fi
            for impl in $order; do
                for level in single multiple; do
                    launch $impl -n 2 "$out/mt_$impl" $level >> "$out/mt.$impl.$r.txt" ||
                        echo "mt: $impl at $level failed or passed ${BENCH_LIMIT}s (run $r)" >&2
                done
            done
            r=$((r + 1))
        done
        echo "== mt, $REPEAT runs, 2 ranks: st_* one thread at MPI_THREAD_SINGLE and MULTIPLE;" \
            "mt_latency_us T threads ping-ponging at once; mt_msgrate_Mps T threads, a communicator each;" \
            "switchyard: one channel per CPU at MULTIPLE (the default); switchyard_ch1: SWITCHYARD_CHANNELS=1"
        python3 bench/report.py "$out" mt switchyard switchyard_ch1 mpich openmpi
        continue
    fi
    if [ $bench = shim ]; then # one standard-ABI binary through the shim vs each MPI built natively
        "$B/bin/mpicc_abi" -O2 -o "$out/shim_abi" bench/shim.c
        mpicc.mpich -O2 -o "$out/shim_mpich" bench/shim.c
        mpicc.openmpi -O2 -o "$out/shim_openmpi" bench/shim.c
        rm -f "$out"/shim.*.txt "$out"/shim_openmpi.*.txt
        r=1
        while [ $r -le $REPEAT ]; do
            SWITCHYARD_ABI_BACKEND=mpich "$B/bin/mpiexec" -n 2 "$out/shim_abi" > "$out/shim.shim_on_mpich.$r.txt"
            "$B/bin/mpiexec" -n 2 "$out/shim_mpich" > "$out/shim.mpich.$r.txt"
            mpirun.openmpi --oversubscribe -n 2 -x SWITCHYARD_ABI_BACKEND=openmpi "$out/shim_abi" \
                > "$out/shim_openmpi.shim_on_openmpi.$r.txt"
            mpirun.openmpi --oversubscribe -n 2 "$out/shim_openmpi" > "$out/shim_openmpi.openmpi.$r.txt"
            "$B/bin/mpiexec" -n 2 "$out/shim_abi" > "$out/shim.abi_on_switchyard.$r.txt"
            r=$((r + 1))
        done
        echo "== shim, $REPEAT runs (ratio shim_on_X/X - 1 is the shim's cost on X)"
        python3 bench/report.py "$out" shim shim_on_mpich mpich abi_on_switchyard
        python3 bench/report.py "$out" shim_openmpi shim_on_openmpi openmpi
        continue
    fi
    if [ $bench = tcp ]; then # ping-pong over TCP on loopback, beside a plain socket's
        "$B/bin/mpicc" -O2 -Wno-stringop-overflow -o "$out/p2p_switchyard" bench/p2p.c
        mpicc.mpich -O2 -Wno-stringop-overflow -o "$out/p2p_mpich" bench/p2p.c
        mpicc.openmpi -O2 -o "$out/p2p_openmpi" bench/p2p.c
        cc -O2 -o "$out/tcp_raw" bench/tcp_raw.c
        rm -f "$out"/tcp.*.txt
        r=1
        while [ $r -le $REPEAT ]; do
            SWITCHYARD_TRANSPORT=tcp "$B/bin/mpiexec" -n 2 "$out/p2p_switchyard" > "$out/tcp.switchyard.$r.txt"
            UCX_TLS=tcp mpiexec.hydra -n 2 "$out/p2p_mpich" > "$out/tcp.mpich.$r.txt"
            OMPI_MCA_btl=self,tcp OMPI_MCA_pml=ob1 mpirun.openmpi -n 2 "$out/p2p_openmpi" > "$out/tcp.openmpi.$r.txt"
            "$out/tcp_raw" > "$out/tcp.raw_socket.$r.txt"
            r=$((r + 1))
        done
        echo "== tcp, $REPEAT runs: bench/p2p.c over TCP on loopback; raw_socket: one plain TCP socket"
        python3 bench/report.py "$out" tcp switchyard mpich openmpi raw_socket
        continue
    fi
    if [ $bench = footprint ]; then # start-up and memory: one job per rank count and run
        "$B/bin/mpicc" -O2 -o "$out/footprint_switchyard" bench/footprint.c
        mpicc.mpich -O2 -o "$out/footprint_mpich" bench/footprint.c
        mpicc.openmpi -O2 -o "$out/footprint_openmpi" bench/footprint.c
        nps=${FOOTPRINT_NP:-8 64 256}
        rm -f "$out"/footprint.*.txt
        r=1
        while [ $r -le $REPEAT ]; do
            python3 bench/footprint.py switchyard "$out/footprint_switchyard" "$nps" "$B/bin/mpiexec" \
                > "$out/footprint.switchyard.$r.txt"
            python3 bench/footprint.py mpich "$out/footprint_mpich" "$nps" mpiexec.hydra \
                > "$out/footprint.mpich.$r.txt"
            python3 bench/footprint.py openmpi "$out/footprint_openmpi" "$nps" mpirun.openmpi --oversubscribe \
                > "$out/footprint.openmpi.$r.txt"
            r=$((r + 1))
        done
        echo "== footprint, $REPEAT runs (ranks $nps)"
        python3 bench/report.py "$out" footprint switchyard mpich openmpi
        continue
    fi
    warn=""
    [ $bench = rma ] && warn="-Wall -Wextra -Werror"
    "$B/bin/mpicc" -O2 $warn -Wno-stringop-overflow -o "$out/${bench}_switchyard" bench/$bench.c
    mpicc.mpich -O2 $warn -Wno-stringop-overflow -o "$out/${bench}_mpich" bench/$bench.c
    mpicc.openmpi -O2 $warn -o "$out/${bench}_openmpi" bench/$bench.c
    ranks=2
    [ $bench = coll ] && ranks="2 4 8"
    [ $bench = attr ] && ranks=1
    [ $bench = mbw_mr ] && ranks="2 4 8"
    [ $bench = rma ] && ranks="2 8"
    [ $bench = io ] && ranks="2 8"
    # rma: Open MPI's default one-sided component (osc rdma over btl vader) segfaults in
    # MPI_Compare_and_swap under MPI_Win_lock on 2 ranks; its shared-memory one (sm) works
    [ $bench = rma ] && export OMPI_MCA_osc=sm
    rm -f "$out/$bench".*.txt
    r=1
    while [ $r -le $REPEAT ]; do
        # The order of the three rotates from run to run: the job that follows another's largest
        # (oversubscribed) one starts slowed by its teardown, so no MPI may always be that job.
        order=$(rotation $r)
        for n in $ranks; do
            for impl in $order; do
                # a job that passes the limit (Debian's MPICH can crawl when oversubscribed)
                # keeps the figures it printed; the others of its run are missing
                launch $impl -n $n "$out/${bench}_$impl" >> "$out/$bench.$impl.$r.txt" ||
                    echo "$bench: $impl on $n ranks failed or passed ${BENCH_LIMIT}s (run $r)" >&2
            done
        done
        r=$((r + 1))
    done
    echo "== $bench, $REPEAT runs"
    python3 bench/report.py "$out" $bench switchyard mpich openmpi
    [ $bench != rma ] || unset OMPI_MCA_osc
done

# The user's own builds of the OSU micro-benchmarks and of the Intel MPI Benchmarks, if given.
if [ -n "$OSU" ]; then
    for t in ${OSU_TESTS:-osu_latency osu_bw osu_mbw_mr}; do
        for impl in switchyard mpich openmpi; do
            exe=$(find "$OSU/$impl" -name "$t" -type f -perm -u+x 2>/dev/null | sort | head -n 1)
            echo "== OSU $t on $impl, ${OSU_NP:-2} ranks: ${exe:-no $OSU/$impl/.../$t}"
            [ -n "$exe" ] || continue
            launch $impl -n ${OSU_NP:-2} "$exe" $OSU_ARGS || echo "(exit status $?)"
        done
    done
fi
if [ -n "$IMB" ]; then
    for impl in switchyard mpich openmpi; do
        exe=$IMB/$impl/IMB-MPI1
        echo "== IMB-MPI1 ${IMB_ARGS:-PingPong Sendrecv Allreduce} on $impl, ${IMB_NP:-2} ranks: $exe"
        [ -x "$exe" ] || { echo "(not found)"; continue; }
        launch $impl -n ${IMB_NP:-2} "$exe" ${IMB_ARGS:-PingPong Sendrecv Allreduce} || echo "(exit status $?)"
    done
fi
