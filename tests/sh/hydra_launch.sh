# hydra_launch.sh — Debian MPICH's launcher (mpiexec.hydra, PMI-1) starts a Switchyard
# program: the point-to-point ring passes on 3 ranks.
. tests/sh/lib.sh
command -v mpiexec.hydra >/dev/null || skip "Debian's mpich (mpiexec.hydra) is not installed"
timeout 60 mpiexec.hydra -n 3 "$BUILD/tests/c/p2p_ring" || fail "p2p_ring failed under mpiexec.hydra"
echo "p2p_ring passed on 3 ranks launched by mpiexec.hydra"
