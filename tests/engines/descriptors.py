#!/usr/bin/env python3
"""A test engine that looks for descriptors it should not have: it appends the open descriptors
it was started with, beyond stdin, stdout and stderr, to the file $DESCRIPTORS_OUT (one JSON list
a line, with where each leads), then becomes the built-in random bot. Another engine's pipe (its
answers, its hand's moves), the records, the live file or a transcript would show here.

Usage: descriptors.py GAME. $REFEREE is the referee binary.
"""
import json, os, sys

found = []
for name in os.listdir("/proc/self/fd"):
    fd = int(name)
    if fd <= 2:
        continue
    try:
        found.append([fd, os.readlink(f"/proc/self/fd/{fd}")])
    except OSError:
        pass  # the directory listdir itself read, closed by now
with open(os.environ["DESCRIPTORS_OUT"], "a") as out:
    out.write(json.dumps(found) + "\n")
os.execv(os.environ["REFEREE"], [os.environ["REFEREE"], "bot", "--game", sys.argv[1]])
