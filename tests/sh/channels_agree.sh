# channels_agree.sh — the ranks of a node agree on their number of channels (issue 38): the
# first local rank's (SWITCHYARD_CHANNELS, else one per CPU at MPI_THREAD_MULTIPLE, else 1)
# wins, whatever the others asked for, under Switchyard's mpiexec and Hydra; messages on
# several communicators (so several channels) all arrive, every rank at its own thread level.
. tests/sh/lib.sh
MPIEXEC="$BUILD/bin/mpiexec"
# each rank asks for the thread level LEVEL_<its rank> says (1: MULTIPLE, else SINGLE), read
# before MPI_Init_thread from the launcher's PMI_RANK; then 200 messages to the next rank on each
# of 4 duplicates of MPI_COMM_WORLD (so on every channel), each checked
cat >"$TMP/chans.c" <<'EOF'
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv)
{
    char key[32];
    const char *r = getenv("PMI_RANK");
    snprintf(key, sizeof key, "LEVEL_%s", r ? r : "0");
    int want = getenv(key) && atoi(getenv(key)) ? MPI_THREAD_MULTIPLE : MPI_THREAD_SINGLE;
    int me, np, provided, bad = 0;
    MPI_Init_thread(&argc, &argv, want, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    if (provided != want)
        printf("rank %d: asked for thread level %d, got %d\n", me, want, provided), bad = 1;
    MPI_Comm c[4];
    for (int i = 0; i < 4; i++)
        MPI_Comm_dup(MPI_COMM_WORLD, &c[i]);
    for (int k = 0; k < 200; k++) {
        for (int i = 0; i < 4; i++) {
            int out = me * 100000 + i * 1000 + k, in = -1;
            int to = (me + 1) % np, from = (me + np - 1) % np;
            MPI_Sendrecv(&out, 1, MPI_INT, to, k, &in, 1, MPI_INT, from, k, c[i], MPI_STATUS_IGNORE);
            if (in != from * 100000 + i * 1000 + k)
                printf("rank %d: message %d on communicator %d is %d\n", me, k, i, in), bad = 1;
        }
    }
    for (int i = 0; i < 4; i++)
        MPI_Comm_free(&c[i]);
    MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
    MPI_Finalize();
    return bad;
}
EOF
"$BUILD/bin/mpicc" -o "$TMP/chans" "$TMP/chans.c" || fail "cannot build chans.c"
CPUS=$(nproc --all)
PER_CPU=1
while [ $((PER_CPU * 2)) -le "$CPUS" ] && [ $((PER_CPU * 2)) -le 8 ]; do PER_CPU=$((PER_CPU * 2)); done

# run WHAT EXPECTED NP [VAR=VALUE...]: chans on NP ranks with those settings; every rank must
# report EXPECTED channels and the job succeed. CHANNELS_<rank>=N sets SWITCHYARD_CHANNELS for
# one rank only.
run() {
    what=$1 want=$2 np=$3
    shift 3
    out=$(env "$@" SWITCHYARD_DEBUG=channels timeout 60 $LAUNCH -n "$np" sh -c \
        'v=$(eval echo \$CHANNELS_$PMI_RANK); [ -n "$v" ] && export SWITCHYARD_CHANNELS=$v; exec "$0"' \
        "$TMP/chans" 2>&1) || fail "$L: $what: the job failed: $out"
    n=$(echo "$out" | grep -c "^switchyard: rank [0-9]*: channels: $want\$")
    [ "$n" = "$np" ] || fail "$L: $what: not $want channels on each of the $np ranks: $out"
    echo "$L: $what: channels: $want on every rank"
}
for L in OWN HYDRA; do
    if [ $L = OWN ]; then
        LAUNCH=$MPIEXEC NP=4
    else
        command -v mpiexec.hydra >/dev/null || { echo "Hydra: skipped (Debian's mpich is not installed)"; continue; }
        LAUNCH=mpiexec.hydra NP=2 # Hydra's ranks would busy-poll beside ours: never more than the cores
    fi
    run "SINGLE everywhere" 1 $NP
    run "MULTIPLE everywhere, the default" $PER_CPU $NP LEVEL_0=1 LEVEL_1=1 LEVEL_2=1 LEVEL_3=1
    run "rank 0 at MULTIPLE, the others at SINGLE" $PER_CPU $NP LEVEL_0=1
    run "rank 0 at SINGLE, the others at MULTIPLE" 1 $NP LEVEL_1=1 LEVEL_2=1 LEVEL_3=1
    run "rank 0 asks for 4 channels, the others for 1" 4 $NP CHANNELS_0=4 CHANNELS_1=1 CHANNELS_2=1 CHANNELS_3=1 LEVEL_1=1
    run "rank 0 asks for 1 channel, the others for 8" 1 $NP CHANNELS_0=1 CHANNELS_1=8 CHANNELS_2=8 CHANNELS_3=8 LEVEL_0=1
done
