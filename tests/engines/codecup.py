#!/usr/bin/env python3
"""A CodeCup-style test engine: reads `Start` or the opponent's move, one per line, and prints
its own move, a random legal one; exits by itself once its own move ends the game, or on `Quit`.
A `referee session` ($REFEREE) is its rules oracle. At its 3rd move it misbehaves as MODE says:
`play` (never), `crash`, `hang`, `garbage`, `illegal`. Its process ids are appended to
$CODECUP_PIDS, if set.

Usage: codecup.py MODE GAME TIME_MS
"""
import os, random, subprocess, sys, time

MODE, GAME, TIME_MS = sys.argv[1], sys.argv[2], sys.argv[3]
print(f"codecup.py {MODE} {GAME}: {TIME_MS} ms for the game", file=sys.stderr, flush=True)
rules = subprocess.Popen([os.environ["REFEREE"], "session"],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
if "CODECUP_PIDS" in os.environ:
    with open(os.environ["CODECUP_PIDS"], "a") as f:
        f.write(f"{os.getpid()}\n{rules.pid}\n")

def ask(command):
    rules.stdin.write(command + "\n")
    rules.stdin.flush()
    lines = iter(rules.stdout.readline, "\n")
    answer = " ".join(lines)
    if answer.startswith("?"):
        sys.exit(f"the oracle refused `{command}`: {answer}")
    return answer[1:].strip()

def my_move():
    move = random.choice(ask("legal_moves").split())
    ask(f"play {move}")
    print(move, flush=True)

ask(f"newgame {GAME}")
moves = 0
me = None
for line in sys.stdin:
    line = line.strip()
    if line == "Quit":
        break
    if me is None:
        me = ask("to_move") if line == "Start" else str(1 - int(ask("to_move")))
    if line != "Start":
        ask(f"play {line}")
        # The other seat may move twice in a row: then its next move follows.
        if ask("to_move") != me:
            continue
    moves += 1
    if moves == 3 and MODE == "crash":
        sys.exit("codecup.py gave up")
    if moves == 3 and MODE == "hang":
        time.sleep(3600)
    if moves == 3 and MODE == "garbage":
        print("hello, this is not a move", flush=True)
        continue
    if moves == 3 and MODE == "illegal":
        print("A1A2", flush=True)
        continue
    my_move()
    # The same seat may move again at once (DVONN's 49th placement and first move).
    while ask("legal_moves") and ask("to_move") == me:
        my_move()
    if not ask("legal_moves"):
        break
