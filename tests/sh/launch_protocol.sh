# launch_protocol.sh — malformed, oversized or out-of-order PMI input from a rank ends the
# job with exit code 1 and a message naming the rank and quoting the (escaped) input.
. tests/sh/launch_common.sh
# bad NAME QUOTED_TEXT mode args...
bad() {
    local name=$1 text=$2 t0=$EPOCHREALTIME
    shift 2
    run -n 3 "$P" "$@"
    check "$name: exit code $rc, expected 1" [ "$rc" = 1 ]
    check "$name: message" has "$err" "broke the PMI protocol"
    check "$name: quotes the input" has "$err" "$text"
    check "$name: took $(since "$t0")s" awk -v t="$(since "$t0")" 'BEGIN { exit !(t < 2.5) }'
    expect_no_procs 1
}
bad "unknown command" '"cmd=bogus x=1"' garbage 1 'cmd=bogus x=1\n'
check "names the rank" has "$err" "rank 1 (pid "
bad "no newline, 5000 bytes" 'longer than 2048 bytes): "xxxxxxxx' garbage 2 LONG
bad "missing value" '"cmd=put kvsname=x key=a"' garbage 1 'cmd=put kvsname=x key=a\n'
bad "missing key" '"cmd=get"' garbage 1 'cmd=get\n'
bad "not key=value" '"cmd=get_maxes oops"' garbage 1 'cmd=get_maxes oops\n'
bad "binary bytes" '"cmd=put key=\x01\xff\""' garbage 0 'cmd=put key=\x01\xff"\n'
bad "NUL byte" '"cmd=get_\x00maxes"' garbage 0 'cmd=get_\x00maxes\n'
bad "no cmd= first" '"key=a cmd=get"' garbage 0 'key=a cmd=get\n'
bad "wrong kvsname" 'names another kvsname' garbage 1 'cmd=get kvsname=other key=a\n'
long=$(printf 'k%.0s' $(seq 70))
bad "key too long" "key=$long" garbage 1 "cmd=put key=$long value=1\\n"
val=$(printf 'v%.0s' $(seq 1030))
bad "value too long" "value too long" garbage 1 "cmd=put key=a value=$val\\n"
bad "request before init" '"cmd=get_maxes"' raw 'cmd=get_maxes\n'
bad "second init" 'second cmd=init' garbage 1 'cmd=init pmi_version=1 pmi_subversion=1\n'
bad "replies never read" 'replies are not read' flood 2
echo "protocol errors end the job"
