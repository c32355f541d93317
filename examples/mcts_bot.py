#!/usr/bin/env python3
"""A complete engine for `referee match` on the `referee` Python package (`pip install ./python`):
Monte Carlo tree search (UCT), random playouts from copies of the position, for every game and
seat count. DOUBLE is played from the seat's own view: each playout starts from a deal of the
cards it cannot see guessed anew (`SeatView.game(seed)`), and a node's moves are tried only where
that deal allows them (information-set MCTS).

It thinks for a share of its clock, at most MCTS_MS milliseconds a move (default 100):
  referee match --game pegs --engine '.venv/bin/python examples/mcts_bot.py' --engine random
"""
import math
import os
import random
import sys
import time

import referee

CAP_MS = int(os.environ.get("MCTS_MS", "100"))
EXPLORE = 1.4


class Node:
    __slots__ = ("mover", "children", "visits", "points")

    def __init__(self, mover):
        self.mover = mover  # the seat whose move led here
        self.children = {}  # move text -> Node
        self.visits = 0
        self.points = 0.0  # the mover's points over the playouts through here


def think_ms(keys):
    """The time for this move, from genmove's clock keys (milliseconds)."""
    if "movetime" in keys:
        budget = keys["movetime"] * 0.5
    elif "time" in keys:
        moves = keys.get("movestogo", 30)
        budget = keys["time"] / max(moves, 1) + keys.get("inc", 0) * 0.5
        budget = min(budget, keys["time"] * 0.25)
    else:
        budget = CAP_MS
    return max(1.0, min(budget, CAP_MS))


def search(view, deadline, rng):
    root = Node(None)
    playouts = 0
    while playouts == 0 or time.monotonic() < deadline:
        game = view.game(rng.getrandbits(63))  # a copy; in DOUBLE a fresh guess of hidden cards
        node, path = root, [root]
        # Select by UCT among the children this position allows; expand one move not tried yet.
        while not game.is_over():
            moves = game.legal_moves()
            untried = [m for m in moves if m not in node.children]
            if untried:
                move = rng.choice(untried)
                mover = game.to_move()
                game.play(move)
                node.children[move] = Node(mover)
                node = node.children[move]
                path.append(node)
                break
            total = math.log(sum(node.children[m].visits for m in moves) + 1)
            move = max(moves, key=lambda m: node.children[m].points / node.children[m].visits
                       + EXPLORE * math.sqrt(total / node.children[m].visits))
            game.play(move)
            node = node.children[move]
            path.append(node)
        # Play out at random; every node scores its mover's share of the win.
        while not game.is_over():
            game.play(rng.choice(game.legal_moves()))
        winners = game.winners()
        for visited in path:
            visited.visits += 1
            if visited.mover in winners:
                visited.points += 1.0 / len(winners)
        playouts += 1
    mine = view.legal_moves()
    return max(mine, key=lambda m: root.children[m].visits if m in root.children else -1)


def main():
    view, rng = None, random.Random()
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        ident, name, args = words[0], words[1], words[2:]
        answer = {"protocol_version": "2", "name": "mcts_bot.py", "version": "1"}.get(name, "")
        error = None
        if name == "newgame":  # newgame GAME [VARIANT] seats=N seat=K seed=S TC [setup=T] ...
            keys = dict(a.split("=", 1) for a in args[1:] if "=" in a)
            variant = next((a for a in args[1:2] if "=" not in a), None)
            rng.seed(keys.get("seed"))
            view = referee.SeatView(args[0].lower(), variant=variant,
                                    seats=int(keys["seats"]) if "seats" in keys else None,
                                    seat=int(keys.get("seat", 0)), setup=keys.get("setup"))
        elif name == "play":  # play SEAT MOVE (DOUBLE's moves hold spaces)
            view.follow(int(args[0]), " ".join(args[1:]))
        elif name == "event":  # DOUBLE's cards as this seat may see them, and round scores
            try:
                view.follow(None, " ".join(args))
            except (AttributeError, referee.RefereeError):  # no game yet, or not an event of it
                error = "unknown command"
        elif name == "genmove":
            keys = {k: int(v) for k, v in (a.split("=", 1) for a in args[1:] if "=" in a)
                    if v.isdigit()}
            deadline = time.monotonic() + think_ms(keys) / 1000
            answer = search(view, deadline, rng)
        elif name not in ("protocol_version", "name", "quit"):
            error = "unknown command"
        print(f"?{ident} {error}" if error else f"={ident} {answer}".rstrip(), flush=True)
        print(flush=True)
        if name == "quit":
            break


if __name__ == "__main__":
    main()
