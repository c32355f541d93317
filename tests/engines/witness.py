#!/usr/bin/env python3
"""A test engine that plays like the built-in random bot, writes every line it receives to
DIR/PID.log, and, asked for a move, first waits (up to 5 s) until every other engine's log holds
as many plies and events as its own: the referee promises that every engine hears of a ply before
the engine to move is asked. Should one not, it answers a move that is no move.

Usage: witness.py DIR GAME. $REFEREE is the referee binary. Meant for one game at a time, every
engine in every game (so all hear the same plies).
"""
import glob, os, sys, time
from relay import relay, start_bot

DIR, GAME = sys.argv[1], sys.argv[2]
mine = os.path.join(DIR, f"{os.getpid()}.log")
seen = open(mine, "w")
bot = start_bot(GAME)
heard = 0

def told(path):
    with open(path) as f:
        return sum(1 for l in f if l.split()[1:2] in (["play"], ["event"]))

for line in sys.stdin.buffer:
    text = line.decode()
    seen.write(text)
    seen.flush()
    words = text.split()
    if words[1:2] in (["play"], ["event"]):
        heard += 1
    if words[1:2] == ["genmove"]:
        others = [p for p in glob.glob(os.path.join(DIR, "*.log")) if p != mine]
        give_up = time.monotonic() + 5
        while any(told(p) < heard for p in others) and time.monotonic() < give_up:
            time.sleep(0.005)
        if any(told(p) < heard for p in others):
            sys.stdout.write(f"={words[0]} not-told-yet\n\n")
            sys.stdout.flush()
            continue
    relay(bot, line)
