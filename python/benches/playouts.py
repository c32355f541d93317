#!/usr/bin/env python3
"""Random playouts per second through the `referee` package and through a `referee session`
oracle over a pipe (the way examples/random_bot.py learns the rules), in interleaved rounds.

  .venv/bin/python python/benches/playouts.py [GAME] [ROUNDS]    (REFEREE: the binary, else `referee`)

Prints, per way, the median and the range of playouts per second over the rounds."""
import os
import random
import statistics
import subprocess
import sys
import time

import referee

GAME = sys.argv[1] if len(sys.argv) > 1 else "pegs"
ROUNDS = int(sys.argv[2]) if len(sys.argv) > 2 else 10
SECONDS = 1.0  # per way per round


def package(rng):
    game = referee.Game(GAME, seed=rng.getrandbits(32))
    while not game.is_over():
        game.play(rng.choice(game.legal_moves()))


class Oracle:
    def __init__(self):
        self.session = subprocess.Popen([os.environ.get("REFEREE", "referee"), "session"],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def ask(self, command):
        self.session.stdin.write(command + "\n")
        self.session.stdin.flush()
        lines = iter(self.session.stdout.readline, "\n")
        return " ".join(lines)[1:].strip()

    def playout(self, rng):
        self.ask(f"newgame {GAME} seed={rng.getrandbits(32)}")
        while True:
            moves = self.ask("legal_moves")
            if not moves:
                return
            split = moves.split(", ") if GAME == "double" else moves.split()
            self.ask("play " + rng.choice(split))


def rate(playout, rng):
    count, start = 0, time.perf_counter()
    while time.perf_counter() - start < SECONDS:
        playout(rng)
        count += 1
    return count / (time.perf_counter() - start)


def main():
    rng = random.Random(1)
    oracle = Oracle()
    rates = {"package": [], "session": []}
    for _ in range(ROUNDS):
        rates["package"].append(rate(package, rng))
        rates["session"].append(rate(oracle.playout, rng))
    for way, values in rates.items():
        print(f"{GAME} {way}: median {statistics.median(values):.0f} playouts/s "
              f"[{min(values):.0f}..{max(values):.0f}] over {ROUNDS} interleaved rounds")
    ratio = statistics.median(rates["package"]) / statistics.median(rates["session"])
    print(f"{GAME}: the package is {ratio:.0f} times faster")


if __name__ == "__main__":
    main()
