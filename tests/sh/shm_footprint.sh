# shm_footprint.sh — the node's shared-memory region grows linearly with its ranks (issue 15
# item 7): its size per rank at 64 ranks is within 25% of that at 16 ranks (it was 2.1x).
. tests/sh/lib.sh
MPIEXEC="$BUILD/bin/mpiexec"
"$BUILD/bin/mpicc" -o "$TMP/region_size" tests/sh/shm/region_size.c || fail "cannot build region_size.c"
for n in 16 64; do
    out=$(timeout 120 "$MPIEXEC" -n $n "$TMP/region_size" 2>&1) || fail "$n ranks: $out"
    set -- $out
    [ "$#" = 2 ] && [ "$1" = $n ] && [ "$2" -gt 0 ] || fail "$n ranks printed: $out"
    eval "bytes$n=$2"
    echo "$n ranks: region of $2 bytes, $(($2 / n)) per rank"
done
# per rank at 64 <= 1.25 x per rank at 16, i.e. bytes64 * 16 * 4 <= bytes16 * 64 * 5
[ $((bytes64 * 16 * 4)) -le $((bytes16 * 64 * 5)) ] ||
    fail "the region grows faster than the ranks: $bytes16 bytes at 16 ranks, $bytes64 at 64"
echo "linear: $((bytes64 / 64)) bytes per rank at 64 ranks, $((bytes16 / 16)) at 16"

