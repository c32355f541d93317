#!/usr/bin/env python3
"""A test engine that plays like the built-in random bot and writes every line it receives to
PID.log in its sandbox's scratch directory ($REFEREE_SCRATCH) or else in DIR, so a test can check
afterwards what each engine process was told.

Usage: spy.py DIR GAME. $REFEREE is the referee binary.
"""
import os, sys
from relay import relay, start_bot

DIR = os.environ.get("REFEREE_SCRATCH") or sys.argv[1]
GAME = sys.argv[2]
seen = open(os.path.join(DIR, f"{os.getpid()}.log"), "w")
bot = start_bot(GAME)

for line in sys.stdin.buffer:
    seen.write(line.decode())
    seen.flush()
    relay(bot, line)
