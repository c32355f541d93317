#!/usr/bin/env python3
"""Random plies a second through the `referee` package alone, through its OpenSpiel game and
through its PettingZoo environment, in interleaved rounds (chance plies count as plies):

  .venv/bin/python python/benches/adapters.py [GAME] [ROUNDS] [SEATS] [--reference]
      (both extras installed; --reference also needs pygame, which PettingZoo's board games import)

Each way plays whole random games: the package by `legal_moves()` and `play()`; OpenSpiel by
`legal_actions()`, `chance_outcomes()` and `apply_action()` on one state; PettingZoo by `last()`
(the observation tensor and action mask), a masked choice and `step()`. Prints, per way, the
median and range of plies a second over the rounds. With `--reference`, the toolkits' own games
written in Python join the rounds, played the same way: what a ply costs in each toolkit's API
whatever the game (OpenSpiel's python_tic_tac_toe and python_block_dominoes, PettingZoo's
tictactoe_v3 and connect_four_v3)."""
import random
import statistics
import sys
import time

import numpy as np
import pyspiel

import referee
import referee.openspiel
from referee.pettingzoo import env

REFERENCE = "--reference" in sys.argv
ARGS = [a for a in sys.argv[1:] if a != "--reference"]
GAME = ARGS[0] if ARGS else "pegs"
ROUNDS = int(ARGS[1]) if len(ARGS) > 1 else 10
SEATS = int(ARGS[2]) if len(ARGS) > 2 else None
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


def openspiel_game(name):
    """Random games of OpenSpiel game `name`, played as `openspiel` plays the referee's."""
    import open_spiel.python.games  # noqa: F401 (registers OpenSpiel's games written in Python)

    game = pyspiel.load_game(name)
    return lambda rng: openspiel(rng, game)


def masked_playout(environment, rng):
    """Plays a reset PettingZoo environment to its end, each agent choosing a legal action at
    random from its mask; returns the actions taken."""
    steps = 0
    for _ in environment.agent_iter():
        observation, _, terminated, truncated, _ = environment.last()
        if terminated or truncated:
            environment.step(None)
        else:
            environment.step(rng.choice(np.flatnonzero(observation["action_mask"]).tolist()))
            steps += 1
    return steps


def pettingzoo_env(module):
    """Random games of a PettingZoo environment, played as `pettingzoo` plays the referee's."""
    environment = module.env()

    def playout(rng):
        environment.reset(seed=rng.getrandbits(32))
        return masked_playout(environment, rng)
    return playout


def pettingzoo(rng, environment=env(GAME, seats=SEATS)):
    environment.reset(seed=rng.getrandbits(32))
    masked_playout(environment, rng)
    return environment.game.ply  # DOUBLE's cards, dealt inside step(), count as plies


def rate(playout, rng):
    plies, start = 0, time.perf_counter()
    while time.perf_counter() - start < SECONDS:
        plies += playout(rng)
    return plies / (time.perf_counter() - start)


def main():
    rng = random.Random(1)
    ways = {"package": package, "openspiel": openspiel, "pettingzoo": pettingzoo}
    if REFERENCE:
        from pettingzoo.classic import connect_four_v3, tictactoe_v3

        ways["openspiel python_tic_tac_toe"] = openspiel_game("python_tic_tac_toe")
        ways["openspiel python_block_dominoes"] = openspiel_game("python_block_dominoes")
        ways["pettingzoo tictactoe_v3"] = pettingzoo_env(tictactoe_v3)
        ways["pettingzoo connect_four_v3"] = pettingzoo_env(connect_four_v3)
    rates = {way: [] for way in ways}
    for _ in range(ROUNDS):
        for way, playout in ways.items():
            rates[way].append(rate(playout, rng))
    for way, values in rates.items():
        name = way if " " in way else f"{GAME} {way}"
        print(f"{name}: median {statistics.median(values):,.0f} plies/s "
              f"[{min(values):,.0f}..{max(values):,.0f}] over {ROUNDS} interleaved rounds")


if __name__ == "__main__":
    main()
