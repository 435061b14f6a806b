# challenge_seeds.py — writes the seed inputs of fuzz/tcp_challenge.c into a directory: a genuine
# challenge whole, split, with extra bytes after it or cut short, a wrong magic, and noise.
import os
import struct
import sys

MAGIC = 0x3248435459575331  # TCP_CHAL_MAGIC (tcp.h): "1SWYTCH2"
ENDS, ERR, MACFAIL = 1, 2, 4  # byte 0 of an input (see fuzz/tcp_challenge.c)
chal = struct.pack("<Q", MAGIC) + bytes(range(32))
seeds = {
    "whole": bytes([0, 0, 1]) + chal,
    "split": bytes([ENDS | 8, 3, 2]) + chal,
    "extra": bytes([ENDS | 16, 0, 3]) + chal + b"\x01HELLO?" * 4,
    "short_eof": bytes([ENDS, 5, 4]) + chal[:23],
    "short_reset": bytes([ENDS | ERR, 1, 5]) + chal[:8],
    "short_wait": bytes([0, 2, 6]) + chal[:39],
    "wrong_magic": bytes([ENDS, 0, 7]) + struct.pack("<Q", MAGIC ^ 1) + bytes(32),
    "no_mac": bytes([MACFAIL, 0, 8]) + chal,
    "http": bytes([ENDS, 0, 9]) + b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n",
}
os.makedirs(sys.argv[1], exist_ok=True)
for name, data in seeds.items():
    with open(os.path.join(sys.argv[1], name), "wb") as f:
        f.write(data)
