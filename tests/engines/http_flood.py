#!/usr/bin/env python3
"""A hostile web client for `referee serve`: opens N connections to HOST:PORT, half sending
nothing and half the first bytes of a request and no more (slowloris), raising its own limit of
open files first; says `ready N` on stdout and holds them all until its stdin closes. With
`games G`, each connection asks for a finished game instead (`/game/1` to `/game/G` in turn,
each a page the server must draw) and never reads its answer.

Usage: http_flood.py HOST PORT N [games G]
"""
import resource, socket, sys

soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
host, port, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
games = int(sys.argv[5]) if sys.argv[4:5] == ["games"] else 0
held = []
for i in range(n):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.connect((host, port))
    if i % 2 and not games:
        s.sendall(b"GET /state HTTP/1.1\r\nHost: x\r\n")
    held.append(s)
# The games asked for all at once, once every connection is open.
for i, s in enumerate(held if games else []):
    s.sendall(f"GET /game/{i % games + 1} HTTP/1.1\r\nHost: {host}:{port}\r\n\r\n".encode())
print(f"ready {len(held)}", flush=True)
sys.stdin.read()
