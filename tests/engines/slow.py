#!/usr/bin/env python3
"""A test engine that plays exactly like `referee bot --game GAME --seed SEED` (the random bot)
but waits MS milliseconds before each move, so that a run takes long enough to be interrupted in
the middle.

Usage: slow.py GAME SEED MS. $REFEREE is the referee binary.
"""
import sys, time
from relay import relay, start_bot

GAME, SEED, MS = sys.argv[1], sys.argv[2], int(sys.argv[3])
bot = start_bot(GAME, SEED)

for line in sys.stdin.buffer:
    # Commands carry an id first: `7 genmove`.
    if b"genmove" in line.split()[:2]:
        time.sleep(MS / 1000)
    relay(bot, line)
