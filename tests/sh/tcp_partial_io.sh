# tcp_partial_io.sh — the TCP transport with tiny socket buffers (SWITCHYARD_TCP_SOCKBUF=4096, issue
# 9): every read and write is split into many partial ones, and 100,000 random messages and
# type_compact still arrive whole and checked; the buffers and the partial writes are counted.
. tests/sh/lib.sh
MPIEXEC="$BUILD/bin/mpiexec"
export SWITCHYARD_TRANSPORT=tcp SWITCHYARD_TCP_SOCKBUF=4096

out=$(SWITCHYARD_DEBUG=transport timeout 120 "$MPIEXEC" -n 3 "$BUILD/tests/c/p2p_random_msgs" 2>&1) ||
    fail "p2p_random_msgs over tcp with 4096-byte socket buffers: $(echo "$out" | tail -5)"
echo "$out" | grep '^p2p_random_msgs: 100000 messages' >/dev/null || fail "not 100000 messages: $out"
# Linux doubles what is asked: 8192, never the default (16 KiB and more)
n=$(echo "$out" | grep -c 'tcp: socket buffers: send [0-9]\{4\}, receive [0-9]\{4\} bytes$')
[ "$n" = 3 ] || fail "the socket buffers are not small on every rank: $out"
partial=$(echo "$out" | sed -n 's/.*tcp: [0-9]* writes, \([0-9]*\) of them partial$/\1/p' | awk '{s += $1} END {print s + 0}')
[ "$partial" -gt 1000 ] || fail "only $partial partial writes: $out"
echo "$out" | grep '^p2p_random_msgs'
echo "p2p_random_msgs on 3 ranks over tcp, 4096-byte buffers: ok, $partial partial writes"

for t in "type_compact 2" "p2p_ring 3"; do
    set -- $t
    timeout 120 "$MPIEXEC" -n "$2" "$BUILD/tests/c/$1" >"$TMP/out" 2>&1 ||
        fail "$1 on $2 ranks over tcp with 4096-byte socket buffers: $(tail -5 "$TMP/out")"
    echo "$1 on $2 ranks over tcp, 4096-byte buffers: ok"
done
