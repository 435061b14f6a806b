# seeds.py — writes the seed inputs of fuzz/tcp_frames.c into a directory: real frame sequences
# (EAGER, RTS then DATA, CTS, FIN after the harness's HELLO) and a stranger's noise.
import os
import struct
import sys

def frame(type_, a=0, b=0, c=0, ctx=0, src=0, tag=0, flags=0, sreq=0, len_=0):
    """struct tcp_frame (tcp.h), little-endian: type, pad, a, b, c, then rt_msg_hdr."""
    return struct.pack("<IIQQQiiiIQq", type_, 0, a, b, c, ctx, src, tag, flags, sreq, len_)

HELLO, EAGER, RTS, CTS, DATA, FIN = range(1, 7)
AUTH, EOF = 1, 2   # byte 0 of an input (see fuzz/tcp_frames.c)
seeds = {
    "eager": bytes([AUTH, 0, 1]) + frame(EAGER, a=10, len_=10) + b"0123456789",
    "rts_data": bytes([AUTH, 7, 2]) + frame(RTS, a=77, len_=100) + frame(DATA, a=1, b=0, c=60) +
    bytes(60) + frame(DATA, a=1, b=60, c=40) + bytes(40),
    "rts_unpack": bytes([AUTH | EOF, 0, 3]) + frame(RTS, a=5, len_=10) + frame(RTS, a=6, len_=300) +
    frame(DATA, a=2, b=0, c=300) + bytes(300),
    "cts_fin": bytes([AUTH, 13, 4]) + frame(CTS, a=1, b=9, c=3000) + frame(CTS, a=2, b=8, c=5000) +
    frame(FIN, a=1, b=0),
    "stranger": bytes([EOF, 0, 5]) + b"GET / HTTP/1.1\r\nHost: x\r\n\r\n",
    "hello_bad_mac": bytes([0, 3, 6]) + frame(HELLO, a=0x3150435459575331, b=1, c=32) + bytes(32),
}
os.makedirs(sys.argv[1], exist_ok=True)
for name, data in seeds.items():
    with open(os.path.join(sys.argv[1], name), "wb") as f:
        f.write(data)
