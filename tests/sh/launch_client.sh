# launch_client.sh — the PMI client (runtime/launch/pmi.c) against a fake process manager that
# answers wrongly: each bad answer is an error in rt__pmi_error(), never a crash or a hang.
. tests/sh/launch_common.sh
command -v python3 >/dev/null || skip "python3 is needed for the fake process manager"
cat >"$TMP/fakepm.py" <<'PY'
# fakepm.py PROG ANSWER...: runs PROG client on a socketpair (PMI_FD) and answers each
# request line with the next ANSWER (backslash escapes decoded; BIG = a 100000-byte line,
# NONE = no answer, CLOSE = close the connection). Exits 0 when PROG exited 0 in time.
import codecs, os, socket, subprocess, sys
ours, theirs = socket.socketpair()
env = dict(os.environ, PMI_FD=str(theirs.fileno()), PMI_RANK="0", PMI_SIZE="1")
env.pop("PMI_PORT", None)
child = subprocess.Popen([sys.argv[1], "client"], env=env, pass_fds=[theirs.fileno()])
theirs.close()
reader = ours.makefile("rb")
for answer in sys.argv[2:]:
    if not reader.readline() or answer == "CLOSE":
        break
    if answer == "BIG":
        ours.sendall(b"cmd=response_to_init " + b"x" * 100000 + b"\n")
    elif answer != "NONE":
        ours.sendall(codecs.decode(answer, "unicode_escape").encode("latin-1"))
reader.close()
ours.close()
try:
    sys.exit(0 if child.wait(timeout=5) == 0 else 4)
except subprocess.TimeoutExpired:
    child.kill()
    print("the client hung")
    sys.exit(3)
PY
INIT='cmd=response_to_init pmi_version=1 pmi_subversion=1 rc=0\n'
MAXES='cmd=maxes kvsname_max=256 keylen_max=64 vallen_max=1024\n'
APPNUM='cmd=appnum appnum=0\n'
KVS='cmd=my_kvsname kvsname=kvs_1\n'
PUT='cmd=put_result rc=0 msg=success\n'
GET='cmd=get_result rc=0 msg=success value=v\n'
BAR='cmd=barrier_out\n'
FIN='cmd=finalize_ack\n'
# pm EXPECTED_OUTPUT ANSWER...
pm() {
    local want=$1
    shift
    out=$(python3 "$TMP/fakepm.py" "$P" "$@" 2>&1)
    rc=$?
    [ $rc = 0 ] || fail "client crashed or hung (fakepm rc $rc) on: $*: $out"
    case $out in *"$want"*) ;; *) fail "expected '$want', got '$out' for: $*" ;; esac
}
pm "client ok: rank 0 of 1, appnum 0, k=v" "$INIT" "$MAXES" "$APPNUM" "$KVS" "$PUT" "$GET" "$BAR" "$FIN"
# two answers in one burst, and answers in pieces are both fine
pm "client ok" "$INIT$MAXES" NONE "$APPNUM" "$KVS" "$PUT" "$GET" "$BAR" "$FIN"
pm "client ok" "$INIT" "$MAXES" "$APPNUM" "$KVS" "$PUT" 'cmd=get_result  rc=0 value=v  \n' "$BAR" "$FIN"
pm "init failed: PMI: the process manager closed" CLOSE
pm "init failed: PMI: the process manager closed" 'cmd=response_to_init pmi_version=1'
pm "init failed: PMI: cmd=response_to_init failed: rc=-1" 'cmd=response_to_init rc=-1\n'
pm "init failed: PMI: the process manager does not speak PMI version 1" 'cmd=response_to_init pmi_version=2 rc=0\n'
pm "init failed: PMI: response longer than" BIG
pm "init failed: PMI: expected cmd=response_to_init, got cmd=maxes" "$MAXES"
pm "init failed: PMI: malformed response" 'hello world\n'
pm "init failed: PMI: malformed response" 'cmd=response_to_init rc=0 \x01\n'
pm "init failed: PMI: response contains a NUL byte" 'cmd=response_to_init\x00 rc=0\n'
pm "init failed: PMI: malformed rc" 'cmd=response_to_init pmi_version=1 rc=zero\n'
pm "init failed: PMI: cmd=maxes: missing or invalid keylen_max" "$INIT" 'cmd=maxes kvsname_max=256 keylen_max=x vallen_max=1024\n'
pm "init failed: PMI: cmd=maxes: missing or invalid vallen_max" "$INIT" 'cmd=maxes kvsname_max=256 keylen_max=64 vallen_max=99999999999\n'
pm "init failed: PMI: cmd=appnum: missing or invalid appnum" "$INIT" "$MAXES" 'cmd=appnum\n'
pm "init failed: PMI: cmd=my_kvsname: missing or invalid kvsname" "$INIT" "$MAXES" "$APPNUM" 'cmd=my_kvsname\n'
pm "put failed: PMI: cmd=put_result failed: rc=-1" "$INIT" "$MAXES" "$APPNUM" "$KVS" 'cmd=put_result rc=-1 msg=no\n'
pm "get failed: PMI: key 'k' not found" "$INIT" "$MAXES" "$APPNUM" "$KVS" "$PUT" 'cmd=get_result rc=-1 msg=key_k_not_found\n'
pm "get failed: PMI: cmd=get_result without a value" "$INIT" "$MAXES" "$APPNUM" "$KVS" "$PUT" 'cmd=get_result rc=0\n'
pm "get failed: PMI: the value of key 'k' (100 bytes) does not fit in 64 bytes" "$INIT" "$MAXES" "$APPNUM" "$KVS" "$PUT" "cmd=get_result rc=0 value=$(printf 'v%.0s' $(seq 100))\\n"
pm "barrier failed: PMI: the process manager closed" "$INIT" "$MAXES" "$APPNUM" "$KVS" "$PUT" "$GET" CLOSE
pm "finalize failed: PMI: expected cmd=finalize_ack" "$INIT" "$MAXES" "$APPNUM" "$KVS" "$PUT" "$GET" "$BAR" "$BAR"
# PMI_PORT without PMI_FD is refused, not mistaken for a singleton
out=$(env -u PMI_FD PMI_PORT=localhost:1 "$P" client)
case $out in *"init failed: PMI: PMI_PORT is set"*) ;; *) fail "PMI_PORT: $out" ;; esac
out=$(PMI_FD=99 PMI_RANK=0 PMI_SIZE=1 "$P" client)
case $out in *"init failed: PMI: PMI_FD=99 is not an open descriptor"*) ;; *) fail "bad PMI_FD: $out" ;; esac
out=$(PMI_FD=0 PMI_RANK=2 PMI_SIZE=2 "$P" client)
case $out in *"init failed: PMI: invalid PMI_RANK"*) ;; *) fail "bad PMI_RANK: $out" ;; esac
echo "the PMI client survives a bad process manager"
