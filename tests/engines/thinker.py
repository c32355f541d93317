#!/usr/bin/env python3
"""A test engine that plays like the built-in random bot and says what it thinks before each move
in `info` lines, as MODE says:

- good: `info score=K depth=3 nodes=100 pv=x,y hashfull=7 string move K` before its K-th move
  (from 1), after an earlier `info score=-1` that the later one replaces;
- bad: `info depth` (not KEY=VALUE) before its first move, then as good;
- flood: as good, but 20,000 info lines before its 3rd move;
- endless: as good, but an info line every 5 ms without end at its 3rd move, which it never
  answers (a thinker that never stops: the clock, not the count, must end it).

Usage: thinker.py MODE GAME. $REFEREE is the referee binary.
"""
import sys, time
from relay import relay, start_bot

MODE, GAME = sys.argv[1], sys.argv[2]
bot = start_bot(GAME, "5")
out = sys.stdout.buffer
moves = 0

def say(text):
    out.write(text.encode() + b"\n")

for line in sys.stdin.buffer:
    if b"genmove" in line.split()[:2]:
        moves += 1
        if MODE == "bad" and moves == 1:
            say("info depth")
        if MODE == "flood" and moves == 3:
            for _ in range(20000):
                say("info depth=1")
        if MODE == "endless" and moves == 3:
            while True:
                say("info depth=1 string still thinking")
                out.flush()
                time.sleep(0.005)
        say("info score=-1")
        say(f"info score={moves} depth=3 nodes=100 pv=x,y hashfull=7 string move {moves}")
    relay(bot, line)
    if b"quit" in line.split()[:2]:
        break
