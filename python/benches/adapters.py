#!/usr/bin/env python3
"""Random plies a second through the `referee` package alone, through its OpenSpiel game and
through its PettingZoo environment, in interleaved rounds (chance plies count as plies):

  .venv/bin/python python/benches/adapters.py [GAME] [ROUNDS] [SEATS]   (both extras installed)

Each way plays whole random games: the package by `legal_moves()` and `play()`; OpenSpiel by
`legal_actions()`, `chance_outcomes()` and `apply_action()` on one state; PettingZoo by `last()`
(the observation tensor and action mask), a masked choice and `step()`. Prints, per way, the
median and range of plies a second over the rounds."""
import random
import statistics
import sys
import time

import numpy as np
import pyspiel

import referee
import referee.openspiel
from referee.pettingzoo import env

GAME = sys.argv[1] if len(sys.argv) > 1 else "pegs"
ROUNDS = int(sys.argv[2]) if len(sys.argv) > 2 else 10
SEATS = int(sys.argv[3]) if len(sys.argv) > 3 else None
SECONDS = 1.0  # per way per round
PARAMS = {"double-dutch": {"seats": SEATS or 2}, "double": {"seats": SEATS or 2}}


def package(rng):
    game = referee.Game(GAME, seats=SEATS, seed=rng.getrandbits(32))
    while not game.is_over():
        game.play(rng.choice(game.legal_moves()))
    return game.ply


def openspiel(rng, game=pyspiel.load_game(referee.openspiel.GAME_NAMES[GAME],
                                           PARAMS.get(GAME, {}))):
    state, plies = game.new_initial_state(), 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        plies += 1
    return plies


def pettingzoo(rng, environment=env(GAME, seats=SEATS)):
    environment.reset(seed=rng.getrandbits(32))
    for _ in environment.agent_iter():
        observation, _, terminated, truncated, _ = environment.last()
        if terminated or truncated:
            environment.step(None)
        else:
            environment.step(rng.choice(np.flatnonzero(observation["action_mask"]).tolist()))
    return environment.game.ply


def rate(playout, rng):
    plies, start = 0, time.perf_counter()
    while time.perf_counter() - start < SECONDS:
        plies += playout(rng)
    return plies / (time.perf_counter() - start)


def main():
    rng = random.Random(1)
    ways = {"package": package, "openspiel": openspiel, "pettingzoo": pettingzoo}
    rates = {way: [] for way in ways}
    for _ in range(ROUNDS):
        for way, playout in ways.items():
            rates[way].append(rate(playout, rng))
    for way, values in rates.items():
        print(f"{GAME} {way}: median {statistics.median(values):,.0f} plies/s "
              f"[{min(values):,.0f}..{max(values):,.0f}] over {ROUNDS} interleaved rounds")


if __name__ == "__main__":
    main()
