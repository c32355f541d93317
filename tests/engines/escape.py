#!/usr/bin/env python3
"""A test engine that plays like the built-in random bot, but at its first genmove tries to get
out: `connect:HOST:PORT` opens a TCP connection, `read:PATH` reads a file, `write:PATH` writes
one, `scratch` writes a file in $TMPDIR. If the attempt fails it says `blocked: WHY` on stderr
and exits with code 1; if it succeeds it says `escaped` and plays on.

Usage: escape.py ATTEMPT. $REFEREE is the referee binary.
"""
import os, socket, sys
from relay import relay, start_bot

ATTEMPT = sys.argv[1]
bot = start_bot("pegs")

def attempt():
    kind, _, target = ATTEMPT.partition(":")
    if kind == "connect":
        host, port = target.rsplit(":", 1)
        socket.create_connection((host, int(port)), timeout=2).close()
    elif kind == "read":
        open(target).read()
    elif kind == "write":
        open(target, "w").write("out of the sandbox\n")
    elif kind == "scratch":
        open(os.path.join(os.environ["TMPDIR"], "notes"), "w").write("mine\n")

tried = False
for line in sys.stdin.buffer:
    if line.split()[1:2] == [b"genmove"] and not tried:
        tried = True
        try:
            attempt()
            print("escaped", file=sys.stderr, flush=True)
        except OSError as e:
            sys.exit(f"blocked: {e}")
    relay(bot, line)
