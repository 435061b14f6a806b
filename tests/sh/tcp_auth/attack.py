# attack.py — tcp_auth's attacker: finds a rank's listening port (through its pid, /proc/PID/fd
# and /proc/net/tcp) and tries, one connection each, what a stranger or another job could send.
import hashlib, hmac, os, socket, struct, sys, time

CHAL_MAGIC = 0x3248435459575331   # the acceptor's challenge (tcp.h TCP_CHAL_MAGIC)
HELLO_MAGIC = 0x3150435459575331  # TCP_MAGIC
HDR = 32                          # sizeof(rt_msg_hdr): zeros in a HELLO
dirname, rank = sys.argv[1], int(sys.argv[2])
failures = []


def fail(msg):
    print("FAIL: " + msg, flush=True)
    failures.append(msg)


def find_rank():
    path = os.path.join(dirname, "pid.%d" % rank)
    t0 = time.time()
    while not os.path.exists(path):
        if time.time() - t0 > 30:
            sys.exit("no pid file from rank %d" % rank)
        time.sleep(0.05)
    pid = int(open(path).read())
    env = open("/proc/%d/environ" % pid, "rb").read().split(b"\0")
    secret = [e.split(b"=", 1)[1] for e in env if e.startswith(b"SWITCHYARD_JOB_SECRET=")]
    inodes = set()
    for fd in os.listdir("/proc/%d/fd" % pid):
        try:
            link = os.readlink("/proc/%d/fd/%s" % (pid, fd))
        except OSError:
            continue
        if link.startswith("socket:["):
            inodes.add(link[8:-1])
    for line in open("/proc/net/tcp").read().splitlines()[1:]:
        f = line.split()
        if f[3] == "0A" and f[9] in inodes:  # LISTEN
            return int(f[1].split(":")[1], 16), secret[0] if secret else None
    sys.exit("rank %d (pid %d) listens on no TCP port" % (rank, pid))


def connect():
    return socket.create_connection(("127.0.0.1", port), timeout=3)


def challenge(s):
    got = b""
    s.settimeout(2)
    try:
        while len(got) < 40:
            b = s.recv(40 - len(got))
            if not b:
                break
            got += b
    except socket.timeout:
        pass
    if len(got) != 40 or struct.unpack("<Q", got[:8])[0] != CHAL_MAGIC:
        fail("no challenge from the rank at accept (got %r)" % got)
        return None
    return got[8:]


def closed_within(s, t0, limit):
    """Seconds from t0 until the rank closed s, or None if it did not within limit."""
    s.settimeout(0.05)
    while time.time() - t0 < limit:
        try:
            if s.recv(4096) == b"":
                return time.time() - t0
        except socket.timeout:
            continue
        except (ConnectionResetError, BrokenPipeError):
            return time.time() - t0
    return None


def hello(nonce, key, sender, receiver=None):
    receiver = rank if receiver is None else receiver
    mac = hmac.new(key, b"switchyard-tcp-v1" + nonce + struct.pack(">II", sender, receiver),
                   hashlib.sha256).digest()
    return struct.pack("<IIQQQ", 1, 0, HELLO_MAGIC, sender, 32) + bytes(HDR) + mac


def case(name, send, limit=1.0, at_least=0.0):
    t0 = time.time()
    s = connect()
    nonce = challenge(s)
    if nonce is None:
        s.close()
        return
    data = send(nonce)
    try:
        if data:
            s.sendall(data)
    except (ConnectionResetError, BrokenPipeError):
        pass
    took = closed_within(s, t0, limit + 1.5)
    s.close()
    if took is None:
        fail("%s: the connection was still open after %.1f s" % (name, limit + 1.5))
    elif took > limit or took < at_least:
        fail("%s: closed after %.2f s, expected %.1f..%.1f s" % (name, took, at_least, limit))
    else:
        print("%s: closed by rank %d after %.2f s" % (name, rank, took), flush=True)


port, secret = find_rank()
if not secret:
    sys.exit("rank %d has no SWITCHYARD_JOB_SECRET" % rank)
print("rank %d listens on 127.0.0.1:%d" % (rank, port), flush=True)
case("random bytes", lambda n: os.urandom(200))
case("an HTTP request", lambda n: b"GET / HTTP/1.0\r\n\r\n")
case("a silent peer", lambda n: None, limit=2.0, at_least=0.9)
case("another job's handshake", lambda n: hello(n, os.urandom(16).hex().encode(), 0))
case("a handshake for another challenge", lambda n: hello(os.urandom(32), secret, 0))
case("a handshake from rank 99", lambda n: hello(n, secret, 99))
case("a handshake claiming the rank itself", lambda n: hello(n, secret, rank))
case("a handshake for another receiver", lambda n: hello(n, secret, 0, receiver=rank + 1))
case("half a handshake", lambda n: hello(n, secret, 0)[:50], limit=2.0, at_least=0.9)
s = connect()  # a port scanner: connects, reads, leaves
challenge(s)
s.close()
open(os.path.join(dirname, "done"), "w").close()
sys.exit(1 if failures else 0)
