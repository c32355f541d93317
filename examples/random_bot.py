#!/usr/bin/env python3
"""A complete engine for `referee match`: plays random legal moves, for any game the referee knows.

It keeps its own `referee session` (the command in $REFEREE, else `referee`) as a rules oracle and
learns the game only through the protocol: `newgame`, every `play SEAT MOVE`, `genmove SEAT ...`,
and in DOUBLE the `event` lines that tell this seat its cards.
  referee match --game dvonn --engine 'python3 examples/random_bot.py' --engine 'referee bot --game dvonn'
"""
import os, random, subprocess, sys

rules = subprocess.Popen([os.environ.get("REFEREE", "referee"), "session"],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

def ask(command):  # one command to the oracle; its answer's payload
    rules.stdin.write(command + "\n")
    rules.stdin.flush()
    lines = iter(rules.stdout.readline, "\n")
    return " ".join(lines)[1:].strip()

for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    ident, name, args = words[0], words[1], words[2:]
    answer = {"protocol_version": "2", "name": "random_bot.py", "version": "1"}.get(name, "")
    if name == "newgame":  # newgame GAME [VARIANT] seats=N seat=K seed=S TC [setup=T] ...
        game = args[0].lower()
        random.seed(next((a[5:] for a in args if a.startswith("seed=")), None))
        # The oracle gets the game, variant, seats, setup and seat (in DOUBLE it then keeps this
        # seat's view); other keys (the clock, any a later referee adds) are ignored, as they must be.
        ask(" ".join(["newgame"] + [a for a in args
                                    if "=" not in a or a.startswith(("seats=", "setup=", "seat="))]))
    elif name in ("play", "event"):  # play SEAT MOVE; event TEXT: DOUBLE's cards this seat sees
        ask(" ".join([name] + args))
    elif name == "genmove":  # DOUBLE's moves hold spaces (`left c31:RYB`): it separates by commas
        moves = ask("legal_moves")
        answer = random.choice(moves.split(", ") if game == "double" else moves.split())
    print(f"={ident} {answer}".rstrip() + "\n", flush=True)
    if name == "quit":
        break
