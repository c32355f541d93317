#!/usr/bin/env python3
"""A hostile web client for `referee serve`: opens N connections to HOST:PORT, half sending
nothing and half the first bytes of a request and no more (slowloris), raising its own limit of
open files first; says `ready N` on stdout and holds them all until its stdin closes.

Usage: http_flood.py HOST PORT N
"""
import resource, socket, sys

soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
host, port, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
held = []
for i in range(n):
    s = socket.create_connection((host, port))
    if i % 2:
        s.sendall(b"GET /state HTTP/1.1\r\nHost: x\r\n")
    held.append(s)
print(f"ready {len(held)}", flush=True)
sys.stdin.read()
